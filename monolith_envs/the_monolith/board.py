"""Map geometry and the unit terms: adjacency and tunnels, occupy, contest, control (docs §4.1, §4.2).

Functions take the game ``g`` (static tables, see :class:`~monolith_envs.the_monolith.game.MonolithGame`)
and the state ``s``; seats are absolute.
"""

from __future__ import annotations

__all__ = ["modifiers", "has_modifier", "control_weight", "tunnels_now", "neighbours", "units", "occupies",
           "controller", "controllers", "controllers_at", "cremate", "occupancy_check", "kill", "has_enemy_living",
           "units_text"]

_NO_SOURCES = (frozenset(), frozenset())


def modifiers(g, s, p: int) -> dict:
    """docs §5.3: passive modifiers of seat ``p`` (its shaman and its held divinations), summed per name;
    ``shaman_control_weight`` takes the largest amount."""
    out: dict = {}
    div_mod = g.div_mod
    for m in [g.shaman_mod[s.shaman_id[p]]] + [div_mod[c] for c in s.held[p]]:
        if m is None:
            continue
        name, amount = m
        if name == "shaman_control_weight":
            out[name] = max(out.get(name, 0), amount)
        else:
            out[name] = out.get(name, 0) + amount
    return out


def has_modifier(g, s, p: int, name: str) -> bool:
    """Whether seat ``p`` has the passive modifier ``name`` (``name in modifiers(g, s, p)``, without the dict)."""
    shamans, cards = g.modifier_sources.get(name, _NO_SOURCES)
    if s.shaman_id[p] in shamans:
        return True
    if cards:
        for c in s.held[p]:
            if c in cards:
                return True
    return False


def control_weight(g, s, p: int) -> int:
    """The weight of ``p``'s shaman in u_p (docs §4.1): ``max(1, modifiers(g, s, p).get("shaman_control_weight", 1))``."""
    w = 1
    div_mod = g.div_mod
    for m in [g.shaman_mod[s.shaman_id[p]]] + [div_mod[c] for c in s.held[p]]:
        if m is not None and m[0] == "shaman_control_weight" and m[1] > w:
            w = m[1]
    return w


def tunnels_now(g, s) -> list:
    """``bool[N]``: tunnel status now: the map flag, then ``set_tunnel`` events in play on the space, in
    reveal order (docs §4.2). Locked spaces are never tunnels."""
    t = list(g.base_tunnel)
    event_tunnels, active = g.event_tunnels, g.active
    for ev, sp in s.events:
        if sp >= 0:
            for value in event_tunnels[ev]:
                t[sp] = value and active[sp]
    return t


def _tunnels_read_only(g, s) -> list:
    """:func:`tunnels_now`, or the map's own list itself (not to be written) while no placed event sets a tunnel."""
    event_tunnels = g.event_tunnels
    for ev, sp in s.events:
        if sp >= 0 and event_tunnels[ev]:
            return tunnels_now(g, s)
    return g.base_tunnel


def neighbours(g, s, p: int, sp: int, tun: list | None = None) -> list:
    """Spaces adjacent to ``sp`` for seat ``p`` (docs §4.2): dashed borders, plus every other tunnel when
    ``sp`` is a tunnel for ``p`` (with ``stronghold_tunnel``, ``p``'s stronghold counts as one for ``p``)."""
    if tun is None:
        tun = _tunnels_read_only(g, s)
    hold = g.hold[p] if has_modifier(g, s, p, "stronghold_tunnel") else None  # a tunnel for p alone
    out = list(g.dashed_adj[sp])
    if tun[sp] or sp == hold:
        for t in g.active_spaces:
            if (tun[t] or t == hold) and t != sp and t not in out:
                out.append(t)
        out.sort()
    return out


def units(g, s, p: int, sp: int, weight: int | None = None) -> int:
    """u_p(s) of docs §4.1: living warriors + the shaman's weight when it is alive there."""
    u = s.living[sp][p]
    if s.shaman_alive[p] and s.shaman_space[p] == sp:
        if weight is None:
            weight = control_weight(g, s, p)
        u += weight
    return u


def occupies(s, p: int, sp: int) -> bool:
    """docs §4.1: ``p`` has at least one living unit in ``sp``."""
    return s.living[sp][p] > 0 or (s.shaman_alive[p] and s.shaman_space[p] == sp)


def has_enemy_living(s, p: int, sp: int) -> bool:
    """Some other seat has a living unit in ``sp``."""
    return any(occupies(s, q, sp) for q in range(s.n) if q != p)


def _weights(g, s) -> list:
    if not any(s.held) and not g.shaman_weights:  # no card held and no shaman ability sets a weight
        return [1] * s.n
    return [control_weight(g, s, p) for p in range(s.n)]


def controller(g, s, sp: int, weights: list | None = None) -> int:
    """docs §4.1 (control): the seat with the strictly largest u_p(s) >= 1, or -1."""
    if weights is None:
        weights = _weights(g, s)
    row = s.living[sp]
    best, who, tie = 0, -1, False
    for p in range(s.n):
        u = row[p]
        if s.shaman_space[p] == sp and s.shaman_alive[p]:
            u += weights[p]
        if u > best:
            best, who, tie = u, p, False
        elif u == best and u > 0:
            tie = True
    return -1 if tie else who


def controllers(g, s) -> list:
    """Controller of every space (-1 for none or locked): :func:`controller` of each active space and of
    each space holding a living shaman, with the weights read once (``list[int]``, one per map space)."""
    return controllers_at(g, s, range(g.N))


def controllers_at(g, s, spaces) -> list:
    """:func:`controller` of each of ``spaces`` that is active or holds a living shaman, with the weights read
    once (``list[int]``, one per map space; -1 elsewhere, for none and for locked spaces).  The strictly
    largest living count >= 1 by list methods, plus each living shaman's weight on its space (docs §4.1 u_p)."""
    out = [-1] * g.N
    living, active = s.living, g.active
    alive, where = s.shaman_alive, s.shaman_space
    N = g.N
    seats = [p for p in range(s.n) if alive[p] and 0 <= where[p] < N]
    shaman_spaces = {where[p] for p in seats}
    weights = None
    for sp in spaces:
        if sp in shaman_spaces:  # as controllers: the living count plus each living shaman's weight
            if weights is None:
                weights = _weights(g, s)
            u = list(living[sp])
            for p in seats:
                if where[p] == sp:
                    u[p] += weights[p]
            m = max(u)
            out[sp] = u.index(m) if m > 0 and u.count(m) == 1 else -1
        elif active[sp]:
            row = living[sp]
            m = max(row)
            if m > 0 and row.count(m) == 1:
                out[sp] = row.index(m)
    return out


def cremate(s, p: int, sp: int) -> None:
    """docs §4.1: ``p``'s dead warriors in ``sp`` become living warriors in ``p``'s anger pool."""
    d = s.dead[sp][p]
    if d:
        s.anger[p] += d
        s.dead[sp][p] = 0


def occupancy_check(s, q: int, sp: int) -> None:
    """docs §4.6: ``q``'s boast hearts in ``sp`` go to its spent pool once ``q`` no longer occupies ``sp``."""
    h = s.boast[sp][q]
    if h and not occupies(s, q, sp):
        s.spent[q] += h
        s.boast[sp][q] = 0


def kill(s, p: int, q: int, sp: int) -> None:
    """One kill by ``p`` of ``q`` in ``sp`` (docs §4.6 slay): a living warrior if ``q`` has one there
    (+1 favour), else ``q``'s shaman (+3); ``kills_today`` + 1; then the occupancy check."""
    if s.living[sp][q] > 0:
        s.living[sp][q] -= 1
        s.dead[sp][q] += 1
        s.favour[p] += 1
    else:
        s.shaman_alive[q] = False
        s.favour[p] += 3
    s.kills_today[p] += 1
    occupancy_check(s, q, sp)


def units_text(s, sp: int) -> str:
    """The units in ``sp`` in the docs §10 notation, e.g. ``P0{2W,1w,S} P2{1W}`` ('' when empty)."""
    parts = []
    for p in range(s.n):
        u = []
        if s.living[sp][p]:
            u.append(f"{s.living[sp][p]}W")
        if s.dead[sp][p]:
            u.append(f"{s.dead[sp][p]}w")
        if s.shaman_space[p] == sp:
            u.append("S" if s.shaman_alive[p] else "s")
        if u:
            parts.append(f"P{p}{{{','.join(u)}}}")
    return " ".join(parts)
