"""Board geometries (rulelang.boards): squares, hexes, octagons with sockets; and Valgarð's
board size as a one-edit parameter of its rule file (digest V2)."""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.boards import Geometry, reachable

VALGARD = Path(__file__).resolve().parent.parent / "games" / "valgard.rules"


def names(g: Geometry, cells) -> list[str]:
    return sorted(g.names[c] for c in cells)


def nb(g: Geometry, name: str, kind=None) -> list[str]:
    return names(g, g.neighbours_of(g.by_name[name], kind))


# ---------------------------------------------------------------------------
# Naming
# ---------------------------------------------------------------------------

def test_cells_are_named_like_chess_squares_row_1_first():
    g = Geometry("squares", 3, 2)
    assert g.names == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert g.size == 6 and all(g.by_name[n] == i for i, n in enumerate(g.names))
    assert g.cols == [1, 2, 3, 1, 2, 3] and g.rows == [1, 1, 1, 2, 2, 2]
    assert set(g.kinds) == {"square"}
    assert Geometry("squares", 26, 1).names[-1] == "z1"
    assert Geometry("hexes", 2, 2).kinds == ["hex"] * 4


def test_octagon_sockets_are_named_between_columns_and_rows():
    g = Geometry("octagons", 3, 3)
    assert g.names[:9] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert g.names[9:] == ["ab12", "bc12", "ab23", "bc23"]
    assert g.kinds == ["octagon"] * 9 + ["socket"] * 4
    s = g.by_name["bc23"]
    assert (g.cols[s], g.rows[s]) == (2, 2)


@pytest.mark.parametrize("args", [("squares", 0, 3), ("squares", 27, 3), ("hexes", 3, 27), ("triangles", 3, 3)])
def test_bad_boards_are_refused(args):
    with pytest.raises(ValueError):
        Geometry(*args)


# ---------------------------------------------------------------------------
# Squares
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("diagonal, corner, edge, centre", [(False, 2, 3, 4), (True, 3, 5, 8)])
def test_square_neighbour_counts(diagonal, corner, edge, centre):
    g = Geometry("squares", 8, 8, diagonal=diagonal)
    for c in ("a1", "h1", "a8", "h8"):
        assert len(g.neighbours_of(g.by_name[c])) == corner
    for c in ("a4", "d1", "h5", "e8"):
        assert len(g.neighbours_of(g.by_name[c])) == edge
    assert len(g.neighbours_of(g.by_name["d4"])) == centre


def test_square_neighbours_exactly():
    g = Geometry("squares", 8, 8)
    assert nb(g, "d4") == ["c4", "d3", "d5", "e4"]
    assert nb(g, "a1") == ["a2", "b1"]
    g = Geometry("squares", 8, 8, diagonal=True)
    assert nb(g, "d4") == ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
    assert nb(g, "a1") == ["a2", "b1", "b2"]
    assert nb(g, "a4") == ["a3", "a5", "b3", "b4", "b5"]


def test_line_between_direction():
    g = Geometry("squares", 8, 8)
    c = g.by_name
    assert names(g, g.line(c["a1"], "n", 3)) == ["a2", "a3", "a4"]
    assert [g.names[x] for x in g.line(c["d4"], "w", 5)] == ["c4", "b4", "a4"]     # stops at the edge
    assert g.line(c["a1"], "s", 2) == []
    assert g.line(c["a1"], "ne", 2) == []                                         # no diagonals here
    assert g.step(c["a1"], "e") == c["b1"] and g.step(c["a1"], "w") is None
    assert [g.names[x] for x in g.between(c["a1"], c["a5"])] == ["a2", "a3", "a4"]
    assert [g.names[x] for x in g.between(c["e3"], c["b3"])] == ["d3", "c3"]
    assert g.between(c["a1"], c["a2"]) == []
    assert g.between(c["a1"], c["c2"]) == []
    assert g.between(c["a1"], c["c3"]) == []
    assert g.direction(c["a1"], c["a5"]) == "n"
    assert g.direction(c["a5"], c["a1"]) == "s"
    assert g.direction(c["h2"], c["c2"]) == "w"
    assert g.direction(c["a1"], c["c3"]) is None
    d = Geometry("squares", 8, 8, diagonal=True)
    assert [d.names[x] for x in d.line(c["a1"], "ne", 2)] == ["b2", "c3"]
    assert [d.names[x] for x in d.between(c["a1"], c["d4"])] == ["b2", "c3"]
    assert d.direction(c["d4"], c["a1"]) == "sw"
    assert d.direction(c["a1"], c["c2"]) is None


@pytest.mark.parametrize("diagonal", [False, True])
def test_square_distance(diagonal):
    g = Geometry("squares", 5, 4, diagonal=diagonal)
    for a, b in itertools.product(range(g.size), repeat=2):
        dc, dr = abs(g.cols[a] - g.cols[b]), abs(g.rows[a] - g.rows[b])
        assert g.distance(a, b) == (max(dc, dr) if diagonal else dc + dr)


# ---------------------------------------------------------------------------
# Hexes: pointy-top, the 2nd, 4th, … rows shifted half a cell right
# ---------------------------------------------------------------------------

HEX = Geometry("hexes", 11, 11)


def test_hex_neighbours_in_an_unshifted_and_a_shifted_row():
    assert HEX.directions == ["e", "w", "ne", "nw", "se", "sw"]
    assert nb(HEX, "f5") == ["e4", "e5", "e6", "f4", "f6", "g5"]        # row 5: not shifted
    assert nb(HEX, "f6") == ["e6", "f5", "f7", "g5", "g6", "g7"]        # row 6: shifted right
    step = lambda n, d: HEX.names[HEX.step(HEX.by_name[n], d)]
    assert (step("f5", "ne"), step("f5", "nw"), step("f5", "se"), step("f5", "sw")) == ("f6", "e6", "f4", "e4")
    assert (step("f6", "ne"), step("f6", "nw"), step("f6", "se"), step("f6", "sw")) == ("g7", "f7", "g5", "f5")


def test_hex_edges_and_corners():
    assert nb(HEX, "a1") == ["a2", "b1"]
    assert nb(HEX, "a2") == ["a1", "a3", "b1", "b2", "b3"]
    assert nb(HEX, "k11") == ["j10", "j11", "k10"]
    assert nb(HEX, "k2") == ["j2", "k1", "k3"]
    assert all(len(HEX.neighbours_of(c)) == 6 for c in range(HEX.size)
               if 1 < HEX.cols[c] < 11 and 1 < HEX.rows[c] < 11)


def test_hex_neighbours_are_mutual_and_directions_reverse():
    opposite = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
    for c in range(HEX.size):
        for d in HEX.directions:
            t = HEX.step(c, d)
            if t is not None:
                assert HEX.step(t, opposite[d]) == c
                assert c in HEX.neighbours_of(t)


def _cube_distance(g, a, b):
    def cube(c):
        q, r = g.cols[c] - 1, g.rows[c] - 1
        x = q - (r - (r & 1)) // 2                         # "odd-r" offset → cube
        return x, -x - r, r
    return max(abs(p - q) for p, q in zip(cube(a), cube(b)))


def test_hex_distance():
    c = HEX.by_name
    assert HEX.distance(c["a1"], c["k1"]) == 10
    assert HEX.distance(c["a1"], c["a3"]) == 2
    assert HEX.distance(c["f5"], c["f7"]) == 2
    assert HEX.distance(c["a1"], c["k11"]) == 15
    for start in ("a1", "f6", "f5", "k11", "b10"):
        for b in range(HEX.size):
            assert HEX.distance(c[start], b) == _cube_distance(HEX, c[start], b)


def test_hex_line_and_between():
    c = HEX.by_name
    assert [HEX.names[x] for x in HEX.line(c["f5"], "ne", 3)] == ["f6", "g7", "g8"]
    assert [HEX.names[x] for x in HEX.between(c["f5"], c["g8"])] == ["f6", "g7"]
    assert HEX.direction(c["g8"], c["f5"]) == "sw"


def test_hex_drawing_indents_shifted_rows():
    g = Geometry("hexes", 2, 2)
    lines = g.draw(lambda cell: g.names[cell]).splitlines()
    assert lines[1].split() == ["2", "a2", "b2"] and lines[2].split() == ["1", "a1", "b1"]
    assert lines[1].index("a2") == lines[2].index("a1") + 2               # half a cell right
    assert lines[1].index("b2") - lines[1].index("a2") == 4


# ---------------------------------------------------------------------------
# Octagons with sockets
# ---------------------------------------------------------------------------

def test_octagon_neighbours_by_kind():
    g = Geometry("octagons", 4, 3)
    assert g.size == 12 + 6
    assert nb(g, "b2") == ["a2", "b1", "b3", "c2"]                      # octagons: orthogonal
    assert nb(g, "b2", "octagon") == nb(g, "b2")
    assert nb(g, "b2", "socket") == ["ab12", "ab23", "bc12", "bc23"]
    assert nb(g, "a1", "socket") == ["ab12"]
    assert nb(g, "d2", "socket") == ["cd12", "cd23"]
    assert nb(g, "bc23", "octagon") == ["b2", "b3", "c2", "c3"]
    assert nb(g, "bc23") == [] and nb(g, "bc23", "socket") == []         # sockets touch no socket
    assert nb(g, "b2", "hex") == []
    assert g.step(g.by_name["bc23"], "n") is None and g.line(g.by_name["bc23"], "e", 2) == []
    for s in range(g.size):
        if g.kinds[s] == "socket":
            corners = g.neighbours_of(s, "octagon")
            assert len(corners) == 4
            assert all(s in g.neighbours_of(o, "socket") for o in corners)
    assert sum(len(g.neighbours_of(o, "socket")) for o in range(12)) == 4 * 6


def test_octagon_distance_is_orthogonal():
    g = Geometry("octagons", 7, 7)
    c = g.by_name
    assert g.distance(c["a1"], c["g7"]) == 12
    assert g.distance(c["d4"], c["e5"]) == 2
    assert g.direction(c["a1"], c["b2"]) is None


def test_octagon_drawing_shows_socket_rows():
    g = Geometry("octagons", 2, 2)
    lines = g.draw(lambda cell: "S" if g.kinds[cell] == "socket" else g.names[cell]).splitlines()
    assert [line.split() for line in lines] == [["a", "b"], ["2", "a2", "b2"], ["S"], ["1", "a1", "b1"]]


# ---------------------------------------------------------------------------
# reachable: a per-step condition
# ---------------------------------------------------------------------------

def test_reachable_goes_around_an_obstacle_never_through_it():
    g = Geometry("squares", 5, 5)
    c = g.by_name
    wall = {c[n] for n in ("c1", "c2", "c3", "c4")}
    ok = lambda cell: cell not in wall
    out = reachable(g, c["a1"], 11, ok)
    assert not set(out) & wall and c["a1"] not in out
    assert c["e1"] not in out                               # a1 → a5 → e5 → e1 is 12 steps
    assert c["e1"] in reachable(g, c["a1"], 12, ok)
    assert names(g, reachable(g, c["b2"], 2, ok)) == ["a1", "a2", "a3", "b1", "b3", "b4"]
    assert c["d2"] not in reachable(g, c["b2"], 3, ok)      # not through c2
    assert len(reachable(g, c["a1"], 99, ok)) == 25 - 4 - 1


def test_reachable_is_nearest_first_and_checks_the_last_cell():
    g = Geometry("squares", 5, 5)
    c = g.by_name
    wall = {c[n] for n in ("c1", "c2", "c3", "c4")}
    out = reachable(g, c["a1"], 99, lambda cell: cell not in wall)
    expected = {"b1": 1, "a2": 1, "b4": 4, "c5": 6, "d5": 7, "e5": 8, "d1": 11, "e1": 12}
    pos = {g.names[x]: i for i, x in enumerate(out)}
    order = sorted(expected, key=lambda n: pos[n])
    assert [expected[n] for n in order] == sorted(expected.values())
    not_e1 = reachable(g, c["a1"], 99, lambda cell: cell not in wall and cell != c["e1"])
    assert c["e1"] not in not_e1 and c["d1"] in not_e1
    assert reachable(g, c["a1"], 0, lambda cell: True) == []


def test_reachable_on_hexes():
    out = reachable(HEX, HEX.by_name["f6"], 1, lambda cell: True)
    assert names(HEX, out) == nb(HEX, "f6")
    out = reachable(HEX, HEX.by_name["f6"], 2, lambda cell: True)
    assert sorted(out) == sorted(x for x in range(HEX.size) if 1 <= HEX.distance(HEX.by_name["f6"], x) <= 2)


PASSED_ON = """
game "Reach" {
  players 1
  board b: squares(5, 1)
  var walls: list[cell] = []
  var seen: int = 0
  def open_with(x: cell, extra: list[cell], limit: int) = not (x in walls) and not (x in extra) and x.col <= limit
  def far(extra: list[cell], limit: int) = size(reachable(cell(b, "a1"), 10, open_with, extra, limit))
  turn { step act {
    action block(w in cells(b)) as "block " + text(w) require far([w], 5) >= 2 { walls = walls + [w] }
    action measure { seen = 100 * far([], 3) + far([cell(b, "c1")], 5)  finish draw }
  } }
}
"""


def test_reachable_passes_the_values_after_the_def_s_name_on_to_it():
    """`reachable(c, n, def, x, y)` asks `def(cell, x, y)` of each cell entered: "is there still a
    path if this wall were placed" (a new author's Quoridor had to write its own search)."""
    game = rulelang.Game(rulelang.compile_source(PASSED_ON, "reach.rules"))
    m = game.new_match(1, seed=1)
    # a1 is where the walk starts (never entered); a wall on b1 or c1 leaves fewer than 2 cells
    assert [a.text for a in m.legal_actions()] == ["block a1", "block d1", "block e1", "measure"]
    m.apply("block e1")
    m.apply("measure")
    assert m.state()["vars"]["seen"] == 100 * 2 + 1     # b1 c1 up to column 3; only b1 past a wall on c1


@pytest.mark.parametrize("call,message", [
    ("reachable(cell(b, \"a1\"), 10, open_with, extra)",
     "`open_with` takes 3 arguments: `reachable` passes it the cell, then the 1 after its name"),
    ("reachable(cell(b, \"a1\"), 10, open_with, limit, extra)",
     "argument `extra` of `open_with` must be list of cell, not int"),
])
def test_reachable_s_passed_on_values_are_checked_against_the_def(call, message):
    source = PASSED_ON.replace('reachable(cell(b, "a1"), 10, open_with, extra, limit)', call)
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "reach.rules")
    assert message in str(err.value)


def test_compiled_ir_with_a_reachable_def_of_the_wrong_arity_is_refused():
    ir = rulelang.compile_source(PASSED_ON, "reach.rules")
    ir["defs"]["open_with"]["params"] = ir["defs"]["open_with"]["params"][:2]
    with pytest.raises(Exception) as err:
        rulelang.Game(ir)
    assert "`reachable` needs a def of one cell and 2 more arguments" in str(err.value)


# ---------------------------------------------------------------------------
# Valgarð: the board size is one edit (V2)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("side", [5, 9])
def test_valgard_board_size_is_one_edit(tmp_path, side):
    text = VALGARD.read_text(encoding="utf-8")
    assert text.count("octagons(7, 7)") == 1
    path = tmp_path / f"valgard{side}.rules"
    path.write_text(text.replace("octagons(7, 7)", f"octagons({side}, {side})"), encoding="utf-8")
    game = rulelang.load(str(path))
    g = game.geometry
    assert g.kinds.count("octagon") == side * side
    assert g.kinds.count("socket") == (side - 1) ** 2
    cols = "abcdefghi"[:side]
    m = game.new_match(players=2, seed=side)
    assert sorted(str(a) for a in m.legal_actions()) == [f"place {c}1" for c in cols]
    m.apply("place a1")
    assert sorted(str(a) for a in m.legal_actions()) == [f"place {c}{side}" for c in cols]
    rng = random.Random(side)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.outcome["results"] in (["win", "lose"], ["lose", "win"], ["draw", "draw"])
