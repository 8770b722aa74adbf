"""The Monolith's actions in words, as terminal play, browser play and the replay page say them
(``bids 3 hearts``, ``marches to 9 Briar Barrow``; docs/the_monolith.md §6.1, the action families)."""

from __future__ import annotations

from typing import Any

from .state import Sub

__all__ = ["action_words", "space_words", "ZONES", "PASSED", "NUMBER_DONE"]

#: the action board's zones, in the order of the ``fate`` family (a heart moves to the next one)
ZONES = ("slay", "maneuver", "boast")
#: ``pass`` in words, by the sub-phase it is played in
PASSED = {Sub.DIV_RAISE: "forfeits the bid", Sub.MARCH_STEP: "stops marching", Sub.SHAMAN_STEP: "stops the shaman",
          Sub.RECRUIT_PLACE: "declines the bonus warriors", Sub.POWER_WINDOW: "uses no power",
          Sub.OBJ_REVEAL: "reveals no more objectives", Sub.DRAFT_RESPOND: "passes for good",
          Sub.EXTRA_KILL: "takes no extra kill"}
#: ``number(v)`` in words, by the sub-phase it is played in (``{s}``: the plural's ``s``, "" for 1)
NUMBER_DONE = {Sub.MARCH_GROUP: "marches with {v} warrior{s}", Sub.MARCH_REGROUP: "goes on with {v} warrior{s}",
               Sub.RECRUIT_HEARTS: "pays {v} heart{s} to recruit", Sub.DIV_AMOUNT: "bids {v} heart{s}",
               Sub.DIV_RAISE: "raises by {v}", Sub.DRAFT_OPEN_BID: "opens the bidding at {v}",
               Sub.DRAFT_RESPOND: "bids {v}"}
_SPACE_DONE = {Sub.MARCH_SOURCE: "marches from", Sub.MARCH_STEP: "marches to", Sub.SHAMAN_STEP: "moves the shaman to",
               Sub.RECRUIT_PLACE: "recruits a warrior on", Sub.MANEUVER_DEST: "moves the unit to",
               Sub.EVENT_PLACE: "places the event on", Sub.EVENT_MOVE: "moves the event to",
               Sub.EXTRA_KILL: "kills again in"}
_ORDER_NAMES = ("march", "shaman", "recruit", "divination", "commit")


def space_words(g: Any, sp: int) -> str:
    """``9 Briar Barrow``: map space ``sp`` by its number and name (docs §5.1)."""
    return f"{sp} {g.content.map.spaces[sp].name}"


def action_words(game: Any, state: Any | None, action: int) -> str:
    """``action`` in words (no seat: ``bids 3 hearts``, ``slays a unit of P2 in 9 Briar Barrow``).

    Args:
        game: a ``MonolithGame``.
        state: the state the action is applied in (its sub-phase says what a ``number`` or a ``space``
            means; the held cards and objectives name what is used); ``None`` says it without them.
        action: an action index (``int``, 0 <= action < ``game.layout.n``).

    Raises:
        ValueError: ``action`` is outside the layout (``ActionLayout.split``).
    """
    g, s = game, state
    fam, idx = g.layout.split(int(action))
    sub = Sub(s.sub) if s is not None and s.sub >= 0 else None
    if fam == "pass":
        return PASSED.get(sub, "passes")
    if fam == "order":
        return "orders " + _ORDER_NAMES[idx[0]]
    if fam == "space":
        return f"{_SPACE_DONE.get(sub, 'chooses space')} {space_words(g, idx[0])}"
    if fam == "number":
        return NUMBER_DONE.get(sub, "chooses {v}").format(v=idx[0], s="" if idx[0] == 1 else "s")
    if fam == "row":
        card = s.row[idx[0]] if s is not None else -1
        return f"bids on row slot {idx[0]}" + (f" ({g.divs[card].name})" if card >= 0 else "")
    if fam in ("use_power", "discard_div"):
        k = idx[0]
        held = s.held[s.current] if s is not None else []
        if fam == "use_power" and k == 3:
            what = "its shaman's ability"
        elif k < len(held):
            what = f"{g.divs[held[k]].key} {g.divs[held[k]].name}"
        else:
            what = f"held card {k}"
        return ("uses " if fam == "use_power" else "discards ") + what
    if fam == "objective":
        if s is not None and sub == Sub.OBJ_REVEAL and idx[0] < len(s.objectives[s.current]):
            o = g.objs[s.objectives[s.current][idx[0]]]
            return f"reveals objective {o.key} {o.name}"
        if s is None:
            return f"reveals or discards objective {idx[0]}"
        return "discards an objective face down"
    if fam == "fate":
        return f"moves a {ZONES[idx[0]]} heart to {ZONES[(idx[0] + 1) % 3]}"
    if fam == "slay":
        sp, o = idx
        whose = f"P{(s.current + o + 1) % s.n}" if s is not None else f"the player {o + 1} seat(s) on"
        return f"slays a unit of {whose} in {space_words(g, sp)}"
    if fam == "maneuver":
        return f"maneuvers {'a warrior' if idx[1] == 0 else 'its shaman'} from {space_words(g, idx[0])}"
    if fam == "boast":
        return f"boasts in {space_words(g, idx[0])}"
    if fam == "sacrifice":
        return f"sacrifices a warrior in {space_words(g, idx[1])} (a {ZONES[idx[0]]} heart)"
    if fam == "relent":
        return "relents"
    if fam == "shaman":
        return f"chooses {g.shamans[idx[0]].name}"
    return g.action_name(int(action))
