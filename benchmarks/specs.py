"""Which environments and configurations the benchmark measures.

Every registered ``monolith_envs`` id is measured on its *main configurations*: the table below for the
ids we know, otherwise the default configuration plus every other player count of the game's
``GAME_INFO`` (``min_players .. max_players``).
The references (PettingZoo classic and OpenSpiel) are listed in :data:`REFERENCES`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAIN_CONFIGS", "REFERENCES", "BenchSpec", "monolith_specs", "reference_specs"]


@dataclass(frozen=True)
class BenchSpec:
    """One benchmarked environment and configuration.

    Attributes:
        kind: ``"monolith"`` (a ``monolith_envs`` id), ``"pettingzoo"`` (a ``pettingzoo.classic`` module
            name) or ``"openspiel"`` (a ``pyspiel`` game name).
        env_id: the id / module name / game name.
        label: short readable configuration label (e.g. ``"2p duel"``).
        config: config keys passed to ``monolith_envs.make`` (empty for references).
        imports: modules to import before the env can be built (e.g. one that registers a test env);
            also imported in ``SubprocVecEnv`` workers.
    """

    kind: str
    env_id: str
    label: str
    config: dict = field(default_factory=dict)
    imports: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """``"env_id [label]"``, the row name in the tables."""
        return f"{self.env_id} [{self.label}]" if self.label else self.env_id

    def to_dict(self) -> dict:
        """Plain dict for the JSON report."""
        return {"kind": self.kind, "env_id": self.env_id, "label": self.label, "config": dict(self.config)}


# env id -> [(label, config)]; the first entry is the baseline the player-count ratios refer to.
MAIN_CONFIGS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "monolith_arena_v0": [
        ("2p duel", {}),
        ("2p duel monolith", {"monolith_module": True}),
        ("2p duel reinforcement", {"reinforcement_variant": True}),
        ("3p ffa", {"num_players": 3, "mode": "ffa"}),
        ("4p ffa", {"num_players": 4, "mode": "ffa"}),
        ("4p teams", {"num_players": 4, "mode": "teams"}),
    ],
    "monolith_strategy_v0": [
        ("2p", {"num_players": 2}),
        ("4p", {"num_players": 4}),
        ("solo", {"num_players": 1}),
        ("4p exalted+powers", {"num_players": 4, "player_powers": True}),
    ],
    "the_monolith_v0": [
        ("4p", {}),
        ("3p", {"num_players": 3}),
        ("2p", {"num_players": 2}),
        ("4p draft", {"shaman_assignment": "draft"}),
    ],
}

# Configurations measured in --quick mode (a subset: baseline, module, largest player count).
QUICK_LABELS: dict[str, tuple[str, ...]] = {
    "monolith_arena_v0": ("2p duel", "2p duel monolith", "3p ffa", "4p ffa"),
    "monolith_strategy_v0": ("2p", "4p", "solo"),
    "the_monolith_v0": ("4p", "3p"),
}

REFERENCES: list[tuple[str, str]] = [
    ("pettingzoo", "connect_four_v3"),
    ("pettingzoo", "chess_v6"),
    ("openspiel", "chess"),
    ("openspiel", "backgammon"),
]


def _generic_configs(env_id: str) -> list[tuple[str, dict[str, Any]]]:
    """The default config, plus one per other player count of ``GAME_INFO`` (when the game declares a
    ``num_players`` key and accepts that count without other keys)."""
    import monolith_envs
    from monolith_envs import ConfigError

    out: list[tuple[str, dict[str, Any]]] = [("default", {})]
    try:
        info = monolith_envs.game_class(env_id).GAME_INFO
        base = monolith_envs.make_game(env_id)
    except Exception:  # noqa: BLE001 - the env is reported as unavailable later, with the error
        return out
    if info.config_key("num_players") is not None:
        for n in info.player_counts:
            if n == base.num_players:
                continue
            try:
                monolith_envs.make_game(env_id, num_players=n)
            except ConfigError:  # this count needs other keys too (e.g. a mode)
                continue
            out.append((f"{n}p", {"num_players": n}))
    return out


def monolith_specs(env_ids: list[str] | None = None, quick: bool = False,
                   imports: tuple[str, ...] = ()) -> list[BenchSpec]:
    """The Monolith env configurations to measure.

    Args:
        env_ids: ids to measure (default: every registered id, see ``monolith_envs.available_envs``).
        quick: keep only the :data:`QUICK_LABELS` subset where one is defined.
        imports: modules the specs need imported (propagated to worker processes).
    """
    import monolith_envs

    ids = list(env_ids) if env_ids else monolith_envs.available_envs()
    specs = []
    for env_id in ids:
        configs = MAIN_CONFIGS.get(env_id) or _generic_configs(env_id)
        if quick and env_id in QUICK_LABELS:
            configs = [c for c in configs if c[0] in QUICK_LABELS[env_id]]
        for label, cfg in configs:
            specs.append(BenchSpec("monolith", env_id, label, dict(cfg), tuple(imports)))
    return specs


def reference_specs(names: list[str] | None = None) -> list[BenchSpec]:
    """The reference games (all of :data:`REFERENCES`, or those whose name is in ``names``)."""
    out = []
    for kind, name in REFERENCES:
        if names is None or name in names or f"{kind}:{name}" in names:
            label = "PettingZoo" if kind == "pettingzoo" else "OpenSpiel"
            out.append(BenchSpec(kind, name, label))
    return out
