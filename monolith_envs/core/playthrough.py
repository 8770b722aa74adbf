"""Golden playthroughs: readable text dumps of seeded games, stored and compared (ARCHITECTURE §6).

A playthrough is one game of one env and config, played with uniformly random legal actions from a seeded
chooser. Every decision prints the state text (``render_text``, omniscient), the acting seat, the legal
actions by name (compressed, see :func:`legal_text`), the chosen action and the chance events its
``apply`` drew; the end prints the final state, the returns and the outcome. Stored files make any change
of the rules, the masks or the chance a readable diff.

The stored set lives in one folder (``tests/playthroughs/``): ``configs.json`` names the main configs of
each env id (``{"env_id": {"label": {config}}}``); an env id it does not list gets its default config and
one config per other player count its ``GAME_INFO`` allows (``num_players=N``, when that config is valid).
Each game is the file ``<env_id>/<label>_seed<seed>.txt``.

This module knows no env id: the caller passes the env factory (``make(env_id, **config)`` returning a
raw :class:`~monolith_envs.core.aec.RulesAECEnv`).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .game import MonolithEnvError

__all__ = ["SEEDS", "PlaythroughError", "main_configs", "playthrough", "legal_text", "expected_files",
           "regenerate", "compare", "run_command", "cannot_print"]

#: The seeds of the stored games (two per main config).
SEEDS: tuple[int, ...] = (0, 1)
CONFIGS_FILE = "configs.json"
#: Longest label of a config in ``configs.json`` (its files are ``<label>_seed<seed>.txt``).
MAX_LABEL_CHARS = 100

Make = Callable[..., Any]


class PlaythroughError(MonolithEnvError, ValueError):
    """A malformed ``configs.json`` (the message names the file and the entry)."""


def _load_configs(folder: Path) -> dict[str, dict[str, dict]]:
    path = folder / CONFIGS_FILE
    if not path.exists():
        return {}
    from .content import ContentError
    from .jsonfile import read_json

    try:
        data = read_json(path)
    except ContentError as exc:
        raise PlaythroughError(str(exc)) from None
    if not isinstance(data, dict):
        raise PlaythroughError(f"{path}: expected an object {{env_id: {{label: config}}}}")
    from .config import short_repr

    for env_id, configs in data.items():
        if not isinstance(configs, dict) or not all(isinstance(c, dict) for c in configs.values()):
            raise PlaythroughError(f"{path}: entry {short_repr(env_id)} must map labels to config objects")
        for label in configs:
            # not printable: a control character or a lone surrogate ("\ud800"), which no file name or
            # UTF-8 output can hold
            if (not label or any(ch in label for ch in "/\\ ") or label.startswith(".") or not label.isprintable()
                    or len(label) > MAX_LABEL_CHARS):
                raise PlaythroughError(f"{path}: label {short_repr(label)} of {short_repr(env_id)} cannot be a file "
                                       f"name; give 1-{MAX_LABEL_CHARS} printable characters without '/', '\\', "
                                       "spaces or a leading '.'")
    return data


def main_configs(env_id: str, make: Make, folder: str | Path) -> list[tuple[str, dict]]:
    """``[(label, config)]``: the configs of ``configs.json`` for ``env_id``, else the default config plus
    ``num_players=N`` for every other player count of the game's ``GAME_INFO`` that validates."""
    listed = _load_configs(Path(folder)).get(env_id)
    if listed is not None:
        return [(label, dict(cfg)) for label, cfg in listed.items()]
    env = make(env_id)
    out = [("default", {})]
    info = getattr(type(env.game), "GAME_INFO", None)
    if info is not None and info.config_key("num_players") is not None:
        for n in info.player_counts:
            if n == env.game.num_players:
                continue
            try:
                make(env_id, num_players=n)
            except MonolithEnvError:  # e.g. a player count that needs another mode
                continue
            out.append((f"{n}p", {"num_players": n}))
    return out


def _labelled(layout, arg: str, values: Iterable[int]) -> str:
    """The values of ``arg`` as action names write them (:meth:`ActionLayout.label`), runs of whole numbers
    merged (``1-3,5``)."""
    words = [layout.label(arg, i) for i in sorted(set(values))]
    if all(w.isdigit() for w in words):
        return _ranges(int(w) for w in words)
    return ",".join(words)


def _ranges(values: Iterable[int]) -> str:
    v = sorted(set(values))
    parts = []
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[j + 1] == v[j] + 1:
            j += 1
        parts.append(str(v[i]) if i == j else f"{v[i]}-{v[j]}")
        i = j + 1
    return ",".join(parts)


def legal_text(layout, mask: np.ndarray) -> list[str]:
    """The legal actions of ``mask`` by family, each family's index tuples merged into boxes (axis by axis,
    last axis first), e.g. ``PLACE(slot=0-1, hex=0-8,10-18, rot=0-5)``, each value as action names write it
    (a labelled one, such as Strategy's die face 1-6, by its label); families in layout order."""
    by_family: dict[str, list[tuple[int, ...]]] = {}
    for a in np.flatnonzero(mask):
        name, idx = layout.split(int(a))
        by_family.setdefault(name, []).append(idx)
    out = []
    for fam in layout.families:
        idxs = by_family.get(fam.name)
        if not idxs:
            continue
        if not fam.shape:
            out.append(fam.name)
            continue
        boxes = [tuple(frozenset([i]) for i in idx) for idx in idxs]
        for axis in reversed(range(len(fam.shape))):
            merged: dict[tuple, set] = {}
            for box in boxes:
                key = box[:axis] + box[axis + 1:]
                merged.setdefault(key, set()).update(box[axis])
            boxes = [key[:axis] + (frozenset(vals),) + key[axis:] for key, vals in merged.items()]
        boxes.sort(key=lambda b: tuple(min(s) for s in b))
        for box in boxes:
            args = ", ".join(f"{a}={_labelled(layout, a, s)}" for a, s in zip(fam.args, box))
            out.append(f"{fam.name}({args})")
    return out


def _chooser(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 1])


def playthrough(env_id: str, config: dict, seed: int, make: Make, label: str = "") -> str:
    """The text of one seeded game (format in the module docstring).

    Args:
        env_id: the env id; config: its config; seed: ``env.reset(seed=seed)`` and the chooser's seed;
        make: the env factory (``make(env_id, **config)``, a raw env); label: the config's name.
    """
    env = make(env_id, **config)
    env.reset(seed=seed)
    game = env.game
    head = [
        f"# playthrough of {env_id} [{label or 'default'}], seed {seed}",
        f"# config: {json.dumps(game.config, sort_keys=True, default=str)}",
        "# actions: uniformly random among the legal ones, chooser numpy default_rng([seed, 1])",
        "",
    ]
    lines = list(head)
    rng = _chooser(seed)
    step = 0
    while env.agents and not (any(env.terminations.values()) or any(env.truncations.values())):
        state = env.game_state
        seat = game.current_player(state)
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        action = int(rng.choice(legal))
        lines.append(f"== step {step}: {env.agent_selection} (seat {seat}) to act")
        lines.append(game.render_text(state))
        lines.append(f"legal ({len(legal)}): " + "  ".join(legal_text(game.layout, mask)))
        lines.append(f"action: {action} {game.layout.decode(action)}")
        env.step(action)
        events = env.episode_log.chance_at(step) if hasattr(env.episode_log, "chance_at") else []
        lines.append("chance: " + ("; ".join(str(e) for e in events) if events else "none"))
        lines.append("")
        step += 1
    state = env.game_state
    truncated = any(env.truncations.values())
    lines.append(f"== end after {step} decisions: terminal={bool(game.is_terminal(state))} truncated={truncated}")
    lines.append(game.render_text(state))
    lines.append("returns: " + json.dumps([round(float(x), 6) for x in game.returns(state)]))
    if game.is_terminal(state) and hasattr(game, "outcome"):
        lines.append("outcome: " + ", ".join(getattr(o, "value", str(o)) for o in game.outcome(state)))
    return "\n".join(lines) + "\n"


def expected_files(env_ids: Sequence[str], make: Make, folder: str | Path) -> Iterator[tuple[Path, Callable[[], str]]]:
    """``(path, produce)`` for every stored game of ``env_ids``: ``produce()`` plays it now."""
    folder = Path(folder)
    for env_id in env_ids:
        for label, cfg in main_configs(env_id, make, folder):
            for seed in SEEDS:
                path = folder / env_id / f"{label}_seed{seed}.txt"
                yield path, (lambda e=env_id, c=cfg, s=seed, lab=label: playthrough(e, c, s, make, lab))


def regenerate(env_ids: Sequence[str], make: Make, folder: str | Path) -> list[Path]:
    """Rewrite the stored games of ``env_ids`` (stale files of those envs are removed); returns the paths."""
    written = []
    for env_id in env_ids:
        d = Path(folder) / env_id
        if d.exists():
            for old in d.glob("*.txt"):
                old.unlink()
    for path, produce in expected_files(env_ids, make, folder):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(produce(), encoding="utf-8")
        written.append(path)
    return written


def compare(env_ids: Sequence[str], make: Make, folder: str | Path) -> list[str]:
    """Problems found: a missing stored game, or the first differing line of one that changed."""
    problems = []
    for path, produce in expected_files(env_ids, make, folder):
        if not path.exists():
            problems.append(f"{path}: missing (regenerate the playthroughs)")
            continue
        new, old = produce().splitlines(), path.read_text(encoding="utf-8").splitlines()
        if new != old:
            k = next((i for i, (a, b) in enumerate(zip(new, old)) if a != b), min(len(new), len(old)))
            was = old[k] if k < len(old) else "<end of file>"
            now = new[k] if k < len(new) else "<end of file>"
            problems.append(f"{path}:{k + 1}: stored {was!r}, now {now!r}")
    return problems


#: the ``--dir`` of the ``playthrough`` command when none is given (relative to the repository root)
DEFAULT_FOLDER = "tests/playthroughs"


def cannot_print(env_id: str, make: Make) -> str | None:
    """None when the env's game can print its state (a playthrough needs it), else why not: a game that is
    still without ``render_text`` raises ``NotImplementedError`` or lacks the module it imports."""
    env = make(env_id)
    env.reset(seed=0)
    try:
        env.game.render_text(env.game_state)
    except (NotImplementedError, ImportError) as exc:
        return f"{env_id} cannot print its state yet ({exc!r}), so it has no playthrough"
    return None


def run_command(env_ids: Sequence[str], regenerate_files: bool, folder: str | Path, make: Make) -> int:
    """The ``playthrough`` command: rewrite (``regenerate_files``) or compare the stored games; the exit code
    is 1 when a comparison found a difference.

    Raises:
        MonolithEnvError: comparing with a ``folder`` that is not a folder (the command: one ``error:`` line).
        OutputPathError: rewriting into a ``folder`` that cannot be created or written (empty, a file, ...).
    """
    from .replay import printable

    kept = []
    for env_id in env_ids:
        why = cannot_print(env_id, make)
        if why:
            print(f"skipped: {printable(why)}")
        else:
            kept.append(env_id)
    env_ids = kept
    if regenerate_files:
        from .outfiles import check_output_dir

        check_output_dir(folder, "--dir", "the playthroughs")  # an empty path, a file, /proc/...: one error
        paths = regenerate(env_ids, make, folder)
        print(f"wrote {len(paths)} playthroughs under {printable(str(folder))}")
        return 0
    if not Path(folder).is_dir():
        from .game import MonolithEnvError

        default = Path(folder) == Path(DEFAULT_FOLDER)
        raise MonolithEnvError(f"playthrough: {str(folder)!r} is not a folder of stored playthroughs"
                               + (f" (the default, {DEFAULT_FOLDER}, is relative to the repository root: run from "
                                  "there or give --dir)" if default else " (--dir)"))
    problems = compare(env_ids, make, folder)
    for line in problems:
        print(printable(line))  # a path or label: control characters and lone surrogates shown escaped
    if not problems:
        print(f"every playthrough matches ({len(env_ids)} env id{'s' if len(env_ids) != 1 else ''})")
        return 0
    missing = sum(p.endswith(": missing (regenerate the playthroughs)") for p in problems)
    where = "" if Path(folder) == Path(DEFAULT_FOLDER) else f" --dir {shlex.quote(str(folder))}"
    print(f"{len(problems)} playthrough(s) differ" + (f", {missing} of them missing" if missing else "")
          + f"; after a change of the rules or texts that is meant, store them again: python -m monolith_envs "
            f"playthrough --regenerate{where}")
    return 1
