"""The Monolith's pieces for terminal play: an 80-column map list, the decision being asked in words,
option texts that say what a space, number, card or zone means in the decision at hand; the narration of
every action (units, favour, hearts, the tower lift, days) that never names a hidden objective is the
package's, :func:`monolith_envs.the_monolith.narration.narrate`.

Rules: docs/the_monolith.md (sections cited below).
"""

from __future__ import annotations

from typing import Any

from monolith_envs.core.words import count
from monolith_envs.the_monolith.board import controllers, neighbours, tunnels_now, units_text
from monolith_envs.the_monolith.narration import narrate, power_cost_words
from monolith_envs.the_monolith.orders import recruit_bonus
from monolith_envs.the_monolith.state import Phase, Sub
from monolith_envs.the_monolith.words import (
    ZONES,
    effect_words,
    event_scoring_words,
    space_words,
    stop_and_step,
)

from . import WIDTH, Pieces, wrap

__all__ = ["PIECES", "TheMonolithPieces", "effect_text", "event_text"]

LEGEND = """\
Legend. One line per space of the map: its number, name, building, T when it
is a tunnel now, free boast slots of all slots, blood markers, boast hearts
by seat, the controller, then the units: P0{2W,1w,S} is seat 0 with 2 living
warriors (W), 1 dead warrior (w) and its living shaman (S; s = dead). Each
player: favour; hearts available, spent, unearned, committed to the tower
(today + stuck) and on the action board by zone (slay/maneuver/boast);
warriors in reserves, anger and limbo; held divinations; objectives (yours by
name, the others' as a count). Then the divination row with its bids and the
events in play.
"""

_ORDERS = {"march": "march (move warriors; 1 heart, more per extra step)",
           "shaman": "shaman (move your shaman and cremate; 1 heart)",
           "recruit": "recruit (put warriors on the map; 2 or more hearts)",
           "divination": "divination (bid hearts on a row card)",
           "commit": "commit (send your available hearts to the tower; you are done ordering)"}
_FAMILIES = {"pass": "pass", "order": "give an order", "space": "choose a space", "number": "choose a number",
             "row": "choose a row card", "use_power": "use a power", "discard_div": "discard a divination",
             "objective": "choose an objective", "fate": "manipulate fate (move a heart to the next zone; a free fate move pays, else 1 "
                                                            "warrior from anger to limbo)",
             "slay": "slay (kill an enemy unit)", "maneuver": "maneuver (move a unit one space)",
             "boast": "boast (put a heart in a free slot)", "sacrifice": "sacrifice (a warrior to your anger)",
             "relent": "relent (spend every heart on the board; you are out)", "shaman": "choose a shaman"}
_PASS = {Sub.DIV_RAISE: "forfeit the bid", Sub.MARCH_STEP: "stop marching", Sub.SHAMAN_STEP: "stop",
         Sub.RECRUIT_PLACE: "decline the bonus warriors", Sub.POWER_WINDOW: "use no power",
         Sub.OBJ_REVEAL: "keep your objectives hidden", Sub.DRAFT_RESPOND: "pass for good",
         Sub.EXTRA_KILL: "no extra kill", Sub.ORDER_CHOOSE: "pass"}
_NUMBER = {Sub.MARCH_GROUP: "{v} warrior{s} march{es}", Sub.MARCH_REGROUP: "{v} warrior{s} in the marching group",
           Sub.DIV_AMOUNT: "bid {v} heart{s}", Sub.DIV_RAISE: "raise by {v}",
           Sub.DRAFT_OPEN_BID: "open at {v}", Sub.DRAFT_RESPOND: "bid {v}"}
_FAMILY_IN = {("number", Sub.DRAFT_RESPOND): "bid higher", ("number", Sub.DRAFT_OPEN_BID): "open the bidding",
              ("number", Sub.DIV_RAISE): "raise the bid", ("number", Sub.MARCH_REGROUP): "set the group size",
              ("space", Sub.MARCH_STEP): "march on to a space", ("space", Sub.SHAMAN_STEP): "move the shaman",
              ("space", Sub.MANEUVER_DEST): "move the maneuvered unit to a space",
              ("space", Sub.RECRUIT_PLACE): "place a warrior", ("space", Sub.EXTRA_KILL): "kill once more",
              ("use_power", Sub.POWER_WINDOW): "use a power now",
              ("objective", Sub.OBJ_DISCARD): "discard an objective (face down)",
              ("objective", Sub.OBJ_REVEAL): "reveal an objective that scores now"}
_ASK = {Sub.DRAFT_NOMINATE: "names a shaman to auction", Sub.DRAFT_OPEN_BID: "opens the bidding",
        Sub.DRAFT_RESPOND: "bids higher or passes for good", Sub.DRAFT_FREE_PICK: "picks a shaman for free",
        Sub.OBJ_DISCARD: "chooses an objective to discard (face down)",
        Sub.DIV_RAISE: "raises the bid or forfeits it", Sub.DIV_DISCARD: "chooses a divination to discard (4 held)",
        Sub.ORDER_CHOOSE: "gives an order",
        Sub.MARCH_SOURCE: "chooses where the march starts", Sub.MARCH_GROUP: "chooses how many warriors march",
        Sub.MARCH_STEP: "moves the marching group or stops", Sub.MARCH_REGROUP: "sets the marching group",
        Sub.SHAMAN_STEP: "moves the shaman (cremating there) or stops",
        Sub.RECRUIT_HEARTS: "chooses how many hearts to pay for warriors",
        Sub.RECRUIT_PLACE: "places a recruited warrior",
        Sub.DIV_CARD: "chooses a row card to bid on", Sub.DIV_AMOUNT: "chooses the bid",
        Sub.ACTION_CHOOSE: "takes an action",
        Sub.POWER_WINDOW: "may use a power now", Sub.EXTRA_KILL: "may kill once more in the same space",
        Sub.OBJ_REVEAL: "may reveal an objective that scores now", Sub.EVENT_PLACE: "chooses where the event goes",
        Sub.EVENT_MOVE: "chooses where the wandering event moves"}


def effect_text(e: Any) -> str:
    """A card's effect in words (:func:`monolith_envs.the_monolith.words.effect_words`)."""
    return effect_words(e)


def event_text(card: Any) -> str:
    """What an event does (docs §4.7, §5.5): its reveal effects once placed (an ``instant`` one is then
    discarded) and its scoring (:func:`monolith_envs.the_monolith.words.event_scoring_words`), e.g. ``at the
    next rest scoring, each seat: +4 favour if you control this event's space; then it is discarded``."""
    parts = []
    if card.reveal:
        parts.append("when placed: " + "; ".join(effect_words(e) for e in card.reveal)
                     + ("; then it is discarded" if card.lifetime == "instant" else ""))
    scoring = event_scoring_words(card)
    if scoring:
        parts.append(scoring)
    return "; ".join(parts) or "no effect"


class TheMonolithPieces(Pieces):
    """Terminal play of ``the_monolith_v0`` (``docs/the_monolith.md``)."""

    legend_text = LEGEND
    help_intro = """\
Enter a move in stages: pick an option by its number in the list (1, 2, ...,
not a space number) or by name: a unique prefix is enough, and a number that
leads the name may be left out (briar b chooses 9 Briar Barrow), as may a
card's code (carrion chooses O09 Carrion Feast)."""
    help_commands = "  map      which spaces connect"
    help_more = """\
Full action names (docs/the_monolith.md §6), e.g. pass, relent,
order(o=commit)."""
    board_diff = True  # fixed rows: a changed line stays where it was

    # ------------------------------------------------------------------ board
    def _space(self, g: Any, sp: int) -> str:
        return space_words(g, sp)

    def final_reveal(self, game: Any, state: Any, viewer: int) -> list[str]:
        """The other seats' objectives, named (they were hidden, docs §7; the game is over, docs §4.7 step 3, §8)."""
        g, s = game, state
        return [wrap(f"P{p} objectives: " + ", ".join(f"{g.objs[o].key} {g.objs[o].name}" for o in s.objectives[p]),
                     WIDTH, "    ")
                for p in range(s.n) if p != viewer and s.objectives[p]]

    def board(self, game: Any, state: Any, viewer: int) -> str:
        """The board as ``viewer`` sees it: day and phase, each active space (building, tunnel, slots, blood,
        boasts, controller, units), each seat's favour, hearts, warriors and cards (only ``viewer``'s
        objectives named), the row, events, decks and the open decision."""
        g, s = game, state
        dec = "game over" if s.terminal or s.sub < 0 else f"P{s.current} {self._ask(g, s)}"
        out = [wrap(f"day {s.day}/{g.num_days}, {Phase(s.phase).name.lower().replace('_', ' ')} phase; first "
                    f"player P{s.first}; surge {'-' if s.surge < 0 else f'P{s.surge}'}")]
        tun, ctrl = tunnels_now(g, s), controllers(g, s)
        for sp in g.active_spaces:
            b = g.building[sp]
            boast = ",".join(f"P{p}:{h}" for p, h in enumerate(s.boast[sp]) if h)
            free = g.slots[sp] - s.blood[sp] - sum(s.boast[sp])
            head = (f"{sp:2d} {g.content.map.spaces[sp].name:<19}{b if b != 'none' else '':<12}{'T' if tun[sp] else ' '}"
                    f" slots {free}/{g.slots[sp]}" + (f" blood {s.blood[sp]}" if s.blood[sp] else "")
                    + (f" boast {boast}" if boast else "") + (f" ctrl P{ctrl[sp]}" if ctrl[sp] >= 0 else ""))
            units = units_text(s, sp)
            if units and len(head) + 1 + len(units) <= WIDTH:
                out.append(f"{head} {units}")
            else:
                out.append(head)
                if units:
                    out.append(wrap("      " + units, WIDTH, "  "))
        for p in range(s.n):
            sh = g.shamans[s.shaman_id[p]].name if s.shaman_id[p] >= 0 else "no shaman yet"
            flags = "".join((", committed" if s.committed[p] else "", ", out" if s.out[p] else ""))
            you = " (you)" if p == viewer else ""
            out.append(f"P{p}{you} {sh}: favour {s.favour[p]}{flags}")
            out.append(wrap(f"    hearts: available {s.available[p]}, spent {s.spent[p]}, unearned {s.unearned[p]}, "
                            f"tower {s.tower_today[p]}+{s.tower_stuck[p]}, on the board "
                            + "/".join(map(str, s.board[p])) + " (slay/maneuver/boast)", WIDTH, "    "))
            held = ", ".join(f"{g.divs[c].key} {g.divs[c].name}" for c in s.held[p]) or "-"
            if p == viewer:
                objs = ", ".join(f"{g.objs[o].key} {g.objs[o].name}" for o in s.objectives[p]) or "-"
            else:
                objs = f"{len(s.objectives[p])} hidden"
            out.append(wrap(f"    warriors: reserves {s.reserves[p]}, anger {s.anger[p]}, limbo {s.limbo[p]}; "
                            f"held: {held}; objectives: {objs}", WIDTH, "    "))
        row = []
        for i in range(g.R):
            if s.row[i] >= 0:
                bids = ", ".join(f"P{p} {b}" for p, b in enumerate(s.bids[i]) if b)
                row.append(f"{i}: {g.divs[s.row[i]].key} {g.divs[s.row[i]].name}" + (f" [{bids}]" if bids else ""))
        out.append(wrap("row: " + ("; ".join(row) or "-"), WIDTH, "    "))
        ev = [f"{g.events[e].key} {g.events[e].name}" + (f" on {sp}" if sp >= 0 else "")
              + (" (to move)" if s.sub == Sub.EVENT_MOVE and i == s.event_focus else "")
              for i, (e, sp) in enumerate(s.events)]
        if s.sub == Sub.EVENT_PLACE and s.event_focus >= 0:  # drawn, in play on no space yet (docs §4.7 step 3)
            ev.append(f"{g.events[s.event_focus].key} {g.events[s.event_focus].name} (being placed)")
        ev = ", ".join(ev) or "-"
        out.append(wrap(f"events: {ev}; decks: divination {len(s.div_deck)}, event {len(s.event_deck)}, "
                        f"objective {len(s.obj_deck)}", WIDTH, "    "))
        out.append(wrap(dec if not s.terminal else "game over: ranking " + " ".join(f"P{p}" for p in g.ranking(s))))
        return "\n".join(out)

    def _ask(self, g: Any, s: Any) -> str:
        """What the open decision asks of its seat, in words; a march or shaman step offers to stop only
        where stopping is legal (a march stops after its first step, docs §4.4)."""
        sub = Sub(s.sub)
        if sub in (Sub.MARCH_STEP, Sub.SHAMAN_STEP):
            stop, step = stop_and_step(g, s)
            if not step:
                return "stops marching or uses a power" if sub == Sub.MARCH_STEP else "stops or uses a power"
            if not stop:  # only a march's first step: a shaman may always stop
                return "moves the marching group (it may stop after its first step)"
        if sub == Sub.MANEUVER_DEST:
            return f"chooses where {'its shaman' if s.man_kind else 'the warrior'} moves"
        if sub == Sub.EVENT_PLACE and s.event_focus >= 0:
            card = g.events[s.event_focus]
            return f"places {card.key} {card.name} ({event_text(card)}): choose a space"
        if sub == Sub.EVENT_MOVE and 0 <= s.event_focus < len(s.events):
            ev, sp = s.events[s.event_focus]
            card = g.events[ev]
            return (f"moves the wandering event {card.key} {card.name} ({effect_words(card.scoring)}) "
                    f"from {space_words(g, sp)}: choose another space")
        return _ASK.get(sub, sub.name)

    def decision(self, game: Any, state: Any, viewer: int | None = None) -> str:
        """What browser play shows above the options: :meth:`asking`'s words (``P0 chooses an objective to
        discard (face down)``; at EVENT_PLACE and EVENT_MOVE which event is placed or moved and what it does),
        since an option list alone (``choose the card:``) does not say what the choice is for; ``""`` when the
        game is over."""
        return self.asking(game, state)

    def asking(self, game: Any, state: Any) -> str:
        """What the open decision asks, in words (``P0 gives an order``), for the message that says why a
        typed action is not legal now; ``""`` when the game is over."""
        s = state
        return "" if s.terminal or s.sub < 0 else f"P{s.current} {self._ask(game, s)}"

    # ------------------------------------------------------------------ map
    def map_text(self, game: Any, state: Any) -> str:
        """The ``map`` command: every space with the spaces it connects to now (docs §4.2: dashed borders,
        and every tunnel to every other tunnel; ``T`` marks a tunnel now), for the seat to act."""
        g, s = game, state
        p = s.current if s.current >= 0 else 0
        tun = tunnels_now(g, s)
        out = [wrap(f"map: each space and the spaces it connects to now (T = tunnel: every tunnel connects to "
                    f"every other tunnel), as P{p} moves")]
        for sp in g.active_spaces:
            head = f"{sp:2d} {g.content.map.spaces[sp].name}{' T' if tun[sp] else ''}: "
            out.append(wrap(head + ", ".join(str(t) for t in neighbours(g, s, p, sp, tun)), WIDTH, "      "))
        locked = [sp for sp in range(g.N) if not g.active[sp]]
        if locked:
            out.append(wrap(f"locked with {s.n} players, out of play: " + _ranges(locked), WIDTH, "      "))
        return "\n".join(out)

    def _where(self, g: Any, s: Any) -> tuple[str, int] | None:
        """What moves in the current decision and from which space: the marching group, the shaman, the
        maneuvered unit; ``None`` elsewhere."""
        if s.sub == Sub.MARCH_STEP and s.march_cur >= 0:
            return f"the group of {count(s.march_group, 'warrior')}", s.march_cur
        if s.sub == Sub.SHAMAN_STEP and 0 <= s.current < len(s.shaman_space) and s.shaman_space[s.current] >= 0:
            return "your shaman", s.shaman_space[s.current]
        if s.sub == Sub.MANEUVER_DEST and s.man_space >= 0:
            return "your shaman" if s.man_kind else "the warrior", s.man_space
        return None

    def stage_note(self, game: Any, state: Any, family: str, arg: str, chosen: tuple) -> str | None:
        """In a move (march, shaman, maneuver): where the moving piece is and which spaces connect to it."""
        if arg != "s":
            return None
        where = self._where(game, state)
        if where is None:
            return None
        who, sp = where
        near = neighbours(game, state, state.current, sp)
        return (f"{who} is on {self._space(game, sp)}, which connects to: "
                + ", ".join(self._space(game, t) for t in near) + " (map shows every connection)")

    # ------------------------------------------------------------------ staged entry
    def stage_name(self, game: Any, family: str, arg: str) -> str:
        """The stage's name in the game's words (``s`` is a ``space``, ``z`` a ``zone``, ...)."""
        if (family, arg) == ("slay", "o"):
            return "opponent"
        return {"o": "order", "s": "space", "v": "number", "slot": "row card", "z": "zone", "id": "shaman",
                "kind": "unit", "k": "card"}.get(arg, arg)

    def family_option(self, game: Any, state: Any, family: str) -> str:
        """The family's text, worded for the open decision (e.g. what ``pass`` means there)."""
        if family == "pass" and state.sub == Sub.RECRUIT_PLACE and state.rec_paid == 0 and state.rec_bonus > 0:
            return f"decline the {count(state.rec_bonus, 'bonus warrior')} left (free: not paid with hearts)"
        if family == "pass" and state.sub >= 0:
            return _PASS.get(Sub(state.sub), "pass")
        if state.sub >= 0 and (family, Sub(state.sub)) in _FAMILY_IN:
            return _FAMILY_IN[family, Sub(state.sub)]
        return _FAMILIES.get(family, family)

    def _units_of(self, s: Any, sp: int) -> str:
        u = units_text(s, sp)
        return f" ({u})" if u else " (empty)"

    def notes(self, game: Any, state: Any, viewer: int) -> list[str]:
        """Browser play's notes beside the board: how option labels write the units of a space (the terminal's
        legend says it), e.g. ``P0{2W,1w,S}``, while the open decision offers a space; ``[]`` at other decisions
        and once the game is over."""
        lay = game.layout
        if game.is_terminal(state) or not any("s" in lay[lay.split(int(a))[0]].args
                                              for a in game.legal_mask(state).nonzero()[0]):
            return []
        return ["Units in the options: P0{2W,1w,S} is seat 0 with 2 living warriors (W), 1 dead warrior (w) and "
                "its living shaman (S; s = dead); the picture draws them as ● n (living), † n (dead) and ◆ (the shaman, "
                "✕ when dead)."]

    def option(self, game: Any, state: Any, family: str, arg: str, value: int) -> str:
        """One option in the game's words: an order, a space with its units, a number, a row card with its
        bids, a power or card with its effect, a heart zone, an opponent, a unit kind or a shaman."""
        g, s = game, state
        p = s.current
        if arg == "o" and family == "order":
            name = ("march", "shaman", "recruit", "divination", "commit")[value]
            return _ORDERS[name]
        if arg == "s":
            return self._space(g, value) + self._units_of(s, value)
        if arg == "v":
            if s.sub == Sub.RECRUIT_HEARTS:  # what the hearts buy: a warrior each, and the order's bonus
                bonus = recruit_bonus(g, s, p, value)
                return (f"{value} hearts: {value} warriors to place"
                        + (f" + {count(bonus, 'bonus warrior')} (optional)" if bonus > 0 else ""))
            text = _NUMBER.get(Sub(s.sub), "{v}") if s.sub >= 0 else "{v}"
            return text.format(v=value, s="" if value == 1 else "s", es="es" if value == 1 else "")
        if arg == "slot":
            c = s.row[value]
            if c < 0:
                return f"slot {value} (empty)"
            bids = ", ".join(f"P{q} {b}" for q, b in enumerate(s.bids[value]) if b)
            return (f"slot {value}: {g.divs[c].key} {g.divs[c].name} ({g.divs[c].window.replace('_', ' ')}: "
                    f"{effect_text(g.divs[c].effect)})" + (f", bids {bids}" if bids else ""))
        if family in ("use_power", "discard_div"):
            cost = power_cost_words(g, s, p, value) if family == "use_power" else ""
            cost = f"; {cost}" if cost else ""
            if value == 3 and family == "use_power":
                sh = g.shamans[s.shaman_id[p]]
                return f"your shaman's ability ({effect_text(sh.effect)}{cost})"
            if value < len(s.held[p]):
                c = g.divs[s.held[p][value]]
                return f"{c.key} {c.name} ({effect_text(c.effect)}{cost})"
            return f"held card {value}"
        if family == "objective":
            if value < len(s.objectives[p]):
                o = g.objs[s.objectives[p][value]]
                return f"{o.key} {o.name} ({effect_text(o.effect)})"
            return f"objective {value}"
        if arg == "z":
            z = ZONES[value]
            if family == "fate":
                return f"a {z} heart becomes a {ZONES[(value + 1) % 3]} heart"
            return f"a {z} heart"
        if family == "slay" and arg == "o":
            q = (p + value + 1) % s.n
            return f"P{q}"
        if family == "maneuver" and arg == "kind":
            return "a warrior" if value == 0 else "your shaman"
        if arg == "id":
            sh = g.shamans[value]
            return f"{sh.name} ({sh.window.replace('_', ' ')}: {effect_text(sh.effect)})"
        return super().option(game, state, family, arg, value)

    # ------------------------------------------------------------------ narration
    def narrate(self, game: Any, before: Any, after: Any, action: int, seat: int) -> list[str]:
        """The package's narration (:func:`monolith_envs.the_monolith.narration.narrate`): the action, then
        what the rules did up to the next decision, step by step."""
        return narrate(game, before, after, action, seat)


def _ranges(nums: list) -> str:
    """``[1, 2, 3, 5]`` -> ``"spaces 1-3, 5"``."""
    runs: list = []
    for x in nums:
        if runs and x == runs[-1][1] + 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    return ("space " if len(nums) == 1 else "spaces ") + ", ".join(
        f"{a}-{b}" if b > a + 1 else (f"{a}, {b}" if b > a else f"{a}") for a, b in runs)


PIECES = TheMonolithPieces()
