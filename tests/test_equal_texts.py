"""Two legal actions that show the same text: the same choice is listed once, a different one is
never dropped (it is listed with an ordinal: `use Acolyte (2)`). Exact positions, exact listings."""
from __future__ import annotations

import rulelang

RULES = """
game "Copies" {
  players 2
  kind Card {
    name: text
    power: int
    label name
  }
  zone hand: set per player, public
  zone field: set, public
  zone discard: pile, public
  var at: int = 0 per Card
  setup {
    for i in 1..3 { create Card(name: "Acolyte", power: 2) in hand[first(players)] }
    create Card(name: "Brute", power: 5) in discard
  }
  turn {
    step s {
      action place(c in hand[me]) { move c to field  at[c] = size(field) }
      action use(c in field) { move c to discard }
      action also(c in field) as "use " + text(c) { move c to hand[me] }
      action drop(c in discard) { move c to hand[me] }
      action stop { finish draw }
    }
  }
}
"""


def load(tmp_path):
    path = tmp_path / "copies.rules"
    path.write_text(RULES, encoding="utf-8")
    return rulelang.load(str(path))


def texts(m):
    return [a.text for a in m.legal_actions()]


def test_copies_in_the_same_state_are_one_choice(tmp_path):
    m = load(tmp_path).new_match(2, 0)
    # three Acolytes in one hand, nothing tells them apart: one `place`
    assert texts(m) == ["place Acolyte", "drop Brute", "stop"]


def test_copies_the_rules_tell_apart_are_all_offered(tmp_path):
    m = load(tmp_path).new_match(2, 0)
    m.apply("place Acolyte")
    m.apply("place Acolyte")            # the same player acts again: two Acolytes in play, at 1 and 2
    listed = m.legal_actions()
    # before: one `use Acolyte` (the second copy, at another place, silently dropped), and the `as`
    # text of `also` merged into it
    assert [a.text for a in listed] == ["place Acolyte", "use Acolyte", "use Acolyte (2)",
                                        "use Acolyte (3)", "use Acolyte (4)", "drop Brute", "stop"]
    # each is its own choice: the two copies, by `use` then by `also`
    args = [(a.name, a.args) for a in listed[1:5]]
    first, second = args[0][1]["c"], args[1][1]["c"]
    assert first != second
    assert args == [("use", {"c": first}), ("use", {"c": second}), ("also", {"c": first}), ("also", {"c": second})]
    m.apply("use Acolyte (2)")          # the second copy goes to the discard pile
    assert texts(m) == ["place Acolyte", "use Acolyte", "use Acolyte (2)", "drop Brute",
                                            "drop Acolyte", "stop"]
    assert [a.args["c"] for a in m.legal_actions()[1:3]] == [first, first]     # the copy still in play


def test_an_action_text_that_names_no_parameter_lists_every_choice(tmp_path):
    """(W219) `as` with a constant text: every different choice is offered, numbered."""
    text = RULES.replace('action stop { finish draw }',
                         'action pick(n in [1, 2, 3]) as "pick a number" { finish draw }\n      action stop { finish draw }')
    path = tmp_path / "numbers.rules"
    path.write_text(text, encoding="utf-8")
    m = rulelang.load(str(path)).new_match(2, 0)
    assert texts(m) == ["place Acolyte", "drop Brute", "pick a number", "pick a number (2)", "pick a number (3)",
                        "stop"]
    assert [a.args for a in m.legal_actions()[2:5]] == [{"n": 1}, {"n": 2}, {"n": 3}]


DICE = """
game "Copies and as" {
  players 1
  kind Die { label "die" }
  zone tray: set, public
  var face: int = 1 per Die
  setup {
    repeat 3 { create Die() in tray }
    face[[c for c in tray][2]] = 2
  }
  turn {
    step pick {
      action one { choose d in tray as "die showing " + text(face[d]) { finish draw } }
      action some { choose ds subset of tray size 1..3 as "die showing " + text(face[ds]) { finish draw } }
    }
  }
}
"""


def test_copies_are_one_option_of_a_pick_of_several_with_as_words_too(tmp_path):
    """A new author's Yahtzee: three dice showing 1, 1 and 2, the two 1s copies. `choose d in tray
    as …` offered them once, but a pick of several with `as` words offered `die showing 1 #2` —
    the language's own example (1,227 of 2,252 reroll questions listed look-alike dice apart)."""
    path = tmp_path / "dice.rules"
    path.write_text(DICE, encoding="utf-8")
    game = rulelang.load(str(path))
    for action in ("one", "some"):
        m = game.new_match(players=1, seed=1)
        m.apply(action)
        assert [str(a) for a in m.legal_actions()] == ["die showing 1", "die showing 2"], action
    m = game.new_match(players=1, seed=1)
    m.apply("some")
    m.apply("die showing 1")                   # the other 1 is still there to pick
    assert [str(a) for a in m.legal_actions()] == ["die showing 1", "die showing 2", "done"]
    m.apply("die showing 1")
    assert [str(a) for a in m.legal_actions()] == ["die showing 2", "done"]


def test_a_pick_of_several_says_the_picks_so_far_to_its_chooser_the_forced_ones_too(tmp_path):
    """A new author's Yahtzee: three dice alike, the first pick was made for the player (one
    option) and the question then offered `die` or `done` with nothing, in the view or at the
    terminal, saying a die was picked already."""
    import io
    from rulelang.play.repl import run_repl
    path = tmp_path / "dice.rules"
    path.write_text(DICE.replace("players 1", "players 2").replace(
        "face[[c for c in tray][2]] = 2", "face[[c for c in tray][2]] = 1"), encoding="utf-8")
    game = rulelang.load(str(path))
    m = game.new_match(players=2, seed=1)
    m.apply("some")
    assert m.question["picked"] == ["die showing 1"]
    assert m.view(0)["choice"]["picked"] == ["die showing 1"] and "picked" not in m.view(1)["choice"]
    m.apply("die showing 1")
    assert m.view(0)["choice"]["picked"] == ["die showing 1", "die showing 1"]
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("some\nquit\n"), out, str(path), screen=(80, 24))
    assert "Picked so far: die showing 1" in out.getvalue()


SUBSETS = """
game "Subset copies" {
  players 1
  enum T { a "A", b "B", c "C" }
  kind C { t: T  label text(t) }
  var mark: int = 0 per C
  zone hand: set, public
  zone table: set, public
  zone out: set, public
  setup { create C(t: a) in hand  create C(t: b) in hand  create C(t: a) in hand
          create C(t: c) in hand  create C(t: a) in hand  create C(t: b) in table  create C(t: a) in table }
  turn { step s {
    action take(cs subset of hand size 2) { move cs to out  finish draw "took" }
    action some(cs subset of hand size 1..3) { move cs to out  finish draw "took" }
    action mixed(cs subset of hand + table size 2) { move cs to out  finish draw "took" }
    action marked(cs subset of hand size 2) require all(mark[x] == 0 for x in cs) { finish draw "took" }
  } }
}
"""


def _multisets(labels: list[str], sizes) -> set:
    from itertools import combinations
    return {tuple(sorted(labels[i] for i in c)) for k in sizes for c in combinations(range(len(labels)), k)}


def test_a_subset_of_copies_is_one_choice_whatever_the_order_its_elements_come_in():
    """A new author's Sushi Go (hand A, B, A; take two) listed `take A B`, `take A A` and `take B A`:
    {A, B} and {B, A'} are one choice when A and A' are copies. Each choice once, the first kept."""
    m = rulelang.Game(rulelang.compile_source(SUBSETS, "s.rules")).new_match(seed=1)
    listed = [str(a) for a in m.legal_actions()]
    hand = ["A", "B", "A", "C", "A"]
    for name, sizes in (("take", [2]), ("some", [1, 2, 3]), ("marked", [2])):
        mine = [t.split(" ", 1)[1] for t in listed if t.split(" ", 1)[0] == name]
        assert len(mine) == len(set(mine)) == len(_multisets(hand, sizes)), (name, mine)
        assert {tuple(sorted(t.split())) for t in mine} == _multisets(hand, sizes)
    assert [t for t in listed if t.startswith("take ")] == ["take A B", "take A A", "take A C", "take B C"]
    # taken from two zones: a copy here and one there are no copies (another place: the rules tell them apart)
    mixed = [t for t in listed if t.startswith("mixed ")]
    assert len(mixed) == len(set(mixed)) and "mixed B B" in mixed and "mixed A A (2)" in mixed


def test_subset_copies_told_apart_by_a_variable_are_all_offered():
    m = rulelang.Game(rulelang.compile_source(SUBSETS, "s.rules")).new_match(seed=1)
    st = m.state()
    hand = st["zones"]["hand"]
    st["vars"]["mark"][hand[2]] = 1                 # the second A is marked: no copy of the others
    m = rulelang.Match.from_state(m.game, st)
    takes = [str(a) for a in m.legal_actions() if str(a).startswith("take ")]
    assert sorted(takes) == sorted(["take A B", "take A A", "take A C", "take B A", "take B C", "take A C (2)",
                                    "take A A (2)"]), takes


def test_copies_the_chooser_cannot_see_stay_apart_in_a_subset():
    """A fuzz trial: a blind steal of two from a hand holding 1, 1, 7 listed two choices, not three —
    merged as copies, they told the thief two of the hidden cards were alike. Cards the actor
    cannot see are named by their place, and every choice of places stays."""
    blind = rulelang.Game(rulelang.compile_source("""
game "Blind" {
  players 2
  kind C { v: int  label text(v) }
  zone hand: set per player, owner
  zone table: set, public
  setup { create C(v: 1) in hand[1]  create C(v: 1) in hand[1]  create C(v: 7) in hand[1] }
  turn { step s {
    action steal(cs subset of hand[1 - me] size 2) { move cs to table  finish draw "x" }
  } }
}
""", "blind.rules"))
    m = blind.new_match(seed=1)
    assert [str(a) for a in m.legal_actions()] == ["steal hand slot 1 hand slot 2", "steal hand slot 1 hand slot 3",
                                                   "steal hand slot 2 hand slot 3"]


def test_copies_in_a_subset_of_cards_or_players_are_one_choice():
    """A fuzz trial: `zap` over `[c for c in field] + players` (a `C or player` list) listed `zap 1`
    and `zap 1 (2)` for two alike cards in sight."""
    union = rulelang.Game(rulelang.compile_source("""
game "Union" {
  players 2
  kind C { v: int  label text(v) }
  zone field: set, public
  setup { create C(v: 1) in field  create C(v: 1) in field  create C(v: 2) in field }
  def targets: list[C or player] = [c for c in field] + players
  turn { step s { action zap(ts subset of targets size 1..2) { finish draw "x" } } }
}
""", "union.rules"))
    listed = [str(a) for a in union.new_match(seed=1).legal_actions()]
    assert listed == ["zap 1", "zap 2", "zap P1", "zap P2", "zap 1 1", "zap 1 2", "zap 1 P1", "zap 1 P2",
                      "zap 2 P1", "zap 2 P2", "zap P1 P2"]
