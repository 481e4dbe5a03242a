"""At the terminal, a choice's answer that names a card another player cannot see is never
repeated to them: not when it is announced, not in `log` (`Match.log_for`)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import run_repl

SOURCE = """
game "Hide" {
  players 2
  kind Card { label card }
  zone hand: set per player, owner
  zone pile: set, public
  card Card "Ruby" { }
  card Card "Onyx" { }
  setup { create cards Card in hand[0] }
  turn { step s {
    action stash require size(hand[me]) == 2 { choose c in hand[me] prompt "keep which?" { move c to pile } }
    action stop { finish draw }
  } }
}
"""


def test_an_answer_is_repeated_only_once_every_player_can_see_its_card():
    game = rulelang.Game(rulelang.compile_source(SOURCE, "hide.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("stash\nRuby\nlog\nquit\n"), out, "hide.rules")
    text = out.getvalue()
    after = text[text.index("P1> Ruby"):]
    assert "P1 chooses: Ruby" in after and "2. P1: keep which? → Ruby" in after    # Ruby lies on the public pile by now…
    game2 = rulelang.Game(rulelang.compile_source(SOURCE.replace("move c to pile", "log \"kept\""), "hide.rules"))
    out = io.StringIO()
    run_repl(game2, 2, 1, {}, {1: "random"}, io.StringIO("stash\nRuby\nlog\nquit\n"), out, "hide.rules")
    text = out.getvalue()
    after = text[text.index("P1> Ruby") + len("P1> Ruby"):]
    # …here still in the hand: P1 chose it, so P1 reads it (issue 28: their own answer is told to them);
    # the others read it as a secret choice (tests/test_terminal_reading.py), and the log keeps it so
    assert [line for line in after.splitlines() if "Ruby" in line] == [
        "P1 chooses: Ruby (asked: keep which?)", "  hand (P1): 2 cards: Ruby, Onyx", "  2. P1: keep which? → Ruby"]
    assert game2.new_match(2, 1).log_for(1) == []
    m = game2.new_match(2, 1)
    m.apply("stash"), m.apply("Ruby")
    assert m.log_for(0) == ["stash", "Ruby"] and m.log_for(1) == m.log_for(None) == ["stash", "(a secret choice)"]


WHISPER = """
game "Whisper" {
  players 2
  var moves: int = 0
  turn { step act {
    action first_move require moves == 0 { moves += 1  log "public: the first move"  log "secret for P2" to [next(me)] }
    action second_move require moves == 1 { moves += 1  log "public: the second move"  end turn }
    action stop require moves == 2 { finish draw }
  } }
}
"""


def test_a_message_to_another_seat_alone_waits_for_a_hand_over_and_comes_under_its_move():
    """A new author: `log … to [P2]` written in P1's move was printed on P1's screen (the two seats
    saw the table alike, so the terminal was not handed over), and under P1's *next* move. The
    terminal is handed over for it, and the message comes under the move that wrote it."""
    game = rulelang.Game(rulelang.compile_source(WHISPER, "whisper.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("first move\nsecond move\n\nquit\n"), out, "whisper.rules")
    text = out.getvalue()
    before, _, after = text.partition("Pass the terminal to P2 and press Enter")
    assert "secret for P2" not in before
    assert ("P1 plays: first move\n  > public: the first move\n  (to you) secret for P2\n  · moves: 0 → 1\n"
            "P1 plays: second move\n  > public: the second move\n  · moves: 1 → 2\n") in after


def test_a_spectator_reads_the_messages_to_everyone_alone():
    """`messages_for(None)`, as `log_for(None)`: a new author's check raised ValueError there."""
    m = rulelang.Game(rulelang.compile_source(WHISPER, "whisper.rules")).new_match(2, 1)
    m.apply("first move")
    assert m.messages_for(None) == ["public: the first move"]
    assert m.messages_for(1) == ["public: the first move", "secret for P2"]


def test_an_undo_verdict_hangs_on_nothing_the_asker_may_not_know(monkeypatch):
    """A leak scan: the refusal of an undo past a move was judged in worlds each person imagines
    from their own cards, so it told the asker something of another player's hand (Regicide, 3
    players: two positions P3 cannot tell apart, the same `yield`, one refused and one not). Judged
    as the asker may judge it, the two verdicts are one."""
    import random
    from rulelang.play.repl import hidden_outcome
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    m = game.new_match(3, 0)
    rng = random.Random(4)
    for _ in range(15):
        m.apply(rng.choice(m.legal_actions()))
    assert m.current_player == 1 and "yield" in [a.text for a in m.legal_actions()]
    # (a world P3 imagines that P1 may tell from the real one: found by search, as the worlds drawn
    # depend on how a deal is made)
    real, imagined = m.clone(), m.determinized(2, 3)              # the same to P3, not to P1
    assert real.view(2) == imagined.view(2) and real.view(0) != imagined.view(0)
    after = {}
    for name, base in (("real", real), ("imagined", imagined)):
        after[name] = base.clone()
        after[name].apply("yield")
    with monkeypatch.context() as patch:                          # (in 48 worlds, as before the small games had more)
        patch.setattr("rulelang.play.repl.HIDDEN_MOST", 48)
        old = [hidden_outcome(base, "yield", after[name], [0, 1, 2]) for name, base in
               (("real", real), ("imagined", imagined))]
    assert old[0] != old[1]                                     # (judged on P1's own cards: they differ)
    new = [hidden_outcome(base, "yield", after[name], [0, 1, 2], asker=2) for name, base in
           (("real", real), ("imagined", imagined))]
    assert new[0] == new[1]


SECRET_NAME = """
game "Whisper" {
  players 2
  kind Card { label card }
  zone hand: set per player, owner
  zone deck: pile, hidden
  var gold: int = 0 per player
  card Card "FIRST" { }
  card Card "SECOND" { }
  setup { create cards Card in deck  move top(deck) to hand[1] }
  turn { step s {
    action wait require me == 0 { end turn }
    action look require me == 1 { gold[me] += 1  log "you hold " + text(top(hand[me])) to [me]  end turn }
    action stop require me == 0 { finish draw }
  } }
}
"""


def test_a_change_line_does_not_depend_on_a_message_sent_to_another_seat():
    """A leak scan: the change lines leave out what the move's messages said, and they counted a
    message sent to P2 alone, so P1's `gold: P2 0 → 1` was shown or not by the name of P2's secret
    card (`Fool's gold`)."""
    seen = []
    for first, second in (("Lead", "Fool's gold"), ("Fool's gold", "Lead")):
        source = SECRET_NAME.replace("FIRST", first).replace("SECOND", second)
        game = rulelang.Game(rulelang.compile_source(source, "whisper.rules"))
        out = io.StringIO()
        run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("wait\nstop\n"), out, "whisper.rules")
        text = out.getvalue()
        seen.append(text[text.index("P2 (random) plays"):].split("\n")[:2])
    assert seen[0] == seen[1] == [seen[0][0], "  · gold: P2 0 → 1"]


SIDES = """
game "Sides" {
  players 2
  var count: int = 0
  show "You play" = if me == 0 then "light" else "dark"
  show "Moves" = text(count)
  SHOWN_SECRET
  turn { step act {
    action tick require count < 3 { count += 1  end turn }
    action stop require count == 3 { finish draw }
  } }
}
"""


def test_a_shared_terminal_is_not_handed_over_for_what_each_could_work_out_for_the_other():
    """A first hour at the terminal: a two-player board game with nothing hidden was handed over
    every move because each seat's screen said which side it plays. A `show` made of public things
    and `me` alone tells nobody anything; one that reads a secret still hands the terminal over."""
    game = rulelang.Game(rulelang.compile_source(SIDES.replace("SHOWN_SECRET", ""), "sides.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("tick\ntick\ntick\nstop\n"), out, "sides.rules")
    text = out.getvalue()
    assert "Game over" in text and "Pass the terminal" not in text
    secret = SIDES.replace("SHOWN_SECRET", 'var word: int = 0 per player, hidden, internal\n'
                           '  setup { word[1] = 7 }\n  show "Your word" = text(word[me])')
    game = rulelang.Game(rulelang.compile_source(secret, "sides.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("tick\n\ntick\n\ntick\n\nstop\n"), out, "sides.rules")
    assert out.getvalue().count("Pass the terminal") == 3


@pytest.mark.parametrize("secret", [
    # (a public variable pointing at a card that lies hidden: its fields are no public thing)
    'kind Card { rank: int  label "card " + text(rank) }  zone vault: set, hidden\n'
    '  var mine: Card = none per player, public\n'
    '  setup { for p in players { create Card(rank: p + 3) in vault  mine[p] = top(vault) } }\n'
    '  show "Your rank" = mine[me].rank',
    # (a secret `show` named as a public one: told apart by place, not by name)
    'var word: int = 0 per player, hidden, internal\n  setup { word[1] = 7 }\n  show "Moves" = word[me]',
], ids=["component-in-a-public-variable", "same-name-as-a-public-show"])
def test_a_show_that_only_looks_public_still_hands_the_terminal_over(secret):
    """A leak scan of this stop's hot seat: `show "Your rank" = mine[me].rank` (a public variable
    holding a hidden card) and a secret `show "Moves"` beside the public one were taken for
    public, and the next player's secret was drawn while the last one had the keyboard."""
    game = rulelang.Game(rulelang.compile_source(SIDES.replace("SHOWN_SECRET", secret), "sides.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("tick\n\ntick\n\ntick\n\nstop\n"), out, "sides.rules")
    assert out.getvalue().count("Pass the terminal") == 3


PEEK = """
game "Peek" {
  players 2
  kind Card { rank: int  label "card " + text(rank) }
  zone deck: pile, hidden
  zone vault: set per player, hidden
  setup { for r in 1..9 { create Card(rank: r) in deck }  shuffle deck }
  turn { step go {
    action peek { reveal top(deck, 2) to [me]  choose c in top(deck, 2) prompt "keep which?" { move c to vault[me] }
                  shuffle deck  end turn }
    action whisper { log "the top card is " + text(top(deck)) to [me]  shuffle deck  end turn }
    action stop { finish draw }
  } }
}
"""


@pytest.mark.parametrize("move", ["peek\n1", "whisper"])
def test_what_one_seat_was_shown_is_cleared_before_the_next_takes_the_terminal(move):
    """A leak scan: after P1 looked at two cards and kept one face down (or was told the top card
    alone), both seats saw the table alike, so the terminal was not handed over — and P2 sat down
    under P1's `revealed to you: …` and `(to you) …` lines."""
    game = rulelang.Game(rulelang.compile_source(PEEK, "peek.rules"))
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {}, io.StringIO(f"{move}\n\nstop\n"), out, "peek.rules")
    text = out.getvalue()
    assert "Pass the terminal to P2" in text
    before = text.partition("Pass the terminal to P2")[0]
    assert "to you" in before and "P2>" not in before


def test_a_finished_save_loaded_shows_the_game_over_screen_of_the_person_playing():
    """A new author's Exploding Kittens: a finished save loaded with P3 the only person showed the
    game-over screen as `you are P1`, P1's hidden hand with it."""
    import io
    from rulelang.play.repl import run_repl
    source = """
game "Over" {
  players 3
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  setup { for i in 1..9 { create Card(n: i) in deck }  for p in players { repeat 3 { move top(deck) to hand[p] } } }
  turn { step s { action stop { finish draw } } }
}
"""
    game = rulelang.Game(rulelang.compile_source(source, "over.rules"))
    m = game.new_match(3, seed=1)
    m.apply("stop")
    labels = [c["label"] for c in m.state()["components"]]
    hands = m.state()["zones"]["hand"]
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {0: "random", 1: "random"}, io.StringIO("quit\n"), out, None, match=m)
    text = out.getvalue()
    assert "you are P3" in text and "you are P1" not in text
    assert all(labels[c] in text for c in hands[2]) and not any(labels[c] in text for c in hands[0])


BLIND = """game "Blind pick" {
  players 2
  kind Disc { skull: bool  label if skull then "skull" else "flower"
              text if skull then "A skull: the pick fails." else "A flower." }
  zone hand: set per player, owner
  zone pool: pile, hidden, internal
  zone lost: set, public
  setup { create Disc(skull: false) in hand[1]  create Disc(skull: true) in hand[1]
          create Disc(skull: false) in hand[1] }
  turn { step s {
    action take {
      move hand[1] to pool
      shuffle pool
      choose d in pool by me prompt "pick one of P2's discs, face down" { move d to lost  finish draw }
    }
  } }
}"""


def test_look_at_a_blind_option_does_not_tell_its_card():
    """A new author's Skull: at a pick among another's discs face down (`pool slot 1` …), `look 2`
    showed the skull's rules text under `pool slot 2`. The options the reader does not see are told by
    their words alone; `Match.option_components(seat)` leaves them out, the chooser's whole options
    stay the engine's (no seat)."""
    game = rulelang.Game(rulelang.compile_source(BLIND, "blind.rules"))
    match = game.new_match(2, 3)
    match.apply("take")
    options = match.question["options"]
    assert len(options) == 3 and len(match.option_components()) == 3
    assert match.option_components(0) == {}
    with pytest.raises(ValueError, match="no player 5"):
        match.option_components(5)
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {1: "random"}, io.StringIO("look 1\nlook 2\nlook 3\nquit\nn\n"), out, "blind.rules",
             match=match, screen=(200, 40))
    text = out.getvalue()
    assert "> look 2\n  pool slot 2\n" in text, text
    assert "skull" not in text.split("> look 1")[1] and "A flower" not in text, text


LAIR = """
game "Lair" {
  players 2
  kind Spot { n: int  label "spot " + text(n) }
  zone spots: set, hidden
  zone lair: set per player, owner
  setup { for i in 1..12 { create Spot(n: i) in spots }  shuffle spots  move top(spots) to lair[1] }
  turn { step s {
    action search(n in 1..12) require me == 0 {
      if any(x.n == n for x in lair[1]) { finish win for me "found" }
      end turn
    }
    action hide require me == 1 { end turn }
  } }
}
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_a_search_that_found_nothing_is_not_undone(seed):
    """A new author's Scotland Yard: a detective moved, learnt Mr. X was not on that station (the
    game went on), undid, and tried another — 8 times in 20, judged in 6 imagined worlds. A search
    whose outcome hung on the hidden card is refused, whichever spot was searched."""
    game = rulelang.Game(rulelang.compile_source(LAIR, "lair.rules"))
    lair = game.new_match(2, seed)
    hidden = next(lair.labels[c] for c in lair.state()["zones"]["lair"][1])
    undone = []
    for guess in range(1, 13):
        if f"spot {guess}" == hidden:
            continue
        out = io.StringIO()
        run_repl(game, 2, seed, {}, {1: "random"}, io.StringIO(f"search {guess}\nundo\nquit\n\n"), out, "lair.rules")
        if "cannot undo: since that decision what happened told P1 about what was hidden from them" not in out.getvalue():
            undone.append(guess)
    assert undone == []


def test_a_search_among_thirty_places_that_found_nothing_is_not_undone():
    """The same among 30 places (a new author's Scotland Yard again, 30 stations): the worlds a
    seat imagines put the hidden spot on a given station 1 time in 30, and in 48 of them never on
    4, 6 or 18 — searches there, which told the seeker "not there", could be undone. A small game
    draws more (up to 480, by the position's size: a count, the same on every machine)."""
    from rulelang.play.repl import hidden_outcome
    game = rulelang.Game(rulelang.compile_source(LAIR.replace("12", "30"), "lair.rules"))
    lair = game.new_match(2, 1)
    hidden = next(lair.labels[c] for c in lair.state()["zones"]["lair"][1])
    undone = []
    for guess in range(1, 31):
        if f"spot {guess}" != hidden:
            after = lair.clone()
            after.apply(f"search {guess}")
            if hidden_outcome(lair, f"search {guess}", after, [0], asker=0) is None:
                undone.append(guess)
    assert undone == []


def test_a_pick_laid_face_up_by_the_end_of_its_action_is_named_to_the_next_player():
    """A new author's Jaipur, two people at one terminal: P1 gave back two cards to the public market,
    and P2's catch-up read "P1 makes a secret choice" for the first, beside the line moving it there
    (`log` named it: the answer is read as it may be read once the action has ended)."""
    source = SOURCE.replace('card Card "Onyx" { }', 'card Card "Onyx" { }\n  card Card "Opal" { }').replace(
        'action stash require size(hand[me]) == 2 { choose c in hand[me] prompt "keep which?" { move c to pile } }',
        'action give require size(hand[me]) == 3 { choose a in hand[me] prompt "first?" {\n'
        '      choose b in hand[me] where b != a prompt "second?" { move [a, b] to pile  end turn } } }')
    game = rulelang.Game(rulelang.compile_source(source, "hide.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("give\nRuby\nOnyx\n\nquit\n\n"), out, "hide.rules")
    text = out.getvalue()
    caught_up = text[text.index("Pass the terminal to P2"):text.index("you are P2")]
    assert "P1 chooses: Ruby (asked: first?)" in caught_up and "P1 chooses: Onyx (asked: second?)" in caught_up
    assert "secret" not in caught_up, caught_up
    # (a pick that stays in the hand stays a secret choice to the other player)
    kept = source.replace("move [a, b] to pile", 'move b to pile  log "one given"')
    out = io.StringIO()
    run_repl(rulelang.Game(rulelang.compile_source(kept, "hide.rules")), 2, 1, {}, {},
             io.StringIO("give\nRuby\nOnyx\n\nquit\n\n"), out, "hide.rules")
    text = out.getvalue()
    caught_up = text[text.index("Pass the terminal to P2"):text.index("you are P2")]
    assert "P1 makes a secret choice (asked: first?)" in caught_up and "Ruby" not in caught_up, caught_up
