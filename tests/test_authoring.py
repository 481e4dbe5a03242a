"""What a new game's author hits first (issue 14): families per enum value and combined families,
nested comprehensions, and the diagnostics that explain the rest. Each test builds an exact position
in a tiny game and checks the exact result (or the exact diagnostic)."""
from __future__ import annotations

import pytest

import rulelang
from rulelang import Match

FAMILIES = """
game "Expeditions" {
  enum Colour { red "R", blue "B", green "G" }
  kind Card { colour: Colour  v: int  label text(colour) + text(v) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone trail: pile per player per Colour, owner
  zone discard: pile per Colour, public
  var spent: int = 0 per Colour
  var played: int = 0 per player per Colour
  var bonus: int = if me == 0 then 10 else 20 per player per Colour, owner
  setup {
    for c in Colour { for v in 1..2 { create Card(colour: c, v: v) in deck } }
    repeat 3 { move top(deck) to hand[0]  move top(deck) to hand[1] }
  }
  turn { step play {
    action lay(c in hand[me]) { move c to trail[me, c.colour]  played[me, c.colour] += 1  end turn }
    action toss(c in hand[me]) { move c to discard[c.colour]  spent[c.colour] += c.v  end turn }
  } }
  when all(size(hand[p]) == 0 for p in players) { finish by score }
  players 2 ranked by sum(c.v for col in Colour for c in trail[me, col])
}
"""


def game(text: str = FAMILIES) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(text, "t.rules"))


def lint(text: str) -> list[str]:
    from rulelang import check_source
    _, diags = check_source(text, "t.rules")
    return [f"{d.code} {d.message}" for d in diags]


def test_a_zone_per_enum_value_and_per_player_per_enum_value():
    g = game()
    m = g.new_match(2, seed=3)
    state = m.state()
    assert len(state["zones"]["trail"]) == 6          # 2 players x 3 colours, the colour varying fastest
    assert len(state["zones"]["discard"]) == 3
    card = state["zones"]["hand"][0][0]
    label = m.view(0)["zones"][1]["cards"][0]["label"]
    colour = {"R": 0, "B": 1, "G": 2}[label[0]]
    m.apply(f"lay {label}")
    after = m.state()
    assert after["zones"]["trail"][colour] == [card]                  # trail[P1, that colour]
    assert sum(map(len, after["zones"]["trail"])) == 1
    assert after["vars"]["played"][colour] == 1 and sum(after["vars"]["played"]) == 1


def test_a_variable_per_enum_value_is_indexed_by_the_value():
    g = game()
    m = g.new_match(2, seed=3)
    label = m.view(0)["zones"][1]["cards"][0]["label"]
    m.apply(f"toss {label}")
    spent = m.state()["vars"]["spent"]
    assert spent == [int(label[1]) if "RBG"[i] == label[0] else 0 for i in range(3)]


def test_a_combined_family_with_a_player_part_gives_each_member_its_owner():
    m = game().new_match(2, seed=3)
    label = m.view(0)["zones"][1]["cards"][0]["label"]
    m.apply(f"lay {label}")
    mine = [z for z in m.view(0)["zones"] if z["name"] == "trail"]
    theirs = [z for z in m.view(1)["zones"] if z["name"] == "trail"]
    assert [z["key_text"] for z in mine] == ["P1, R", "P1, B", "P1, G", "P2, R", "P2, B", "P2, G"]
    assert [z["owner"] for z in mine] == [0, 0, 0, 1, 1, 1]
    assert all(z["cards"] is not None for z in mine[:3]) and all(z["cards"] is None for z in mine[3:])
    assert all(z["cards"] is None for z in theirs[:3])               # P2 does not see P1's trails
    assert sum(z["count"] for z in theirs) == 1                      # only how many


def test_the_initial_value_of_a_combined_family_sees_the_members_player_as_me():
    m = game().new_match(2, seed=0)
    assert m.state()["vars"]["bonus"] == [10, 10, 10, 20, 20, 20]
    row = next(v for v in m.view(1)["values"] if v["name"] == "bonus")["per_key"]
    assert [x["value"] for x in row] == [None, None, None, 20, 20, 20]  # owner: P2 sees only its own
    assert [x["key"] for x in row[:2]] == [[0, "red"], [0, "blue"]]


def test_a_keyed_family_round_trips_through_state_and_refuses_a_wrong_size():
    g = game()
    m = g.new_match(2, seed=5)
    m.apply(m.legal_actions()[0])
    assert Match.from_state(g, m.state()).state() == m.state()
    bad = m.state()
    bad["zones"]["trail"] = bad["zones"]["trail"][:5]
    with pytest.raises(rulelang.StateError, match="one list per player per enum:Colour"):
        Match.from_state(g, bad)


def test_nested_comprehension_loops_run_outer_first():
    g = game(FAMILIES.replace('var spent: int = 0 per Colour',
                              'var spent: int = 0 per Colour\n  def pairs = [a * 10 + b for a in 1..2 for b in [a, 5] where b != 2]\n'
                              '  show def shown = pairs'))
    m = g.new_match(2, seed=0)
    assert next(v for v in m.view(0)["values"] if v["name"] == "shown")["value"] == [11, 15, 25]


def test_nested_comprehension_with_an_order_and_an_aggregate():
    text = FAMILIES.replace('var spent: int = 0 per Colour',
                            'var spent: int = 0 per Colour\n'
                            '  show def s = [a + b for a in [1, 2] for b in [30, 10] by -(a + b)]\n'
                            '  show def n = sum(a * b for a in 1..3 for b in 1..a)')
    values = {v["name"]: v.get("value") for v in game(text).new_match(2, seed=0).view(0)["values"]}
    assert values["s"] == [32, 31, 12, 11]
    assert values["n"] == 1 + (2 + 4) + (3 + 6 + 9)


@pytest.mark.parametrize("decl, index, message", [
    ("zone z: pile per player per Colour", "z[me]", "E201 `z` is per player per Colour: name one of each, e.g. `z[me, red]`"),
    ("zone z: pile per player per Colour", "z[red, me]", "E201 the player of `z[…]` must be player, not Colour"),
    ("zone z: pile per Colour", "z[me]", "E201 the index of `z` must be Colour, not player"),
])
def test_a_wrong_member_of_a_family_is_explained(decl, index, message):
    text = FAMILIES.replace("zone deck: pile, hidden", f"zone deck: pile, hidden\n  {decl}").replace(
        "end turn }\n    action toss", f"move c to {index}  end turn }}\n    action toss")
    assert any(d.startswith(message) for d in lint(text)), lint(text)


def test_what_a_family_may_be_declared_per_is_listed_in_the_error():
    text = FAMILIES.replace("var spent: int = 0 per Colour", "var spent: int = 0 per Colours")
    (msg,) = [d for d in lint(text) if d.startswith("E105")]
    assert "`per ENUM`" in msg and "per player per Colour" in msg and "`per KIND`" in msg


def test_a_family_per_component_cannot_be_combined_and_a_part_cannot_repeat():
    text = FAMILIES.replace("var spent: int = 0 per Colour", "var spent: int = 0 per Card per player")
    assert any("cannot be combined" in d for d in lint(text))
    text = FAMILIES.replace("var spent: int = 0 per Colour", "var spent: int = 0 per Colour per Colour")
    assert any("per `Colour` twice" in d for d in lint(text))


def test_an_owner_zone_needs_a_player_part():
    text = FAMILIES.replace("zone discard: pile per Colour, public", "zone discard: pile per Colour, owner")
    assert any("seen by its `owner` but is not declared `per player`" in d for d in lint(text))


def test_a_hand_made_ir_must_index_a_combined_family_by_one_value_per_part():
    ir = rulelang.compile_source(FAMILIES, "t.rules")
    lay = next(s for s in ir["steps"] if s["name"] == "play")["actions"][0]["body"][0]
    assert lay["s"] == "move" and lay["to"]["i"]["k"] == "list"
    lay["to"]["i"] = lay["to"]["i"]["items"][0]
    with pytest.raises(rulelang.RuleError, match="index it by a list of 2 values"):
        rulelang.Game(ir)


SMALL = """
game "Small" {{
  players 3
  kind Chip {{ v: int  label "chip " + text(v) }}
  zone pool: pile, public
  {decls}
  setup {{ for v in [3, 1, 2] {{ create Chip(v: v) in pool }} {setup} }}
  turn {{ step go {{ action go {{ {body} }}  action stop {{ finish draw }} }} }}
}}
"""


def small(decls: str = "", body: str = "", setup: str = "") -> rulelang.Match:
    g = game(SMALL.format(decls=decls, body=body, setup=setup))
    return g.new_match(3, seed=0)


def test_count_of_true_false_values_counts_the_true_ones():
    m = small("show def a = count([true, false, true])\n"
              "  show def b = count(c.v > 1 for c in pool)\n"
              "  show def c = count(c for c in pool where c.v > 1)\n"
              "  show def d = count([c.v for c in pool])")
    values = {v["name"]: v["value"] for v in m.view(0)["values"]}
    assert values == {"a": 2, "b": 2, "c": 2, "d": 3}


def test_an_untyped_parameter_every_call_gives_a_player_is_shown_as_a_player():
    m = small("proc tell(q, c) { log text(q) + \" has \" + text(c) }", setup="tell(next(me), top(pool))")
    assert m.messages_for(0) == ["P2 has chip 2"]


def test_an_untyped_parameter_every_call_gives_a_list_of_players_is_shown_as_players():
    """A new author's `proc announce(ws) { log text(ws) }` called with `remaining` logged `0, 1`."""
    m = small("proc tell(ws, cs) { log text(ws) + \" / \" + text(first(ws)) + \" / \" + text(cs) }",
              setup="tell(remaining, [c for c in pool where c.v > 1])  tell([next(me)], [top(pool)])")
    assert m.messages_for(0) == ["P1 P2 P3 / P1 / chip 3 chip 2", "P2 / P2 / chip 2"]


def test_a_body_that_does_not_fit_the_calls_list_type_keeps_the_parameter_plain():
    m = small("proc tally(ws) { log text(sum(ws)) }", setup="tally(remaining)")
    assert m.messages_for(0) == ["3"]


def test_an_untyped_parameter_given_different_kinds_of_value_stays_plain():
    m = small("proc tell(q) { log text(q) }", setup="tell(1)  tell(next(me))")
    assert m.messages_for(0) == ["1", "1"]


def test_max_and_min_take_a_value_for_an_empty_list():
    m = small("zone none_here: pile, public\n"
              "  show def a = max(c.v for c in none_here, -1)\n"
              "  show def b = min([c.v for c in none_here], 7)\n"
              "  show def c = max(c.v for c in pool, 0)\n"
              "  show def d = min([c.v for c in pool], 0)")
    values = {v["name"]: v["value"] for v in m.view(0)["values"]}
    assert values == {"a": -1, "b": 7, "c": 3, "d": 1}


@pytest.mark.parametrize("expr, warned", [
    ("max(c.v for c in pool)", True),
    ("min([c.v for c in pool])", True),
    ("max(c.v for c in pool, 0)", False),
    ("max([1, 2])", False),
    ("max(p for p in players)", False),
    ("max(i for i in 1..3)", False),
    ("if size(pool) > 0 then max(c.v for c in pool) else 0", False),
    ("size(pool) > 0 and max(c.v for c in pool) > 1", False),
    ("max(0, size(pool))", False),
    ("max(p for p in players where p != me)", False),      # (the others: the game is for 2 players)
    ("max(p for p in players where me != p)", False),
    ("min([p for p in others])", False),
    ("max(p for p in players where p != 1)", True),
])
def test_w216_warns_of_max_or_min_of_a_list_that_may_be_empty(expr, warned):
    text = SMALL.format(decls=f"show def x = {expr}", body="", setup="")
    assert any(d.startswith("W216") for d in lint(text)) == warned, lint(text)


def test_w216_warns_of_the_others_where_one_player_may_play_alone():
    text = SMALL.format(decls="show def x = max(p for p in players where p != me)", body="", setup="")
    assert any(d.startswith("W216") for d in lint(text.replace("players 3", "players 1..3")))


def test_the_deep_lint_reports_a_rule_error_as_an_error_at_the_failing_call(tmp_path):
    path = tmp_path / "e.rules"
    path.write_text(SMALL.format(decls="zone gone: pile, public",
                                 body="log text(max(c.v for c in pool))  move top(pool) to gone  end turn", setup=""))
    found = rulelang.deep_lint(str(path), games=100, seed=0)
    (f,) = [d for d in found if d.code == "E414"]
    assert f.severity == "error" and "`max` of an empty list" in f.message
    line = path.read_text().splitlines()[f.span.line - 1]
    assert line[f.span.column - 1:].startswith("max(c.v for c in pool)")


# -- boards: shapes, edges, cells by column and row, lines ---------------------------------------

BOARD = """
game "Board" {{
  players 2
  board b: {shape}
  kind Stone {{ owner: player  label text(owner) }}
  zone at: set per cell of b, public, capacity 1
  def owned(p: player) = [c for c in cells(b) where size(at[c]) == 1 and top(at[c]).owner == p]
  {decls}
  setup {{ {setup} }}
  turn {{ step place {{
    action place(c in cells(b)) as "place at " + text(c) require size(at[c]) == 0 {{
      create Stone(owner: me) in at[c]  end turn }}
  }} }}
  on stuck {{ finish draw }}
}}
"""


def board_values(shape: str, decls: str, setup: str = "") -> dict:
    g = game(BOARD.format(shape=shape, decls=decls, setup=setup))
    m = g.new_match(2, seed=0)
    return {v["name"]: v.get("value") for v in m.view(0)["values"]}


def test_a_rhombus_has_rows_shifted_up_and_right_and_four_edges():
    v = board_values("rhombus(4, 3)", 'show def n = [text(c) for c in edge(b, "n")]\n'
                     '  show def e = [text(c) for c in edge(b, "e")]\n'
                     '  show def around = sort([text(x) for x in neighbours(cell(b, "b2"))])\n'
                     '  show def many = size(cells(b))')
    assert v["n"] == ["a3", "b3", "c3", "d3"] and v["e"] == ["d1", "d2", "d3"]
    assert v["around"] == ["a2", "a3", "b1", "b3", "c1", "c2"]     # axial: b3 is up-right, a3 up-left
    assert v["many"] == 12


def test_a_hexagon_of_side_3_has_19_cells_and_six_sides():
    v = board_values("hexagon(3)", 'show def many = size(cells(b))\n'
                     '  show def ne = [text(c) for c in edge(b, "ne")]\n'
                     '  show def sw = [text(c) for c in edge(b, "sw")]\n'
                     '  show def middle = size(neighbours(cell(b, 3, 3)))\n'
                     '  show def off = cell(b, 1, 1) == none')
    assert v["many"] == 19 and v["middle"] == 6 and v["off"] is True
    assert v["ne"] == ["e3", "d4", "c5"] and v["sw"] == ["c1", "b2", "a3"]


def test_a_rhombus_is_drawn_in_80_columns_with_each_row_shifted():
    g = game(BOARD.format(shape="rhombus(11, 11)", decls="", setup=""))
    drawing = g.new_match(2, seed=0).view(0)["board"]
    lines = drawing.splitlines()
    assert max(map(len, lines)) <= 80
    row11, row1 = next(x for x in lines if x.startswith(" 11")), next(x for x in lines if x.startswith("  1 "))
    assert row11.index(".") - row1.index(".") == 20                 # ten rows, half a cell (2) each


def test_cell_by_column_and_row_and_where_row_1_is():
    v = board_values("squares(3, 4)", 'show def c = text(cell(b, 3, 1))\n  show def upper = [text(c) for c in edge(b, "n")]')
    assert v == {"c": "c1", "upper": ["a4", "b4", "c4"]}


def test_line_in_and_opposite_count_n_in_a_row():
    decls = ('def longest(c: cell, p: player) = max(1 + size(line_in(c, d, owned(p))) + '
             'size(line_in(c, opposite(d), owned(p))) for d in directions(b))\n'
             '  show def through_b2 = longest(cell(b, "b2"), 0)\n'
             '  show def east = [text(x) for x in line_in(cell(b, "a2"), "e", owned(0))]\n'
             '  show def opp = [opposite(d) for d in directions(b)]')
    setup = " ".join(f'create Stone(owner: 0) in at[cell(b, "{x}")]' for x in ("a2", "b2", "c2", "b3", "d4"))
    v = board_values("squares(5, 5), diagonal", decls, setup)
    assert v["east"] == ["b2", "c2"]                      # not a2 itself; stops at the gap at d2
    assert v["through_b2"] == 3
    assert v["opp"] == ["s", "n", "w", "e", "sw", "se", "nw", "ne"]


def test_an_author_written_action_text_is_the_action():
    g = game(BOARD.format(shape="squares(2, 1)", decls="", setup=""))
    m = g.new_match(2, seed=0)
    assert [a.text for a in m.legal_actions()] == ["place at a1", "place at b1"]
    m.apply("place at b1")
    assert [a.text for a in m.legal_actions()] == ["place at a1"]


def test_an_action_text_may_not_read_the_match():
    text = BOARD.format(shape="squares(2, 1)", decls="var n: int = 0", setup="").replace(
        'as "place at " + text(c)', 'as "place at " + text(c) + text(n)')
    assert any("an action's text is worked out once" in d and "`n`" in d for d in lint(text))


@pytest.mark.parametrize("shape, message", [
    ("hexagon(3, 3)", "E103 a hexagon's size is one number"),
    ("hexagon(14)", "E203 a hexagon's side must be between 1 and 13"),
    ("rhombus(3)", "E103 a board's size is two numbers"),
])
def test_board_sizes_are_checked(shape, message):
    assert any(d.startswith(message) for d in lint(BOARD.format(shape=shape, decls="", setup=""))), \
        lint(BOARD.format(shape=shape, decls="", setup=""))


# -- rounds, turn order, elimination ------------------------------------------------------------

ROUNDS = """
game "Rounds" {
  var score: int = 0 per player
  var starts: list[int] = []
  var ends: list[int] = []
  on round_start { append round_count to starts }
  on round_end { append round_count to ends  if round_count == 2 { turn_order = reverse(turn_order) } }
  turn { step act {
    action gain { score[me] += 1  end turn }
    action quit { eliminate me  end turn }
    action skip_next { end turn to next(next(me)) }
  } }
  show def after_me = others
  show def from_me = players_from(me)
  show def still_in = remaining
  show def out_now = [p for p in players where eliminated(p)]
  when size(remaining) == 1 { finish win for remaining "last one in" }
  when round_count > 5 { finish by score }
  players 2..4 ranked by score[me]
}
"""


def test_rounds_run_their_handlers_and_a_new_turn_order_starts_with_the_next_round():
    m = game(ROUNDS).new_match(3, seed=0)
    seen = []
    for _ in range(9):
        seen.append((m.view(0)["round"], m.current_player))
        m.apply("gain")
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 2), (3, 1), (3, 0)]
    state = m.state()
    assert state["vars"]["starts"] == [1, 2, 3, 4] and state["vars"]["ends"] == [1, 2, 3]
    assert state["rounds"] == {"round": 4, "order": [2, 1, 0], "eliminated": []}


def test_an_eliminated_player_is_skipped_and_left_out_of_others_and_remaining():
    m = game(ROUNDS).new_match(4, seed=0)
    m.apply("gain")                  # P1
    m.apply("quit")                  # P2 is out
    assert m.current_player == 2
    values = {v["name"]: v.get("value") for v in m.view(2)["values"]}
    assert values["after_me"] == ["P4", "P1"] and values["still_in"] == ["P1", "P3", "P4"]
    assert values["out_now"] == ["P2"]
    assert values["from_me"] == ["P3", "P4", "P1", "P2"]                # every seat, from me, in turn order                      # every seat, from me, in turn order
    m.apply("gain")
    m.apply("gain")                  # P4; round 2 starts with P1, then P3 (P2 skipped)
    assert (m.view(0)["round"], m.current_player) == (2, 0)
    m.apply("gain")
    assert m.current_player == 2
    assert game(ROUNDS).new_match(4, seed=0).view(0)["eliminated"] == []


def test_going_back_in_the_turn_order_starts_a_new_round():
    m = game(ROUNDS).new_match(3, seed=0)
    m.apply("gain")
    m.apply("skip next")             # P2 passes to next(next(P2)) = P1: back, so round 2
    assert (m.view(0)["round"], m.current_player) == (2, 0)


def test_the_last_player_in_wins_and_the_position_round_trips():
    g = game(ROUNDS)
    m = g.new_match(3, seed=0)
    m.apply("quit")
    saved = m.state()
    assert Match.from_state(g, saved).state() == saved
    m.apply("quit")
    assert m.outcome["results"] == ["lose", "lose", "win"] and m.outcome["reason"] == "last one in"


def test_a_bad_saved_turn_order_is_refused():
    g = game(ROUNDS)
    bad = g.new_match(3, seed=0).state()
    bad["rounds"]["order"] = [0, 0, 1]
    with pytest.raises(rulelang.StateError, match="turn order must name every seat once"):
        Match.from_state(g, bad)


def test_a_game_without_rounds_keeps_no_round_state():
    m = small()
    assert "rounds" not in m.state() and "round" not in m.view(0)


# -- a pile that shows only its top -----------------------------------------------------------------

TOP = """
game "Discard" {
  players 2
  kind Card { v: int  label "card " + text(v) }
  zone deck: pile, hidden
  zone discard: pile, public, top
  var buried: Card = none
  setup { for v in 1..4 { create Card(v: v) in deck }  repeat 3 { move top(deck) to discard }  buried = bottom(discard) }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_top_only_pile_shows_its_top_and_how_many():
    m = game(TOP).new_match(2, seed=0)
    (zone,) = [z for z in m.view(1)["zones"] if z["name"] == "discard"]
    state = m.state()
    top_id = state["zones"]["discard"][-1]
    assert zone["count"] == 3 and zone["top_only"] is True
    assert zone["cards"] == [{"id": top_id, "label": state["components"][top_id]["label"]}]
    buried = next(v for v in m.view(1)["values"] if v["name"] == "buried")
    assert buried["text"] == "a hidden component" and buried["value"] is None      # under the top: unseen
    from rulelang.play.repl import render_zone
    assert render_zone(zone) == f"discard: 3 cards, top: {state['components'][top_id]['label']}"


def test_a_determinized_copy_may_deal_the_cards_under_the_top_anew():
    m = game(TOP).new_match(2, seed=0)
    top_id = m.state()["zones"]["discard"][-1]
    under = {tuple(m.determinized(0, s).state()["zones"]["discard"][:-1]) for s in range(12)}
    assert all(m.determinized(0, s).state()["zones"]["discard"][-1] == top_id for s in range(5))
    assert len(under) > 1


def test_top_needs_a_public_pile():
    assert any("shows only its `top`: it must be a public `pile`" in d
               for d in lint(TOP.replace("zone discard: pile, public, top", "zone discard: set, public, top")))


def test_joining_a_list_literal_and_a_list_type_checks():
    text = SMALL.format(decls="show def joined = [top(pool)] + [c for c in pool where c.v > 1]\n"
                              "  show def third = ([1] + [2, 3])[2]", body="", setup="")
    assert [d for d in lint(text) if d.startswith("E")] == []
    values = {v["name"]: v["value"] for v in game(text).new_match(3, seed=0).view(0)["values"]}
    assert values["joined"] == ["chip 2", "chip 3", "chip 2"] and values["third"] == 3


def test_a_board_declares_how_wide_a_cell_is_drawn():
    g = game(BOARD.format(shape="hexes(11, 11), cell_width 5", decls="", setup=""))
    lines = g.new_match(2, seed=0).view(0)["board"].splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0].split() == list("abcdefghijk")
    assert lines[0].index("b") - lines[0].index("a") == 6                # five characters and a space
    assert any("cell_width" in d for d in lint(BOARD.format(shape="squares(3, 3), cell_width 12", decls="", setup="")))


def test_a_long_zone_line_is_wrapped_with_a_hanging_indent():
    from rulelang.play.repl import render_view
    # (chips that differ: alike ones are said once, `chip 7 ×40`)
    text = SMALL.format(decls="zone heap: pile, public", body="", setup="for i in 1..40 { create Chip(v: i) in heap }")
    screen = render_view(game(text).new_match(3, seed=0).view(0))
    lines = screen.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("  heap:"))
    heap = [lines[start]] + [x for x in lines[start + 1:start + 12] if x.startswith("      ")]
    assert len(heap) > 1 and heap[0].startswith("  heap: 40 chips") and all(x.startswith("      ") for x in heap[1:])
    assert all(len(x) <= 80 for x in screen.splitlines())


def test_a_game_that_ends_at_the_end_of_a_round_lints_clean_and_explains_itself(tmp_path, capsys):
    path = tmp_path / "r.rules"
    path.write_text('game "R" {\n  players 2\n  var n: int = 0\n'
                    '  on round_end { if round_count == 3 { finish draw "three rounds" } }\n'
                    '  turn { step a { action go { n += 1  end turn } } }\n}\n')
    assert rulelang.lint([str(path)])[0] == []
    from rulelang.cli import main
    assert main(["rules", str(path)]) == 0
    assert "“three rounds” (at the end of a round)" in capsys.readouterr().out
    m = rulelang.load(str(path)).new_match(2, seed=0)
    for _ in range(6):
        m.apply("go")
    assert m.outcome["reason"] == "three rounds" and m.view(0)["round"] == 3


def test_naming_a_family_member_by_none_is_a_rule_error_in_words():
    text = FAMILIES.replace("var spent: int = 0 per Colour", "var spent: int = 0 per Colour\n  var chosen: Colour = none").replace(
        "action toss(c in hand[me]) { move c to discard[c.colour]", "action toss(c in hand[me]) { move c to discard[chosen]")
    m = game(text).new_match(2, seed=0)
    toss = next(a for a in m.legal_actions() if a.text.startswith("toss"))
    with pytest.raises(rulelang.RuleRuntimeError, match="a member of a family per Colour is named by one of its values, not none"):
        m.apply(toss)


def test_a_field_of_none_is_a_rule_error_in_words():
    m = small(body="log text(top(pool).v)  move top(pool) to pool  end turn",
              decls="zone gone: pile, public", setup="move pool to gone")
    with pytest.raises(rulelang.RuleRuntimeError, match="`none` where a component, a player or a cell was due"):
        m.apply("go")


def test_an_action_text_that_uses_no_parameter_is_warned_of():
    text = BOARD.format(shape="squares(2, 1)", decls="", setup="").replace(
        'as "place at " + text(c)', 'as "place a stone"')
    assert any(d.startswith("W219") for d in lint(text)), lint(text)


def test_w218_stays_on_when_the_action_text_names_the_hidden_card():
    hidden = TOP.replace("turn { step s { action go { finish draw } } }",
                         "turn { step s { action peek(c in deck) as \"peek \" + text(c) { finish draw } } }")
    assert any(d.startswith("W218") for d in lint(hidden)), lint(hidden)
    quiet = hidden.replace('as "peek " + text(c)', 'as "peek at card " + text(c.v - c.v + 1)')
    assert any(d.startswith("W218") for d in lint(quiet))             # it still reads c
    blind = TOP.replace("turn { step s { action go { finish draw } } }",
                        "turn { step s { action peek as \"peek\" { finish draw } } }")
    assert not any(d.startswith("W218") for d in lint(blind))


def test_max_over_an_enum_is_never_empty():
    text = FAMILIES.replace("var spent: int = 0 per Colour",
                            "var spent: int = 0 per Colour\n  show def hottest = max(spent[c] for c in Colour)")
    assert not any(d.startswith("W216") for d in lint(text))


# -- a window that asks even those with nothing to respond with ----------------------------------

WINDOW = """
game "Duel" {
  players 3
  kind Card { v: int  owner: player  label "card " + text(v) }
  zone hand: set per player, owner
  zone gone: pile, public
  var hits: int = 0
  window defend(t: player)
  card Card "Shield" { v: 1 copies: 1
    on defend(t) from hand where t == self.owner { move self to gone  hits -= 1 } }
  card Card "Sword" { v: 2 copies: 1 }
  setup { create cards Card(owner: 1) where v == DEALT in hand[1] }
  turn { step s {
    action attack { hits += 1  open defend(1) from 1 to [1] ASK  finish draw }
  } }
}
"""


def duel(dealt: int, ask: str):
    return game(WINDOW.replace("DEALT", str(dealt)).replace("ASK", ask)).new_match(3, seed=0)


def test_a_window_skips_a_player_with_nothing_to_respond_with_unless_always():
    shield, sword = duel(1, ""), duel(2, "")
    shield.apply("attack")
    sword.apply("attack")
    assert shield.view(0)["choice"]["chooser"] == 1 and sword.is_over      # the attacker can tell
    shield, sword = duel(1, "always"), duel(2, "always")
    shield.apply("attack")
    sword.apply("attack")
    assert shield.view(0)["choice"] == sword.view(0)["choice"]             # now it cannot
    assert sword.question["options"] == ["pass"] and not sword.is_over
    sword.apply("pass")
    assert sword.is_over


def test_a_window_asks_only_the_players_it_is_opened_to():
    m = game(WINDOW.replace("DEALT", "2").replace("to [1] ASK", "always")).new_match(3, seed=0)
    m.apply("attack")
    asked = []
    while not m.is_over:
        asked.append(m.question["chooser"])
        m.apply("pass")
    assert asked == [1, 2, 0]                         # everyone, from P2, each once


def test_a_loop_whose_every_turn_makes_progress_is_progress_for_w204():
    dice = """game "R" {
  players 2
  kind Die { slot: int  label "d" + text(slot) }
  var face: int = 0 per Die, public
  zone tray: set, public
  setup { create Die(slot: 1) in tray }
  turn { step s {
    action throw { for d in tray { FOR_BODY }  end turn }
    action stop require any(face[d] == 6 for d in tray) { finish win for me }
  } }
}
"""
    assert not [x for x in lint(dice.replace("FOR_BODY", "face[d] = roll(6)")) if x.startswith("W204")]
    assert [x for x in lint(dice.replace("FOR_BODY", "log text(d)")) if x.startswith("W204")]


def test_w240_warns_of_a_label_reading_state_itself_or_through_a_def_never_of_a_pure_def():
    source = """game "L" {
  players 2
  var n: int = 0
  table names { 6: "six", 8: "eight" }
  def pure(s) = "d" + names[s]
  def stateful(s) = pure(s) + text(n)
  kind Die { sides: int  label pure(sides) }
  kind Coin { sides: int  label stateful(sides) }
  zone pool: set, public
  setup { create Die(sides: 6) in pool  create Coin(sides: 8) in pool }
  turn { step s { action bump { n += 1  end turn }  action stop { finish draw } } }
}
"""
    found = [x for x in lint(source) if x.startswith("W240")]
    assert len(found) == 1 and "`stateful`" in found[0]


TAKE_TOPS = """
game "Tops" {
  players 2
  kind Chip { v: int  label "c" + text(v) }
  zone left: pile, public
  zone right: pile, public
  zone box: pile, public
  setup { create Chip(v: 1) in left }
  turn limit 6 { finish draw }
  turn { step s {
    action take(c in [top(left), top(right)]) { move c to box  end turn }
    action idle { end turn }
  } }
}
"""


def test_the_deep_lint_warns_of_an_action_offered_with_none(tmp_path):
    """`take(c in [top(discard[col]) for col in Colour])` offered `take none` (an empty pile's top)
    and playing it did nothing; lint and lint --deep said nothing of it (an author trial)."""
    path = tmp_path / "tops.rules"
    path.write_text(TAKE_TOPS)
    found = [d for d in rulelang.deep_lint(str(path), games=5, seed=0) if d.code == "W407"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "`take` was offered with `none` as an argument (`take none`)" in found[0].message
    line = path.read_text().splitlines()[found[0].span.line - 1]
    assert line.strip().startswith("action take(")
    path.write_text(TAKE_TOPS.replace("[top(left), top(right)]", "[x for x in [top(left), top(right)] where x != none]"))
    assert not [d for d in rulelang.deep_lint(str(path), games=5, seed=0) if d.code == "W407"]


def test_a_step_played_by_a_player_the_rules_work_out_is_no_turn_that_never_ends():
    """A new author's Hold'em (one betting step `by actor`) and pass-the-parcel were warned W217,
    "the first player makes every move", though play went round P1, P2, P3."""
    source = """game "Pass the parcel" {
  players 3
  var holder: player = 0
  var passes: int = 0
  turn { step hold by holder {
    action pass_on { holder = next(holder)  passes += 1  if passes == 5 { finish win for holder "holds it" } }
  } }
}"""
    assert not [d for d in lint(source) if "W217" in d]
    m = rulelang.Game(rulelang.compile_source(source, "t.rules")).new_match(3, 1)
    actors = []
    for _ in range(4):
        actors.append(m.current_player)
        m.apply("pass on")
    assert actors == [0, 1, 2, 0]
    assert [d for d in lint(source.replace("by holder", "")) if "W217" in d]
