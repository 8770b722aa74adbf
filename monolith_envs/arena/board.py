"""Board geometry of Monolith Arena (docs/monolith_arena.md §2.1), derived in code.

* 19 hexes, axial ``(q, r)`` with ``|q|, |r|, |q+r| <= 2``; index order: ``r`` ascending, then ``q``.
* Directions clockwise: 0 NE (+1,-1), 1 E (+1,0), 2 SE (0,+1), 3 SW (-1,+1), 4 W (-1,0), 5 NW (0,-1).
* ``NB[h][d]``: neighbour of hex ``h`` in direction ``d`` or -1 (off board).
* Tile frame: printed edge ``e`` of a tile at facing ``f`` points in board direction ``(e + f) % 6``.
* ``TRIANGLES``: the 24 sets of three mutually adjacent hexes, in lexicographic order of sorted members.
"""

from __future__ import annotations

import itertools

import numpy as np

__all__ = [
    "NUM_HEXES", "COORDS", "HEX_OF", "DIRS", "DIR_NAMES", "NB", "NB_ARR", "ADJ", "NEIGHBOURS",
    "TRIANGLES", "hex_index", "direction_between", "edge_to_dir", "dir_to_edge", "opposite",
]

NUM_HEXES = 19
#: axial coordinates of each hex index
COORDS: tuple[tuple[int, int], ...] = tuple(
    sorted(((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2), key=lambda c: (c[1], c[0]))
)
#: ``(q, r) -> hex index``
HEX_OF: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
#: axial step of each direction 0..5
DIRS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIR_NAMES = ("NE", "E", "SE", "SW", "W", "NW")


def hex_index(q: int, r: int) -> int:
    """Hex index of axial ``(q, r)``, or -1 when off the board."""
    return HEX_OF.get((q, r), -1)


#: ``NB[h][d]`` as a tuple of tuples (fast scalar access)
NB: tuple[tuple[int, ...], ...] = tuple(
    tuple(hex_index(q + dq, r + dr) for dq, dr in DIRS) for q, r in COORDS
)
#: ``int8[19, 6]`` copy of :data:`NB`
NB_ARR = np.array(NB, dtype=np.int8)
#: ``bool[19, 19]`` adjacency matrix
ADJ = np.zeros((NUM_HEXES, NUM_HEXES), dtype=bool)
for _h in range(NUM_HEXES):
    for _x in NB[_h]:
        if _x >= 0:
            ADJ[_h, _x] = True
#: on-board neighbours of each hex, ascending
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x for x in NB[h] if x >= 0)) for h in range(NUM_HEXES))
#: ``DIR_BETWEEN[a][b]``: direction from ``a`` to adjacent ``b`` (-1 if not adjacent)
DIR_BETWEEN: tuple[tuple[int, ...], ...] = tuple(
    tuple((NB[a].index(b) if b in NB[a] else -1) for b in range(NUM_HEXES)) for a in range(NUM_HEXES)
)
#: the 24 triangles, lexicographic order of their sorted members
TRIANGLES: tuple[tuple[int, int, int], ...] = tuple(
    t for t in itertools.combinations(range(NUM_HEXES), 3) if ADJ[t[0], t[1]] and ADJ[t[0], t[2]] and ADJ[t[1], t[2]]
)
if len(TRIANGLES) != 24:  # geometry self-check at import
    raise RuntimeError(f"expected 24 triangles, derived {len(TRIANGLES)}")


def direction_between(a: int, b: int) -> int:
    """Direction 0-5 from hex ``a`` to the adjacent hex ``b``; -1 when they are not adjacent."""
    return DIR_BETWEEN[a][b]


def edge_to_dir(edge: int, facing: int) -> int:
    """Board direction of printed ``edge`` of a tile at ``facing``: ``(edge + facing) % 6``."""
    return (edge + facing) % 6


def dir_to_edge(d: int, facing: int) -> int:
    """Printed edge of a tile at ``facing`` pointing in board direction ``d``: ``(d - facing) % 6``."""
    return (d - facing) % 6


def opposite(d: int) -> int:
    """Opposite direction ``(d + 3) % 6``."""
    return (d + 3) % 6
