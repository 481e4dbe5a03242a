"""The front ends (REPL, bots, simulate, CLI) against a fake game, so they are tested
through the public engine API alone, independently of the language."""
from __future__ import annotations

import io
import os
import json

import pytest

import fakegame
import rulelang
from rulelang.play.bots import make_bot
from rulelang.cli import main
from rulelang.play.repl import run_repl
from rulelang.core.errors import Diagnostic, RuleError, Span
from rulelang.play.repl import run_repl
from rulelang.play.simulate import format_report, simulate

TIMINGS = ("seconds", "actions_per_s", "playouts_per_s")


def play(lines, bots=None, players=2, seed=3, options=None):
    """Runs the REPL on piped input; P2 is a random bot unless `bots` says otherwise."""
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    stdout = io.StringIO()
    bots = {1: "random"} if bots is None else bots
    code = run_repl(fakegame.FakeGame(), players, seed, options, bots, stdin, stdout, "take.rules")
    return code, stdout.getvalue()


def error_lines(text):
    return [line for line in text.splitlines() if "error" in line]


# -- REPL -----------------------------------------------------------------------

def test_numbers_play_a_whole_game_to_its_outcome():
    code, out = play(["1"] * 20)
    assert code == 0
    assert "P1 plays: take 1" in out
    assert "P2 (random) plays:" in out
    assert "Game over: " in out
    assert "P1 (human): " in out and "score" in out
    assert "Traceback" not in out


def test_text_and_unique_prefix_any_case_choose_actions():
    code, out = play(["take 2", "PA"])
    assert "P1 plays: take 2" in out
    assert "P1 plays: pass" in out
    assert out.rstrip().endswith("input ended")
    assert code == 0


def test_ambiguous_prefix_lists_the_candidates_on_one_line():
    _, out = play(["t", "log"])
    assert "ambiguous: 't' could be take 1, take 2" in out
    assert "no actions yet" in out


def test_unknown_text_and_out_of_range_number_are_one_line_each():
    _, out = play(["dance", "9", "0", "log"])
    assert error_lines(out) == [
        "error: 'dance' is not a legal action or a command (legal now: take 1, take 2, pass; type help)",
        "error: there is no action 9; choose 1-3",
        "error: there is no action 0; choose 1-3",
    ]
    assert "no actions yet" in out


def test_help_lists_the_commands():
    _, out = play(["help"])
    for command in ("help", "log", "undo", "save FILE", "load FILE", "quit"):
        assert command in out


def test_undo_goes_back_to_the_previous_human_decision():
    _, out = play(["undo", "pass", "undo", "log"])
    assert "nothing to undo" in out
    assert "undone" in out
    assert out.count("no actions yet") == 1


STEPS = """
game "Steps" {
  players 2
  var n: int = 0, public
  turn { step act {
    action grow { n += 1  log text(me) + " grows the pile to " + text(n) }
    action rest { log text(me) + " rests"  end turn }
    action stop require n >= 3 { finish draw "stopped" }
  } }
}
"""


def test_an_undo_keeps_what_each_seat_recaps_from_before_the_move_undone():
    """A first hour: after P2 undid a discard, P1's recap read only "undone" and the move after,
    not the enemy P2 had defeated before it (`rewind` cleared every seat's recap)."""
    game = rulelang.Game(rulelang.compile_source(STEPS, "steps.rules"))

    def recap(typed: str) -> str:
        out = io.StringIO()
        run_repl(game, 2, 1, {}, {}, io.StringIO(typed + "recap\nquit\nn\n"), out, "steps.rules")
        return out.getvalue().split("P1> recap\n")[1]
    undone = recap("rest\ngrow\ngrow\nundo\nrest\n")
    assert undone == recap("rest\ngrow\nrest\n")            # as if the second `grow` had never been played
    assert "P2 plays: grow\n  > P2 grows the pile to 1\n" in undone and "to 2" not in undone
    # (and the one deciding again, asked at once: not "nothing happened since your last move" — a review)
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("rest\ngrow\nundo\nrecap\nquit\nn\n"), out, "steps.rules")
    assert out.getvalue().split("P2> recap\n")[1].startswith("Since your last move:\nP1 plays: rest\n")


def test_undo_never_goes_back_past_a_card_drawn_from_a_hidden_pile():
    _, out = play(["take 1", "undo", "log"])
    assert "cannot undo: since that decision P1 has seen a card that was hidden from them" in out
    assert "undone" not in out and "1. take 1" in out


def test_save_then_load_restores_the_match(tmp_path):
    path = tmp_path / "match.json"
    _, out = play(["take 1", f"save {path}", "take 1", "take 1", f"load {path}", "log"])
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["rulelang_save"] == 2 and "game" not in saved      # a save never names a file to load
    assert saved["name"] == "Take Last" and saved["players"] == 2 and saved["seed"] == 3
    assert saved["log"][0] == "take 1" and saved["state"]["log"] == saved["log"]
    assert f"loaded {path}" in out
    log_after_load = out.split(f"loaded {path}")[1].split("P1> log")[1]
    assert log_after_load.count(". ") == len(saved["state"]["log"])


@pytest.mark.parametrize("content, reason", [
    ("{not json", "not a rulelang save file"),
    ('{"hello": 1}', "not a rulelang save file"),
    (None, "No such file or directory"),
])
def test_a_bad_save_file_is_one_line_and_the_game_goes_on(tmp_path, content, reason):
    path = tmp_path / "save.json"
    if content is not None:
        path.write_text(content)
    _, out = play([f"load {path}", "take 2"])
    assert f"error: cannot load {path}: {reason}" in out
    assert len(error_lines(out)) == 1
    assert "P1 plays: take 2" in out


def test_a_save_of_another_player_count_is_refused(tmp_path):
    path = tmp_path / "three.json"
    play([f"save {path}"], players=3)
    _, out = play([f"load {path}"])
    assert f"error: cannot load {path}: it was saved with 3 players, this match has 2" in out


def test_a_corrupt_state_in_a_save_file_is_refused(tmp_path):
    path = tmp_path / "save.json"
    play([f"save {path}"])
    data = json.loads(path.read_text())
    data["state"] = {"pile": "oops"}
    path.write_text(json.dumps(data))
    _, out = play([f"load {path}", "log"])
    assert f"error: cannot load {path}: the replayed position differs from the saved one" in out
    assert "no actions yet" in out


def test_quit_ends_the_session_at_once():
    code, out = play(["quit", "take 1"])
    assert code == 0
    assert "P1 plays" not in out


def test_end_of_input_exits_cleanly():
    code, out = play([])
    assert code == 0
    assert out.rstrip().endswith("input ended")


def test_a_rule_error_is_one_line_and_the_state_is_restored():
    _, out = play(["take 2", "log", "take 1"], options={"buggy": True})
    assert "rule error: rule 'take' divided by zero" in out
    assert "no actions yet" in out
    assert "pile: 7 cards, hidden" in out.split("rule error")[1].split("P1> log")[0]
    assert "P1 plays: take 1" in out


def test_a_rule_error_in_a_bot_move_without_human_decision_stops_the_game():
    code, out = play([], bots={0: "greedy", 1: "greedy"}, options={"buggy": True, "pile": 2})
    assert code == 1
    assert "rule error: rule 'take' divided by zero" in out
    assert "the game cannot go on" in out


def test_all_bot_seats_play_to_the_end():
    code, out = play([], bots={0: "random", 1: "greedy"})
    assert code == 0
    assert "Game over: " in out and "P2 (greedy bot)" in out


def test_hot_seat_hands_over_and_never_shows_the_other_players_secrets():
    pile = fakegame.FakeGame().new_match(2, 3).state()["pile"]
    first, second = f"#{pile[-1]}", f"#{pile[-2]}"
    _, out = play(["take 1", "", "take 1", "", "log"], bots={})
    p1_before, p2_turn, p1_again = out.split("Pass the terminal to ")
    assert p2_turn.startswith("P2 and press Enter") and p1_again.startswith("P1 and press Enter")
    assert p1_before.rstrip().endswith("=" * 60)     # the screen was separated before the prompt
    assert "P1 plays: take 1" in p2_turn             # P2 learns what P1 did,
    assert first not in p2_turn                      # but not which card P1 took
    assert first in p1_again and second not in p1_again


def test_hand_over_waits_for_enter_before_showing_the_next_view():
    _, out = play(["take 1"], bots={})
    assert out.split("Pass the terminal to P2 and press Enter")[1].strip() == "input ended"


def test_a_bad_bot_seat_or_player_count_is_a_value_error():
    with pytest.raises(ValueError, match="no seat P5"):
        play([], bots={4: "random"})
    with pytest.raises(ValueError, match="2 to 3 players"):
        play([], players=7)


# -- bots -----------------------------------------------------------------------

def playout(kind, seed):
    match = fakegame.FakeGame().new_match(2, 1)
    bot = make_bot(kind, seed)
    while not match.is_over:
        match.apply(bot.choose(match))
    return match.log


def test_bots_are_deterministic_for_a_seed():
    for kind in ("random", "greedy"):
        assert playout(kind, 5) == playout(kind, 5)
    assert len({tuple(playout("random", seed)) for seed in range(20)}) > 1


def test_greedy_takes_a_win_when_there_is_one():
    for seed in range(10):
        match = fakegame.FakeGame().new_match(2, seed, {"pile": 2})
        assert str(make_bot("greedy", seed).choose(match)) == "take 2"


def test_greedy_avoids_an_immediate_loss():
    for seed in range(10):
        match = fakegame.FakeGame().new_match(2, seed, {"pile": 3})
        match.apply("pass")
        match.apply("pass")          # nobody can pass now: taking 1 or 2 of 3 hands the win over
        match.apply("take 1")        # P1 leaves 2 for P2, who must not take 1 and leave the last card
        assert str(make_bot("greedy", seed).choose(match)) == "take 2"


def test_unknown_bot_kind_names_the_kinds():
    with pytest.raises(ValueError, match="random, greedy"):
        make_bot("clever", 1)


# -- simulate -------------------------------------------------------------------

def without_timings(result):
    return {key: value for key, value in result.items() if key not in TIMINGS}


def test_simulate_is_deterministic_for_a_seed():
    game = fakegame.FakeGame()
    one = simulate(game, 2, 50, seed=9, bots={1: "greedy"})
    two = simulate(game, 2, 50, seed=9, bots={1: "greedy"})
    assert without_timings(one) == without_timings(two)
    assert one["games"] == one["finished"] == 50 and one["errors"] == 0
    assert sum(one["outcomes"].values()) == 50
    assert sum(one["win_rate_by_seat"]) == pytest.approx(1.0)
    assert one["bots"] == ["random", "greedy"]
    assert one["actions"] >= 50 * 4 and one["max_length"] >= one["mean_length"] > 0
    assert without_timings(simulate(game, 2, 50, seed=10)) != without_timings(one)


def test_simulate_counts_rule_errors_and_endless_games_with_their_seeds():
    """A game errs where its real match plays `take 2` (a bot's look-ahead meeting the error in a world
    it imagines is not the match's error since stop 72: greedy then played on, see test_bots)."""
    game = fakegame.FakeGame()
    buggy = simulate(game, 2, 40, seed=1, bots="random", options={"buggy": True, "pile": 2})
    assert buggy["errors"] + buggy["finished"] == 40 and buggy["errors"] >= 11
    assert all(f["error"] == "RuleRuntimeError: rule 'take' divided by zero" and f["seed"] == 1_000_003 + f["game"]
               for f in buggy["failures"])
    assert len(buggy["failures"]) == 10
    endless = simulate(game, 3, 5, seed=1, max_actions=2)
    assert endless["errors"] == 5 and endless["failures"][0]["error"] == "no end after 2 actions"
    report = format_report(buggy)
    assert f"errors: {buggy['errors']}" in report and f"... and {buggy['errors'] - 10} more" in report


def test_format_report_shows_the_figures():
    report = format_report(simulate(fakegame.FakeGame(), 2, 10, seed=2, options={"pile": 5}))
    assert report.startswith("Take Last: 10 games, 2 players, seed 2 (bots: P1 random, P2 random)")
    for words in ("options: pile=5", "P1 results: win ", "win rate by seat (95% interval): P1 ", "draw rate (games in which some player drew):",
                  "game length: mean ", "actions/s", "games/s", "errors: 0"):
        assert words in report


# -- CLI ------------------------------------------------------------------------

@pytest.fixture
def fake_engine(monkeypatch):
    monkeypatch.setattr(rulelang, "load", fakegame.load, raising=False)


def one_error_line(capsys):
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize("argv, message", [
    (["play", "x.rules", "--players", "9"], "error: Take Last is for 2 to 3 players, not 9"),
    (["play", "x.rules", "--option", "colour=red"], "error: unknown option 'colour'"),
    (["play", "x.rules", "--bot", "5=random"], "error: no seat P5 in a 2-player match"),
    (["simulate", "x.rules", "--games", "0"], "error: the number of games must be at least 1"),
])
def test_cli_user_errors_are_one_line_and_exit_1(fake_engine, capsys, argv, message):
    assert main(argv) == 1
    assert one_error_line(capsys).startswith(message)


@pytest.mark.parametrize("argv", [
    [], ["play"], ["play", "x.rules", "--bot", "2=clever"], ["play", "x.rules", "--bot", "0=random"],
    ["play", "x.rules", "--option", "novalue"], ["simulate", "x.rules", "--games", "many"],
])
def test_cli_usage_errors_exit_2_without_traceback(fake_engine, capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "usage: rulelang" in err and "Traceback" not in err


def test_cli_missing_file_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(rulelang, "load", lambda path: open(path), raising=False)
    assert main(["play", "missing.rules"]) == 1
    assert one_error_line(capsys) == "error: missing.rules: No such file or directory"


def test_cli_rule_error_prints_the_report(monkeypatch, capsys):
    diagnostic = Diagnostic("E1", "unknown zone `hnad`", Span("bad.rules", 1, 6, 1, 10), suggestion="hand")

    def broken(path):
        raise RuleError([diagnostic], {"bad.rules": "move hnad to pile\n"})
    monkeypatch.setattr(rulelang, "load", broken, raising=False)
    assert main(["play", "bad.rules"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "bad.rules:1:6: error[E1]: unknown zone `hnad` (did you mean `hand`?)",
        "    move hnad to pile",
        "         ^^^^",
    ]


def test_cli_play_reads_piped_input_and_prints_the_seed(fake_engine, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 20))
    assert main(["play", "x.rules", "--seed", "4", "--bot", "2=random", "--option", "pile=4"]) == 0
    out = capsys.readouterr().out
    assert "Take Last: 2 players, seed 4" in out and "Game over: " in out
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "x.rules", "--bot", "random"]) == 0
    assert "seed " in capsys.readouterr().out


def test_cli_simulate_json_and_text(fake_engine, capsys):
    argv = ["simulate", "x.rules", "--players", "3", "--games", "30", "--seed", "5", "--bot", "greedy",
            "--bot", "1=random", "--json"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert without_timings(first) == without_timings(second)
    assert first["bots"] == ["random", "greedy", "greedy"]
    for key in ("games", "players", "seed", "actions", "seconds", "actions_per_s", "playouts_per_s", "outcomes"):
        assert key in first
    assert main(["simulate", "x.rules", "--games", "5"]) == 0
    assert "Take Last: 5 games, 2 players, seed 0" in capsys.readouterr().out


def test_cli_lint_prints_diagnostics_a_summary_and_exit_code(monkeypatch, capsys):
    source = "zone hand\nmove hnad to pile\n"
    found = [Diagnostic("E1", "unknown zone `hnad`", Span("a.rules", 2, 6, 2, 10), suggestion="hand"),
             Diagnostic("W2", "unused zone `hand`", Span("a.rules", 1, 6, 1, 10), severity="warning")]
    monkeypatch.setattr(rulelang, "lint", lambda paths: (found, {"a.rules": source}), raising=False)
    assert main(["lint", "a.rules"]) == 1
    out = capsys.readouterr().out
    assert "    move hnad to pile\n         ^^^^" in out
    assert out.rstrip().endswith("1 error(s), 1 warning(s)")
    assert main(["lint", "a.rules", "--format", "json"]) == 1
    assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["E1", "W2"]
    monkeypatch.setattr(rulelang, "lint", lambda paths: (found[1:], {}), raising=False)
    assert main(["lint", "a.rules"]) == 0
    monkeypatch.setattr(rulelang, "lint", lambda paths: ([], {}), raising=False)
    assert main(["lint", "a.rules", "b.rules"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "ok: 2 file(s) clean"


def test_cli_compile_writes_the_ir(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(rulelang, "compile_file", lambda path: {"ir": 1, "name": "Où"}, raising=False)
    out = tmp_path / "x.json"
    assert main(["compile", "x.rules", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {"ir": 1, "name": "Où"}
    assert main(["compile", "x.rules"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "Où"


def test_save_to_a_fifo_or_a_nul_path_is_one_line_and_the_game_goes_on(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out = play([f"save {fifo}", "save a\0b", f"save {tmp_path / 'ok.json'}", "quit"])
    assert code == 0
    assert "cannot save" in out and "a file name cannot hold a NUL byte" in out
    assert f"cannot save {fifo}: not a regular file" in out     # (it said "No such device or address")
    assert f"saved {tmp_path / 'ok.json'}" in out


OPEN_GRID = """game "Open grid" {
  players 2
  board grid: squares(3, 3)
  kind Stone { owner: player  label if owner == 0 then "X" else "O" }
  zone square: pile per cell of grid, public
  zone pot: pile, public
  setup { create Stone(owner: 0) in pot }
  turn { step place {
    action place(c in [c for c in cells(grid) where size(square[c]) == 0]) {
      create Stone(owner: me) in square[c]
      if size(pot) > 5 { finish draw }  end turn }
  } }
}
"""


def test_a_stone_placed_in_a_game_with_no_secrets_may_be_undone():
    """Every zone is public: a stone the move made was hidden from nobody, so undo is asked, not
    refused with 'P1 has seen a card that was hidden from them' (a browser trial's starter game)."""
    game = rulelang.Game(rulelang.compile_source(OPEN_GRID, "open.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("place b2\nundo\nlog\nquit\n"), out, "open.rules")
    text = out.getvalue()
    assert "cannot undo" not in text and "undone" in text, text
    assert "no actions yet" in text.split("P1> log")[1], text


def test_a_component_made_in_a_game_with_an_owner_variable_still_counts_as_seen():
    """Only where every zone and variable is public does a made component tell nothing: an `owner`
    variable is a secret its fields may copy, so undo past it stays refused."""
    source = OPEN_GRID.replace("  zone pot: pile, public\n", "  zone pot: pile, public\n  var secret: int = 0 per player, owner\n")
    assert source != OPEN_GRID
    game = rulelang.Game(rulelang.compile_source(source, "owned.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("place b2\nundo\nquit\n"), out, "owned.rules")
    assert "cannot undo: since that decision P1 has seen a card that was hidden from them" in out.getvalue()


POKE = """game "Poke" {
  players 2
  kind Card { colour: text  label colour }
  zone deck: pile, hidden
  zone pot: pile, public
  var ouches: int = 0, public
  setup { create Card(colour: "red") in deck  create Card(colour: "blue") in deck  shuffle deck }
  turn { step act {
    action poke require me == 0 { if top(deck).colour == "red" { ouches += 1  log "ouch" } else { log "nothing" }  end turn }
    action count { ouches += 1  end turn }
    action stop require me == 0 { finish draw }
  } }
}
"""


def test_no_undo_past_an_outcome_that_depended_on_a_hidden_card():
    """A leak trial: a wound that killed or not by a hidden character's health showed no card and
    rolled no die, so undo was allowed, and the player played the turn again knowing. Played again
    in the worlds the player might imagine, `poke` says `ouch` in some and `nothing` in others:
    undo is refused; `count`, the same in every world, may be undone."""
    game = rulelang.Game(rulelang.compile_source(POKE, "poke.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("poke\nundo\ncount\nundo\nquit\n"), out, "poke.rules")
    text = out.getvalue()
    poked = text.split("P1> undo\n")[1].split("P1>")[0]
    assert "cannot undo: since that decision what happened told P1 about what was hidden from them" in poked, text
    counted = text.split("P1> undo\n")[2].split("P1>")[0]
    assert "cannot undo" not in counted and "undone" in counted, text


RPS = """game "RPS" {
  players 2..2 ranked by pts[me]
  enum Sign { rock "R", paper "P", scissors "S" }
  var shown: Sign = rock per player
  var pts: int = 0 per player
  turn {
    step throw simultaneous {
      action throw(s in Sign) { shown[me] = s }
      reveal { pts[me] += 1  if turn_count >= 3 { finish by score }  end turn }
    }
  }
}
"""


def test_no_undo_past_a_reveal_of_secret_answers():
    """A new author's rock-paper-scissors: P1 answered, the bot's answer revealed both, and `undo`
    let P1 answer again knowing the bot's. The reveal now counts as hidden information shown
    (at the terminal and in the browser: play/repl.py `answers_revealed`)."""
    game = rulelang.Game(rulelang.compile_source(RPS, "rps.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "greedy"}, io.StringIO("throw rock\nundo\nquit\n"), out, "rps.rules")
    text = out.getvalue()
    assert "every answer is revealed" in text
    assert "cannot undo: since that decision the secret answers were revealed" in text.split("P1> undo\n")[1], text
