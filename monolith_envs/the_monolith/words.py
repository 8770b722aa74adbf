"""The Monolith's actions in words, as terminal play, browser play and the replay page say them
(``bids 3 hearts``, ``marches to 9 Briar Barrow``; docs/the_monolith.md §6.1, the action families)."""

from __future__ import annotations

from typing import Any

from ..core.words import count
from .state import MOVES_WARRIOR, SHAMAN_SLOT, Sub

__all__ = ["action_words", "effect_words", "event_scoring_words", "space_words", "stop_and_step", "ZONES", "PASSED", "NUMBER_DONE"]

#: the action board's zones, in the order of the ``fate`` family (a heart moves to the next one)
ZONES = ("slay", "maneuver", "boast")
#: ``pass`` in words, by the sub-phase it is played in
PASSED = {Sub.DIV_RAISE: "forfeits the bid", Sub.MARCH_STEP: "stops marching", Sub.SHAMAN_STEP: "stops the shaman",
          Sub.RECRUIT_PLACE: "declines the bonus warriors", Sub.POWER_WINDOW: "uses no power",
          Sub.OBJ_REVEAL: "passes (its objectives stay hidden)", Sub.DRAFT_RESPOND: "passes for good",
          Sub.EXTRA_KILL: "takes no extra kill"}
#: ``number(v)`` in words, by the sub-phase it is played in (``{s}``: the plural's ``s``, "" for 1)
NUMBER_DONE = {Sub.MARCH_GROUP: "picks {v} warrior{s} to march",
               Sub.MARCH_REGROUP: "keeps {v} warrior{s} in the marching group",
               Sub.RECRUIT_HEARTS: "pays {v} heart{s} to recruit", Sub.DIV_AMOUNT: "bids {v} heart{s}",
               Sub.DIV_RAISE: "raises by {v}", Sub.DRAFT_OPEN_BID: "opens the bidding at {v}",
               Sub.DRAFT_RESPOND: "bids {v}"}
_SPACE_DONE = {Sub.MARCH_SOURCE: "starts a march from", Sub.MARCH_STEP: "marches to",
               Sub.SHAMAN_STEP: "moves the shaman to", Sub.RECRUIT_PLACE: "recruits a warrior on",
               Sub.MANEUVER_DEST: "moves the unit to", Sub.EVENT_PLACE: "places the event on",
               Sub.EVENT_MOVE: "moves the event to", Sub.EXTRA_KILL: "kills again in"}
_ORDER_NAMES = ("march", "shaman", "recruit", "divination", "commit")


def stop_and_step(g: Any, s: Any) -> tuple[bool, bool]:
    """At a march or shaman step (docs §4.4): whether ``pass`` (stop) and whether a step to a space are legal
    in ``s`` (a march stops only after its first step), for the texts that offer them."""
    legal = g.legal_actions(s)
    return 0 in legal, any(g.A_SPACE <= a < g.A_SPACE + g.N for a in legal)


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
        if s is not None and sub in (Sub.EVENT_PLACE, Sub.EVENT_MOVE) and s.event_focus >= 0:
            ev = s.event_focus if sub == Sub.EVENT_PLACE else s.events[s.event_focus][0]
            verb = "places" if sub == Sub.EVENT_PLACE else "moves"
            return (f"{verb} the event {g.events[ev].key} {g.events[ev].name} "
                    f"{'on' if sub == Sub.EVENT_PLACE else 'to'} {space_words(g, idx[0])}")
        if sub == Sub.MANEUVER_DEST:  # the maneuvered unit by its kind (docs §4.6 maneuver(s, kind))
            return f"moves {'its shaman' if s.man_kind else 'the warrior'} to {space_words(g, idx[0])}"
        return f"{_SPACE_DONE.get(sub, 'chooses space')} {space_words(g, idx[0])}"
    if fam == "number":
        v = idx[0]
        if sub == Sub.MARCH_GROUP and 0 <= s.march_src < len(s.living):  # the march's second choice
            n = s.living[s.march_src][s.current]
            if v == n:
                return "picks its only warrior there to march" if n == 1 else f"picks all {n} warriors there to march"
            return f"picks {count(v, 'warrior')} of {n} there to march"
        return NUMBER_DONE.get(sub, "chooses {v}").format(v=v, s="" if v == 1 else "s")
    if fam == "row":
        card = s.row[idx[0]] if s is not None else -1
        return f"bids on row slot {idx[0]}" + (f" ({g.divs[card].name})" if card >= 0 else "")
    if fam in ("use_power", "discard_div"):
        k = idx[0]
        held = s.held[s.current] if s is not None else []
        if fam == "use_power" and k == SHAMAN_SLOT:
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
        return f"maneuvers {'a warrior' if idx[1] == MOVES_WARRIOR else 'its shaman'} from {space_words(g, idx[0])}"
    if fam == "boast":
        return f"boasts in {space_words(g, idx[0])}"
    if fam == "sacrifice":
        return f"sacrifices a warrior in {space_words(g, idx[1])} to its anger, paying a {ZONES[idx[0]]} heart"
    if fam == "relent":
        return "relents"
    if fam == "shaman":
        return f"chooses {g.shamans[idx[0]].name}"
    return g.action_name(int(action))


# what an effect's predicate counts over its selector's spaces (docs §5.3), as a noun phrase in the singular
_SELECTED = {"any": "space", "monolith": "Monolith", "no_building": "space without a building", "tunnel": "tunnel",
             "not_tunnel": "space that is not a tunnel", "own_stronghold": "own stronghold",
             "enemy_stronghold": "enemy stronghold", "home_quadrant": "space of your home quadrant",
             "event_space": "space of this event"}
_MODIFIERS = {"shaman_steps": "+{n} step for the shaman order", "recruit_bonus": "+{n} warrior when recruiting",
              "boast_uncontested": "may boast in a space it occupies but does not contest",
              "shaman_control_weight": "its shaman counts {n} toward control",
              "recruit_at_shaman": "may recruit at its living shaman's space",
              "stronghold_tunnel": "its stronghold counts as a tunnel",
              "boast_bonus": "+{n} favour per boast heart at rest"}


def _counted(pred: str, sel: str, many: bool = False) -> str:
    """The thing an effect counts, in the singular (``mausoleum you control``, ``contested space``) or, with
    ``many``, the plural (``spaces you control``)."""
    where = sel.split(":", 1)[1] if sel.startswith("building:") else _SELECTED.get(sel, sel.replace("_", " "))
    if many:  # the head noun of the selector in the plural (every selector's head is its first word)
        head, _, rest = where.partition(" ")
        where = (head + "s" + (" " + rest if rest else "")) if head != "Monolith" else where
    return {"controlled": f"{where} you control", "occupied": f"{where} you occupy",
            "contested": f"contested {where}", "controlled_with_enemy_units": f"{where} you control with enemy units in it",
            "enemy_dead_in_controlled": f"dead enemy unit{'s' if many else ''} in spaces you control",
            "dead_enemy_shamans_in_controlled": f"dead enemy shaman{'s' if many else ''} in spaces you control",
            "living_warriors": f"living warrior{'s' if many else ''} of yours",
            "boast_hearts": f"boast heart{'s' if many else ''} of yours",
            "anger": f"warrior{'s' if many else ''} in your anger", "kills_today": f"kill{'s' if many else ''} of yours today",
            "building_set": f"kind{'s' if many else ''} of building you control",
            "divinations_held": f"divination{'s' if many else ''} you hold"}.get(
        pred, f"{pred.replace('_', ' ')} {where}".strip())


#: when an event's scoring effect scores (docs §4.7 step 2b, §5.5), and what becomes of the event after
_LIFETIME_WORDS = {"until_scored": ("at the next rest scoring", "; then it is discarded"),
                   "persistent": ("at every rest scoring", ""),
                   "wandering": ("at every rest scoring", "; then the first seat it paid moves it")}
#: a ``favour_if`` over the event's own space (selector ``event_space``, docs §5.3) by its predicate
_ON_EVENT_SPACE = {"controlled": "you control this event's space", "occupied": "you occupy this event's space",
                   "contested": "you contest this event's space",
                   "shaman_in": "your living shaman is on this event's space"}


def event_scoring_words(card: Any) -> str:
    """An event card's scoring in words, ``""`` when it has none, as the rule reads for each seat (docs
    §4.7 step 2b, §5.5): ``at the next rest scoring, each seat: +4 favour if you control this event's
    space; then it is discarded``."""
    if card.scoring is None:
        return ""
    when, after = _LIFETIME_WORDS.get(card.lifetime, ("at rest scoring", ""))
    return f"{when}, each seat: {effect_words(card.scoring)}{after}"


def effect_words(e: Any) -> str:
    """A card's or shaman's effect in words, with every number that matters (docs §5.3): ``+3 favour per
    mausoleum you control``, ``+1 favour per 3 living warrior of yours (at most 5)``, ``+7 favour with 5 or
    more space you control``; ``no effect`` for ``None``."""
    if e is None:
        return "no effect"
    n = e.amount
    if e.op == "favour":
        return f"+{n} favour"
    if e.op == "favour_per":
        per = _counted(e.pred, e.sel)
        each = f"for every {e.divisor} {_counted(e.pred, e.sel, True)}" if e.divisor > 1 else f"per {per}"
        return f"+{n} favour {each}" + (f" (at most {e.cap})" if e.cap else "")
    if e.op == "favour_if":
        if e.sel == "event_space" and e.threshold <= 1 and e.pred in _ON_EVENT_SPACE:  # its one space
            return f"+{n} favour if {_ON_EVENT_SPACE[e.pred]}"
        if e.pred == "shaman_in":
            where = _SELECTED.get(e.sel, e.sel.replace("_", " "))
            where = "the Monolith" if e.sel == "monolith" else ("an " if where[0] in "aeiou" else "a ") + where
            return f"+{n} favour if your shaman is in {where}"
        if e.threshold <= 1 and e.sel in ("monolith", "own_stronghold"):
            return f"+{n} favour if you control {'the Monolith' if e.sel == 'monolith' else 'your own stronghold'}"
        return f"+{n} favour with {e.threshold} or more {_counted(e.pred, e.sel, e.threshold != 1)}"
    if e.op == "modifier":
        return _MODIFIERS.get(e.name, f"{e.name.replace('_', ' ')} {n}").format(n=n)
    if e.op == "take_unearned":
        return f"take {count(n, 'unearned heart')}" + (f" into the {e.to} zone" if e.to != "available" else "")
    return {"draw_objectives": f"draw {count(n, 'objective')}", "extra_kill": "kill once more",
            "extra_steps": f"{count(n, 'extra step')}", "free_fate": f"{count(n, 'free fate move')}",
            "gain_anger": f"{count(n, 'warrior')} from reserves to anger", "move_again": "move again",
            "recruit_anywhere": "recruit on any space",
            "kill_each": f"{count(n, 'living warrior')} of each seat there die{'s' if n == 1 else ''}",
            "deal_divinations": f"{count(n, 'divination')} dealt to the row's empty slots",
            "set_tunnel": "the space becomes a tunnel" if e.value else "the space stops being a tunnel"}.get(
        e.op, e.op.replace("_", " ") + (f" {n}" if n else ""))
