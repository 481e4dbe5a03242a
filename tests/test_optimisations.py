"""Every fast path of the code generator gives exactly what the plain path gives.

Each optimisation (codegen.constants.OPTIMISATIONS) can be switched off; the games below are
played with all of them on and with all off (and with each one off alone, on the real games),
and the full traces — every legal-action list in order, every action, every state — must match.
The games: Regicide 1–4p and Valgarð, every lint-corpus file that lints clean, and mutants of the
real rule files that survive the linter (mutated as tests/lint/test_mutation.py does).
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.codegen import Lowerer
from rulelang.engine.codegen.constants import OPTIMISATIONS, optimisations
from rulelang.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from traces import lint_clean_corpus, trace  # noqa: E402

ALL, NONE = frozenset(OPTIMISATIONS), frozenset()


def game_with(ir: dict, optimise: frozenset, monkeypatch) -> Game:
    setting = "all" if optimise == ALL else "none" if not optimise else \
        ",".join("-" + o for o in OPTIMISATIONS if o not in optimise)
    monkeypatch.setenv("RULELANG_OPTIMISE", setting)
    game = Game(ir)
    assert game.lowerer.opt == optimise
    return game


def outcome(game: Game, players: int, seed: int, options) -> list:
    """The game's trace, or the rule error it ends in: the same error either way, though its line
    may differ (an inlined def's error is reported at the line that calls it, which then names the
    defs it reads: ` (here or in a def this line reads: …)`)."""
    try:
        return trace(game, players, seed, options)
    except rulelang.RuleRuntimeError as err:
        said = re.sub(r" \(here or in a def this line reads: [^()]*\)$", "", str(err))
        return ["rule error", re.sub(r"^\S+:\d+: ", "", said)]


def same_traces(ir: dict, players: int, seeds, monkeypatch, options=None, variants=(NONE,)) -> None:
    fast = game_with(ir, ALL, monkeypatch)
    expected = {seed: outcome(fast, players, seed, options) for seed in seeds}
    for optimise in variants:
        plain = game_with(ir, optimise, monkeypatch)
        for seed in seeds:
            assert outcome(plain, players, seed, options) == expected[seed], \
                f"{ir['name']}: {players}p seed {seed} differs without {sorted(ALL - optimise)}"


def test_the_setting_names_the_paths_left_on():
    assert optimisations(None) == ALL and optimisations("all") == ALL and optimisations("none") == NONE
    assert optimisations("-inline,-hoist") == ALL - {"inline", "hoist"}
    assert optimisations("-nonsense") == ALL


def test_switching_everything_off_changes_the_generated_code():
    ir = rulelang.compile_file(str(ROOT / "games" / "valgard.rules"))
    fast, plain = Lowerer(ir, ALL), Lowerer(ir, NONE)
    fast.build(), plain.build()
    assert fast.python != plain.python


EACH_OFF = [ALL - {o} for o in OPTIMISATIONS] + [NONE]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_regicide_plays_the_same_with_and_without_each_fast_path(players, monkeypatch):
    ir = rulelang.compile_file(str(ROOT / "games" / "regicide.rules"))
    same_traces(ir, players, range(4), monkeypatch, variants=EACH_OFF)


@pytest.mark.parametrize("options", [None, {"hardcore": True}])
def test_valgard_plays_the_same_with_and_without_each_fast_path(options, monkeypatch):
    ir = rulelang.compile_file(str(ROOT / "games" / "valgard.rules"))
    same_traces(ir, 2, range(3), monkeypatch, options, variants=EACH_OFF)


@pytest.mark.parametrize("path", lint_clean_corpus(), ids=lambda p: Path(p).stem)
def test_lint_corpus_files_play_the_same_without_fast_paths(path, monkeypatch):
    ir = rulelang.compile_file(str(ROOT / path))
    same_traces(ir, Game(ir).min_players, range(2), monkeypatch)


def surviving_mutants(count: int) -> list[tuple[str, dict]]:
    """Mutants of the real rule files (token and line edits) that still compile."""
    from lint.test_mutation import OPS, mutate
    rng = random.Random("optimisation mutants")
    out = []
    sources = {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "games").glob("*.rules"))}
    tries = 0
    while len(out) < count and tries < count * 30:
        tries += 1
        name = rng.choice(sorted(sources))
        edits = [(rng.choice(OPS), rng.randrange(10_000), rng.randrange(10_000)) for _ in range(rng.randint(1, 2))]
        text = mutate(sources[name], edits)
        try:
            out.append((f"{name} {edits}", rulelang.compile_source(text, f"{name}-mutant.rules")))
        except rulelang.RuleError:
            continue
    return out


@pytest.mark.slow
def test_surviving_mutants_play_the_same_without_fast_paths(monkeypatch):
    mutants = surviving_mutants(6)
    assert len(mutants) >= 5
    for label, ir in mutants:
        same_traces(ir, Game(ir).min_players, range(2), monkeypatch)


def test_a_listed_card_is_in_the_zone_it_was_listed_from(monkeypatch):
    """`member`: Smash Up's `play` asks whether the listed hand card is in that hand (from_ok);
    with the fast path the test is not made, and the games are the same without it."""
    ir = rulelang.compile_file(str(ROOT / "games" / "smash_up.rules"))
    fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"member"})
    fast.build(), plain.build()
    enum = re.compile(r"^def st_enum0_\(m\):\n(?:(?: .*)?\n)*", re.M)
    fast_listing, plain_listing = enum.search(fast.python).group(), enum.search(plain.python).group()
    hand_tests = re.compile(r"\(b\d+ in _each\(m, Z\d+\[me\]\)\)")
    assert len(hand_tests.findall(fast_listing)) < len(hand_tests.findall(plain_listing))
    same_traces(ir, 2, range(2), monkeypatch, variants=[ALL - {"member"}])


def test_dozen_war_skips_calls_known_false_and_stops_at_a_first_target(monkeypatch):
    """`precheck`: `sight(a, b, n)` is `near(a, b, n) and …`, near memoised per game: asked of
    every pair of units, it is not called where near's memo says false. `nonempty`: a card's
    `size(next_to_mine) > 0` looks for one target instead of making the list. The games are the
    same without either."""
    ir = rulelang.compile_file(str(ROOT / "games" / "dozen_war.rules"))
    fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"precheck", "nonempty"})
    fast.build(), plain.build()
    assert re.search(r"\(C\d+\.get\(\([^()]*\)\) is not False and d\d+\(m, ", fast.python)
    assert "is not False and d" not in plain.python
    index = list(ir["defs"]).index("next_to_mine")
    assert f"def nz{index}_(m):" in fast.python and f"nz{index}(m)" in fast.python
    assert f"nz{index}" not in plain.python
    # (the three paths this game takes off at once: one game each way, the suite's time)
    same_traces(ir, 2, range(1), monkeypatch, variants=[ALL - {"precheck", "nonempty", "flatten"}])


def test_a_flattened_comprehension_makes_no_list_per_element():
    """`flatten`: `[t for a in A for t in F(a)]` is one Python comprehension of two `for`s, not a
    list per `a` measured and joined (_built, _flat); Dozen War's shot cells are."""
    ir = rulelang.compile_file(str(ROOT / "games" / "dozen_war.rules"))
    fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"flatten"})
    fast.build(), plain.build()
    assert "_flat(m" not in fast.python and "_flat(m" in plain.python
    assert re.search(r"\[q\d+ for q\d+ in G\d+ for q\d+ in G\.line_of\(", fast.python)


NONEMPTY = '''game "Nonempty" {
  players 2
  kind Card { rank: int  label text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone pile: pile, public
  def pairs(p: player) = distinct([c for c in hand[p] for d in hand[p] where c != d and c.rank == d.rank])
  def high(p: player) = [c for c in hand[p] where c.rank > 4]
  def none_yet = [c for c in pile where c.rank > 100]
  setup {
    for r in 1..6 { create Card(rank: r) in deck  create Card(rank: r) in deck }
    shuffle deck
    for p in players { repeat 3 { move top(deck) to hand[p] } }
  }
  turn { step s {
    action pair(c in hand[me]) require size(pairs(me)) > 0 and c in pairs(me) { move c to pile  end turn }
    action high(c in hand[me]) require size(high(me)) != 0 and size(none_yet) == 0 and c.rank > 4 {
      move c to pile  end turn }
    action draw require size(deck) > 0 { move top(deck) to hand[me]  end turn }
    action stop require size(deck) == 0 { finish draw }
  } }
}
'''


def test_a_size_compared_with_zero_looks_for_one_element(monkeypatch):
    """`nonempty`: `size(D(…)) > 0`, `!= 0` and `== 0` of a def's comprehension are tested without
    making its list — where the def is called, not inlined — and the games are the same."""
    ir = rulelang.compile_source(NONEMPTY, "nonempty.rules")
    fast = Lowerer(ir, ALL - {"inline"})
    fast.build()
    assert "any(" in fast.python and re.search(r"\bnz\d+\(m", fast.python)
    for variant in (ALL - {"inline"}, ALL):
        monkeypatch.setenv("RULELANG_OPTIMISE", ",".join("-" + o for o in ALL - variant))
        same = Game(ir)
        monkeypatch.setenv("RULELANG_OPTIMISE", ",".join("-" + o for o in ALL - variant | {"nonempty"}))
        plain = Game(ir)
        for seed in range(6):
            assert outcome(same, 2, seed, None) == outcome(plain, 2, seed, None)


ANY_IN_REQUIRE = '''game "Any in require" {
  players 2
  board b: squares(3, 3)
  def near(c: cell): bool = any(step(c, k) == cell(b, "b2") for k in ["e", "w"])
  def near2(c: cell): bool = any(distance(c, d) == 0 for d in [cell(b, "a2"), cell(b, "c2")])
  turn {
    step s {
      action pick(c in cells(b)) require any(step(c, k) == cell(b, "b2") for k in ["e", "w"]) { finish draw }
      action by_def(c in cells(b)) require near(c) { finish draw }
      action by_two_cells(c in cells(b)) require near2(c) { finish draw }
      action by_all(c in cells(b)) require not all(step(c, k) != cell(b, "b2") for k in ["e", "w"]) { finish draw }
    }
  }
}
'''


@pytest.mark.parametrize("optimise", [ALL, NONE], ids=["all", "none"])
def test_a_test_over_a_fixed_list_inside_a_require_sees_each_element(optimise, monkeypatch):
    """A new author's Reversi offered no move: a board function of the listed cell and of `k` in
    `any(… for k in [...])` was made once per cell — with the `k` the previous cell's test left
    behind, so only the list's last element was ever tested (a2 was not offered, c2 was)."""
    game = game_with(rulelang.compile_source(ANY_IN_REQUIRE), optimise, monkeypatch)
    texts = sorted(a.text for a in game.new_match(2, 1, {}).legal_actions())
    assert texts == sorted(f"{name.replace('_', ' ')} {c}" for name in ("pick", "by_def", "by_two_cells", "by_all")
                           for c in ("a2", "c2"))


CELL_PAIRS = '''game "Cell pairs" {
  players 2
  board b: squares(4, 4)
  kind Stone { owner: player  label if owner == 0 then "X" else "O" }
  zone pool: pile per player, public
  zone at: pile per cell of b, public
  def mine(c) = size(at[c]) > 0 and top(at[c]).owner == me
  def stones = [c for c in cells(b) where mine(c)]
  def reach(from) = [last(line(from, d, 2)) for d in directions(b)]
  setup { for p in players { repeat 3 { create Stone(owner: p) in pool[p] } } }
  turn { step s {
    action put(c in cells(b)) require size(pool[me]) > 0 and size(at[c]) == 0 {
      move top(pool[me]) to at[c]  end turn }
    action jump(from in stones, to in reach(from)) require to != none and size(between(from, to)) == 1
        and size(at[first(between(from, to))]) > 0 and size(at[to]) == 0 {
      move top(at[from]) to at[to]  end turn }
    action pass require size(pool[me]) == 0 { if turn_count > 30 { finish draw }  end turn }
  } }
}
'''


def test_a_memo_of_two_cells_reads_its_table_with_a_value_that_may_be_none(monkeypatch):
    """`cellpair`: `first(between(from, to))`, memoised per game, where `to` comes from a def's list
    of cells that may hold `none` (`last` of an empty line), is read from the table of pairs of
    cells — `none` fails the read and the plain call answers — and `picked`: `top(at[c])` in a
    comprehension over the cells picked for a non-empty `at[c]` is read without testing it again.
    The games are the same without either (Valgarð's `charge` and `my_pieces` are the real cases,
    played in the tests above)."""
    ir = rulelang.compile_source(CELL_PAIRS, "cell_pairs.rules")
    fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"cellpair", "picked"})
    fast.build(), plain.build()
    assert "_fill_cell(_ROOM, " in fast.python and "_fill_cell" not in plain.python
    picked = r"_compress\(_each\([^)]*\), Z\d+\) if \(\(F\d+\[Z\d+\[q\d+\]\[-1\]\] == me\)\)\]"
    assert re.search(picked, fast.python) and not re.search(picked, plain.python)
    same_traces(ir, 2, range(6), monkeypatch, variants=[ALL - {"cellpair"}, ALL - {"picked"}, NONE])


def test_the_inline_shuffle_and_seeding_give_the_library_s_generator():
    """The set-up's shuffles run `random.Random.shuffle` inlined (`chance.shuffle_with`) and a new
    match seeds its generator without `Random.__init__`'s Python code (`chance.seeded`): the same
    orders and the same generator state as the library's, on every length and seed tried."""
    from rulelang.engine import chance
    assert chance._SHUFFLE_INLINE and chance._SEED_DIRECTLY        # (this Python's library shuffles so)
    for seed in (0, 1, 99, -5, 2 ** 40, 10 ** 6 + 17):
        assert chance.seeded(seed).getstate() == random.Random(seed).getstate()
        for size in (0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 52, 64, 65, 200):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), chance.seeded(seed)
            ra.shuffle(a)
            chance.shuffle_with(rb, b)
            assert a == b and ra.getstate() == rb.getstate()
    assert chance.seeded(None).random() != chance.seeded(None).random()     # (None: from the system)


@pytest.mark.parametrize("path,players", [("regicide", 4), ("smash_up", 2)])
def test_games_play_the_same_with_the_library_s_shuffle_and_seeding(path, players, monkeypatch):
    """The same games, the library's `shuffle` and `random.Random(seed)` used instead."""
    from rulelang.engine import chance
    game = rulelang.load(str(ROOT / "games" / f"{path}.rules"))
    fast = [outcome(game, players, seed, None) for seed in range(2)]
    monkeypatch.setattr(chance, "_SHUFFLE_INLINE", False)
    monkeypatch.setattr(chance, "_SEED_DIRECTLY", False)
    assert [outcome(game, players, seed, None) for seed in range(2)] == fast


LEAN_FLOW = '''game "Lean flow" {
  players 2..3
  var score: int = 0 per player
  var picker: player = 0
  var zero: int = 0
  turn {
    step pick by picker {
      action mark(p in players) { score[p] += 1  picker = next(picker)  goto tally }
      action crash require score[me] == 3 { score[me] += 10 / zero  end turn }
      action idle { goto rest }
    }
    step tally {
      enter { if score[me] >= 2 and score[me] < 4 { end turn } }
      action again { goto pick }
      action stop { end turn }
    }
    step rest {
      action nothing require score[me] > 100 { end turn }
    }
  }
  on stuck { end turn }
  when any(score[p] >= 6 for p in players) { finish win for first(p for p in players where score[p] >= 6) "six" }
  turn limit 9 { finish draw "long" }
}
'''


@pytest.mark.parametrize("players", [2, 3])
def test_the_lean_apply_plays_as_the_general_one(players, monkeypatch):
    """`lean` (the engine's): a bot's pick in a game that never pauses goes straight to the action
    and settles the flow in a function of its own. A step played `by` a variable, an `enter` that
    ends the turn, `on stuck`, a `when` rule and a turn limit: the same games with and without it,
    and a failed action changes nothing either way."""
    ir = rulelang.compile_source(LEAN_FLOW, "lean.rules")
    lean, general = game_with(ir, ALL, monkeypatch), game_with(ir, ALL - {"lean"}, monkeypatch)
    assert lean.lean and not general.lean
    for seed in range(12):
        assert outcome(lean, players, seed, None) == outcome(general, players, seed, None)
    for game in (lean, general):
        m, pick = game.new_match(players, 5), random.Random(5)
        while not any(a.text == "crash" for a in m.legal_actions()):
            m.apply(pick.choice([a for a in m.legal_actions() if a.text != "crash"]))
        before = m.state()
        with pytest.raises(rulelang.RuleRuntimeError, match="division by zero"):
            m.apply(next(a for a in m.legal_actions() if a.text == "crash"))
        assert m.state() == before


class _Moves:
    """Just what the move helpers read and write of a match."""
    def __init__(self, zones: list[list[int]]):
        self.where: list = [None] * (1 + max((c for z in zones for c in z), default=0))
        for z in zones:
            for c in z:
                self.where[c] = z
        self.work, self.held = 10_000, None


@pytest.mark.parametrize("bottom", [False, True])
def test_a_whole_zone_moved_at_once_is_moved_and_charged_as_one_at_a_time(bottom):
    """`zonemove`: `move stack[a] to stack[b]` (a whole zone, onto a zone with a capacity or under
    one) moves the zone's list at once (`_move_all`); the order, `where` and the work charged are
    those of `_move`, one component at a time."""
    from rulelang.engine.codegen.runtime_moves import _move, _move_all
    for k in range(5):
        for d in range(4):
            results = []
            for mover in (_move, _move_all):
                src, dest = list(range(1, k + 1)), list(range(10, 10 + d))
                m = _Moves([src, dest])
                mover(m, src, dest, bottom)
                results.append((src, dest, [id(z) == id(dest) for z in m.where if z is not None], m.work))
            assert results[0] == results[1], (k, d)
    fast = Lowerer(rulelang.compile_file(str(ROOT / "games" / "valgard.rules")), ALL)
    fast.build()
    assert "_move_all(m, Z2[" in fast.python


def test_tests_that_cannot_fail_are_told_apart_from_those_that_may():
    """`reorder` moves only tests that can neither raise nor do more than answer."""
    from rulelang.engine.codegen.enumerator import _cannot_fail
    for src in ("(b3_V13 == b4)", "(b1_F1 == 'action')", "(not (a == b) and c)", "(a is None)",
                "(('x' if a else 'y') != b)", "('f(' == b)"):
        assert _cannot_fail(src), src
    for src in ("(V13[b] == c)", "(f(x) == 1)", "(a < b)", "(a + 1 == 2)", "(x.y == 1)", "((a)(b))",
                "(a in b)", "(lambda: 1)", "(a == b", ""):
        assert not _cannot_fail(src), src


REORDER = '''game "Reorder" {
  players 2
  kind Card { worth: int  sort: text }
  zone hand: pile per player, public
  zone table: pile, public
  var vals: list[int] = [1, 2]
  setup { for p in players { create Card(worth: 1, sort: "a") in hand[p]  create Card(worth: 2, sort: "b") in hand[p] }
          create Card(worth: 3, sort: "a") in table  create Card(worth: 4, sort: "b") in table }
  turn { step s {
    action pair(c in hand[me], t in table) require t.worth == c.worth + 2 and c.sort == "a" { finish draw }
    action late(c in hand[me], t in table) require vals[t.worth] > 0 and c.sort == "z" { finish draw }
    action pass { finish draw }
  } }
}
'''


@pytest.mark.parametrize("optimise", [ALL, ALL - {"reorder"}], ids=["reorder", "in-order"])
def test_a_test_that_cannot_fail_is_made_in_the_shallowest_loop_and_errors_stay(optimise, monkeypatch):
    """`reorder`: in Smash Up's `attach(card in hand, minion in play, base in bases)`, `require
    minion.base == base and card.kind == action …` tests the card's kind in the card's loop, not
    for each minion and base. A test that cannot fail goes before earlier ones only if they cannot
    fail either: `vals[t.worth] > 0` (an index out of range) is still met before `c.sort == "z"`
    — the same rule error either way."""
    game = game_with(rulelang.compile_source(REORDER, "reorder.rules"), optimise, monkeypatch)
    with pytest.raises(rulelang.RuleRuntimeError, match="read past its end"):
        game.new_match(2, 1, {}).legal_actions()
    if optimise == ALL:
        ir = rulelang.compile_file(str(ROOT / "games" / "smash_up.rules"))
        fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"reorder"})
        fast.build(), plain.build()
        loops_after = {}                       # the loops between the kind's test and the action listed
        for name, low in (("fast", fast), ("plain", plain)):
            lines = low.python.splitlines()
            at = next(i for i, x in enumerate(lines) if re.search(r"if not \(b\d+_F\d+ == 'minion_action'\)", x))
            leaf = next(i for i in range(at, len(lines)) if "'attach '" in lines[i])
            loops_after[name] = sum(1 for x in lines[at:leaf] if x.lstrip().startswith("for "))
        assert loops_after == {"fast": 2, "plain": 0}
        same_traces(ir, 2, range(2), monkeypatch, variants=[ALL - {"reorder"}])


FIXED_LIST = '''game "Fixed list" {
  players 2
  kind Card { worth: int }
  zone hand: pile per player, public
  var vals: list[int] = [1, 2]
  var strict: bool = false
  def fits(k: text, c: Card) = if k == "low" then c.worth > 0 else if k == "mid" then (if strict then vals[c.worth] > 0 else c.worth < 3) else c.worth > 9
  def ways(c: Card) = if c.worth > 0 then [k for k in ["low", "mid", "high"] where fits(k, c)] else []
  setup { for p in players { create Card(worth: 1) in hand[p]  create Card(worth: 5) in hand[p] } }
  turn { step s {
    action pick(c in hand[me]) require size(ways(c)) > 0 { strict = true }
    action two(c in hand[me]) require size(ways(c)) == 2 { finish draw }
    action pass { finish draw }
  } }
}
'''


@pytest.mark.parametrize("optimise", [ALL, ALL - {"fixedlist"}], ids=["fixedlist", "list"])
def test_a_size_of_a_short_literal_list_is_counted_element_by_element(optimise, monkeypatch):
    """`fixedlist`: Smash Up's `size(plays_for(c, b, me)) > 0` — `[k for k in Play where fits(k, …)]`,
    five ways of playing — makes no list: each way's condition is tested with its value known, in
    the same order, so a rule error in a later way is met as before (`vals[5]` once `strict`)."""
    game = game_with(rulelang.compile_source(FIXED_LIST, "fixed.rules"), optimise, monkeypatch)
    m = game.new_match(2, 1, {})
    listed = [a.text for a in m.legal_actions()]
    assert sum(t.startswith("pick") for t in listed) == 2 and sum(t.startswith("two") for t in listed) == 1
    with pytest.raises(rulelang.RuleRuntimeError, match="read past its end"):
        m.apply(next(t for t in listed if t.startswith("pick")))       # (the next listing meets it)
    if optimise == ALL:
        ir = rulelang.compile_file(str(ROOT / "games" / "smash_up.rules"))
        fast, plain = Lowerer(ir, ALL), Lowerer(ir, ALL - {"fixedlist"})
        fast.build(), plain.build()
        assert "for q" in plain.python and "'discard_play']" in plain.python
        listing = re.compile(r"^def st_enum0_\(m\):\n(?:(?: .*)?\n)*", re.M)
        assert "'discard_play'] if" not in listing.search(fast.python).group()
        same_traces(ir, 2, range(2), monkeypatch, variants=[ALL - {"fixedlist"}])


MATCH_READERS = """
game "Memo" {
  players 2..4
  var seen: int = 0, public
  var before: list[player] = [], public
  var after: list[player] = [], public
  var out_before: int = 0, public
  var out_after: int = 0, public
  def others_then(p: player) = [q for q in players_from(p) where q != p] + [p]
  def gone(p: player) = size([q for q in [p] where eliminated(q)])
  setup {
    seen = size(others_then(players[0]))
    before = others_then(players[0])
    out_before = gone(players[1])
    turn_order = [players[0]] + reverse([q for q in players where q != players[0]])
    eliminate players[1]
  }
  turn { step s { action stop {
    after = others_then(players[0])  out_after = gone(players[1])  finish draw "done"
  } } }
}
"""


def test_a_def_reading_the_turn_order_or_who_is_out_is_worked_out_again():
    """A new author's Hold'em: a def looping over `players_from(p)` was kept as a per-game constant —
    one game's matches of 2, 3, 4 and 2 players all saw 2 seats, and a new turn order was not seen
    (`lint --deep` then reported reads past a list's end that no single replay made)."""
    game = rulelang.Game(rulelang.compile_source(MATCH_READERS, "memo.rules"))
    for players in (2, 3, 4, 2):
        m = game.new_match(players, seed=0)
        state = m.state()["vars"]
        assert state["seen"] == players
        assert state["before"] == list(range(1, players)) + [0]
        assert state["out_before"] == 0
        m.apply("stop")
        state = m.state()["vars"]
        assert state["after"] == list(range(players - 1, 0, -1)) + [0], state   # (the one out included)
        assert state["out_after"] == 1
