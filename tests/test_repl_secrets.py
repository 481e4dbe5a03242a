"""At the terminal, a choice's answer that names a card another player cannot see is never
repeated to them: not when it is announced, not in `log` (`Match.log_for`)."""
from __future__ import annotations

import io

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
    assert ("P1 plays: first move\n  > public: the first move\n  (to you) secret for P2\n"
            "P1 plays: second move\n  > public: the second move\n") in after
