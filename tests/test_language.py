"""Language features no current game needs yet, shown on small rule files: variables per
component, ranking players by score with tie-breaks, `finish by score`."""
from __future__ import annotations

import copy

import pytest

import rulelang
from rulelang import check_source

CHIPS = """
game "Chips" {
  players 2 ranked by sum(c.v for c in hand[me]) then size(hand[me])

  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone hand: set per player, owner
  var touched: int = 0 per Chip                # how often each chip was taken
  var rounds: int = 0

  setup {
    for v in [1, 2, 2, 3] { create Chip(v: v) in pool }
  }
  turn {
    step take {
      action take(c in pool) require touched[c] < 2 {
        move c to hand[me]
        touched[c] += 1
        if size(pool) == 0 { finish by score }
        end turn
      }
    }
  }
}
"""


@pytest.fixture()
def game(tmp_path):
    path = tmp_path / "chips.rules"
    path.write_text(CHIPS, encoding="utf-8")
    return rulelang.load(str(path))


def chip_ids(m) -> dict:
    return {c["label"] + f"#{i}": i for i, c in enumerate(m.state()["components"])}


def test_a_variable_per_component_starts_at_its_initial_value_and_changes_per_component(game):
    m = game.new_match(2, seed=1)
    assert m.state()["vars"]["touched"] == [0, 0, 0, 0]
    m.apply("take c3")
    assert m.state()["vars"]["touched"] == [0, 0, 0, 1]


def test_a_per_component_variable_is_shown_only_for_components_the_viewer_sees(game):
    m = game.new_match(2, seed=1)
    m.apply("take c3")                                   # P1's hand is seen by P1 only
    # every chip the viewer sees, at its initial value too (the variable is not `internal`)
    assert m.view(0)["component_values"] == {"0": {"touched": 0}, "1": {"touched": 0}, "2": {"touched": 0},
                                             "3": {"touched": 1}}
    assert m.view(1)["component_values"] == {"0": {"touched": 0}, "1": {"touched": 0}, "2": {"touched": 0}}


def test_a_per_component_variable_survives_state_and_guards_actions(game):
    m = game.new_match(2, seed=1)
    data = m.state()
    data["vars"]["touched"] = [2, 0, 0, 0]               # c1 may no longer be taken
    m = rulelang.Match.from_state(game, data)
    assert [str(a) for a in m.legal_actions()] == ["take c2", "take c3"]
    data["vars"]["touched"] = [0, 0, 0]                  # one value per component, or refused
    with pytest.raises(rulelang.StateError):
        rulelang.Match.from_state(game, data)


def play(game, moves):
    m = game.new_match(2, seed=1)
    for move in moves:
        m.apply(move)
    return m


def test_finish_by_score_gives_the_win_to_the_best_score(game):
    m = play(game, ["take c3", "take c2", "take c2", "take c1"])   # P1 3+2=5, P2 2+1=3
    assert m.outcome == {"results": ["win", "lose"], "scores": [5, 3]}


def test_a_tie_on_score_and_tie_breaks_is_a_draw_for_the_tied(game):
    m = play(game, ["take c3", "take c2", "take c1", "take c2"])   # 4 vs 4, and 2 chips each
    assert m.outcome == {"results": ["draw", "draw"], "scores": [4, 4]}


def test_a_tie_on_score_is_broken_by_the_next_ranking(tmp_path):
    path = tmp_path / "five.rules"
    path.write_text(CHIPS.replace("[1, 2, 2, 3]", "[1, 1, 2, 2, 2]"), encoding="utf-8")
    m = play(rulelang.load(str(path)), ["take c1", "take c2", "take c1", "take c2", "take c2"])
    # P1 took 1, 1, 2 and P2 took 2, 2: 4 each; P1 holds three chips to two
    assert m.outcome == {"results": ["win", "lose"], "scores": [4, 4]}


def test_ranking_and_finish_by_score_are_checked():
    source = CHIPS.replace(" ranked by sum(c.v for c in hand[me]) then size(hand[me])", "")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "chips.rules")
    assert [d.code for d in err.value.diagnostics] == ["E113"]
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(CHIPS.replace("then size(hand[me])", "then true"), "chips.rules")
    assert [d.code for d in err.value.diagnostics] == ["E201"]


REFUSE = """
game "Refuse" {
  players 2
  var coins: int = 1 per player
  zone hand: set per player, public
  kind C { name: text  label name }
  setup { create C(name: "Ace") in hand[0] }
  turn { step main {
    action buy require coins[me] >= 3 else "a purchase costs 3 coins; you have " + text(coins[me]) { coins[me] -= 3  end turn }
    action play_card(c in hand[me]) require coins[me] > 5 else "you need 6 coins to play a card" { end turn }
    action earn { coins[me] += 1  end turn }
    action quit_game { finish draw }
  } }
}
"""


def test_an_action_says_why_it_is_not_legal_in_the_rules_words():
    m = rulelang.Game(rulelang.compile_source(REFUSE, "refuse.rules")).new_match(seed=1)
    assert [a.text for a in m.legal_actions()] == ["earn", "quit game"]
    assert m.refusal("buy") == "a purchase costs 3 coins; you have 1"
    assert m.refusal("Play card Ace") == m.refusal("play card") == "you need 6 coins to play a card"
    assert m.refusal("earn") is None and m.refusal("dance") is None      # legal; no such action
    for _ in range(4):                                                   # P1 and P2 earn twice each
        m.apply("earn")
    assert m.refusal("buy") is None and "buy" in [a.text for a in m.legal_actions()]
    assert m.refusal("play card") == "you need 6 coins to play a card"


def test_a_choice_that_does_not_exist_is_not_refused_for_a_condition_that_holds():
    """A new author: `take gem 3`, gem 3 already taken, read "when it is not allowed, the rules
    say: you already have 3 coins" with 1 coin (Hanabi: "all 8 clue tokens are there" beside a list
    of legal discards). The reason is said only while the `require` does not hold; one that reads
    the parameters cannot be asked without them and is said as before."""
    source = """game "Gems" {
  players 1
  kind Gem { n: int  label "gem " + text(n) }
  zone pool: set, public
  zone bag: set, public
  var coins: int = 0
  setup { for i in 1..3 { create Gem(n: i) in pool } }
  turn { step act {
    action take(g in pool) require coins < 3 else "you already have 3 coins" { move g to bag  coins += 1 }
    action pick(g in pool) require g.n < 3 and coins < 3 else "only small gems" { move g to bag  coins += 1 }
    action stop { finish win }
  } }
}"""
    game = rulelang.Game(rulelang.compile_source(source, "gems.rules"))
    m = game.new_match(seed=1)
    m.apply("take gem 3")
    assert m.refusal("take gem 3") is None and m.refusal("take gem 2") is None
    assert m.refusal("pick gem 3") == "only small gems"          # (reads g: said of the action)
    m.apply("take gem 2")
    m.apply("take gem 1")
    assert m.refusal("take gem 1") == "you already have 3 coins"
    # (a save made before these conditions were kept still loads: they are no part of its fingerprint)
    older = copy.deepcopy(game.ir)
    older["defs"] = {k: v for k, v in older["defs"].items() if not k.startswith("__refuses_")}
    assert len(older["defs"]) < len(game.ir["defs"]) and rulelang.Game(older).fingerprint == game.fingerprint


def test_a_refusal_is_a_text_that_cannot_read_the_parameters():
    bad = REFUSE.replace('else "you need 6 coins to play a card"', 'else "cannot play " + text(c)')
    found = [d for d in check_source(bad, "x.rules")[1] if d.severity == "error"]
    assert [f"{d.code} {d.message}" for d in found] == \
        ["E101 the `else` reason of `play_card` cannot read its parameter `c`: it is said of the action as a whole, "
         "when a player types it and it is not legal (it may read the position and `me`)"]
    assert bad.splitlines()[found[0].span.line - 1][found[0].span.column - 1:].startswith("c)")
    fine = REFUSE.replace('else "you need 6 coins to play a card"',                 # (a `c` of its own)
                          'else "cards: " + text(size([c for c in hand[me]]))')
    assert not [d for d in check_source(fine, "x.rules")[1] if d.severity == "error"]
    bad = REFUSE.replace('else "you need 6 coins to play a card"', 'else 6')
    assert [d.code for d in check_source(bad, "x.rules")[1] if d.severity == "error"] == ["E201"]


def test_refusals_of_steps_and_actions_whose_names_run_together_stay_apart():
    # step a_b, action c and step a, action b_c would both be "a_b_c" joined by `_`
    source = '''game "Apart" {
  players 1
  var n: int = 0
  turn {
    step a_b { action c require false else "from a_b" { goto a }  action go { goto a } }
    step a { action b_c require false else "from a" { goto a_b }  action back { goto a_b }  action stop { finish draw } }
  }
}'''
    m = rulelang.Game(rulelang.compile_source(source, "apart.rules")).new_match(seed=1)
    assert m.refusal("c") == "from a_b"
    m.apply("go")
    assert m.refusal("b c") == "from a"


def test_an_empty_list_in_one_branch_takes_the_other_branchs_element_type():
    """`if … then [] else [order[0], order[1]]` is a list of enum values, so `text` of one is its
    words, as everywhere (a rules audit read Shadow Hunters' `teleport woods` for "Weird Woods (9)":
    the empty list's unknown elements won the join)."""
    source = """
game "E" {
  players 1
  enum Color { red "Bright Red", blue "Deep Blue" }
  var order: list[Color] = [], hidden
  setup { order = [red, blue] }
  def both(c: Color) = if c == none then [] else [order[0], order[1]]
  def neither(c: Color) = if c != none then [order[1]] else []
  turn { step s {
    action go(c in both(red)) as "go " + text(c) { finish draw }
    action stay(c in neither(red)) as "stay " + text(c) { finish draw }
  } }
}
"""
    game = rulelang.Game(rulelang.compile_source(source, "e.rules"))
    texts = [a.text for a in game.new_match(1, seed=1).legal_actions()]
    assert texts == ["go Bright Red", "go Deep Blue", "stay Deep Blue"]


def test_an_action_text_may_count_its_own_subset_parameter():
    """A new author's Sheriff: `as … size(cs) …` was refused (E201, "not `size`") where `count(cs)`
    was not; `size` of a zone is still refused, by the zone's name."""
    source = """
game "S" {
  players 1
  kind Card { n: int  label "c" + text(n) }
  zone hand: set, public
  zone deck: pile, hidden
  setup { for i in 1..3 { create Card(n: i) in hand } }
  turn { step s {
    action put(cs subset of hand size 0..1) as "put " + (if size(cs) == 0 then "nothing" else text(cs)) { finish draw }
    action peek require size(deck) == 0 { finish draw }
  } }
}
"""
    game = rulelang.Game(rulelang.compile_source(source, "s.rules"))
    assert sorted(a.text for a in game.new_match(1, seed=1).legal_actions())[:2] == ["peek", "put c1"]
    assert "put nothing" in [a.text for a in game.new_match(1, seed=1).legal_actions()]
    bad = source.replace("if size(cs) == 0", "if size(deck) == 0")
    assert [d.code for d in check_source(bad, "s.rules")[1] if d.severity == "error"] == ["E201"]


INSERT_GAME = """
game "Kitten" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  turn limit 10 { finish draw }
  setup { for i in 1..6 { create Card(n: i) in deck }  move top(deck) to hand[0] }
  turn { step s {
    action peek require me == 1 { reveal top(deck, 2) to me  end turn }
    action put(d in 0..6) require me == 0 and size(hand[me]) > 0 { insert(top(hand[me]), deck, d)  end turn }
    action pass { end turn }
  } }
}
"""


@pytest.mark.parametrize("depth,order", [(0, [1, 2, 3, 4, 5, 6]), (1, [1, 2, 3, 4, 6, 5]),
                                         (2, [1, 2, 3, 6, 4, 5]), (5, [6, 1, 2, 3, 4, 5]),
                                         (6, [6, 1, 2, 3, 4, 5])])
def test_insert_puts_a_card_under_so_many_others_and_what_was_seen_of_them_stays_seen(depth, order):
    """A new author's Exploding Kittens had no way to put the kitten back at a chosen depth: lifting
    the cards above it and back ended what a See the Future had shown of them, which told the seer
    the depth. `insert(X, ZONE, N)` moves X under N components (0: on top; past the bottom: at it),
    and nothing else in the pile moves."""
    game = rulelang.Game(rulelang.compile_source(INSERT_GAME, "kitten.rules"))
    m = game.new_match(2, seed=1)
    labels = [c["label"] for c in m.state()["components"]]
    m.apply("pass")
    m.apply("peek")                                      # P2 has seen c5 and c4, the two on top
    seen = m.view(1)
    m.apply(f"put {depth}")
    assert [int(labels[c][1:]) for c in m.state()["zones"]["deck"]] == order      # bottom first
    deck = next(z for z in m.view(1)["zones"] if z["name"] == "deck")
    assert [c["label"] for c in deck["known"]] == [c["label"] for z in seen["zones"] if z["name"] == "deck"
                                                   for c in z["known"]] == ["c4", "c5"]


def test_insert_is_a_proc_of_the_rules_where_they_declare_one_and_takes_three_arguments():
    own = INSERT_GAME.replace("  turn limit 10", "  var n: int = 0\n  proc insert(c: Card, z: list[Card], d: int) { n += d }\n  turn limit 10")
    own = own.replace("insert(top(hand[me]), deck, d)", "insert(top(hand[me]), [], d)")
    game = rulelang.Game(rulelang.compile_source(own, "own.rules"))
    m = game.new_match(2, seed=1)
    m.apply("pass")
    m.apply("peek")
    m.apply("put 3")
    assert m.state()["vars"]["n"] == 3 and len(m.state()["zones"]["deck"]) == 5
    bad = INSERT_GAME.replace("insert(top(hand[me]), deck, d)", "insert(top(hand[me]), deck)")
    found = [d for d in check_source(bad, "x.rules")[1] if d.severity == "error"]
    assert [d.code for d in found] == ["E103"] and "takes three arguments" in found[0].message


def test_insert_of_a_card_named_twice_moves_it_once():
    """A trial: `insert([c, c], deck, 1)` lifted a card not being inserted above the one a player
    had seen on top (the moved block was counted with the duplicate)."""
    source = INSERT_GAME.replace("insert(top(hand[me]), deck, d)", "insert([top(hand[me]), top(hand[me])], deck, d)")
    game = rulelang.Game(rulelang.compile_source(source, "kitten.rules"))
    m = game.new_match(2, seed=1)
    labels = [c["label"] for c in m.state()["components"]]
    for text in ("pass", "peek", "put 1"):
        m.apply(text)
    assert [labels[c] for c in m.state()["zones"]["deck"]] == ["c1", "c2", "c3", "c4", "c6", "c5"]


def test_the_rulebook_says_a_tie_on_score_is_broken(tmp_path):
    """A new author's deck-builder ranked by VP then fewer turns: its rulebook said players tied for
    the best score draw, when the next ranking decides."""
    from rulelang.play.repl import rulebook
    path = tmp_path / "chips.rules"
    path.write_text(CHIPS, encoding="utf-8")
    text = rulebook(rulelang.load(str(path)), source=str(path))
    assert "the best score wins (a tie on it goes to the best by the rules' next ranking; players tied on both draw" in text
    path.write_text(CHIPS.replace(" then size(hand[me])", ""), encoding="utf-8")
    assert "the best score wins (players tied for the best draw" in rulebook(rulelang.load(str(path)), source=str(path))


def test_an_action_text_that_reads_a_variable_is_told_the_way_round_it():
    """A new author's checkers: E201 said only "not `jumper`"; the way to show the position in a
    text (a parameter from a list of one) was deep in language.md."""
    source = """
game "J" {
  players 2
  var jumper: int = 1
  turn { step s { action jump(t in 4..5) as text(jumper) + "x" + text(t) { finish draw } } }
}
"""
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "j.rules")
    assert "not `jumper` (to show the position, bind it as a parameter from a list of one, `x in [jumper]`" in str(err.value)
    # (a def called with the parameter: the way round keeps the call whole — a new author's Ludo read `x in [dest]`)
    called = source.replace("var jumper: int = 1", "var at: int = 1\n  def dest(t: int) = text(at + t)") \
        .replace("text(jumper) + \"x\" + text(t)", "\"to \" + dest(t)")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(called, "j.rules")
    assert "not `dest` (to show the position, bind it as a parameter from a list of one, `x in [dest(t)]`" in str(err.value)
    # (a variable per player read at the parameter: a new author's Sagrada read `x in [face]` for `face[d]`)
    family = source.replace("var jumper: int = 1", "var score: int = 0 per player") \
        .replace("action jump(t in 4..5) as text(jumper)", "action jump(t in players) as text(score[t])")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(family, "j.rules")
    assert "not `score` (to show the position, bind it as a parameter from a list of one, `x in [score[t]]`" in str(err.value)


def test_a_family_of_zones_moved_whole_is_told_how_to_move_every_members():
    """A new author's President wrote `move hand to deck` (language.md reads an unindexed family as
    its members' list); E201 said only "say whose zone to move from"."""
    source = ('game "G" { players 2\n  kind C { label "c" }\n  zone hand: set per player, owner\n'
              '  zone deck: pile, hidden\n  turn { step s { action go { move hand to deck  finish draw } } } }\n')
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(source, "g.rules")
    assert "say whose zone to move from, e.g. `hand[me]`; every player's: `for p in players { move hand[p] to … }`" \
        in str(err.value)
    with pytest.raises(rulelang.RuleError) as err:              # (a family by cell: no players' loop — a review)
        rulelang.compile_source(source.replace("players 2\n", "players 2\n  board b: squares(2, 1)\n")
                                .replace("zone hand: set per player, owner", "zone hand: set per cell of b"), "g.rules")
    assert "say which of the zones `hand` to move from: `hand[…]` with its index" in str(err.value)


def test_a_local_let_as_none_takes_the_type_of_what_it_is_given():
    """A new author's Skull said "P2 finds the skull of 0": `let found = none`, later given a
    player, printed as a seat number (the local was typed `none`, so `text` knew no better)."""
    game = rulelang.Game(rulelang.compile_source("""game "LetNone" {
  players 2
  kind Card { n: int }
  zone pile: pile, public
  setup { create Card(n: 4) in pile  create Card(n: 5) in pile }
  turn { step s { action go {
    let who = none
    for p in players { if p == me { who = p } }
    let card = none
    for c in pile { card = c }
    log "found " + text(who) + " and " + text(card)
    finish win for who
  } } }
}""", "letnone.rules"))
    m = game.new_match(2, 0)
    m.apply("go")
    assert m.message_log()[-1]["text"] == "found P1 and Card1"     # (a label, not the id 1)


def test_an_untyped_parameter_takes_the_type_given_through_another_procedure():
    """A new author's Euchre logged "1 makes ♦ trump": `say(who)` was called with `me` and through
    `relay(who) { say(who) }`, whose own `who` was typed only by the second check — so say's was not."""
    game = rulelang.Game(rulelang.compile_source("""game "T" {
  players 2
  proc say(who) { log text(who) + " acts" }
  proc relay(who) { say(who) }
  proc pass_on(who) { relay(who) }
  turn { step s {
    action direct { say(me)  end turn }
    action via { pass_on(me)  finish draw }
  } }
}""", "t.rules"))
    m = game.new_match(2, 0)
    m.apply("direct")
    m.apply("via")
    assert [x["text"] for x in m.message_log()] == ["P1 acts", "P2 acts"]
