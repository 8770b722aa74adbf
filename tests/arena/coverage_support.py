"""Helpers of the rule-coverage tests, written only against the public surfaces of Monolith Arena.

Positions are built with the text position format (docs/monolith_arena.md §12) and read back through the
same format, the observation layout (§7.1) and the action layout (§6.1), so the tests do not depend on the
engine's internal names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

try:  # the package-level names of the position format
    from monolith_envs.arena import format_position, parse_position
except ImportError:  # older layout: the format's own module
    from monolith_envs.arena.positions_text import parse_position
    from monolith_envs.arena.positions_text import position_to_text as format_position

__all__ = ["Pos", "Tile", "position", "parse_position", "format_position", "HF_LA", "DE_LA"]

#: the factions line of a position text: Harbingers of the Forest against Lords of the Abyss
HF_LA = "factions: harbingers_of_the_forest, lords_of_the_abyss\n"
#: the factions line of a position text: Dragon Empire against Lords of the Abyss
DE_LA = "factions: dragon_empire, lords_of_the_abyss\n"


@dataclass(frozen=True)
class Tile:
    """A tile on the board as the position format writes it."""

    id: str
    owner: int
    facing: int = 0
    wounds: int = 0
    poison: int = 0
    net_marker: bool = False
    entrenched: bool = False


class Pos:
    """A game and a state, with readers and action shortcuts.

    Args:
        text: a position in the text format; ``**config`` extra config keys.
    """

    def __init__(self, text: str, **config):
        self.game, self.s = parse_position(text, **config)
        self.L = self.game.layout
        self.rng = np.random.default_rng(0)
        spec = self.game.obs_spec
        self.T = spec["hex"].shape[1] - 76  # hex block = 76 + T floats (§7.1)
        self._hex = {f: spec["hex"].field(f)[0] for f in ("netted", "disarmed", "entrenched", "wounds", "tough",
                                                              "poison")}
        self._scalar = {f: spec["scalars"].field(f)[0]
                        for f in ("last_round", "poison_supply", "net_marker_free", "entrench_free")}

    # ------------------------------------------------------------------ actions (§6.1)
    def act(self, *actions: int) -> "Pos":
        for a in actions:
            self.game.apply(self.s, int(a), self.rng)
        return self

    def order(self, slot: int = 0) -> int:
        return self.L.index("PLAY_ORDER", slot)

    def hex(self, h: int) -> int:
        return self.L.index("SELECT_HEX", h)

    def rot(self, f: int) -> int:
        return self.L.index("SELECT_ROT", f)

    def mode(self, i: int) -> int:
        return self.L.index("SELECT_MODE", i)

    def tri(self, i: int) -> int:
        return self.L.index("SELECT_TRIANGLE", i)

    def place(self, slot: int, h: int, f: int) -> int:
        return self.L.index("PLACE", slot, h, f)

    def discard(self, slot: int) -> int:
        return self.L.index("DISCARD", slot)

    def feature(self, name: str, h: int) -> int:
        return self.L.index("USE_FEATURE", ("maneuver", "teleport", "swap", "rotate").index(name), h)

    @property
    def unfold(self) -> int:
        return self.L.index("UNFOLD")

    @property
    def end(self) -> int:
        return self.L.index("END_TURN")

    def battle(self, slot: int = 0) -> "Pos":
        """Play the Battle Order in ``slot`` (a plain ``battle`` Order)."""
        return self.act(self.order(slot))

    # ------------------------------------------------------------------ legality
    def legal(self) -> set[int]:
        return {int(a) for a in np.flatnonzero(self.game.legal_mask(self.s))}

    def is_legal(self, a: int) -> bool:
        return bool(self.game.legal_mask(self.s)[a])

    def legal_in(self, family: str) -> set:
        """Legal multi-indices of one family (a single int for one-axis families)."""
        out = set()
        for a in self.legal():
            name, idx = self.L.split(a)
            if name == family:
                out.add(idx[0] if len(idx) == 1 else idx)
        return out

    def legal_hexes(self) -> set[int]:
        return self.legal_in("SELECT_HEX")

    def legal_rots(self) -> set[int]:
        return self.legal_in("SELECT_ROT")

    # ------------------------------------------------------------------ reading the state back (§12)
    def text(self) -> str:
        return format_position(self.game, self.s)

    def lines(self) -> list[str]:
        return [x for x in self.text().splitlines() if x.strip()]

    def board(self) -> dict[int, Tile]:
        """Every tile on the board by hex, Monolith contents included."""
        out: dict[int, Tile] = {}
        for line in self.lines():
            m = re.fullmatch(r"(\d+): (\S+)(.*)", line)
            if m:
                toks = m.group(3).split()
                kw = {"f": 0, "w": 0, "p": 0}
                owner = None
                for t in toks:
                    if re.fullmatch(r"P\d", t):
                        owner = int(t[1])
                    elif "=" in t:
                        k, v = t.split("=")
                        kw[k] = int(v)
                out[int(m.group(1))] = Tile(m.group(2), owner, kw["f"], kw["w"], kw["p"], "net" in toks,
                                            "entrench" in toks)
        for mono in self.monoliths().values():
            if mono["folded"]:
                continue
            for k in (2, 3):
                c = mono[f"seg{k}"]
                if c is not None:
                    owner, tid = c
                    out[mono[f"hex{k}"]] = Tile(tid, owner, mono.get(f"f{k}", 0))
        return out

    def occupied(self) -> set[int]:
        return set(self.board())

    def tile(self, h: int) -> Tile | None:
        return self.board().get(h)

    def monoliths(self) -> dict[int, dict]:
        """``{seat: {"folded", "seg2", "seg3" ((owner, tile id) or None), "hex2", "hex3", "f2", "f3"}}``."""
        out = {}
        for line in self.lines():
            m = re.fullmatch(r"monolith P(\d): (folded|unfolded)(.*)", line)
            if not m:
                continue
            seat = int(m.group(1))
            d: dict = {"folded": m.group(2) == "folded", "seg2": None, "seg3": None}
            for tok in m.group(3).split():
                k, _, v = tok.partition("=")
                if k in ("seg2", "seg3"):
                    owner, _, tid = v.rpartition(":")
                    d[k] = (int(owner[1:]) if owner else seat, tid)
                elif k in ("hex2", "hex3", "f2", "f3"):
                    d[k] = int(v)
                else:
                    d[k] = True
            out[seat] = d
        return out

    def hp(self) -> list[int]:
        return [int(m.group(2)) for m in (re.fullmatch(r"hp P(\d): (-?\d+)", x) for x in self.lines()) if m]

    def pools(self) -> list[int]:
        return [int(m.group(1)) for m in (re.fullmatch(r"pool [AB]: (-?\d+)", x) for x in self.lines()) if m]

    def turn(self) -> tuple[int, str]:
        """``(turn seat, sub-phase name)``."""
        for line in self.lines():
            m = re.fullmatch(r"turn: P(\d)(?: sub=(\w+))?.*", line)
            if m:
                return int(m.group(1)), m.group(2) or "MAIN"
        raise AssertionError("no turn line")

    def hand(self, seat: int) -> list[str]:
        for line in self.lines():
            if line.startswith(f"hand P{seat}:"):
                return [x.strip() for x in line.split(":", 1)[1].split(",") if x.strip()]
        return []

    # ------------------------------------------------------------------ reading the observation (§7.1)
    def hexobs(self, seat: int = 0) -> np.ndarray:
        """``float32[19, 76+T]``: the hex blocks as ``seat`` sees them."""
        return self.game.obs_spec.view(self.game.observe(self.s, seat), "hex")

    def netted(self, h: int) -> bool:
        return bool(self.hexobs()[h, self._hex["netted"]] == 1.0)

    def disarmed(self, h: int) -> bool:
        return bool(self.hexobs()[h, self._hex["disarmed"]] == 1.0)

    def wounds(self, h: int) -> int:
        """Wounds of the tile on ``h`` from the observation (exact below 3; Monolith contents included)."""
        return int(round(float(self.hexobs()[h, self._hex["wounds"]]) * 3))

    def poison(self, h: int) -> int:
        """Poison markers of the tile on ``h`` from the observation."""
        return int(round(float(self.hexobs()[h, self._hex["poison"]]) * 5))

    def toughness(self, h: int) -> int:
        """Effective toughness of the tile on ``h`` (below 3, where the observation is exact)."""
        return int(round(float(self.hexobs()[h, self._hex["tough"]]) * 3))

    def scalars(self, seat: int = 0) -> np.ndarray:
        return self.game.obs_spec.view(self.game.observe(self.s, seat), "scalars")

    def poison_supply(self) -> int:
        return int(round(float(self.scalars()[self._scalar["poison_supply"]]) * 5))

    def net_marker_free(self) -> bool:
        return bool(self.scalars()[self._scalar["net_marker_free"]] == 1.0)

    def entrenched(self, h: int) -> bool:
        return bool(self.hexobs()[h, self._hex["entrenched"]] == 1.0)

    def last_round(self) -> bool:
        return bool(self.scalars()[self._scalar["last_round"]] == 1.0)

    def entrench_marker_free(self) -> bool:
        return bool(self.scalars()[self._scalar["entrench_free"]] == 1.0)

    def over(self) -> bool:
        return bool(self.game.is_terminal(self.s))

    def returns(self) -> list[float]:
        return [round(float(x), 6) for x in self.game.returns(self.s)]


def position(text: str, **config) -> Pos:
    """A :class:`Pos` of ``text``."""
    return Pos(text, **config)
