"""The engine's promises, each tried from outside as an author, a player or a bot writer would:
a replay is exact, a failed action changes nothing, chance can be given and read, a copy of a
paused match never meets the real dice, undo never crosses hidden information, a secret answer
stays secret by the card it names (not its label), and an engine fault is not blamed on the rules.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.engine import match as engine
from rulelang.engine import support
from rulelang.play.bots import make_bot
from rulelang.core.errors import EngineFault, RuleRuntimeError, StateError
from rulelang.play.repl import run_repl

ROOT = Path(__file__).resolve().parent.parent


def game(source: str, name: str = "t.rules") -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(source, name))


MODIFY_REPLAY = """
game "Modify replay" {
  players 2
  kind Chip { v: int  label "chip" + text(v) }
  zone pool: set, public
  def power(c: Chip) = c.v
  setup { create Chip(v: 1) in pool }
  turn { step s { action go {
    modify power(first([c for c in pool])) += 3 until turn_end
    choose a in ["x", "y"] prompt "first" { log "power " + text([power(c) for c in pool]) }
    choose b in ["x", "y"] prompt "second" { finish draw }
  } } }
}
"""


def test_a_timed_modifier_is_applied_once_when_its_action_later_asks_a_question():
    m = game(MODIFY_REPLAY).new_match(2, seed=1)
    m.apply("go")
    assert m.state()["grants"] == [["power", [0], 3]]
    m.apply("x")
    assert [x["text"] for x in m.message_log()] == ["power 4"]      # was "power 7"
    assert m.state()["grants"] == [["power", [0], 3]]


def test_the_replay_check_finds_state_kept_outside_the_replay(monkeypatch):
    """Sabotage the copy the replay starts from (the old bug: an empty list of grants shared with
    the match) and the check says so, naming the part that differs."""
    monkeypatch.setattr(support, "CHECK_REPLAY", True)
    m = game(MODIFY_REPLAY).new_match(2, seed=1)
    m.apply("go")                                   # checked: the fixed engine passes
    original = engine.Match.own

    def own_sharing_grants(self, index=True):
        grants = self.grants
        original(self, index)
        self.grants = grants
    monkeypatch.setattr(engine.Match, "own", own_sharing_grants)
    m = game(MODIFY_REPLAY).new_match(2, seed=1)
    with pytest.raises(EngineFault, match="replay check.*`grants`"):
        m.apply("go")


# ---- chance -----------------------------------------------------------------------------------
BLESS = """
game "Bless" {
  players 3
  kind Card { n: int  label "card" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  var hp: int = 5 per player
  setup {
    for i in 1..9 { create Card(n: i) in deck }
    shuffle deck
    for p in players { move top(deck, 2) to hand[p] }
  }
  turn { step s {
    action bless {
      choose p in players prompt "heal whom?" {
        hp[p] = hp[p] + roll(6)
        log "healed " + text(hp[p])
      }
      end turn
    }
    action stop { finish draw }
  } }
}
"""


def test_chance_can_be_given_and_read_through_the_api():
    g = game(BLESS)
    m = g.new_match(3, seed=4)
    setup = m.chance_events
    assert [e[:2] for e in setup] == [["shuffle", 9]] and sorted(setup[0][2]) == list(range(9))
    m.supply_chance([["roll", 6, 6]])
    m.apply("bless")
    m.apply("P2")
    assert m.state()["vars"]["hp"][1] == 11 and m.chance_events == [["roll", 6, 6]]
    # the same deal, stacked: the shuffle given puts card9 on top (dealt to P1 first)
    stacked = g.new_match(3, seed=4, chance=[["shuffle", 9, list(range(9))]])
    assert [c["label"] for c in stacked.view(0)["zones"][1]["cards"]] == ["card9", "card8"]
    with pytest.raises(ValueError, match="out of range"):
        m.supply_chance([["roll", 6, 7]])


def test_a_wrong_outcome_given_fails_the_action_and_changes_nothing():
    m = game(BLESS).new_match(3, seed=4)
    m.supply_chance([["shuffle", 3, [0, 1, 2]]])
    m.apply("bless")
    before = m.state()
    with pytest.raises(RuleRuntimeError, match="chance tape gives a shuffle of 3 where the rules roll a 6-sided die"):
        m.apply("P1")
    assert m.state() == before and m.question["prompt"] == "heal whom?"


TWO_ROLLS = """
game "Two rolls" {
  players 2
  var a: int = 0
  var hp: int = 5 per player
  turn { step s {
    action go {
      a = roll(6)
      choose p in players prompt "heal whom?" { hp[p] = hp[p] + roll(6) + a }
      end turn
    }
    action stop { finish draw }
  } }
}
"""


def test_outcomes_are_refused_at_a_question_whose_effect_drew_from_the_generator_before_it():
    """A review: outcomes given at "heal whom?" went to the start of the effect's replay, where its
    first roll met them: the answer failed and left the match broken (no question, the answer in the
    log). Given there, they are refused and nothing changes; given before the action, they work."""
    m = game(TWO_ROLLS).new_match(2, seed=3)
    m.apply("go")
    before = m.state()
    with pytest.raises(ValueError, match="drew from the generator before it asked"):
        m.supply_chance([["roll", 6, 2]])
    assert m.state() == before and m.question["prompt"] == "heal whom?"
    m.apply("P1")
    ahead = game(TWO_ROLLS).new_match(2, seed=3)
    ahead.supply_chance([["roll", 6, 4], ["roll", 6, 2]])
    ahead.apply("go")
    ahead.supply_chance([])                     # (nothing given: nothing refused)
    ahead.apply("P1")
    assert ahead.state()["vars"]["hp"] == [11, 5]
    replayed = game(TWO_ROLLS).new_match(2, seed=9)  # each apply's events given before it (on another seed)
    replayed.supply_chance([["roll", 6, 4]])
    replayed.apply("go")
    replayed.supply_chance([["roll", 6, 2]])    # (the effect drew only what was given: allowed)
    replayed.apply("P1")
    assert replayed.state()["vars"]["hp"] == [11, 5]


def test_an_answered_imagined_copy_tells_only_what_it_drew_after_the_question():
    """A review: a seat's imagined copy of a paused match, answered, listed in `chance_events` the
    draws its chain made before the question — the real ones (it replays the real chain up to
    there): Smash Up's setup shuffles, given to a match of any seed, dealt the real decks again.
    Outcomes given to such a copy at a question went nowhere (past the cut, a fresh generator)."""
    m = game(TWO_ROLLS).new_match(2, seed=3)
    m.apply("go")
    assert len(m.chance_events) == 1            # (the real roll before the question)
    copy = m.determinized(1, 7)
    assert copy.chance_events == []
    with pytest.raises(ValueError, match="imagined copy"):
        copy.supply_chance([["roll", 6, 1]])
    copy.apply("P1")
    assert [e[:2] for e in copy.chance_events] == [["roll", 6]]     # (its own roll only)


@pytest.mark.parametrize("paused", [True, False])
def test_outcomes_given_and_not_used_can_be_dropped(paused):
    """A researcher's trial: a supplied outcome that failed an action stays supplied (the match is
    as before), and every later draw failed on it, with no way to drop it; `clear_chance` does,
    and the match goes on as one never given it (here paused at a question, or not)."""
    m, control = game(BLESS).new_match(3, seed=4), game(BLESS).new_match(3, seed=4)
    if paused:
        m.apply("bless"), control.apply("bless")
    m.supply_chance([["shuffle", 3, [0, 1, 2]]])
    with pytest.raises(RuleRuntimeError, match="chance tape gives a shuffle of 3"):
        m.apply("P1" if paused else "bless")
        m.apply("P1")                           # (not paused: `bless` draws nothing; its answer rolls)
    m.clear_chance()
    m.apply("P1")
    for text in (["P1"] if paused else ["bless", "P1"]):
        control.apply(text)
    assert m.state() == control.state() and m.chance_events == control.chance_events


def _paused_with_same_view(g, seeds=(1, 2)):
    """Matches of BLESS paused at "heal whom?", alike for P1 but for the generator and the
    other hands."""
    out = []
    base = g.new_match(3, seed=seeds[0]).state()
    for seed in seeds:
        data = g.new_match(3, seed=seed).state()
        data["zones"] = json.loads(json.dumps(base["zones"]))
        others = data["zones"]["hand"][1] + data["zones"]["hand"][2] + data["zones"]["deck"]
        if seed != seeds[0]:
            others = others[::-1]                   # the cards P1 cannot see, elsewhere
        data["zones"]["hand"][1], data["zones"]["hand"][2] = others[:2], others[2:4]
        data["zones"]["deck"] = others[4:]
        m = rulelang.Match.from_state(g, data)
        m.apply("bless")
        out.append(m)
    return out


def without_base(state: dict) -> dict:
    return {**state, "pending": {k: v for k, v in state["pending"].items() if k != "base"}}


def test_determinized_copies_of_alike_paused_positions_are_identical_and_fair():
    g = game(BLESS)
    a, b = _paused_with_same_view(g)
    assert a.view(0) == b.view(0)
    assert a.state()["rng"] != b.state()["rng"]
    assert a.state()["zones"] != b.state()["zones"]
    for seed in range(10):
        ca, cb = a.determinized(0, seed), b.determinized(0, seed)
        # the copies are the same position (their replays start from each match's own past,
        # which P1 saw happen: only the base they replay from differs)
        assert without_base(ca._state()) == without_base(cb._state())
        assert all(ca.view(p) == cb.view(p) for p in range(3))
        bot_a, bot_b = make_bot("ismcts:60", 7), make_bot("ismcts:60", 7)
        assert bot_a.choose(ca.clone()) == bot_b.choose(cb.clone())
        ca.apply("P1"), cb.apply("P1")
        assert ca.state() == cb.state()             # the chain over: the whole state is the same
    # a paused copy is not written out: its base is the real position (the others' real hands)
    copy = a.determinized(0, 3)
    with pytest.raises(StateError, match="determinized copy cannot be saved while an effect waits"):
        copy.state()
    real = a.state()["zones"]
    assert copy._state()["pending"]["base"]["zones"]["hand"] == real["hand"]   # (what it would have told)
    assert a.state()["pending"]["base"] is not None                      # the real match saves as before
    # and the copies' die is not the real one: it follows the copy's seed, not the match
    healed = set()
    for seed in range(40):
        c = a.determinized(0, seed)
        c.apply("P1")
        healed.add(c.state()["vars"]["hp"][0])
    assert len(healed) > 1


# ---- atomic actions ---------------------------------------------------------------------------
FAILING = """
game "Half" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, public
  zone pile: pile, public
  zone empty: pile, public
  var score: int = 0 per player
  setup { for i in 1..4 { create Card(n: i) in deck } }
  turn { step s {
    action good { score[me] += 1  move top(deck) to pile  end turn }
    action bad { score[me] += 5  move top(deck) to pile  log "half"  score[me] += top(empty).n }
    action stop { finish draw }
  } }
}
"""


@pytest.mark.parametrize("pausing", [False, True])
def test_a_rule_error_halfway_leaves_the_match_exactly_as_it_was(pausing):
    source = FAILING
    if pausing:     # the same rules in a game whose effects may pause
        source = source.replace("action stop {", "action ask { choose x in [1, 2] { log text(x) } }  action stop {")
    g = game(source)
    m = g.new_match(2, seed=3)
    for _ in range(20):                             # past a checkpoint or two
        m.apply("good")
        m.apply("good") if not m.is_over else None
        if size_of(m, "deck") == 0:
            break
    m = g.new_match(2, seed=3)
    m.apply("good")
    before, log = m.state(), list(m.log)
    with pytest.raises(RuleRuntimeError, match="t.rules:12"):
        m.apply("bad")
    assert m.state() == before and m.log == log
    m.apply("good")                                 # and it goes on
    assert m.state()["vars"]["score"] == [1, 1]


def size_of(m, zone):
    return len(m.state()["zones"][zone])


def test_many_actions_then_a_failure_rebuild_the_position_from_the_checkpoint():
    source = FAILING.replace("for i in 1..4", "for i in 1..60")
    m = game(source).new_match(2, seed=3)
    for _ in range(37):
        m.apply("good")
    before = m.state()
    with pytest.raises(RuleRuntimeError):
        m.apply("bad")
    assert m.state() == before


# ---- undo and secrets at the terminal ---------------------------------------------------------
def test_undo_never_goes_back_past_a_card_that_was_shown():
    g = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(g, 1, 5, {}, {}, io.StringIO("flip jester\nundo\nquit\n"), out, "games/regicide.rules")
    text = out.getvalue()
    assert "cannot undo: since that decision P1 has seen a card that was hidden from them" in text
    assert "\nundone" not in text
    # a move that shows nothing new can be undone
    out = io.StringIO()
    run_repl(g, 1, 5, {}, {}, io.StringIO("play 4♣ A♠\nundo\nquit\n"), out, "games/regicide.rules")
    assert "undone" in out.getvalue()


SAME_LABEL = """
game "Aces" {
  players 2
  kind Card { label "Ace" }
  zone hand: set per player, owner
  zone table: set, public
  zone box: set, hidden
  setup { create Card() in table  create Card() in hand[0]  create Card() in hand[1] }
  turn { step s {
    action give require size(hand[me]) > 0 { choose c in hand[me] prompt "which?" { move c to box } }
    action stop { finish draw }
  } }
}
"""


def test_a_secret_answer_stays_secret_though_a_card_of_the_same_name_is_face_up():
    two = game(SAME_LABEL.replace("create Card() in hand[0]", "create Card() in hand[0]  create Card() in hand[0]"))
    m = two.new_match(2, seed=1)
    m.apply("give")
    m.apply("Ace")
    assert m.log_for(0)[-1] == "Ace" and m.log_for(1)[-1] == "(a secret choice)"
    out = io.StringIO()       # (P1 reads their own answer; P2, handed the terminal, reads it as secret)
    ended = game(SAME_LABEL.replace("create Card() in hand[0]", "create Card() in hand[0]  create Card() in hand[0]")
                 .replace("{ move c to box }", "{ move c to box }  end turn"))
    run_repl(ended, 2, 1, {}, {}, io.StringIO("give\nAce\n\nlog\nquit\n"), out, "t.rules")
    mine, theirs = out.getvalue().split("Pass the terminal to P2")
    assert "P1 chooses: Ace (asked: which?)" in mine
    assert "P1 makes a secret choice" in theirs and "which? → (a secret choice)" in theirs


# ---- engine faults ----------------------------------------------------------------------------
def test_an_engine_fault_is_not_reported_as_the_rules_mistake(monkeypatch):
    g = game(FAILING)
    m = g.new_match(2, seed=3)
    with pytest.raises(RuleRuntimeError, match="none"):         # the rules' none: the rules' error
        m.apply("bad")
    from rulelang.engine.codegen import effects

    def broken(*args, **kwargs):
        raise KeyError("oops")
    monkeypatch.setattr(effects, "_options", broken)
    m = game(SAME_LABEL).new_match(2, seed=1)
    before = m.state()
    with pytest.raises(EngineFault) as fault:
        m.apply("give")
    assert "internal error" in str(fault.value) and "KeyError: 'oops'" in fault.value.traceback
    assert m.state() == before


def test_shadow_hunters_copies_paused_before_a_roll_roll_their_own_dice():
    """Across random Shadow Hunters games, wherever a paused chain rolls after its question
    (a Blessing's heal, Franklin's and George's damage, a counterattack), a determinized copy
    given the same answer rolls from its own generator: its dice follow the copy's seed, not
    the match's (before, every copy rolled exactly the real dice)."""
    g = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    same = differ = 0
    for seed in range(6):
        m = g.new_match(5, seed=seed)
        rng = __import__("random").Random(seed)
        for _ in range(400):
            if m.is_over:
                break
            actions = m.legal_actions()
            if m.question is not None:
                answer = actions[0]
                real = m.clone()
                real.apply(answer)
                cut = len(m.chance_events)
                after = real.chance_events[cut:]
                if after and real.chance_events[:cut] == m.chance_events:
                    for k in range(3):
                        copy = m.determinized(m.current_player, 1000 * seed + k)
                        copy.apply(answer)
                        mine = copy.chance_events[cut:]
                        if [e[:2] for e in mine] == [e[:2] for e in after]:
                            same += mine == after
                            differ += mine != after
            m.apply(rng.choice(actions))
    assert same + differ >= 10                    # enough rolls after a question were met
    assert differ > same                          # with the real generator: differ == 0


ROLLING_SHOW = """
game "Peek" {
  players 2
  kind Card { n: int  label "c" + text(n)  text "a card that rolls " + text(roll(6)) }
  zone deck: pile, public
  var n: int = 0
  var told: int = 0
  show "die" = roll(6)
  estimate roll(100)
  side text(roll(3))
  setup { create Card(n: 1) in deck }
  anytime action nudge require roll(6) > 0 { told = roll(100) }
  turn { step s {
    action a require roll(6) > 9 else "only on a 10" { n = roll(100)  finish draw }
    action b { n = roll(100)  told = roll(100)  finish draw }
  } }
}
"""


def test_reading_the_position_never_changes_the_luck():
    """A `show`, an `estimate`, a `side`, a card's text or a refusal that rolls drew from the match's
    generator: drawing the screen five times gave another game than not drawing it (n 98 against 73)."""
    g = game(ROLLING_SHOW)
    assert g.draws_aside
    quiet, looked = g.new_match(2, seed=1), g.new_match(2, seed=1)
    for _ in range(5):
        looked.view(0), looked.view(1), looked.estimate(0), looked.sides(), looked.rules_text(0, 0)
        assert [str(a) for a in looked.interrupts(1)] == ["P2: nudge"]
        assert looked.refusal("a") == "only on a 10"
    assert looked.state() == quiet.state()
    quiet.apply("b"), looked.apply("b")
    assert looked.state()["vars"] == quiet.state()["vars"]
    recorded = g.new_match(2, seed=1, chance=[])      # (recording the chance drawn: the views add none)
    recorded.view(0)
    recorded.apply("b")
    assert [e[0] for e in recorded.chance_events] == ["roll", "roll"]



LISTING_ROLLS = """
game "Lucky" {
  players 2
  var n: int = 0 per player, public
  turn {
    step s {
      action lucky require REQUIRE { n[me] = n[me] + roll(100)  if n[me] > 400 { finish win for me }  end turn }
      action steady { n[me] = n[me] + roll(50)  PAUSE  if n[me] > 400 { finish win for me }  end turn }
    }
  }
}
"""


def _lucky(require="roll(2) == 1", pause=""):
    return game(LISTING_ROLLS.replace("REQUIRE", require).replace("PAUSE", pause))


@pytest.mark.parametrize("pause", ["", 'choose k in [1, 2] prompt "how much more?" { n[me] = n[me] + k }'])
def test_a_roll_in_a_require_is_drawn_once_per_position_whoever_lists_it(pause):
    """A fuzz trial: a `roll` in a `require` drew from the match's generator at every listing — a
    restored save (11 positions of 30) and a copy listed other actions than the match, and a
    paused save went on otherwise. Now the position's own generator decides it (chance.list_in_position)."""
    import random
    g = _lucky(pause=pause)
    assert g.draws_in_listing and g.can_pause == bool(pause)
    positions = 0
    for seed in range(12):
        m, rng, played = g.new_match(2, seed), random.Random(seed), []
        while not m.is_over:
            listed = [str(a) for a in m.legal_actions()]
            assert [str(a) for a in engine.Match.from_state(g, m.state()).legal_actions()] == listed
            assert [str(a) for a in m.clone().legal_actions()] == listed
            looked = engine.Match.from_state(g, m.state())
            looked.refusal("lucky"), looked.view(0)          # (reading first, aside, lists alike)
            assert [str(a) for a in looked.legal_actions()] == listed
            played.append(rng.choice(listed))
            m.apply(played[-1])
            positions += 1
        again = g.new_match(2, seed)                         # (a replay of the same actions: the same game)
        for text in played:
            again.apply(text)
        assert again.state() == m.state()
    assert positions > 100


def test_listing_the_actions_leaves_the_game_s_luck_alone():
    """The same seed and the same actions give the same rolls in the actions' effects whether or
    not a `require` rolls (before, each listing drew from the match's generator: other rolls)."""
    rolling, quiet = _lucky().new_match(2, 3), _lucky("true").new_match(2, 3)
    for _ in range(6):
        rolling.apply("steady"), quiet.apply("steady")
    assert rolling.state()["vars"] == quiet.state()["vars"] and rolling.state()["rng"] == quiet.state()["rng"]


@pytest.mark.parametrize("seat", [None, 2, -1, True, "0", 1.0])
def test_a_seat_that_is_no_player_is_a_clear_value_error(seat):
    """A new author: `view(None)` was a bare TypeError (a comparison with None)."""
    import numpy as np
    m = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules")).new_match(2, 1)
    # (log_for, messages_for, interrupts and legal_actions_of answered [] for seat 7: an off-by-one
    # in a researcher's wrapper read as "nothing to read" — an AI researcher's trial)
    # (`rules_text(0, 99)` blamed a correct rule of the file, `rules_text(10**6)` was an internal
    # error and `rules_text(-1)` read the last component: a fuzzer's trial)
    # (None is the spectator of log_for, messages_for and rules_text)
    for ask in (m.view, m.shown, m.visible_to, lambda p: m.determinized(p, 1), m.estimate,
                m.interrupts, m.legal_actions_of) + ((m.log_for, m.messages_for, lambda p: m.rules_text(0, p),
                                                      lambda p: m.rules_texts([0], p)) if seat is not None else ()):
        with pytest.raises(ValueError, match="no player .* in a 2-player match"):
            ask(seat)
    assert m.view(np.int64(1))["viewer"] == 1            # (a NumPy integer is a seat)
    for c in (seat, 10**6):                              # an id that is no component
        if not (type(c) is int and 0 <= c < 40):
            with pytest.raises(ValueError, match="no component .* in this match"):
                m.rules_text(c, 0)
    if type(seat) is int:                                # (apply said "… is not a legal action of P100 now")
        before = m.state()
        with pytest.raises(ValueError, match="no player .* in a 2-player match"):
            m.apply(str(m.legal_actions()[0]), seat=seat)
        assert m.state() == before
    played = m.game.new_match(2, 1)
    played.apply(str(played.legal_actions()[0]), seat=np.int64(0))      # (a NumPy integer is a seat here too)
    assert played.log
    assert m.log_for(None) == m.log_for(1) == [] and m.legal_actions_of(1) == []     # (a spectator's log)
    with pytest.raises(rulelang.IllegalAction, match="`P3: reveal` is not a legal action"):
        m.apply("P3: reveal")


@pytest.mark.parametrize("version", [99, "1", True, None])
def test_a_state_of_another_version_is_refused_by_name(version):
    # before: `version: 99` was read as if it were 1 (a researcher's trial); a paused one then said
    # "the paused effect does not lead to this position", which did not say why
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    data = game.new_match(2, seed=1).state()
    assert data["version"] == 1
    data["version"] = version
    with pytest.raises(StateError, match=f"this state is of version .*; this rulelang reads version 1"):
        rulelang.Match.from_state(game, data)
    del data["version"]                 # (none: the one there is)
    assert rulelang.Match.from_state(game, data).state() == game.new_match(2, seed=1).state()


def test_a_player_stuck_with_no_on_stuck_block_is_said_at_the_step():
    """A fuzzer: "rule error: P1 has no legal action at step `act` and the rules have no `on
    stuck` block" was the one rule error met at run time with no file:line."""
    source = """game "Stuck" {
  players 2
  kind Card { v: int  label "A" }
  zone hand: set per player, owner
  zone table: pile, public
  setup { for p in players { create Card(v: 1) in hand[p] } }
  turn {
    step act {
      action play(c in hand[me]) { move c to table  end turn }
    }
  }
  turn limit 20 { finish draw }
}"""
    m = rulelang.Game(rulelang.compile_source(source, "stuck.rules")).new_match(2, seed=1)
    m.apply("play A")
    with pytest.raises(rulelang.RulelangError) as err:
        m.apply("play A")
    assert str(err.value).startswith("stuck.rules:8: P1 has no legal action at step `act`"), str(err.value)


DEALT_KINDS = """
game "Dealt kinds" {
  players 2
  kind Chip { v: int  label "chip" + text(v) }
  zone pool: set, public
  setup { let v = roll(6)  for i in 1..3 { create Chip(v: v * 10 + i) in pool } }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_match_made_with_chance_for_its_setup_is_restored_from_its_state():
    """A review: the components a setup makes by chance (Smash Up's factions) were those the seed
    deals, so a match made with `new_match(chance=…)` could not be restored from its own state()
    ("component … that setup creates is missing"). The state keeps the outcomes it was given."""
    g = game(DEALT_KINDS)
    m = g.new_match(2, seed=1, chance=[["roll", 6, 4]])
    assert [c["label"] for c in m.state()["components"]] == ["chip41", "chip42", "chip43"]
    back = rulelang.Match.from_state(g, m.state())
    assert back.state() == m.state()
    forged = dict(m.state(), setup_chance=[["roll", 6, 5]])     # (another deal: not this position)
    with pytest.raises(StateError, match="missing"):
        rulelang.Match.from_state(g, forged)
    assert "setup_chance" not in m.determinized(0, 3).state()     # (it would tell the deal)


def test_a_paused_setup_made_with_chance_is_restored_from_its_state():
    """The same for a setup that waits for an answer (Smash Up's draft, after factions dealt)."""
    g = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    events = g.new_match(2, seed=5).chance_events
    m = g.new_match(2, seed=9, chance=events)
    assert m.state()["pending"]["root"] == ["start"]
    assert rulelang.Match.from_state(g, m.state()).state() == m.state()
    while m.pending is not None and m.pending.get("root") == ["start"]:
        m.apply(m.legal_actions()[0])
    back = rulelang.Match.from_state(g, m.state())
    # (a review: restored, it knew where no component was made — its copies were exchanged otherwise,
    # and a bot's imagined worlds dealt other factions into P1's deck in 20 of 20)
    assert back.origins() == m.origins() and all(o is not None for o in m.origins())
    for _ in range(5):
        text = m.legal_actions()[0].text
        m.apply(text), back.apply(text)
    assert back.state() == m.state()


def test_a_player_count_that_is_no_whole_number_is_refused():
    """An attacker's trial: `new_match(players=True)` made a 1-player match whose own `state()`
    `Match.from_state` then refused."""
    game = rulelang.Game(rulelang.compile_source('game "g" { players 1..2  turn { step s { action a { finish draw } } } }',
                                                 "g.rules"))
    for players in (True, 1.0, "1"):
        with pytest.raises(ValueError, match=f"g is for 1..2 players, not"):
            game.new_match(players, 1)
    assert rulelang.Match.from_state(game, game.new_match(1, 1).state()).players == 1
