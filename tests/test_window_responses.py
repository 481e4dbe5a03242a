"""Windows answered by players (docs/language.md, "Windows answered by players"): responses declared
on the window itself (`respond NAME where C { … }`), a worded question (`prompt`), and the order
`first` (every player asked may answer at once; the first response takes the right to respond).
The game is tests/games/harbour.rules, a small made-up bluffing game: claim a role, anyone may
challenge; a seizure may be blocked by claiming the Merchant, and that claim may be challenged too.
No response cards anywhere."""
from __future__ import annotations

import io
import json
import random
import re

import pytest

import rulelang
from rulelang.core.errors import RuleError
from rulelang.play.repl import run_repl

PATH = "tests/games/harbour.rules"
GAME = rulelang.load(PATH)
ROLE = {"smuggler": 0, "inspector": 2, "merchant": 4}       # the first component of each job (two of each)


def position(roles: list[str], coins=None, lives=None, seed: int = 5) -> rulelang.Match:
    """A match of len(roles) players where seat i holds a role of job roles[i] (the rest in the deck)."""
    m = GAME.new_match(len(roles), seed)
    st = m.state()
    used: list[int] = []
    hands = []
    for job in roles:
        c = ROLE[job] + (1 if ROLE[job] in used else 0)
        used.append(c)
        hands.append([c])
    st["zones"]["role"] = hands
    st["zones"]["deck"] = [c for c in range(6) if c not in used]
    if coins is not None:
        st["vars"]["coins"] = coins
    if lives is not None:
        st["vars"]["lives"] = lives
    return rulelang.Match.from_state(GAME, st)


def texts(actions) -> list[str]:
    return [a.text for a in actions]


def test_a_claim_is_put_to_the_next_player_and_anyone_else_may_answer_first():
    m = position(["inspector", "smuggler", "merchant"])
    m.apply("smuggle")                                         # P1 claims the Smuggler: a lie
    q = m.question
    assert m.current_player == 1 and q["prompt"] == "P1 claims to be the Smuggler: challenge?"
    assert texts(m.legal_actions()) == ["challenge", "pass"]
    assert texts(m.interrupts(2)) == ["P3: challenge", "P3: pass"]
    assert m.interrupts(0) == [] and m.interrupts(1) == []     # the claimant is not asked; P2 is the chooser
    # what each seat is told: who may answer, and its own answers only
    assert m.view(0)["choice"]["options"] is None and m.view(0)["choice"]["also"] == [2]
    assert m.view(1)["choice"]["options"] == ["challenge", "pass"]
    assert m.view(2)["choice"]["options"] == ["P3: challenge", "P3: pass"]
    m.apply("P3: challenge")                                   # P3 answers before P2: P3 has the right
    st = m.state()
    assert st["vars"]["lives"] == [1, 2, 2] and st["vars"]["coins"] == [1, 1, 1]
    assert m.messages_for(0)[-2:] == ["P3 challenges P1", "P1 is not the Smuggler"]
    assert m.log == ["smuggle", "P3: challenge"] and m.question is None
    assert m.current_player == 1 and m.state()["current"] == 1            # the turn passed


def test_a_true_claim_costs_the_challenger_a_life_and_the_claimant_takes_a_new_role():
    m = position(["smuggler", "inspector", "merchant"])
    m.apply("smuggle")
    m.apply("challenge")                                       # P2, the chooser, answers first
    st = m.state()
    assert st["vars"]["lives"] == [2, 1, 2] and st["vars"]["coins"] == [4, 1, 1]
    assert m.messages_for(2)[-2:] == ["P2 challenges P1", "P1 shows the Smuggler and takes a new role"]
    assert len(st["zones"]["role"][0]) == 1 and len(st["zones"]["deck"]) == 3


def test_seat_order_is_the_fallback_and_a_pass_takes_a_player_out():
    m = position(["inspector", "smuggler", "merchant"])
    m.apply("smuggle")
    m.apply("pass")                                            # P2 passes: now P3 alone is asked
    assert m.current_player == 2 and texts(m.legal_actions()) == ["challenge", "pass"]
    assert "also" not in m.question and m.interrupts(1) == []
    m.apply("pass")
    assert m.state()["vars"]["coins"] == [4, 1, 1] and m.log == ["smuggle", "pass", "pass"]
    # a pass out of turn (P3 first) leaves P2 asked, alone
    m = position(["inspector", "smuggler", "merchant"])
    m.apply("smuggle")
    m.apply("P3: pass")
    assert m.current_player == 1 and "also" not in m.question
    with pytest.raises(rulelang.IllegalAction):
        m.apply("P3: challenge")                               # P3 is out of this window now
    m.apply("challenge")
    assert m.state()["vars"]["lives"] == [1, 2, 2]


def test_a_block_is_the_target_s_decision_and_its_claim_may_be_challenged_first():
    m = position(["inspector", "smuggler", "merchant"], coins=[1, 3, 1])
    m.apply("seize P2")
    m.apply("pass"), m.apply("pass")                           # nobody challenges the Inspector
    assert m.current_player == 1 and m.question["prompt"] == "P1 seizes 2 coins from P2: block as the Merchant?"
    assert texts(m.legal_actions()) == ["block", "pass"] and "also" not in m.question    # only the target
    m.apply("block")                                           # P2 claims the Merchant: a lie
    assert m.current_player == 2 and m.question["prompt"] == "P2 claims to be the Merchant: challenge?"
    assert texts(m.interrupts(0)) == ["P1: challenge", "P1: pass"]
    m.apply("P1: challenge")
    st = m.state()
    assert st["vars"]["lives"] == [2, 1, 2] and st["vars"]["coins"] == [3, 1, 1]   # the block failed
    assert m.messages_for(1)[-3:] == ["P2 blocks as the Merchant", "P1 challenges P2", "P2 is not the Merchant"]
    # a true block, unchallenged, keeps the coins
    m = position(["inspector", "merchant", "smuggler"], coins=[1, 3, 1])
    for a in ("seize P2", "pass", "pass", "block", "pass", "pass"):
        m.apply(a)
    assert m.state()["vars"]["coins"] == [1, 3, 1] and m.is_over is False


def test_a_game_may_end_through_a_response():
    m = position(["inspector", "smuggler"], lives=[1, 2])
    m.apply("smuggle")
    m.apply("challenge")
    assert m.is_over and m.outcome["results"] == ["lose", "win"]
    assert m.outcome["reason"] == "the last player in"


def test_a_paused_first_to_answer_window_saves_and_restores():
    m = position(["inspector", "smuggler", "merchant"])
    m.apply("smuggle")
    st = json.loads(json.dumps(m.state()))
    assert st["pending"]["question"]["also"] == [[2, ["P3: challenge", "P3: pass"]]]
    r = rulelang.Match.from_state(GAME, st)
    assert texts(r.interrupts(2)) == ["P3: challenge", "P3: pass"]
    r.apply("P3: challenge")
    m.apply("P3: challenge")
    assert r.state() == m.state()


# ---- the language: errors, the IR, the linter --------------------------------------------------
def compile_errors(src: str) -> list[str]:
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(src, "w.rules")
    return [f"{d.code} {d.span.line}:{d.span.column} {d.message}" for d in err.value.diagnostics]


SMALL = """game "W" {
  players 2
  window ask(p: player) {
    prompt "go?"
    ORDER
    respond yes where me != p { finish win for me }
    RESPOND
  }
  turn { step s { action go { open ask(me) from next(me)  end turn } } }
}"""


def test_mistakes_in_a_window_body_are_one_line_each():
    assert compile_errors(SMALL.replace("ORDER", "order fastest").replace("RESPOND", "")) == [
        "E105 5:11 `order fastest`: a window's order is `order seat` (in turn, the default) or `order first` "
        "(the first to answer), once"]
    assert compile_errors(SMALL.replace("ORDER", "").replace("RESPOND", "respond yes { }")) == [
        "E102 7:5 window `ask` has two responses shown `yes`"]
    assert compile_errors(SMALL.replace("ORDER", "").replace("RESPOND", 'respond no as "pass" { }')) == [
        "E102 7:5 a response may not be shown `pass` (that is how a player declines)"]
    assert compile_errors(SMALL.replace("window ask(p: player) {", "window ask(p: player) as \"x\" {")
                          .replace("ORDER", "").replace("RESPOND", "")) == [
        "E105 4:5 window `ask` is worded twice (`as` and `prompt`): keep one"]
    assert compile_errors(SMALL.replace("ORDER", "").replace("RESPOND", "respond no where me + 1 { }")) [0].startswith("E201 7:")


def test_the_ir_carries_the_responses_and_the_order():
    ir = GAME.ir
    assert ir["answered_first"] == ["claim", "seizure"]
    own = [(a["name"], a["text"], a["card"]) for a in ir["abilities"] if a["form"] == "response"]
    assert own == [("claim", "challenge", None), ("seizure", "block", None)]
    rulelang.Game(json.loads(json.dumps(ir)))                    # it validates and loads as it is
    bad = json.loads(json.dumps(ir))
    bad["answered_first"] = ["nothing"]
    with pytest.raises(RuleError):
        rulelang.Game(bad)


def test_the_linter_knows_player_responses():
    assert rulelang.lint([PATH])[0] == []
    src = SMALL.replace("ORDER", "").replace("RESPOND", "").replace(" where me != p", "")
    found = [(d.code, d.message) for d in rulelang.check_source(src, "w.rules")[1]]
    assert ("W225", "window `ask`: every player asked may respond `yes`, the player it is about too — "
            "say who may with `respond yes where …` (or open it `to` some players)") in found
    src = SMALL.replace("ORDER", "").replace("RESPOND", "")
    assert not [d for d in rulelang.check_source(src, "w.rules")[1] if d.code in ("W214", "W225")]


# ---- hidden information: a leak scan over random games --------------------------------------------
def _twin(m: rulelang.Match, p: int, rng: random.Random) -> rulelang.Match | None:
    """The same position with the roles p cannot see dealt otherwise (the other seats' roles and
    the deck, shuffled among themselves; also in the position a paused effect replays from), or
    None when that deal changes what a replay of the paused effect does (a challenge it resolved)."""
    st = json.loads(json.dumps(m.state()))
    hidden = st["zones"]["deck"] + [c for q, cs in enumerate(st["zones"]["role"]) if q != p for c in cs]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled))

    def deal(s: dict) -> None:
        s["zones"]["deck"] = [swap.get(c, c) for c in s["zones"]["deck"]]
        s["zones"]["role"] = [[swap.get(c, c) for c in cs] for cs in s["zones"]["role"]]
    deal(st)
    if "pending" in st:
        deal(st["pending"]["base"])
    try:
        return rulelang.Match.from_state(GAME, st)
    except rulelang.StateError:
        return None


def _seen(m: rulelang.Match, p: int) -> dict:
    """Everything seat p is shown now: its view, its actions (legal ones when it is to act, its
    answers out of turn), the question, the messages and the log as p may read them."""
    return {"view": m.view(p), "actions": texts(m.legal_actions()) if m.current_player == p else None,
            "out_of_turn": texts(m.interrupts(p)), "messages": m.messages_for(p), "log": m.log_for(p)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_is_shown_anything_that_depends_on_roles_it_cannot_see(players):
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        m = GAME.new_match(players, seed)
        while not m.is_over and len(m.log) < 120:
            for p in range(players):
                twin = _twin(m, p, rng)
                if twin is not None:
                    assert _seen(twin, p) == _seen(m, p), (p, m.log)
                    compared += 1
            mine = texts(m.legal_actions())
            others = [t for q in range(players) for t in texts(m.interrupts(q))]
            m.apply(rng.choice(mine + others))               # the first answer may come from anyone
        # a response is no secret: everyone reads the whole log and every message
        assert all(m.log_for(p) == m.log for p in range(players))
        assert all(m.messages_for(p) == m.messages_for(0) for p in range(players))
    assert compared > 60


def test_the_terminal_announces_a_challenge_with_its_question_and_shows_no_other_role():
    out = io.StringIO()
    lines = "\n".join(["smuggle", "seize P2", "1", "2", "work"] * 6) + "\nquit\n"
    run_repl(GAME, 3, 4, {}, {1: "random", 2: "random"}, io.StringIO(lines), out, PATH)
    text = out.getvalue()
    assert "P2 (random) chooses: challenge (asked: P1 claims to be the Smuggler: challenge?)" in text
    assert "secret choice" not in text and "respond in" not in text
    assert re.findall(r"role \(P[23]\): [^\n]*", text) and all(
        line.endswith("hidden") for line in re.findall(r"role \(P[23]\): [^\n]*", text))
    # every line naming a role is P1's own hand, a claim, a message, or the rules
    jobs = re.compile(r"Smuggler|Inspector|Merchant")
    public = re.compile(r"role \(P1\)|claims to be the|> P\d (shows|is not) the|blocks as the Merchant|"
                        r"block as the Merchant\?|^P1> ")
    assert [line for line in text.splitlines() if jobs.search(line) and not public.search(line)] == []


# ---- the rulebook covers responses, cards and every ending -----------------------------------------
def test_the_rulebook_tells_who_may_respond_and_the_endings_reached_through_a_response():
    from rulelang.play.repl import rulebook
    text = rulebook(GAME, source=PATH)
    assert ("- the players the game names win, the others lose — “the last player in” (after a player answers "
            "challenge)") in text
    assert ("- “… claims to be the …: challenge?”: everyone asked may answer at once; the first to answer "
            "does, and no one else is asked") in text
    assert "  - a player asked may answer `challenge` (when the rules allow it)" in text
    assert "  - asked after the action smuggle, after the action seize, after a player answers block" in text
    assert "  - a player asked may answer `block` (when the rules allow it)" in text
    assert "lose_life" not in text and "window claim" not in text and "eliminated(me)" not in text


def test_an_ending_reached_through_an_answer_and_through_actions_says_both(tmp_path):
    """A new author's Coup: a shared `lose_influence` ending the game was said to come "after a player
    answers challenge" alone — never after the coup or the assassination that run it too."""
    from rulelang.play.repl import rulebook
    src = """game "Duel" {
  players 2
  var lives: int = 2 per player
  proc hurt(p: player) { lives[p] -= 1  if lives[p] == 0 { finish lose for p "out of lives" } }
  window claim(p: player) { prompt "challenge?"  order first  respond challenge where me != p { hurt(p) } }
  turn { step s {
    action bluff { open claim(me) from next(me)  end turn }
    action shoot { hurt(next(me))  end turn }
    action stab { hurt(next(me))  end turn }
  } }
}"""
    path = tmp_path / "duel.rules"
    path.write_text(src, encoding="utf-8")
    text = rulebook(rulelang.load(str(path)), source=str(path))
    assert ("- the players the game names lose, the others win — “out of lives” (after a player answers challenge, "
            "after the action shoot or stab)") in text



def test_a_window_opened_by_a_procedure_is_said_after_the_actions_that_run_it(tmp_path):
    """A new author's Coup opened every claim from a procedure (`proc claim_round(p) { open claim(p) … }`):
    the rulebook said after no action that the claim is asked."""
    from rulelang.play.repl import rulebook
    src = """game "Claims" {
  players 3
  var coins: int = 0 per player, public
  window claim(p: player) { prompt text(p) + " claims the Duke: challenge?"  order first
    respond challenge where me != p { coins[p] = 0 } }
  proc claim_round(p: player) { open claim(p) from next(p) }
  turn { step act {
    action tax { claim_round(me)  coins[me] += 3  if coins[me] > 9 { finish win for me }  end turn }
    action steal { claim_round(me)  coins[me] += 2  end turn }
    action income { coins[me] += 1  end turn }
  } }
}"""
    path = tmp_path / "claims.rules"
    path.write_text(src, encoding="utf-8")
    text = rulebook(rulelang.load(str(path)), source=str(path))
    assert "  - asked after the action tax or steal" in text and "claim_round" not in text


CARDS = """game "Relay" {
  players 2
  kind Token { label card }
  zone table: set, public, play
  zone box: set, public
  hook use(p: player)
  window answer(p: player)
  card Token "Horn" { text "Sound it: P wins."  copies: 2
    on use(p) { finish win for p "the horn sounded" } }
  card Token "Shield" { on answer(p) where p != me { finish lose for p "blocked by a shield" } }
  setup { create cards Token in table }
  turn { step s {
    action blow { run use(me) of first([c for c in table where c.card == "Horn"]) }
    action ask { open answer(me) from next(me)  end turn }
  } }
}"""


def test_the_rulebook_tells_the_cards_that_answer_and_end_the_game_without_their_hooks(tmp_path):
    """It listed `hook use: Horn` and `Shield: responds in window answer`: words of the rule file
    players cannot use. A card's own text is what they read; one with abilities and no text says so."""
    from rulelang.play.repl import rulebook
    path = tmp_path / "relay.rules"
    path.write_text(CARDS)
    text = rulebook(rulelang.load(str(path)), source=str(path))
    assert "hook" not in text and "Card abilities" not in text
    assert "- answer: asked in turn;" in text
    assert "  - answered with (by the player who has it): Shield\n  - asked after the action ask" in text
    assert "- the players the game names win, the others lose — “the horn sounded” (by Horn)" in text
    assert "- the players the game names lose, the others win — “blocked by a shield” (by Shield)" in text
    assert "- Horn: Sound it: P wins.\n- Shield: (the rule file gives this card abilities but no words for them)" in text
    assert "- Horn: Sound it: P wins." in text


def test_always_offers_a_first_to_answer_question_to_everyone_asked():
    src = """game "A" {
      players 3
      var hits: int = 0 per player
      window ask(p: player) { prompt "anyone?"  order first  respond hit where me == 2 { hits[me] += 1 } }
      turn { step s {
        action quiet { open ask(me) from next(me)  end turn }
        action loud { open ask(me) from next(me) always  end turn }
        action stop { finish draw } } }
    }"""
    game = rulelang.Game(rulelang.compile_source(src, "a.rules"))
    m = game.new_match(3, 1)
    m.apply("quiet")                                         # only P3 may respond: P3 alone is asked
    assert m.current_player == 2 and "also" not in m.question and m.view(0)["choice"].get("also") is None
    m.apply("pass")
    m = game.new_match(3, 1)
    m.apply("loud")                                          # always: everyone is asked alike, P1 too
    assert m.current_player == 1 and texts(m.legal_actions()) == ["pass"] and m.view(0)["choice"]["also"] == [2, 0]
    assert texts(m.interrupts(2)) == ["P3: hit", "P3: pass"] and texts(m.interrupts(0)) == ["P1: pass"]
    m.apply("P3: hit")
    assert m.state()["vars"]["hits"] == [0, 0, 1] and m.question is None


def test_the_terminal_says_who_else_may_answer_first_and_takes_p3_colon_as_the_docs_write_it():
    """A new author's Coup: language.md says the others answer "as `P3: challenge`", which the
    terminal refused (`'P3: challenge' is not an answer`), and nothing on P2's screen said that P3
    might answer first."""
    out = io.StringIO()
    run_repl(GAME, 3, 4, {}, {}, io.StringIO("smuggle\n\nP3: challenge\n\nquit\n"), out, PATH)
    text = out.getvalue()
    p2 = text.split("you are P2")[1].split("P2> ")[0]
    assert "  (also asked, and may answer first: P3; type as P3)\n" in p2
    assert "P3 chooses: challenge (asked: P1 claims to be the Smuggler: challenge?)" in text
    assert "is not an answer" not in text and "lives: P3 2 → 1" in text


def test_a_choice_caused_by_a_players_answer_says_whose_answer():
    """A new author's Coup: the challenger choosing the influence they lose read "(because of P2)" —
    their own seat, as if another player had caused it."""
    from rulelang.play.render import choice_words
    choice = {"chooser": 1, "prompt": "lose an influence", "kind": "one", "running": [{"effect": "P2: challenge"}]}
    assert choice_words(choice, "you") == "you must choose: lose an influence (because of your challenge)"
    assert choice_words(choice, "P2") == "P2 must choose: lose an influence (because of P2's challenge)"
    choice["running"] = [{"effect": "P3: challenge"}, {"effect": "Shinobi: play it"}]
    assert choice_words(choice, "you") == "you must choose: lose an influence (because of P3's challenge, Shinobi)"


@pytest.mark.parametrize("order", ["first", "seat"])
def test_a_player_out_is_never_asked_in_a_window(order, tmp_path):
    """A new author's Coup: a window asked the players who were out too, and one challenged for free,
    with no card to lose. Since stop 62 an eliminated player is never asked (lint W258 says so where
    a file's meaning changed): here the claim's `where` no longer leaves them out itself."""
    source = open(PATH, encoding="utf-8").read()
    bare = source.replace("respond challenge where me != p and not eliminated(me)", "respond challenge where me != p")
    if order == "seat":
        bare = bare.replace("    order first\n    respond challenge", "    respond challenge")
    assert bare.count("not eliminated(me)") == source.count("not eliminated(me)") - 1
    game = rulelang.Game(rulelang.compile_source(bare, "harbour_bare.rules"))
    st = game.new_match(3, 5).state()
    st["zones"]["role"], st["zones"]["deck"] = [[2], [0], [4]], [1, 3, 5]
    st["vars"]["lives"], st["rounds"]["eliminated"] = [2, 2, 0], [2]
    m = rulelang.Match.from_state(game, st)
    m.apply("smuggle")                                  # P1 (an Inspector) claims the Smuggler: a lie
    assert m.question["chooser"] == 1 and m.interrupts(2) == []
    assert 2 not in m.view(1)["choice"].get("also", [])
    m.apply("pass")                                     # P2 passes: nobody else is asked
    assert m.question is None and m.state()["vars"]["coins"] == [4, 1, 1]
    (tmp_path / "bare.rules").write_text(bare, encoding="utf-8")
    said = [d for d in rulelang.lint([str(tmp_path / "bare.rules")])[0] if d.code == "W258"]
    assert said and all("open claim" in d.message for d in said)    # (its meaning changed: said)


def test_a_player_put_out_by_a_response_is_not_asked_again_in_that_window():
    """A review: the players to ask were worked out once, when the window opened; P2, out by their
    own challenge, was asked again after P3 passed, and challenged a second time."""
    game = rulelang.Game(rulelang.compile_source('''game "Mid window" {
  players 3
  var challenges: int = 0 per player
  window claim(p: player) {
    respond challenge where me != p { challenges[me] += 1  eliminate me }
  }
  turn { step s { action tax { open claim(me) from next(me)  finish draw } } }
}''', "mid.rules"))
    m = game.new_match(3, seed=1)
    m.apply("tax")
    m.apply("challenge")                            # P2 challenges, and is out
    m.apply("pass")                                 # P3 passes: nobody else is asked
    assert m.is_over and m.state()["vars"]["challenges"] == [0, 1, 0]


def test_help_of_an_answer_at_a_question_says_what_it_answers(tmp_path):
    """A new author's Coup: `help challenge` at "P3 claims the Captain: challenge?" said "no action
    `challenge`; the actions are: …" — the answer on the screen refused, actions not legal then listed."""
    src = """game "Doubt" {
  players 2
  var coins: int = 0 per player, public
  window claim(p: player) { prompt text(p) + " claims the Duke: challenge?"  order first
    respond challenge where me != p { coins[p] = 0 } }
  turn { step act {
    action tax { open claim(me) from next(me)  coins[me] += 3  if coins[me] > 5 { finish win for me }  end turn }
  } }
}"""
    path = tmp_path / "doubt.rules"
    path.write_text(src, encoding="utf-8")
    out = io.StringIO()
    run_repl(rulelang.load(str(path)), 2, 1, {}, {0: "random"}, io.StringIO("help challenge\nhelp 2\nhelp tax\nquit\n"),
             out, str(path))
    text = out.getvalue()
    assert "  challenge: an answer to the question “P1 claims the Duke: challenge?” — type `challenge` or 1 to give it" in text
    assert "  pass: an answer to the question “P1 claims the Duke: challenge?” — type `pass` or 2 to give it" in text
    assert "no action `challenge`" not in text and "tax (at step act)" in text
