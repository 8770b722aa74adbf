"""Board geometry (docs/monolith_arena.md §2.1): derived tables checked against the spec's literal tables."""

from monolith_envs.arena import board

_ = -1
# docs/monolith_arena.md §2.1 neighbour table: NE, E, SE, SW, W, NW
SPEC_NB = {
    0: (_, 1, 4, 3, _, _), 1: (_, 2, 5, 4, 0, _), 2: (_, _, 6, 5, 1, _), 3: (0, 4, 8, 7, _, _),
    4: (1, 5, 9, 8, 3, 0), 5: (2, 6, 10, 9, 4, 1), 6: (_, _, 11, 10, 5, 2), 7: (3, 8, 12, _, _, _),
    8: (4, 9, 13, 12, 7, 3), 9: (5, 10, 14, 13, 8, 4), 10: (6, 11, 15, 14, 9, 5), 11: (_, _, _, 15, 10, 6),
    12: (8, 13, 16, _, _, 7), 13: (9, 14, 17, 16, 12, 8), 14: (10, 15, 18, 17, 13, 9), 15: (11, _, _, 18, 14, 10),
    16: (13, 17, _, _, _, 12), 17: (14, 18, _, _, 16, 13), 18: (15, _, _, _, 17, 14),
}
SPEC_COORDS = [(0, -2), (1, -2), (2, -2), (-1, -1), (0, -1), (1, -1), (2, -1), (-2, 0), (-1, 0), (0, 0), (1, 0),
               (2, 0), (-2, 1), (-1, 1), (0, 1), (1, 1), (-2, 2), (-1, 2), (0, 2)]
SPEC_TRIANGLES = [(0, 1, 4), (0, 3, 4), (1, 2, 5), (1, 4, 5), (2, 5, 6), (3, 4, 8), (3, 7, 8), (4, 5, 9), (4, 8, 9),
                  (5, 6, 10), (5, 9, 10), (6, 10, 11), (7, 8, 12), (8, 9, 13), (8, 12, 13), (9, 10, 14), (9, 13, 14),
                  (10, 11, 15), (10, 14, 15), (12, 13, 16), (13, 14, 17), (13, 16, 17), (14, 15, 18), (14, 17, 18)]


def test_coordinates_and_index_order():
    assert list(board.COORDS) == SPEC_COORDS
    assert board.hex_index(0, 0) == 9
    assert board.hex_index(3, 0) == -1


def test_neighbour_table_matches_spec():
    for h in range(19):
        assert board.NB[h] == SPEC_NB[h], h
        assert tuple(board.NB_ARR[h]) == SPEC_NB[h]


def test_neighbours_symmetric_and_opposite():
    for h in range(19):
        for d in range(6):
            x = board.NB[h][d]
            if x >= 0:
                assert board.NB[x][board.opposite(d)] == h
                assert board.direction_between(h, x) == d
                assert board.ADJ[h, x] and board.ADJ[x, h]


def test_triangles_match_spec():
    assert list(board.TRIANGLES) == SPEC_TRIANGLES


def test_tile_frame():
    # printed edge e at facing f points at (e + f) % 6; an attack travelling d meets edge (d + 3 - f) % 6
    assert board.edge_to_dir(0, 0) == 0
    assert board.edge_to_dir(2, 5) == 1
    assert board.dir_to_edge(board.opposite(4), 5) == (4 + 3 - 5) % 6 == 2
    # G4: a shot travelling SW (3) hits a Knight at facing 5 on printed edge (3 + 3 - 5) % 6 = 1
    assert board.dir_to_edge(board.opposite(3), 5) == 1
