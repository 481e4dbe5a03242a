"""Simultaneous steps (`step NAME simultaneous [by PLAYERS] { action … reveal { … } }`): every seat
asked answers in secret, the answers are revealed together (rulelang/engine/simultaneous.py).
Small invented games: rock-paper-scissors and a sealed-bid auction (tests/simultaneous/)."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import rulelang
from rulelang import check_source
from rulelang.core.errors import IllegalAction, RuleRuntimeError, StateError
from rulelang.play.bots import IsmctsBot
from rulelang.play.repl import run_repl
from rulelang.web.present import seat_payload, spectator_payload

HERE = Path(__file__).parent / "simultaneous"


@pytest.fixture(scope="module")
def rps():
    return rulelang.load(str(HERE / "rps.rules"))


@pytest.fixture(scope="module")
def bids():
    return rulelang.load(str(HERE / "sealed_bids.rules"))


@pytest.fixture(scope="module")
def draft():
    return rulelang.load(str(HERE / "draft.rules"))


def game_of(source: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(source, "x.rules"))


def values(m, seat=0) -> dict:
    return {v["name"]: v.get("per_player", v.get("value")) for v in m.view(seat)["values"]}


# ---- the language ----------------------------------------------------------------------------

def test_the_ir_of_a_simultaneous_step_and_of_an_old_one(rps):
    step = rps.ir["steps"][0]
    assert step["actor"] is None and step["simultaneous"]["seats"] is None
    assert step["simultaneous"]["reveal"][-1] == {"s": "end_turn", "to": None, "line": 21}
    from jsonschema import Draft202012Validator
    schema = json.loads((Path(rulelang.__file__).parent / "ir" / "schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(rps.ir)
    bad = json.loads(json.dumps(rps.ir))
    bad["steps"][0]["actor"] = {"k": "lit", "v": 0}
    with pytest.raises(rulelang.RulelangError, match="a simultaneous step has no actor"):
        rulelang.Game(bad)
    old = rulelang.compile_source('game "g" { players 2  turn { step s { action a { finish draw } } } }', "g.rules")
    assert "simultaneous" not in old["steps"][0]          # an old rule file compiles as it did
    var = rulelang.compile_source('game "g" { players 2  var simultaneous: int = 0  turn { step s by simultaneous '
                                  '{ action a { simultaneous += 1  finish draw } } } }', "g.rules")
    step = rulelang.compile_source('game "g" { players 2  turn { step simultaneous { action b { finish draw } } } }',
                                   "g.rules")
    assert var["steps"][0]["actor"]["k"] == "var" and step["steps"][0]["name"] == "simultaneous"
    assert "simultaneous" not in var["steps"][0] and "simultaneous" not in step["steps"][0]   # (a keyword only here)


def lint(source: str) -> list[str]:
    return [f"{d.code} {d.message}" for d in check_source(source, "x.rules")[1]]


def test_lints_a_simultaneous_step_nobody_can_answer_and_a_reveal_that_never_runs():
    base = 'game "g" {{ players 2  var n: int = 0  turn {{ {step} }} }}'
    found = lint(base.format(step='step s simultaneous by [] { action a { n += 1 } reveal { finish draw } }'))
    assert any(x.startswith("W236 nobody can answer simultaneous step `s`: `by []`") for x in found)
    found = lint(base.format(step='step s simultaneous { action a require false { n += 1 } reveal { finish draw } }'))
    assert any(x.startswith("W236 nobody can answer simultaneous step `s`: none of its actions") for x in found)
    found = lint(base.format(step='step s { action a { finish draw } reveal { n += 1 } }'))
    assert any(x.startswith("W237 step `s` is not simultaneous, so its `reveal` block never runs") for x in found)
    found = lint(base.format(step='step s simultaneous by 1 { action a { finish draw } }'))
    assert any(x.startswith("E201 the players who answer a simultaneous step must be list of player, not int") for x in found)


# ---- rock-paper-scissors: exact positions ----------------------------------------------------

def test_answers_are_committed_in_secret_and_revealed_together(rps):
    m = rps.new_match(3, seed=1)
    assert m.current_player == 0 and m.simultaneous == {"step": "throw", "seats": [0, 1, 2]}
    assert [a.text for a in m.legal_actions()] == ["rock", "paper", "scissors"]
    before = {q: m.view(q) for q in (1, 2)}
    m.apply("scissors")
    assert m.current_player == 1 and m.log == [] and m.messages == []
    assert m.view(0)["simultaneous"] == {"step": "throw", "seats": [0, 1, 2], "answer": "scissors",
                                         "to_answer": False}
    for q in (1, 2):                                   # the others: exactly what they saw before
        assert m.view(q) == before[q] and m.log_for(q) == []
    assert m.view(0)["actor"] is None and m.view(1)["actor"] == 1 and m.view(2)["actor"] == 2
    assert m.state()["simultaneous"] == {"step": "throw", "seats": [0, 1, 2], "answers": ["scissors", None, None]}
    m.apply("paper")
    m.apply("paper")                                   # the last answer: all run, in seat order, then `reveal`
    assert m.log == ["P1: scissors", "P2: paper", "P3: paper"]
    assert m.messages == ["P1 wins the throw"]
    assert values(m)["sign"] == ["scissors", "paper", "paper"] and values(m)["wins"] == [1, 0, 0]
    assert m.view(1)["turn_player"] == 1 and m.simultaneous == {"step": "throw", "seats": [0, 1, 2]}
    assert m.view(1).get("simultaneous")["answer"] is None


def test_a_seat_may_answer_out_of_order_and_nobody_learns_who_answered(rps):
    m = rps.new_match(3, seed=1)
    views = {q: m.view(q) for q in range(3)}
    m.apply("P3: rock")                                # P3 first: P1 is still the one asked in order
    assert m.current_player == 0 and m.view(0) == views[0] and m.view(1) == views[1]
    assert m.view(2)["simultaneous"]["answer"] == "rock" and m.view(2)["actor"] is None
    with pytest.raises(IllegalAction):
        m.apply("P3: paper")                           # an answer is final
    with pytest.raises(IllegalAction):
        m.apply("lizard")
    assert m.state()["simultaneous"]["answers"] == [None, None, "rock"]
    m.apply("rock"), m.apply("P2: scissors")
    assert m.log == ["P1: rock", "P2: scissors", "P3: rock"]       # revealed in the list's order
    assert values(m)["wins"] == [0, 0, 0] and m.messages == []     # nobody beats both others


def test_a_failed_reveal_changes_nothing_and_the_last_answer_is_not_kept():
    game = game_of('''game "g" { players 2  var n: int = 0 per player
      turn { step s simultaneous {
        action pick(k in 0..2) { n[me] = k }
        reveal { let x = 10 / (n[0] - n[1])  finish draw } } } }''')
    m = game.new_match(2, seed=3)
    m.apply("pick 1")
    before = m.state()
    with pytest.raises(RuleRuntimeError, match="division by zero|divide"):
        m.apply("pick 1")
    assert m.state() == before and m.current_player == 1
    m.apply("pick 2")
    assert m.is_over and m.log == ["P1: pick 1", "P2: pick 2"]


def test_a_player_list_chooses_who_answers_and_one_without_an_action_is_not_asked():
    game = game_of('''game "g" { players 3  var n: int = 0 per player
      turn { step s simultaneous by [2, 0, 1] {
        action pick(k in 1..2) require me != 1 { n[me] = k }
        reveal { finish win for 2 } } } }''')
    m = game.new_match(3, seed=0)
    assert m.simultaneous["seats"] == [2, 0] and m.current_player == 2
    m.apply("pick 2"), m.apply("pick 1")
    assert m.log == ["P3: pick 2", "P1: pick 1"] and m.outcome["results"] == ["lose", "lose", "win"]


# ---- a sealed-bid auction: exact results -----------------------------------------------------

def test_sealed_bids_the_highest_pays_and_a_tie_loses_the_lot(bids):
    m = bids.new_match(2, seed=0)
    assert [a.text for a in m.legal_actions()][:3] == ["bid 0", "bid 1", "bid 2"] and len(m.legal_actions()) == 11
    m.apply("bid 3")
    assert values(m, 1)["bid"] == [0, 0]               # nothing runs before the reveal
    m.apply("bid 5")
    assert m.messages == ["P2 takes lot of 4 for 5"]
    assert values(m)["coins"] == [10, 5] and values(m)["bid"] == [3, 5]
    won = {z["owner"]: [c["label"] for c in z["cards"]] for z in m.view(0)["zones"] if z["name"] == "won"}
    assert won == {0: [], 1: ["lot of 4"]}
    assert [a.text for a in m.legal_actions()][-1] == "bid 10"     # P1 still has 10 coins
    m.apply("bid 2")
    assert m.current_player == 1 and [a.text for a in m.legal_actions()][-1] == "bid 5"
    m.apply("bid 2")
    assert m.messages[-1] == "a tie: lot of 3 is lost"
    m.apply("bid 10"), m.apply("bid 0"), m.apply("bid 0"), m.apply("bid 5")
    assert m.outcome["results"] == ["lose", "win"] and m.outcome["scores"] == [5, 6]
    assert m.outcome["reason"] == "every lot is sold"


# ---- saves and replay ------------------------------------------------------------------------

def test_save_and_replay_mid_decision_are_exact(bids):
    m = bids.new_match(3, seed=4)
    m.apply("bid 4"), m.apply("P3: bid 1")
    saved = json.loads(json.dumps(m.state()))
    back = rulelang.Match.from_state(bids, saved)
    assert back.state() == m.state() and back.current_player == 1
    for x in (m, back):
        x.apply("bid 2")
    assert back.state() == m.state() and m.log == ["P1: bid 4", "P2: bid 2", "P3: bid 1"]
    replayed = bids.new_match(3, seed=4)
    for text in m.log:                                 # the log replays the match: `P2: TEXT` commits P2's
        replayed.apply(text)
    assert replayed.state() == m.state()
    bad = dict(saved, simultaneous=dict(saved["simultaneous"], answers=["bid 99", None, "bid 1"]))
    with pytest.raises(StateError, match="not a legal answer of P1"):
        rulelang.Match.from_state(bids, bad)
    bad = dict(saved, actor=2)
    with pytest.raises(StateError, match="the actor must be P2"):
        rulelang.Match.from_state(bids, bad)


TOSS = """game "toss" {
  players 2
  kind Chip { v: int  label "chip " + text(v) }
  zone bag: pile, hidden
  zone out: pile, public
  setup { for i in 1..5 { create Chip(v: i) in bag }  shuffle bag }
  turn {
    step call simultaneous {
      action go { }
      reveal { shuffle bag  move top(bag) to out  if size(bag) == 0 { finish draw "empty" }  end turn }
    }
  }
}"""


def test_each_reveals_chance_events_replay_it_on_another_seed_when_the_next_decision_opens_at_once():
    """A new author's trial: a reveal that ends the turn opens the next decision at once, and its
    shuffle was not listed in `chance_events` (a commit read as one that draws nothing)."""
    game = game_of(TOSS)
    m = game.new_match(2, seed=3)
    setup, played = m.chance_events, []
    for _ in range(4):
        m.apply("go", seat=0)
        assert m.chance_events == []                   # (an answer kept in secret draws nothing)
        m.apply("go", seat=1)
        played.append(m.chance_events)
    assert [e[:2] for events in played for e in events] == [["shuffle", n] for n in (5, 4, 3, 2)]
    again = game.new_match(2, seed=77, chance=setup)
    for events in played:
        again.apply("go", seat=0)
        again.supply_chance(events)
        again.apply("go", seat=1)
    assert again.state()["zones"]["out"] == m.state()["zones"]["out"]


def test_a_choice_inside_a_revealed_answer_pauses_and_saves():
    game = game_of('''game "g" { players 2  var n: int = 0 per player
      turn { step s simultaneous {
        action pick(k in 1..2) { n[me] = k  may by me prompt "double?" { n[me] = 2 * k } }
        reveal { finish win for (if n[0] > n[1] then 0 else 1) } } } }''')
    m = game.new_match(2, seed=0)
    m.apply("pick 2"), m.apply("pick 1")
    assert m.question["chooser"] == 0 and m.question["prompt"] == "double?"
    assert m.state()["pending"]["root"] == ["simul", "s", [[0, "pick 2"], [1, "pick 1"]]]
    back = rulelang.Match.from_state(game, json.loads(json.dumps(m.state())))
    assert back.state() == m.state()
    for x in (m, back):
        x.apply("no"), x.apply("yes")
    assert m.state() == back.state() and m.outcome["results"] == ["lose", "win"]    # 2 against 1 × 2 = 2: P2


# ---- bots: the others' answers are not theirs to see -----------------------------------------

def test_determinized_copies_draw_the_others_answers_again(rps):
    m = rps.new_match(2, seed=1)
    m.apply("rock")
    seen = {rps_copy.state()["simultaneous"]["answers"][0] for rps_copy in map(m.sampler(1), range(40))}
    assert seen == {"rock", "paper", "scissors"}
    mine = {c.state()["simultaneous"]["answers"][0] for c in map(m.sampler(0), range(10))}
    assert mine == {"rock"}


def test_an_ismcts_bot_decides_the_same_whatever_the_others_answered(rps):
    picks = set()
    for first in ("rock", "paper", "scissors"):
        m = rps.new_match(2, seed=1)
        m.apply(first)
        picks.add(IsmctsBot(seed=7, iterations=60).choose(m).text)
    assert len(picks) == 1


# ---- leak scan: random games, every observation of every other seat --------------------------

def observations(m, q: int, iface=None) -> str:
    """Everything seat q may be shown: its view, the log and messages it may read, the question,
    its actions when it is to act, its interop observation."""
    out = {"view": m.view(q), "log": m.log_for(q), "messages": m.messages_for(q),
           "question": m.question if m.question and m.question["chooser"] == q else None,
           "actions": [a.text for a in m.legal_actions()] if m.current_player == q else None,
           "interrupts": [a.text for a in m.interrupts(q)]}
    if iface is not None:
        out["vector"] = iface.observe(m, q).tolist()
    out["web"] = seat_payload(m, q)                    # what a seat's browser is sent
    return json.dumps(out, sort_keys=True, default=str)


@pytest.mark.parametrize("name,players", [("rps", 3), ("bids", 3), ("bids", 2), ("draft", 3)])
def test_leak_scan_no_committed_answer_reaches_another_seat_before_the_reveal(name, players, request):
    game = request.getfixturevalue(name)
    try:
        from rulelang.interop.core import Interface
        iface = Interface(game, players)
    except Exception:                                  # (numpy missing: the views are scanned all the same)
        iface = None
    rng = random.Random(11)
    commits = 0
    for seed in range(6):
        m = game.new_match(players, seed=seed)
        while not m.is_over:
            legal = [a.text for a in m.legal_actions()]
            together = m.simultaneous
            if together is not None and len(legal) > 1:
                p = m.current_player
                worlds = []
                for text in legal[:4]:                # the same position, each of p's answers
                    w = m.clone()
                    w.apply(text)
                    if len(w.log) > len(m.log):       # the last answer reveals: nothing left to hide
                        break
                    seen = {q: observations(w, q, iface) for q in range(players) if q != p}
                    seen["spectator"] = json.dumps(spectator_payload(w), sort_keys=True, default=str)
                    worlds.append(seen)
                for other in worlds[1:]:
                    assert other == worlds[0], f"{name}: an answer of P{p + 1} shows to another seat"
                commits += len(worlds) > 1
            m.apply(rng.choice(legal))
    assert commits >= 10


def test_the_terminal_shows_the_next_seat_nothing_of_an_answer(rps):
    screens = []
    for first in ("rock", "paper"):
        out = io.StringIO()
        run_repl(rps, 2, 1, {}, {}, io.StringIO(f"{first}\n\nquit\n"), out, "rps.rules")
        text = out.getvalue()
        assert f"P1> {first}\nP1 answers in secret" in text
        screens.append(text[text.index("Pass the terminal to P2"):])
    assert screens[0] == screens[1] and "P2> " in screens[0]


def test_a_bot_answer_is_announced_without_its_text_and_the_reveal_names_all(rps):
    out = io.StringIO()
    run_repl(rps, 2, 1, {}, {1: "random"}, io.StringIO("rock\nquit\n"), out, "rps.rules")
    text = out.getvalue()
    line = next(x for x in text.splitlines() if x.startswith("P2 (random) answers in secret"))
    assert line.startswith("P2 (random) answers in secret; every answer is revealed: P1: rock · P2: ")
    out = io.StringIO()
    run_repl(rps, 2, 2, {}, {0: "random"}, io.StringIO("quit\n"), out, "rps.rules")
    assert "P1 (random) answers in secret\n" in out.getvalue()
    assert not any(w in out.getvalue().split("P1 (random) answers in secret")[1].split("P2>")[0]
                   for w in ("P1: rock", "P1: paper", "P1: scissors"))


def test_pettingzoo_agents_act_in_turn_and_observe_no_answer(rps):
    pz = pytest.importorskip("rulelang.interop.pettingzoo")
    e = pz.env(rps, players=2)
    e.reset(seed=1)
    assert e.agent_selection == "P1"
    seen = []
    for first in (0, 1):
        e.reset(seed=1)
        e.step(first)
        assert e.agent_selection == "P2"
        seen.append((e.observe("P2")["observation"].tolist(), e.observe_text("P2"), e.infos["P2"]))
    assert seen[0] == seen[1]


def test_each_seat_lists_its_own_answers_and_plays_them_in_any_order(bids):
    m = bids.new_match(3, seed=0)
    assert [len(m.legal_actions_of(p)) for p in range(3)] == [11, 11, 11]
    m.apply("bid 4", seat=2)
    assert m.legal_actions_of(2) == [] and m.current_player == 0
    with pytest.raises(IllegalAction):
        m.apply("bid 1", seat=2)                       # answered already
    m.apply("bid 9", seat=1)
    m.apply("bid 1", seat=0)
    assert m.log == ["P1: bid 1", "P2: bid 9", "P3: bid 4"] and m.messages == ["P2 takes lot of 4 for 9"]


@pytest.mark.filterwarnings("ignore:reset\\(options=…\\) is not read")     # (the library's check passes options of its own)
def test_pettingzoo_parallel_env_asks_every_answer_in_one_step(bids):
    pz = pytest.importorskip("rulelang.interop.pettingzoo")
    e = pz.parallel_env(bids, players=2)
    obs, infos = e.reset(seed=0)
    assert e.acting() == ["P1", "P2"] and infos["P1"]["legal_texts"][:3] == ["bid 0", "bid 1", "bid 10"]
    index = {t: i for i, t in enumerate(infos["P1"]["legal_texts"])}
    obs, rewards, terms, truncs, infos = e.step({"P1": index["bid 3"], "P2": index["bid 5"]})
    assert e.match.messages == ["P2 takes lot of 4 for 5"] and not any(terms.values())
    from pettingzoo.test import parallel_api_test
    parallel_api_test(pz.parallel_env(bids, players=3), num_cycles=40)


def test_a_save_file_made_mid_decision_replays_with_its_answers_and_the_rulebook_says_how(bids):
    from rulelang.play.replay import rebuild, save_data
    from rulelang.play.repl import rulebook
    m = bids.new_match(3, seed=5)
    m.apply("bid 2"), m.apply("P3: bid 7")
    data = json.loads(json.dumps(save_data(bids, m, 5, {})))
    assert data["log"] == []                           # the answers are not in the log: only in the state
    assert rebuild(data, bids).state() == m.state()
    text = rulebook(bids)
    assert ("Step `auction` (every player still in answers at once, in secret; the answers are revealed "
            "together, then the rules act on them)") in text
    assert "“every lot is sold” (once the answers at step auction are revealed)" in text


def test_a_greedy_bot_cannot_take_a_win_it_could_only_see_in_the_others_answers(rps):
    from rulelang.play.bots import GreedyBot
    picks = set()
    for first in ("rock", "paper", "scissors"):
        m = rps.new_match(2, seed=1)
        m.apply("rock"), m.apply("paper")              # P2 leads 1-0: one more win ends the game
        m.apply(first)
        picks.add(GreedyBot(seed=3).choose(m).text)
    assert len(picks) == 1                             # (looking at the real answer would pick the winner)


def test_the_replay_contract_holds_through_answers_and_reveals(rps, bids, monkeypatch):
    from rulelang.engine import support
    monkeypatch.setattr(support, "CHECK_REPLAY", True)     # every chain is run twice and compared
    rng = random.Random(5)
    for game, players in ((rps, 3), (bids, 4)):
        for seed in range(3):
            m = game.new_match(players, seed=seed)
            while not m.is_over:
                m.apply(rng.choice(m.legal_actions()))


def test_a_save_paused_in_a_reveal_must_reveal_the_answers_given():
    game = game_of('''game "g" { players 2  var n: int = 0 per player
      turn { step s simultaneous {
        action pick(k in 1..2) { n[me] = k  may by me prompt "double?" { n[me] = 2 * k } }
        reveal { finish draw } } } }''')
    m = game.new_match(2, seed=0)
    m.apply("pick 2"), m.apply("pick 1")
    saved = json.loads(json.dumps(m.state()))
    for pairs in ([[0, "pick 1"], [1, "pick 1"]], [[0, "pick 2"], [0, "pick 1"]], [[1, "pick 1"], [0, "pick 2"]]):
        bad = dict(saved, pending=dict(saved["pending"], root=["simul", "s", pairs]))
        with pytest.raises(StateError, match="cannot be replayed: .*not those given"):
            rulelang.Match.from_state(game, bad)


def test_the_games_play_the_same_without_the_engines_fast_paths(rps, bids, monkeypatch):
    from rulelang.engine.codegen.constants import OPTIMISATIONS
    from rulelang.engine.game import Game
    traces = {}
    for setting in ("all", "none"):
        monkeypatch.setenv("RULELANG_OPTIMISE", setting)
        for name, game, players in (("rps", rps, 3), ("bids", bids, 3)):
            plain = Game(game.ir)
            assert plain.lowerer.opt == (frozenset(OPTIMISATIONS) if setting == "all" else frozenset())
            rng = random.Random(2)
            for seed in range(3):
                m = plain.new_match(players, seed=seed)
                while not m.is_over:
                    m.apply(rng.choice(m.legal_actions()))
                traces.setdefault((name, seed), []).append(m.state())
    assert all(a == b for a, b in traces.values())


def test_a_drafted_card_stays_secret_after_the_reveal_and_taking_two_is_not_seen_before(draft):
    m = draft.new_match(2, seed=1)
    hand = lambda p: next(z for z in m.view(p)["zones"] if z["name"] == "hand" and z["owner"] == p)  # noqa: E731
    assert [c["label"] for c in hand(0)["cards"]] == ["card 5", "card 10", "card 14", "card 13"]
    assert [c["label"] for c in hand(1)["cards"]] == ["card 2", "card 16", "card 12", "card 8"]
    before = m.view(0)
    m.apply("pick two card 12 card 8", seat=1)          # P2 takes two: P1 sees nothing of it
    assert m.view(0) == before
    m.apply("pick card 14")
    assert m.log == ["P1: pick card 14", "P2: pick two card 12 card 8"]
    assert m.log_for(0) == ["P1: pick card 14", "P2: (a secret choice)"]
    assert m.log_for(1) == ["P1: (a secret choice)", "P2: pick two card 12 card 8"]
    assert values(m)["doubles"] == [1, 0]               # that P2 took two is public once revealed
    picked = {z["owner"]: z["count"] for z in m.view(0)["zones"] if z["name"] == "picked"}
    assert picked == {0: 1, 1: 2}
    out = io.StringIO()
    run_repl(draft, 2, 1, {}, {1: "random"}, io.StringIO("pick card 14\nquit\n"), out, "draft.rules")
    line = next(x for x in out.getvalue().splitlines() if x.startswith("P2 (random) answers in secret;"))
    # (P1, the one at the terminal, reads their own pick; a new author found it hidden from them too)
    # ("in", not "revealed": P2's pick stays secret from P1 — a new author's crib)
    assert line == "P2 (random) answers in secret; every answer is in: P1: pick card 14 · P2: (a secret choice)"


def test_cards_passed_at_once_let_their_receiver_read_the_answer_that_passed_them():
    """A new author's Hearts: the answer that passed one card was read by its receiver after the
    reveal, the answer that passed two stayed "(a secret choice)" though the receiver held both."""
    source = '''game "Pass" {
  players 3
  kind Card { n: int  label "c" + text(n) }
  zone hand: set per player, owner
  setup { for p in players { for i in 1..3 { create Card(n: 10 * (p + 1) + i) in hand[p] } } }
  turn {
    step pass simultaneous {
      action give(cs subset of hand[me] size 2) { move cs to hand[next(me)] }
      reveal { goto done }
    }
    step done { action stop { finish draw } }
  }
}'''
    m = rulelang.Game(rulelang.compile_source(source)).new_match(3, seed=1)
    for seat in (0, 1, 2):
        m.apply(str(m.legal_actions_of(seat)[0]), seat=seat)
    assert m.log == ["P1: give c11 c12", "P2: give c21 c22", "P3: give c31 c32"]
    # each reads its own answer and the one that passed it its new cards, not the third
    assert m.log_for(1) == ["P1: give c11 c12", "P2: give c21 c22", "P3: (a secret choice)"]
    assert m.log_for(0) == ["P1: give c11 c12", "P2: (a secret choice)", "P3: give c31 c32"]


def test_no_w217_for_a_game_played_at_a_simultaneous_step():
    """Every player answers a simultaneous step, and it asks again after its reveal: no `end turn`
    is needed (W217 said "the first player makes every move of the game")."""
    source = """game "Sealed Bids" {
      players 2..3 ranked by score[me]
      kind Chip { v: int  label text(v) }
      zone hand: set per player, owner
      zone shown: set per player, public
      var score: int = 0 per player, public
      setup { for p in players { for i in 1..3 { create Chip(v: i) in hand[p] } } }
      turn { step bidding simultaneous {
        action bid(c in hand[me]) { move c to shown[me] }
        reveal { for p in players { score[p] += size(shown[p]) }  if size(hand[me]) == 0 { finish by score } }
      } }
    }"""
    assert lint(source) == []
    assert any(x.startswith("W217") for x in lint(source.replace("step bidding simultaneous", "step bidding")))


def test_no_w242_for_a_loop_variable_named_card():
    """A fuzz finding: `card` bound by a comprehension in `create cards … where` is no card name."""
    source = """game "Loop Card" {
      players 2
      kind Token { v: int  label card }
      zone box: pile
      card Token "Foo" { v: 1 }
      setup { create cards Token where any(card == "Bar" for card in ["Bar", card]) == true in box }
      turn { step s { action pass { finish draw } } }
    }"""
    assert not [x for x in lint(source) if x.startswith("W242")]


def test_an_answer_laid_face_up_is_not_secret_though_the_reveal_then_boxes_it():
    """A new author's Sushi Go: each round's last picks were scored face up and then boxed by the
    `reveal` block, and the log kept them "(a secret choice)": what was seen was judged at the end
    of the effect only."""
    source = """
game "R2" {
  players 2
  kind Card { v: int  label "card " + text(v) }
  zone hand: set per player, owner
  zone shown: set per player, public
  zone box: set, hidden
  setup { for p in players { create Card(v: 1 + p) in hand[p]  create Card(v: 5 + p) in hand[p] } }
  turn {
    step pick simultaneous {
      action take(c in hand[me]) { move c to shown[me] }
      reveal {
        if size(hand[0]) == 0 {
          move shown[0] to box
          finish draw
        }
      }
    }
  }
}
"""
    m = rulelang.Game(rulelang.compile_source(source, "r2.rules")).new_match(2, seed=0)
    m.apply("take card 5", seat=0)
    m.apply("take card 6", seat=1)
    m.apply("take card 1", seat=0)
    m.apply("take card 2", seat=1)
    assert m.is_over
    assert m.log_for(1)[-2:] == ["P1: take card 1", "P2: take card 2"]
    assert m.log_for(None)[-2:] == ["P1: take card 1", "P2: take card 2"]


def test_the_log_reads_a_reveals_messages_under_its_answers_not_under_the_setup():
    # before: the first answers' entry took the reveal's message count as the setup's end, and
    # `log` read "setup: > revealed, round 1" for a setup that said nothing (a new author's Cribbage)
    game = game_of("""
game "Sim Log" {
  players 2
  var n: int = 0
  turn {
    step pick simultaneous {
      action pick(k in 1..2) as "pick " + text(k) { n += k }
      reveal {
        log "revealed, round " + text(turn_count)
        if turn_count == 3 { finish draw "done" }
        end turn
      }
    }
  }
}
""")
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("1\n\n1\n\n1\n\n1\n\nlog\nquit\nn\n"), out, "sim.rules")
    shown = out.getvalue().split("> log\n")[1].split("\nP1> ")[0]
    assert shown.splitlines() == ["  1. P1: pick 1", "  2. P2: pick 1", "       > revealed, round 1",
                                  "  3. P1: pick 1", "  4. P2: pick 1", "       > revealed, round 2"], shown


DRAFT_PASSING = """
game "Min Draft" {
  players 2..3
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone city: set per player, public
  zone discard: set, hidden
  zone passing: set per player, hidden, internal
  setup {
    for i in 1..12 { create Card(n: i) in deck }
    shuffle deck
    for p in players { move top(deck, 3) to hand[p] }
  }
  turn {
    step pick simultaneous {
      action build(c in hand[me]) { move c to city[me] }
      action sell(c in hand[me]) { move c to discard }
      reveal {
        if size(hand[players[0]]) == 0 { finish draw "done" }
        for p in players { move hand[p] to passing[next(p)] }
        for p in players { move passing[p] to hand[p] }
      }
    }
  }
}
"""


def test_each_revealed_answer_names_a_card_of_its_own_players_hand():
    """A new author's draft: after the reveal P1 read `card 3: hand (P2) or hand (P3) or discard or
    passing (P2) → city (P2)` for P2's `build card 3` — no rule moves a card from the discard to a
    city; the answer says whose it was."""
    out = io.StringIO()
    run_repl(game_of(DRAFT_PASSING), 3, 3, {}, {1: "random", 2: "random"}, io.StringIO("1\n1\n1\nquit\nn\n"),
             out, "draft.rules")
    text = out.getvalue()
    first = text.split("every answer is")[1].split("==")[0]
    assert "P2: build card 3" in first, first
    # (the reveal names each card: no line repeats it — a new author's 6 nimmt read two of three again)
    assert "  · card 3:" not in first and "  · card 12:" not in first, first
    # where a line is said of a revealed answer's card, it names its own player's hand as the source
    from rulelang.play.repl import seat_name
    from rulelang.play.screen import changes
    m = game_of(DRAFT_PASSING).new_match(3, 3)
    before, answers = m.view(0), []
    for seat in range(3):
        text = next(a.text for a in m.legal_actions_of(seat) if a.text.startswith("build"))
        answers.append(f"P{seat + 1}: {text}")
        m.apply(text, seat=seat)
    assert answers[1] == "P2: build card 3"
    assert "card 3: hand (P2) → city (P2)" in changes(before, m.view(0), "", seat_name, "\n".join(answers))


COPIES_PASSING = """
game "Copies Draft" {
  players 3
  kind Dish { k: int  label ["Tempura", "Sashimi", "Squid"][k] }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone plate: set per player, public
  zone passing: set per player, hidden, internal
  setup {
    for i in 1..30 { create Dish(k: i % 3) in deck }
    shuffle deck
    for p in players { move top(deck, 4) to hand[p] }
  }
  turn {
    step pick simultaneous {
      action pick(c in hand[me]) { move c to plate[me] }
      reveal {
        if size(hand[players[0]]) == 0 { finish draw "done" }
        for p in players { move hand[p] to passing[next(p)] }
        for p in players { move passing[p] to hand[p] }
      }
    }
  }
}
"""


def test_an_own_pick_and_the_hands_passed_on_are_said_as_they_may_be_known():
    """A new author's draft, copies dealt from a deck: P1's own pick read `Sashimi: hand (P3) →
    plate (P1)` whenever the deck held a copy of lower id (the id the engine plays), and the hands
    passed on were said to come from one player — P2's, whose `pick Tempura` was taken for a
    Tempura that came into P1's hand — when P3's came. Which hand came is not in sight: both are
    named, the same whatever the deck holds."""
    game = game_of(COPIES_PASSING)
    lines, plates = set(), []
    for seed in range(8):
        m = game.new_match(3, seed)
        first = m.view(0)["zones"]
        held = next(z for z in first if z["name"] == "hand" and z.get("owner") == 0)["cards"]
        dish = held[0]["label"]
        out = io.StringIO()
        run_repl(game, 3, seed, {}, {1: "random", 2: "random"}, io.StringIO(f"pick {dish}\nquit\nn\n"),
                 out, "copies.rules")
        said = out.getvalue().split("every answer is")[1].split("==")[0]
        told = [x.strip() for x in said.splitlines() if x.strip().startswith("·")]
        # (left out when the last answer's text names the same card)
        assert [x for x in told if x.endswith("→ plate (P1)")] in ([], [f"· {dish}: hand (P1) → plate (P1)"]), said
        plates.append(f"· {dish}: hand (P1) → plate (P1)" in told)
        came = [x for x in told if x.endswith("→ hand (P1)")]
        assert len(came) == 1 and ": hand (P2) or hand (P3) → hand (P1)" in came[0], (seed, said)
        lines.update(told)
    assert not any(x.endswith((": hand (P2) → hand (P1)", ": hand (P3) → hand (P1)")) for x in lines)
    assert plates.count(True) >= 3, plates


BALLOT = """
game "Secret ballot" {
  players 3
  kind Ballot { yes: bool  label if yes then "Yes" else "No" }
  zone ballots: set per player, owner
  zone box: pile, hidden
  zone shown: set, public
  zone kept: set per player, public
  setup { for p in players { create Ballot(yes: true) in ballots[p]  create Ballot(yes: false) in ballots[p] } }
  turn {
    step vote simultaneous {
      action cast(b in ballots[me]) { move b to box }
      reveal {
        shuffle box
        move box to shown
        finish draw
      }
    }
  }
}
"""


def test_answers_shuffled_before_they_are_shown_stay_secret():
    """A new author's Avalon: ballots cast in secret were boxed, shuffled and shown, and the log told
    everyone `P2: cast No` (an answer is widened once its card is in everyone's sight, as a drafted
    card laid on the table is). A shuffle of the named cards keeps their answers private; without
    it (laid out as they were cast) they are widened as before."""
    m = game_of(BALLOT).new_match(3, seed=1)
    for text in ("P1: cast Yes", "P2: cast No", "P3: cast Yes"):
        m.apply(text)
    assert m.is_over and len(m.state()["zones"]["shown"]) == 3
    assert m.log_for(1) == ["P1: (a secret choice)", "P2: cast No", "P3: (a secret choice)"]
    assert m.log_for(0) == ["P1: cast Yes", "P2: (a secret choice)", "P3: (a secret choice)"]
    # (laid out as they were cast, unshuffled: since stop 72 private too — a card the `reveal` block
    # lays out tells whose it was only in its answerer's own place, `kept[p]`)
    unshuffled = game_of(BALLOT.replace("        shuffle box\n", ""))
    m = unshuffled.new_match(3, seed=1)
    for text in ("P1: cast Yes", "P2: cast No", "P3: cast Yes"):
        m.apply(text)
    assert m.log_for(1) == ["P1: (a secret choice)", "P2: cast No", "P3: (a secret choice)"]
    kept = game_of(BALLOT.replace("        shuffle box\n        move box to shown\n",
                                  "        for p in players { move first(b for b in box where b.yes == (p != 1)) to kept[p] }\n"))
    m = kept.new_match(3, seed=1)
    for text in ("P1: cast Yes", "P2: cast No", "P3: cast Yes"):
        m.apply(text)
    assert m.log_for(1) == ["P1: cast Yes", "P2: cast No", "P3: cast Yes"]


def test_a_card_laid_face_up_then_shuffled_with_others_is_still_named():
    """A trial of the rule above: a card chosen from the hand and laid on the public table, the table
    then shuffled, read "(a secret choice)" — though everyone saw it laid down."""
    source = """
game "Lay" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone hand: set per player, owner
  zone table: pile, public
  setup { for i in 1..3 { create Card(n: i) in hand[0] }  create Card(n: 9) in table }
  turn { step s { action lay { choose c in hand[me] prompt "which?" { move c to table }  shuffle table  finish draw } } }
}
"""
    m = game_of(source).new_match(2, seed=1)
    m.apply("lay")
    m.apply("c1")
    assert m.log_for(1) == m.log_for(None) == ["lay", "c1"]


def test_the_rulebook_of_a_game_played_only_at_once_does_not_say_players_take_turns(rps, draft):
    """A new author's 6 nimmt: `rules` said "Players take turns in seat order … the player to act
    chooses", then that every player answers at once."""
    from rulelang.play.rulebook import rulebook
    text = " ".join(rulebook(rps).split())
    assert "every player asked chooses one of its actions at once, in secret" in text
    assert "Players take turns in seat order" not in text
    assert "Players take turns in seat order" in " ".join(rulebook(game_of(
        'game "T" { players 2  turn { step s { action stop { finish draw } } } }')).split())


GIVE = """game "Give" {
  players 3
  kind Pic { n: int  label "pic " + text(n) }
  zone hand: set per player, owner
  zone given: set per player, owner, internal
  zone table: pile, public
  zone tableau: set per player, public
  setup { for n in 1..6 { create Pic(n: n) in hand[(n - 1) % 3] } }
  step give simultaneous {
    action give(c in hand[me]) { move c to given[me] }
    action lay(c in hand[me]) { move c to tableau[me] }
    reveal {
      let left = [p for p in players]
      while size(left) > 0 {
        let p = pick(left)
        remove p from left
        move given[p] to top of table
      }
      finish draw "shown"
    }
  }
}"""


def test_cards_the_reveal_block_lays_out_do_not_tell_whose_answer_each_was():
    """A new author's Dixit: each gave a card from an `owner` hand, and the `reveal` block moved them to
    the table in a random order — and the log told everyone `P2: give pic 5`, whose card each was. A
    card an answer lays face up itself (`lay`, into one's own tableau) is read by all, as before."""
    game = rulelang.Game(rulelang.compile_source(GIVE, "give.rules"))
    m = game.new_match(3, 0)
    for seat, text in ((0, "give pic 1"), (1, "give pic 5"), (2, "lay pic 3")):
        m.apply(text, seat=seat)
    assert sorted(c["label"] for z in m.view(0)["zones"] if z["name"] == "table" for c in z["cards"]) == \
        ["pic 1", "pic 5"]
    assert m.log_for(0)[-3:] == ["P1: give pic 1", "P2: (a secret choice)", "P3: lay pic 3"]
    assert m.log_for(None)[-3:] == ["P1: (a secret choice)", "P2: (a secret choice)", "P3: lay pic 3"]
    assert m.log_for(1)[-3:] == ["P1: (a secret choice)", "P2: give pic 5", "P3: lay pic 3"]


def test_an_answer_shown_in_its_answerers_own_zone_or_chosen_in_its_action_is_read_by_all():
    """A review of the rule above: a ballot cast into its caster's own zone and revealed there (`reveal
    ballot[p]`) read "(a secret choice)" beside `revealed: vote 2`; and a choice an answer's own action
    asked, its card then laid in the chooser's public tableau, stayed secret for good."""
    game = rulelang.load(str(HERE / "ballot_revealed.rules"))
    m = game.new_match(3, 1)
    for seat, text in ((0, "cast vote 3"), (1, "cast vote 2"), (2, "cast vote 3")):
        m.apply(text, seat=seat)
    assert m.log_for(None)[:3] == ["P1: cast vote 3", "P2: cast vote 2", "P3: cast vote 3"]
    game = rulelang.load(str(HERE / "choice_in_answer.rules"))
    for where, public in (("own", True), ("table", False)):
        m = game.new_match(3, 1)
        for seat in m.simultaneous["seats"]:
            m.apply(str(m.legal_actions_of(seat)[0]), seat=seat)
        while m.question is not None and not m.is_over:
            texts = [str(a) for a in m.legal_actions()]
            m.apply(next((t for t in texts if where in t), texts[0]))
        told = m.log_for(None)
        secret = [x for x in told if x.endswith("(a secret choice)")]     # (`P2: (a secret choice)`: whose it was)
        assert (not secret) is public, told    # (answers and their choices alike)
        if not public:
            assert len(secret) == 6, told


def test_a_save_naming_no_player_in_its_open_decision_is_said_damaged(bids, tmp_path, capsys):
    """A fuzzer's save: a seat of -1 (or 99) among the committed answers read "error: no player -1 in
    a 3-player match" alone — not which file, nor that it cannot be loaded."""
    from rulelang.cli import main
    from rulelang.play.replay import save_data
    m = bids.new_match(3, seed=4)
    m.apply("bid 4")
    data = json.loads(json.dumps(save_data(bids, m, 4, {}, None, False)))
    data["state"]["simultaneous"]["seats"] = [-1] + data["state"]["simultaneous"]["seats"][1:]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path), "--rules", str(HERE / "sealed_bids.rules")]) == 1
    out, err = capsys.readouterr()
    said = out + err
    assert "the saved simultaneous decision names -1, no player of this 3-player match" in said, said
    assert "Traceback" not in said


def test_the_rulebook_of_a_game_of_steps_alone_says_no_turns():
    """A new author's Cribbage, steps and no `turn { … }`: `rules` said "Players take turns in seat
    order … A turn starts at step `discard`" and "Before the first turn", of turns it never has."""
    from rulelang.play.rulebook import rulebook
    text = " ".join(rulebook(game_of("""game "Steps" {
  players 2
  var n: int = 0
  setup { goto deal }
  step deal by 0 { action go { n += 1  goto answer } }
  step answer by 1 { action back { if n > 3 { finish draw }  goto deal } }
}""")).split())
    assert "There are no turns: play goes from step to step as the rules say" in text, text
    assert "Players take turns" not in text and "A turn starts" not in text and "first turn" not in text
    assert "The first step (and whenever the rules go there):" in text
    assert text.index("How play goes") < text.index("The first step") < text.index("Step `deal`"), text


def test_the_terminal_says_one_seat_asked_answers_in_the_singular():
    """A new author's Incan Gold, one explorer left in the temple: "P1 answer at once, in secret;
    the answers are revealed together"."""
    from rulelang.play.render import _choice_lines
    view = {"viewer": 0, "choice": None, "simultaneous": {"seats": [0], "answer": None, "to_answer": True}}
    assert _choice_lines(view, 200) == ["  ▶ P1 answers in secret; the answer is then revealed (you have still to "
                                        "answer)"]
    view["simultaneous"]["seats"] = [0, 2]
    assert _choice_lines(view, 200) == ["  ▶ P1, P3 answer at once, in secret; the answers are revealed together "
                                        "(you have still to answer)"]
