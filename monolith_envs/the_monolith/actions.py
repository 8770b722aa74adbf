"""The flat action layout of ``the_monolith_v0`` (docs/the_monolith.md §6.1): 15 families in fixed order.

Default sizes (N = 21 spaces, R = 6 row slots, S = 6 shamans) give 42 + 10N + R + S = 264 actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..core.actions import ActionLayout

__all__ = ["Offsets", "build_layout", "ORDERS", "action_name", "action_index"]

ORDERS = ("march", "shaman", "recruit", "divination", "commit")


class Order(IntEnum):
    """``order(o)``: the argument o of the order family, in the order of :data:`ORDERS` (docs §6.1)."""

    MARCH = 0
    SHAMAN = 1
    RECRUIT = 2
    DIVINATION = 3
    COMMIT = 4


NUMBER_SIZE = 20


@dataclass(frozen=True)
class Offsets:
    """First flat index of each family (docs §6.1)."""

    N: int
    R: int
    S: int

    @property
    def PASS(self) -> int:
        """``pass`` (0): stop, decline, forfeit, done."""
        return 0
    @property
    def ORDER(self) -> int:
        """``order(o)``: march, shaman, recruit, divination, commit (5)."""
        return 1
    @property
    def SPACE(self) -> int:
        """``space(s)``: one per map space (N)."""
        return 6
    @property
    def NUMBER(self) -> int:
        """``number(v)``: v = 0..19 (hearts, group sizes, bids)."""
        return 6 + self.N
    @property
    def ROW(self) -> int:
        """``row(slot)``: a divination row slot (R)."""
        return self.NUMBER + NUMBER_SIZE
    @property
    def POWER(self) -> int:
        """``use_power(k)``: held divination slot 0..2, shaman 3 (docs §4.8)."""
        return self.ROW + self.R
    @property
    def DISCARD(self) -> int:
        """``discard_div(k)``: held divination slot 0..3 (DIV_DISCARD)."""
        return self.POWER + 4
    @property
    def OBJECTIVE(self) -> int:
        """``objective(k)``: objective hand slot 0..3 (reveal or discard)."""
        return self.DISCARD + 4
    @property
    def FATE(self) -> int:
        """``fate(z)``: move a heart from zone z to the next (docs §4.6)."""
        return self.OBJECTIVE + 4
    @property
    def SLAY(self) -> int:
        """``slay(s, o)`` (3N): SLAY + 3s + (o - 1), o the relative opponent 1..3."""
        return self.FATE + 3
    @property
    def MANEUVER(self) -> int:
        """``maneuver(s, kind)`` (2N): MANEUVER + 2s + kind (0 a warrior, 1 the shaman)."""
        return self.SLAY + 3 * self.N
    @property
    def BOAST(self) -> int:
        """``boast(s)`` (N)."""
        return self.MANEUVER + 2 * self.N
    @property
    def SACRIFICE(self) -> int:
        """``sacrifice(z, s)`` (3N): SACRIFICE + N*z + s."""
        return self.BOAST + self.N
    @property
    def RELENT(self) -> int:
        """``relent`` (1)."""
        return self.SACRIFICE + 3 * self.N
    @property
    def SHAMAN(self) -> int:
        """``shaman(id)`` (S): a shaman of the draft (docs §4.10)."""
        return self.RELENT + 1
    @property
    def n(self) -> int:
        """Number of actions (264 with the reference content)."""
        return self.SHAMAN + self.S


def _order_label(i: int) -> str:
    return ORDERS[i]


def build_layout(N: int, R: int, S: int) -> ActionLayout:
    """The :class:`ActionLayout` of docs §6.1 (names ``pass``, ``order``, ``space`` ... ``shaman``)."""
    return ActionLayout(
        [
            ("pass", (), ()),
            ("order", (5,), ("o",)),
            ("space", (N,), ("s",)),
            ("number", (NUMBER_SIZE,), ("v",)),
            ("row", (R,), ("slot",)),
            ("use_power", (4,), ("k",)),
            ("discard_div", (4,), ("k",)),
            ("objective", (4,), ("k",)),
            ("fate", (3,), ("z",)),
            ("slay", (N, 3), ("s", "o")),
            ("maneuver", (N, 2), ("s", "kind")),
            ("boast", (N,), ("s",)),
            ("sacrifice", (3, N), ("z", "s")),
            ("relent", (), ()),
            ("shaman", (S,), ("id",)),
        ],
        labels={"o": _order_label},
    )


def action_name(off: Offsets, a: int) -> str:
    """Readable name in the docs' notation, e.g. ``slay(s=9,o=1)``, ``order(march)``, ``pass``.

    Raises:
        ValueError: ``a`` outside ``0 .. n-1``.
    """
    if not 0 <= a < off.n:
        raise ValueError(f"action {a} outside 0..{off.n - 1}")
    N = off.N
    if a == off.PASS:
        return "pass"
    if a < off.SPACE:
        return f"order({ORDERS[a - 1]})"
    if a < off.NUMBER:
        return f"space({a - off.SPACE})"
    if a < off.ROW:
        return f"number({a - off.NUMBER})"
    if a < off.POWER:
        return f"row({a - off.ROW})"
    if a < off.DISCARD:
        return f"use_power({a - off.POWER})"
    if a < off.OBJECTIVE:
        return f"discard_div({a - off.DISCARD})"
    if a < off.FATE:
        return f"objective({a - off.OBJECTIVE})"
    if a < off.SLAY:
        return f"fate({a - off.FATE})"
    if a < off.MANEUVER:
        r = a - off.SLAY
        return f"slay(s={r // 3},o={r % 3 + 1})"
    if a < off.BOAST:
        r = a - off.MANEUVER
        return f"maneuver(s={r // 2},kind={r % 2})"
    if a < off.SACRIFICE:
        return f"boast({a - off.BOAST})"
    if a < off.RELENT:
        r = a - off.SACRIFICE
        return f"sacrifice(z={r // N},s={r % N})"
    if a == off.RELENT:
        return "relent"
    return f"shaman({a - off.SHAMAN})"


def action_index(off: Offsets, name: str) -> int:
    """Inverse of :func:`action_name` (spaces and arguments are optional: ``slay(9,1)`` works too).

    Raises:
        ValueError: an unknown name or an argument out of range.
    """
    import re

    m = re.fullmatch(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*", name)
    if not m:
        raise ValueError(f"not an action name: {name!r}")
    fam, args = m.group(1), m.group(2)
    vals = []
    if args:
        for part in args.split(","):
            part = part.split("=")[-1].strip()
            if fam == "order" and part in ORDERS:
                vals.append(ORDERS.index(part))
            else:
                try:
                    vals.append(int(part))
                except ValueError:
                    raise ValueError(f"{name!r}: argument {part!r} is not an integer") from None
    N = off.N
    spec = {"pass": (0, []), "relent": (off.RELENT, []), "order": (off.ORDER, [5]), "space": (off.SPACE, [N]),
            "number": (off.NUMBER, [NUMBER_SIZE]), "row": (off.ROW, [off.R]), "use_power": (off.POWER, [4]),
            "discard_div": (off.DISCARD, [4]), "objective": (off.OBJECTIVE, [4]), "fate": (off.FATE, [3]),
            "boast": (off.BOAST, [N]), "shaman": (off.SHAMAN, [off.S]), "slay": (off.SLAY, [N, 3]),
            "maneuver": (off.MANEUVER, [N, 2]), "sacrifice": (off.SACRIFICE, [3, N])}
    if fam not in spec:
        raise ValueError(f"unknown action family {fam!r}; one of {', '.join(spec)}")
    base, sizes = spec[fam]
    if len(vals) != len(sizes):
        raise ValueError(f"{name!r}: {fam} takes {len(sizes)} arguments")
    if fam == "slay":
        vals[1] -= 1  # relative opponent 1..3
    for v, sz in zip(vals, sizes):
        if not 0 <= v < sz:
            raise ValueError(f"{name!r}: argument out of range")
    if fam == "slay":
        return base + 3 * vals[0] + vals[1]
    if fam == "maneuver":
        return base + 2 * vals[0] + vals[1]
    if fam == "sacrifice":
        return base + N * vals[0] + vals[1]
    return base + (vals[0] if vals else 0)
