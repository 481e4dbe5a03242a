"""The bots, above all `mcts`: legal, reproducible, not disturbing the match it searches,
stronger than random play at Valgarð, and taking a win when there is one."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.play.bots import MctsBot, bot_seed, make_bot
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = str(ROOT / "games" / "regicide.rules")
VALGARD = str(ROOT / "games" / "valgard.rules")

# A race to name the number: a player who picks `target` wins at once; any other pick
# passes the turn (and moves the target); after 30 picks it is a draw.
QUICK = """
game "Quick" {
  players 1..3
  var picks: int = 0
  def target = picks % 9 + 1
  turn {
    step go {
      action pick(n in 1..9) {
        if n == target { finish win for me }
        picks += 1
        if picks >= 30 { finish draw }
        end turn
      }
    }
  }
}
"""


@pytest.fixture(scope="module")
def valgard():
    return rulelang.load(VALGARD)


@pytest.fixture(scope="module")
def regicide():
    return rulelang.load(REGICIDE)


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


# -- kinds -----------------------------------------------------------------------------

def count_samples(m, into: list) -> None:
    """Make m's imagined worlds (`m.sampler`) note each seed they are asked for in `into`."""
    real = m.sampler

    def counting(seat):
        sample = real(seat)
        return lambda seed: into.append(seed) or sample(seed)
    m.sampler = counting


def test_mcts_kinds_and_budgets():
    assert make_bot("mcts", 1).iterations == MctsBot.DEFAULT_ITERATIONS == 200
    bot = make_bot("mcts:1000", 1)
    assert bot.iterations == 1000 and bot.kind == "mcts:1000"
    assert make_bot("mcts", 1).kind == "mcts"
    assert make_bot("random", 1).kind == "random" and make_bot("greedy", 1).kind == "greedy"


def test_a_cpu_time_budget_per_move():
    bot = make_bot("ismcts:0.5s", 1)
    assert bot.seconds == 0.5 and bot.kind == "ismcts:0.5s"
    assert make_bot("mcts:2s", 1).seconds == 2.0 and make_bot("mcts:2s", 1).kind == "mcts:2s"
    assert make_bot("ismcts:200", 1).seconds is None
    # a budget too small for a whole iteration still searches once, and answers a legal action
    match = rulelang.load(VALGARD).new_match(2, seed=3, options={"turn_limit": 6})
    for kind in ("ismcts:0.000001s", "mcts:0.000001s"):
        action = make_bot(kind, 7).choose(match)
        assert action in match.legal_actions()


@pytest.mark.parametrize("kind", ["smart", "mcts:", "mcts:-5", "mcts:x", "mcts:1.5",
                                  "random:3", "MCTS", "mcts:２", "ismcts:s", "ismcts:.s",
                                  "ismcts:1.2.3s", "ismcts:-1s", "random:1s", "ismcts:1e3s",
                                  "ismcts:１s"])
def test_unknown_or_invalid_kinds_name_the_kinds(kind):
    with pytest.raises(ValueError, match=r"unknown bot kind .*random, greedy, mcts"):
        make_bot(kind, 1)


@pytest.mark.parametrize("kind, says", [("mcts:0", "1 to 9,999,999 iterations"), ("ismcts:10000000", "1 to 9,999,999"),
                                        ("ismcts:0s", "more than 0 and at most 3600 s"), ("ismcts:3601s", "at most 3600 s")])
def test_a_budget_out_of_range_says_the_range(kind, says):
    with pytest.raises(ValueError, match=says):
        make_bot(kind, 1)


def test_cli_accepts_an_mcts_budget_and_refuses_a_bad_one_in_one_line(capsys):
    code = main(["simulate", VALGARD, "--games", "1", "--seed", "3", "--option", "turn_limit=6",
                 "--bot", "1=mcts:5", "--bot", "2=mcts"])
    out, err = capsys.readouterr()
    assert code == 0 and err.startswith("rulelang simulate: mcts stops at a CPU time per move") and err.count("\n") == 1
    assert "bots: P1 mcts:5, P2 mcts" in out
    assert main(["simulate", VALGARD, "--bot", "2=mcts:lots"]) == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        "argument --bot: unknown bot kind 'mcts:lots'; choose one of: random, greedy, mcts[:ITERATIONS|:SECONDSs], "
        "ismcts[:ITERATIONS|:SECONDSs] (mcts, ismcts: 200 iterations, at most 0.5 s of CPU time per move; "
        "ismcts:0.5s: 0.5 s of CPU time per move)")


# -- mcts ------------------------------------------------------------------------------

@pytest.mark.parametrize("which, players", [("valgard", 2), ("regicide", 1), ("regicide", 3)])
def test_mcts_returns_a_legal_action_and_leaves_the_match_alone(request, which, players):
    game = request.getfixturevalue(which)
    match = game.new_match(players, 5)
    for move in range(8):
        if match.is_over:
            break
        before = match.state()
        action = make_bot("mcts:40", move).choose(match)
        assert match.state() == before                    # the search ran on clones
        assert str(action) in texts(match.legal_actions())
        match.apply(action)


def test_mcts_is_deterministic_for_a_seed(valgard):
    def line(seed: int) -> list[str]:
        match = valgard.new_match(2, 11, {"turn_limit": 20})
        bots = [make_bot("mcts:25", seed), make_bot("mcts:25", seed + 1)]
        while not match.is_over:
            match.apply(bots[match.current_player].choose(match))
        return match.log

    first = line(1)
    assert line(1) == first
    assert any(line(seed) != first for seed in (2, 3, 4))   # the seed does steer the search


@pytest.mark.parametrize("players", [2, 3])
def test_mcts_takes_an_immediate_win(tmp_path, players):
    path = tmp_path / "quick.rules"
    path.write_text(QUICK, encoding="utf-8")
    game = rulelang.load(str(path))
    for seed in range(3):
        match = game.new_match(players, seed)
        for picks in range(2 * players):                  # every seat, the target moving each pick
            target = f"pick {picks % 9 + 1}"
            assert str(make_bot("mcts:60", seed * 100 + picks).choose(match)) == target
            match.apply(f"pick {(picks + 1) % 9 + 1}")    # a miss: the game goes on
            assert not match.is_over


@pytest.mark.slow
def test_mcts_beats_random_at_valgard(valgard):
    # Measured with these settings (budget 50, turn limit 120) over 64 games: mcts won 86%,
    # drew the rest, lost none; a random bot against another wins ~46% and loses ~38%. So
    # "no loss and at least 3 wins in 6" is far below what mcts does (it failed in no window
    # of 6 or 8 games tried) and far above what random play manages (about 1 time in 25).
    wins = losses = 0
    for index in range(6):
        seat = index % 2                                  # mcts plays both sides
        match = valgard.new_match(2, index, {"turn_limit": 120})
        bots = [make_bot("random", bot_seed(index, s)) for s in range(2)]
        bots[seat] = make_bot("mcts:50", bot_seed(index, seat))
        while not match.is_over:
            match.apply(bots[match.current_player].choose(match))
        result = match.outcome["results"][seat]
        wins += result == "win"
        losses += result == "lose"
    assert losses == 0 and wins >= 3, (wins, losses)


def test_the_default_search_budget_is_200_iterations_capped_at_half_a_cpu_second(monkeypatch):
    from rulelang.play import bots
    ticks = iter(range(10_000))
    monkeypatch.setattr(bots.time, "thread_time", lambda: next(ticks) * 0.01)   # 10 ms of CPU per iteration
    default = make_bot("ismcts", 1)
    assert (default.kind, default.iterations, default.seconds, default.cap) == ("ismcts", 200, None, 0.5)
    assert len(list(bots._budget(default.iterations, default.seconds, default.cap))) == 50
    exact = make_bot("ismcts:200", 1)                   # a count is exact: reproducible from the seed
    assert exact.kind == "ismcts:200" and len(list(bots._budget(exact.iterations, exact.seconds, exact.cap))) == 200
    assert make_bot("mcts", 1).cap == 0.5 and make_bot("mcts:30", 1).cap is None


@pytest.mark.parametrize("kind", ["ismcts:1", "mcts:1"])
def test_a_count_of_iterations_stops_its_playouts_at_the_safety_time(kind, monkeypatch):
    """An exhaustion trial: a lint-clean file whose every action took the work limit made one
    playout of `ismcts:1` (up to 2,000 actions, no estimate) last minutes. A search stops its
    playouts at its time (here SAFETY_SECONDS, for a count, faked at 10 ms of CPU per reading)."""
    import itertools
    from rulelang.play import bots
    source = """game "Endless" {
      players 2
      var n: int = 0
      turn { step s { action a { n += 1  end turn }  action b { n += 2  end turn }
                      action stop require n < 0 { finish draw } } }
    }"""
    m = rulelang.Game(rulelang.compile_source(source)).new_match(2, seed=1)
    ticks = itertools.count()
    monkeypatch.setattr(bots.time, "thread_time", lambda: next(ticks) * 0.01)
    monkeypatch.setattr(bots, "SAFETY_SECONDS", 0.2)
    applied = []
    real = rulelang.Match.apply
    monkeypatch.setattr(rulelang.Match, "apply", lambda self, *a, **k: applied.append(1) or real(self, *a, **k))
    assert make_bot(kind, 1).choose(m) in m.legal_actions()
    assert 0 < len(applied) <= 25, len(applied)        # (not the 2,000 of a whole playout)


GOLD = """
game "Gold" {
  players 2
  kind Chip { gold: bool  label if gold then "gold" else "lead" }
  zone deck: pile, hidden
  zone out: pile, public
  setup { create Chip(gold: true) in deck  repeat 9 { create Chip(gold: false) in deck }  shuffle deck }
  turn { step s {
    action draw { let c = top(deck)  move c to out  if c.gold { finish win for me "gold" }  end turn }
    action wait { end turn }
  } }
  turn limit 20 { finish draw }
}
"""


def test_greedy_looks_ahead_in_a_world_it_imagines_not_in_the_hidden_deck():
    game = rulelang.Game(rulelang.compile_source(GOLD, "gold.rules"))
    matches = [game.new_match(2, seed=s) for s in range(40)]
    gold_on_top = [m for m in matches if m.labels[m.state()["zones"]["deck"][-1]] == "gold"]
    lead_on_top = [m for m in matches if m.labels[m.state()["zones"]["deck"][-1]] == "lead"]
    assert gold_on_top and lead_on_top and gold_on_top[0].view(0) == lead_on_top[0].view(0)
    for bot_seed in range(20):           # the same view and bot seed: the same choice, whatever lies on top
        choices = {str(make_bot("greedy", bot_seed).choose(m)) for m in (gold_on_top[0], lead_on_top[0])}
        assert len(choices) == 1


def test_greedy_looks_at_a_bounded_number_of_actions():
    """14,400 legal actions took the greedy bot a minute a decision (a fuzzing trial): it looks at
    256 of them, chosen at random, and still takes a win among those it looks at."""
    from rulelang.play.bots import GreedyBot
    source = """game "Many" {
      players 2
      turn { step s {
        action pick(a in 1..40, b in 1..40) { if a == 7 { finish win for me }  end turn }
      } }
    }"""
    game = rulelang.Game(rulelang.compile_source(source))
    m = game.new_match(2, seed=1)
    looked = []
    count_samples(m, looked)
    bot = GreedyBot(3)
    pick = bot.choose(m)
    assert len(m.legal_actions()) == 1600 and len(looked) == GreedyBot.LOOKS
    assert pick in m.legal_actions() and pick.text.startswith("pick 7 ")     # one of the 40 wins it saw


def test_greedy_stops_looking_once_its_cpu_time_for_the_decision_is_spent(monkeypatch):
    """A fuzzer's rules with 256 actions of 0.24 s each: one greedy decision took a minute and
    ignored `simulate --max-cpu`. Looking stops at GreedyBot.LOOK_SECONDS of CPU time (here 0:
    after the first action looked at)."""
    from rulelang.play.bots import GreedyBot
    game = rulelang.load(str(ROOT / "games" / "valgard.rules"))
    match = game.new_match(2, seed=3)
    assert len(match.legal_actions()) > 1
    looked = []
    real = GreedyBot._rank
    monkeypatch.setattr(GreedyBot, "_rank", staticmethod(lambda *a: looked.append(a[1]) or real(*a)))
    monkeypatch.setattr(GreedyBot, "LOOK_SECONDS", 0.0)
    chosen = GreedyBot(seed=1).choose(match)
    assert len(looked) == 1 and chosen is looked[0]
    monkeypatch.setattr(GreedyBot, "LOOK_SECONDS", 60.0)
    looked.clear()
    GreedyBot(seed=1).choose(match)
    assert len(looked) == len(match.legal_actions())


def test_a_watched_search_bot_thinks_even_when_one_answer_is_forced():
    """A leak trial: a Shadow Hunters bot given a hermit card (asked `always`) answered at once
    when it had one honest answer and took ~0.1 s when it had two (only the Unknown may lie), and
    the browser shows every seat that it is thinking. A bot people watch searches either way."""
    game = rulelang.load(REGICIDE)
    m = game.new_match(1, 3)
    while len(m.legal_actions()) != 1:
        m.apply(m.legal_actions()[0])
    for watched, searched in ((False, False), (True, True)):
        bot = make_bot("ismcts:20", 5, watched=watched)
        samples = []
        count_samples(m, samples)
        try:
            assert bot.choose(m) == m.legal_actions()[0]
        finally:
            del m.sampler
        assert (len(samples) == 20) is searched


def test_a_watched_search_bot_plays_the_simulations_game():
    """A designer's trial: a simulated Shadow Hunters game, played again at the terminal with the
    same seed and bots, went otherwise — the watched bot searches a forced answer for show (so that
    its thinking time tells nothing) and that search drew from its generator. It now draws from a
    copy: the same seed gives the same game watched or not."""
    game = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    logs = []
    for watched in (False, True):
        m = game.new_match(4, 3)
        bots = [make_bot("ismcts:4", bot_seed(3, seat), watched=watched) for seat in range(4)]
        forced = 0
        while not m.is_over and len(m.log) < 400:
            forced += len(m.legal_actions()) == 1
            m.apply(bots[m.current_player].choose(m))
        logs.append(m.log)
        assert forced > 0                                  # (the watched bot searched some: the test bites)
    assert logs[0] == logs[1]


@pytest.mark.parametrize("kind", ["ismcts:30", "greedy"])
def test_a_rule_error_in_a_world_the_bot_imagines_does_not_end_the_real_match(kind):
    """A new author's Dixit: worlds the bot imagined (its secret tokens dealt anew) broke what the rules
    assumed, and the rule error there ended every real game of a simulation. A world that fails is
    no world to search; the bot still answers, with a legal action."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    m = game.new_match(1, 3)
    real = m.sampler

    def breaking(seat):
        sample, calls = real(seat), [0]

        def world(seed):
            calls[0] += 1
            if calls[0] % 2:
                raise rulelang.RuleRuntimeError("regicide.rules:1: a list read past its end (an imagined world)")
            return sample(seed)
        return world
    m.sampler = breaking
    action = make_bot(kind, seed=1).choose(m)
    assert str(action) in [str(a) for a in m.legal_actions()]


DUEL = """
game "Duel" {
  players 2
  kind Life { n: text  label n }
  zone life: set per player, public
  zone lost: pile
  setup { create Life(n: "heart") in life[1]  create Life(n: "heart") in life[0]  create Life(n: "spare") in life[0] }
  turn {
    step main {
      action strike {
        choose c in life[next(me)] by next(me) always prompt "the life you lose" { move c to lost }
        if size(life[next(me)]) == 0 { finish win for me }
        end turn
      }
      action wait { end turn }
    }
  }
}
"""


def test_greedy_sees_a_win_behind_an_answer_that_has_no_alternative():
    """A new author's Coup: a coup on a player's last influence ends the game only once they reveal
    it — a question with one answer — and greedy, taking that for a game that goes on, played
    no better than random. It follows forced answers now."""
    game = rulelang.Game(rulelang.compile_source(DUEL, "duel.rules"))
    match = game.new_match(2, seed=1)
    assert sorted(str(a) for a in match.legal_actions()) == ["strike", "wait"]
    assert {str(make_bot("greedy", seed).choose(match)) for seed in range(20)} == {"strike"}
