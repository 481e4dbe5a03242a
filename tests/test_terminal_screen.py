"""The rule file decides what is on screen (issue 13): `internal` zones and variables are kept off
the screen (a view carries them, flagged), `show "Label" = E` shows a value with a label for people; Regicide and Valgarð show what a
player thinks in (health left, immunity in words, damage to pay, a board legend)."""
from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest

import rulelang
from rulelang.play.repl import render_view, run_repl

ROOT = Path(__file__).resolve().parent.parent

SCREEN = """
game "Screen" {
  players 2
  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone aside: pile, hidden, internal
  zone hand: set per player, owner
  var moves: int = 0, internal
  var turns: int = 0
  setup { for v in 1..4 { create Chip(v: v) in pool }  move top(pool) to aside }
  show "Chips left to take" = size(pool)
  show "Your hand is worth" = sum(c.v for c in hand[me])
  show def total = moves
  turn { step s {
    action take(c in pool) { move c to hand[me]  moves += 1  if size(pool) == 0 { finish draw } end turn }
  } }
}
"""


@pytest.fixture(scope="module")
def screen():
    return rulelang.Game(rulelang.compile_source(SCREEN, "screen.rules"))


def test_internal_zones_and_variables_are_in_the_view_but_off_the_screen(screen):
    """`internal` keeps bookkeeping off the screen only: a view (for programs: interop, bots,
    tools) carries it, flagged, as its visibility says (`aside` is hidden: its size only)."""
    m = screen.new_match(2, seed=1)
    for p in (0, 1):
        view = m.view(p)
        assert [z["name"] for z in view["zones"]] == ["pool", "aside", "hand", "hand"]
        aside = view["zones"][1]
        assert aside["internal"] is True and aside["cards"] is None and aside["count"] == 1
        assert [v["name"] for v in view["values"]] == ["moves", "turns", "Chips left to take", "Your hand is worth",
                                                       "total"]
        assert view["values"][0] == {"name": "moves", "value": 0, "internal": True}
        assert view["internal"] == ["aside", "moves"]
        shown = render_view(view)
        assert "aside" not in shown and "moves" not in shown and "turns: 0" in shown
    m.apply("take c1")
    assert m.view(0)["values"][-1] == {"name": "total", "value": 1}


def test_a_labelled_value_is_computed_for_each_viewer(screen):
    m = screen.new_match(2, seed=1)
    m.apply("take c3")
    labelled = {p: {v["name"]: v for v in m.view(p)["values"] if v.get("label")} for p in (0, 1)}
    assert labelled[0]["Your hand is worth"] == {"name": "Your hand is worth", "value": 3, "label": True}
    assert labelled[1]["Your hand is worth"]["value"] == 0
    assert labelled[0]["Chips left to take"]["value"] == 2


def test_the_screen_names_a_labelled_value_by_its_label(screen):
    out = io.StringIO()
    run_repl(screen, 2, 1, {}, {1: "random"}, io.StringIO("take c3\nquit\n"), out, None)
    text = out.getvalue()
    assert "  Chips left to take: 3\n  Your hand is worth: 0\n  total: 0\n" in text
    assert "aside" not in text and "moves" not in text


def test_the_ir_carries_labels_and_internal_zones_and_stays_valid(screen):
    ir = screen.ir
    schema = json.loads((ROOT / "rulelang" / "ir" / "schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(ir, schema)
    assert ir["defs"]["__show0"]["label"] == "Chips left to take" and ir["defs"]["__show0"]["show"] is True
    assert next(z for z in ir["zones"] if z["name"] == "aside")["internal"] is True
    moves = next(v for v in ir["vars"] if v["name"] == "moves")
    assert moves["visibility"] == "public" and moves["internal"] is True
    bad = json.loads(json.dumps(ir))
    bad["defs"]["__show0"]["label"] = 7
    with pytest.raises(rulelang.RuleError, match="label"):
        rulelang.Game(bad)


@pytest.mark.parametrize("edit, code, message", [
    (("var turns: int = 0", "var turns: int = 0, public, hidden, internal"), "E105", "more than one visibility"),
    (("zone aside: pile, hidden, internal", "zone aside: pile, hidden, internl"), "E105", "unknown zone property"),
    (('show "Chips left to take" = size(pool)', 'show "Chips" = size(pools)'), "E101", "unknown name `pools`"),
    (('show "Chips left to take" = size(pool)', 'show Chips = size(pool)'), "E001", "unexpected"),
])
def test_mistakes_are_diagnostics(edit, code, message):
    diags = rulelang.check_source(SCREEN.replace(*edit), "s.rules")[1]
    errors = [d for d in diags if d.severity == "error"]
    assert errors and errors[0].code == code and message in errors[0].message


def first_view(path: str, players: int, seat: int = 0, moves=()) -> tuple[rulelang.Match, str]:
    game = rulelang.load(str(ROOT / "games" / path))
    m = game.new_match(players, seed=3)
    for move in moves:
        m.apply(move)
    return m, render_view(m.view(seat))


def test_regicide_shows_what_a_player_thinks_in():
    m, text = first_view("regicide.rules", 2)
    for internal in ("staging", "box", "damage", "shield =", "immunity", "due", "paying"):
        assert internal not in text.replace("Enemy immune to", ""), internal
    assert "  Enemy health left: 20 of 20\n" in text
    assert "  Enemy attack: 10\n" in text
    assert "  Enemy immune to: ♥, its own suit: ♥ cards attack without their power\n" in text
    assert "  Damage to pay: 0\n" in text and text.endswith("  Hand limit: 7")
    m.apply("play 10♠")                                  # 10 damage to J♥; the shield takes 10 off its attack
    after = render_view(m.view(0))
    assert "  Enemy health left: 10 of 20\n" in after
    assert "  Shield from spades: 10\n" in after and "  Enemy attack: 0\n" in after


def test_regicide_shows_the_damage_to_pay_while_paying():
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    m = game.new_match(2, seed=3)
    m.apply("play 3♦")                                  # 3 damage; J♥ attacks for 10 in step 4
    assert m.state()["step"] == "suffer"
    assert "  Damage to pay: 10\n" in render_view(m.view(0))
    m.apply("discard 5♦")
    assert "  Damage to pay: 5\n" in render_view(m.view(0))


def test_valgard_names_your_side_and_explains_the_board():
    _, p2 = first_view("valgard.rules", 2, seat=1)
    assert "  You play: dark (D), from row 7\n" in p2 and "musterer" not in p2
    assert "  Board: L, D: a warrior · LL, DD: a Valkyrie · x: dead land · ◆: a rune" in p2
    _, p1 = first_view("valgard.rules", 2, seat=0)
    assert "  You play: light (L), from row 1\n" in p1 and "  Draw after turn: 300" in p1


WORDS = """
game "Words" {
  players 2
  enum Colour { red "Red", blue "Blue" }
  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone deck: pile, hidden
  var starter: player = 1
  var on_top: Chip = none
  var under: Chip = none
  var colour: Colour = blue
  var pointed: player = 0 per player
  setup { create Chip(v: 1) in pool  create Chip(v: 2) in deck  on_top = top(pool)  under = top(deck) }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_variable_holding_a_player_a_card_or_an_enum_value_is_shown_in_words():
    m = rulelang.Game(rulelang.compile_source(WORDS, "w.rules")).new_match(2)
    values = {v["name"]: v for v in m.view(0)["values"]}
    assert values["starter"] == {"name": "starter", "value": 1, "text": "P2"}
    assert values["on_top"]["text"] == "c1"
    assert values["under"]["text"] == "a hidden component"            # never the label of a hidden card
    assert values["under"]["value"] is None and values["on_top"]["value"] == 0   # nor its id (creation order)
    assert values["colour"]["text"] == "Blue" and values["pointed"]["texts"] == ["P1", "P1"]
    text = render_view(m.view(0))
    assert "  starter: P2\n  on top: c1\n  under: a hidden component\n  colour: Blue\n  pointed: P1 P1, P2 P1" in text


TURNLESS = """
game "Council" {
  players 3
  var leader: player = 0
  setup { leader = players[1]  goto propose }
  step propose by leader {
    action pass_on { leader = next(leader) }
    action stop { finish draw "done" }
  }
}
"""


def test_rules_with_no_turn_are_never_said_to_be_setting_up():
    """A new author's Resistance (its steps stand outside any `turn { }`) read `setting up` in its
    header all game long; a game with turns still says it before its first turn (Valgarð's
    placement)."""
    game = rulelang.Game(rulelang.compile_source(TURNLESS, "council.rules"))
    out = io.StringIO()
    run_repl(game, 3, 1, stdin=io.StringIO("pass on\nquit\n\n"), stdout=out)
    headers = [line for line in out.getvalue().splitlines() if line.startswith("== Council")]
    assert headers and not any("setting up" in line for line in headers), headers
    assert any("step propose" in line for line in headers), headers
    valgard = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    out = io.StringIO()
    run_repl(valgard, 2, 0, stdin=io.StringIO("quit\n\n"), stdout=out)
    assert "setting up" in out.getvalue()


WIDE = """
game "Wide" {
  players 1
  board b: squares(26, 2)
  turn { step s { action stop { finish draw "done" } } }
}
"""


def test_a_wide_board_is_cut_at_a_terminal_but_not_in_piped_output():
    """A new author's Backgammon, piped, lost two points to `(board cut: it needs 87 columns …)`:
    output that is no terminal has no width to keep to (language.md: piped output is not fitted)."""
    game = rulelang.Game(rulelang.compile_source(WIDE, "wide.rules"))
    piped = io.StringIO()
    run_repl(game, 1, 1, stdin=io.StringIO("board\nquit\n\n"), stdout=piped)
    assert "board cut" not in piped.getvalue()
    assert max(len(line) for line in piped.getvalue().splitlines()) > 80
    at_terminal = io.StringIO()
    run_repl(game, 1, 1, stdin=io.StringIO("board\nquit\n\n"), stdout=at_terminal, screen=(80, 24))
    assert "(board cut: it needs" in at_terminal.getvalue()


def test_table_piped_lists_every_choice_again():
    """After `table` the choices are said again; piped, in full (a new author's Backgammon read
    `N choices: type more to list them`, a terminal's words, in a file)."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules"))
    out = io.StringIO()
    run_repl(game, 2, 3, stdin=io.StringIO("table\nquit\n\n"), stdout=out)
    line = next(x for x in out.getvalue().splitlines() if x.startswith("  choices: "))
    assert len(line) > 80 and "1. " in line and "type more" not in line


FAMILY = """
game "Rows" {
  players 2
  enum Row { one, two, three }
  kind Tile { colour: text  label colour }
  zone pattern: pile per player per Row, public
  zone bag: pile, hidden
  setup {
    create Tile(colour: "red") in pattern[players[0], two]
    create Tile(colour: "blue") in pattern[players[1], three]
  }
  turn { step s { action stop { finish draw "done" } } }
}
"""


def test_look_at_a_family_of_zones_shows_every_place_or_the_one_named():
    """A new author's Azul: `look pattern` showed `pattern (P1, 1)` alone, one place of ten, with no
    word of the others, and `look pattern p2 3` found nothing (the comma in `(P2, 3)`)."""
    game = rulelang.Game(rulelang.compile_source(FAMILY, "rows.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("look pattern\nlook pattern p2\nlook pattern p2 three\nquit\n\n"),
             stdout=out)
    said = out.getvalue().split("P1> look pattern\n", 1)[1]
    mine, p2, one = said.split("P1> look pattern p2")[0], said.split("P1> ")[1], said.split("P1> ")[2]
    assert "pattern (P1, two): 1 tile" in mine and "red" in mine
    assert "pattern (P1, one), pattern (P1, three): empty" in mine and "P2" not in mine
    assert "pattern (P2, three): 1 tile" in p2 and "blue" in p2 and "pattern (P2, one), pattern (P2, two): empty" in p2
    assert "pattern (P2, three): 1 tile" in one and "empty" not in one


SECRET_HANDS = """
game "Hands" {
  players 2
  kind Card { name: text  label name }
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    create Card(name: "Ruby") in hand[players[0]]
    create Card(name: "Opal") in hand[players[1]]
    create Card(name: "Jade") in hand[players[1]]
  }
  turn { step s {
    action play(c in hand[me]) { move c to table  if me == players[1] { finish draw "done" } else { end turn } }
  } }
}
"""


def test_a_hot_seat_game_ends_on_what_every_player_at_the_terminal_sees():
    """A first hour's hot-seat Dozen War ended on P2's screen, with no hand-over: P2's hand in P1's
    sight. The last screen now shows what both players see (the table, each hand's size)."""
    game = rulelang.Game(rulelang.compile_source(SECRET_HANDS, "hands.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("play Ruby\n\nplay Opal\n"), stdout=out)
    text = out.getvalue()
    end = text[text.index("Game over"):]
    assert "as P1 and P2 all see it" in end, end
    assert "Jade" not in end and "hand (P2): 1 card" in end, end
    assert "Ruby" in end and "Opal" in end                  # (the table: both played there)


def test_a_family_s_empty_places_are_said_after_its_last_place_shown():
    """A new author's worker placement: `spot: the others empty` stood between `spot (Forest)` and
    `spot (Mine)` (at the first empty member's place)."""
    from rulelang.play.render import _zone_lines
    def zone(key, count):
        return {"name": "spot", "key_text": key, "count": count, "cards": [{"label": "w"}] * count,
                "visibility": "public", "kind": None, "pile": False}
    lines = _zone_lines([zone("Forest", 1), zone("Quarry", 0), zone("Mine", 1), zone("Town", 0), zone("Hall", 1)])
    assert [x.split(":")[0] for x in lines] == ["spot (Forest)", "spot (Mine)", "spot (Hall)", "spot"], lines
    assert lines[-1] == "spot: the others empty"
    assert _zone_lines([zone("Forest", 0), zone("Mine", 0)]) == ["spot: all empty"]


AUCTION = """
game "Auction" {
  players 2
  var high: int = 0
  turn { step s {
    action raise(n in high + 1..300) as "bid " + text(n) { high = n  end turn }
    action fold { finish draw "done" }
  } }
}
"""


def test_kinds_of_choices_are_named_as_their_texts_read():
    """A new author's Modern Art: `action raise … as "bid " + text(n)` was listed `raise (80)` under
    the page of choices, and `more bid` said no bid was possible while 300 were on offer."""
    game = rulelang.Game(rulelang.compile_source(AUCTION, "auction.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("more bid\nquit\n"), stdout=out, screen=(80, 24), pager=False)
    text = out.getvalue()
    assert "bid (300)" in text and "raise (300)" not in text, text
    after = text.split("P1> more bid", 1)[1]
    assert "  300. bid 300" in after and "no bid is possible" not in after, after


def test_the_choices_are_said_again_after_the_rules_are_paged():
    """A first hour at Valgarð: after `rules` was paged through, the board and the choices had scrolled
    away, and Enter gave a bare prompt."""
    valgard = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    out = io.StringIO()
    run_repl(valgard, 2, 1, stdin=io.StringIO("rules\n" + "\n" * 40 + "quit\n\n"), stdout=out, screen=(80, 24),
             pager=True)
    after = out.getvalue().split("P1> rules", 1)[1].split("P1> ", 1)[0]
    assert "choices: 1. place " in after or "choices: type more" in after, after[-600:]


PER_CELL = """
game "PerCell" {
  players 2
  kind Stone { n: int  label "stone " + text(n) }
  board b: squares(3, 3)
  zone pool: pile, hidden
  zone here: set per cell of b, public
  zone under: set per cell of b, hidden
  setup {
    for i in 1..3 { create Stone(n: i) in pool }
    move top(pool) to here[cell(b, "a1")]
    move top(pool) to under[cell(b, "c3")]
  }
  turn { step s { action stop { finish draw "done" } } }
}
"""


def test_look_at_a_zone_per_cell_lists_the_cells_holding_something():
    """A new author's Codenames: `look here` of a zone per cell read "no card or piece named 'here'"
    (language.md: `look ZONE` shows a zone's cards)."""
    game = rulelang.Game(rulelang.compile_source(PER_CELL, "percell.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("look here\nlook under\nquit\n"), stdout=out)
    text = out.getvalue()
    assert "here: on 1 cell\n  a1: stone 3\n" in text, text
    assert "under: on 1 cell\n  c3: 1 hidden\n" in text, text
