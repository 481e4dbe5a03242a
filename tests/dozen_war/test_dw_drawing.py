"""The map as text (the board's `draw glyph`, cell_width 5): units by owner, class and health, castles,
mountains, the warp and generals carrying map pieces, within 80 columns."""
from __future__ import annotations

from dw_helpers import Position, game, idx


def board_rows(m) -> dict[int, str]:
    lines = m.view(0)["board"].splitlines()
    return {int(line[:3]): line for line in lines[1:]}


def test_the_map_shows_units_castles_mountains_and_the_warp():
    p = (Position(4).general(0, "Hawk Eye", "e5", pieces=2).soldier(0, "infantry", "e5", n=2)
         .general(1, "Iron Warden", "g5", hp=2).soldier(2, "infantry", "b5").soldier(2, "cavalry", "b5")
         .soldier(3, "archer", "f8").var("warp", None, idx("f6")).var("mount", idx("f6"), False)
         .castle("South cavalry castle", 1).var("ground", idx("d3"), 2))
    m = p.match()
    board = m.view(0)["board"]
    assert max(len(line) for line in board.splitlines()) <= 80
    rows = board_rows(m)
    cells5 = rows[5].split()
    assert cells5[:8] == ["5", ".", "3i1c1", ".", ".", "1A3*2", ".", "2I2"]   # Hawk Eye: 3 hp, pieces, 2 soldiers
    assert "4^a" in rows[8].split()                           # P4's archer on the North Hill
    assert rows[3].split()[4] == "m2"                         # map pieces lying on d3: not the general's "*"
    assert "@-" in rows[6].split() and "^-" in rows[6].split()      # (no token buried under them here)
    assert "#2C1" in rows[1].split() and "#2I2" in rows[1].split()
    units = [v for v in m.view(0)["values"] if v["name"].startswith("Units")][0]["value"]
    assert "e5 P1: Hawk Eye (A) 3hp +2 pieces, 2 infantry" in units
    assert "g5 P2: Iron Warden (I) 2hp" in units


def test_a_map_wider_than_the_terminal_is_cut_not_wrapped():
    """At 60 columns the 70-column map wrapped its last columns onto the next row (a first-hour
    trial could not read it): each row is cut at the edge, and the screen says so."""
    from rulelang.play.render import view_parts
    view = game.new_match(2, seed=1).view(0)
    full = view_parts(view, 80)["board"]
    cut = view_parts(view, 60)["board"]
    assert max(map(len, full)) == 70 and len(cut) == len(full) + 1
    assert all(len(line) <= 60 for line in cut)
    assert [line[:59] for line in cut[:-1]] == [line[:59] for line in full]      # the same rows, cut
    assert cut[-1] == "  (board cut: it needs 70 columns; widen the terminal)"


def test_the_map_tells_a_mountain_with_a_token_from_one_without():
    """A first hour at the terminal: every mountain read `^` all game, dug or not (and `look` said a
    token lies under it), so nobody could tell where a dig was still worth it, public as it is. A
    mountain with nothing under it (dug, or none buried: 3 players) is `^-`, the volcano `V-`."""
    import random
    m = game.new_match(3, seed=1)
    rng = random.Random(1)
    while m.pending is not None or m.turn_count < 1:       # (the draft and the set-up done)
        m.apply(rng.choice(m.legal_actions()))
    view = m.view(0)
    rows = board_rows(m)
    empty = 0
    for name, cell in view["cells"].items():
        if not cell.get("mount"):
            continue
        col, row = "abcdefghijk".index(name[0]), int(name[1:])
        glyph = rows[row][5 + 6 * col - (0 if row % 2 else -3):][:5].split()[0]
        assert glyph in ("^", "V") if cell.get("buried") else glyph in ("^-", "V-"), (name, glyph, cell)
        empty += not cell.get("buried")
    assert empty == 3


def test_a_mountain_that_never_had_a_token_is_not_called_dug():
    """A rules lawyer: with 3 players (or the alliance) some mountains never get a token. They drew
    `^-`, which the key called "dug, none left", and their `look` said "A token lies under it". They
    keep `^-` (what a player needs is whether a dig is still worth it, the same either way; a third
    glyph would tell only history, which the log tells), and the key and the texts say what it means."""
    m = Position(3).bury("c9", "Map piece").match()
    rows = board_rows(m)
    assert rows[9].split()[3] == "^" and rows[9].split()[9] == "^-"          # c9 holds one, i9 never did
    assert rows[6].split()[6] == "V-"
    key = " ".join(m.game.ir["boards"][0]["legend"])
    assert "^-: no token under it, dug or none buried there" in key and "V-: no token under it" in key
    assert "dug, none left" not in key and "its token dug" not in key
    for label in ("Northeast Peak", "Volcano"):
        text = m.rules_text(m.labels.index(label), 0)
        assert "A token lies under it until" not in text and "(^- on the map: dug)" not in text, text
        assert "some get none" in text
    assert "^-: no token lies under it (dug, or none buried there)" in m.rules_text(m.labels.index("Northeast Peak"), 0)
    assert "V-: no token lies under it (dug, or none buried there)" in m.rules_text(m.labels.index("Volcano"), 0)


def test_the_units_list_says_what_lies_under_units_and_the_warp_whether_a_token_waits():
    """A rules audit: 2 map pieces lying under P1's infantry drew `1i1` and Units said
    "e5 P1: 1 infantry" — nobody could tell that killing it takes 2 pieces off P1's count (D13);
    an archer on a mountain drew `2^a` with or without a token under it; and the warp drew `@` whether
    the volcano's token still waited there (D4) or not."""
    p = (Position(2).soldier(0, "infantry", "e5").var("ground", idx("e5"), 2).var("ground", idx("b5"), 1)
         .soldier(1, "archer", "c3").bury("c3", "Map piece").soldier(1, "archer", "i9"))
    m = p.match()
    units = [v for v in m.view(0)["values"] if v["name"].startswith("Units")][0]["value"]
    assert "e5 P1 [2 map pieces lying]: 1 infantry" in units
    assert "c3 P2 [a token under it]: 1 archer" in units and "i9 P2 [no token under it]: 1 archer" in units
    assert board_rows(m)[5].split()[2] == "m1"                              # lying on an empty cell: drawn
    opened = Position(2).var("warp", None, idx("f6")).var("mount", idx("f6"), False)
    assert "@-" in board_rows(opened.match())[6].split()
    assert "@" in board_rows(opened.bury("f6", "Map piece").match())[6].split()
