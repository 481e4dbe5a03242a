"""A run of many games has a budget (docs/language.md, "Limits": RUN_CPU_LIMIT).

Every effect is bounded by the work limit, but `rulelang simulate` and `rulelang lint --deep` play as
many effects as their games take: a lint-clean file whose every action does nearly a whole effect's
work, and whose games never end, used to keep them busy for hours (100 games of up to 100,000
actions, or 200 games of 2,000). Now the run stops when its CPU budget is spent, with one clear line
(simulate) or a warning (W406, deep lint), and keeps what the games finished so far showed.

The budgets used here are tiny (--max-cpu 1) so the tests are quick; every run is in a child
process capped at 1 GB and 60 s of CPU, so a budget that does not stop the run fails the test
instead of hanging it. No clock is asserted on.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang import cli, playtest
from rulelang.play.simulate import simulate
from rulelang.core.limits import RUN_CPU_LIMIT, WORK_LIMIT

ROOT = Path(__file__).resolve().parent.parent

# Every action builds 200 lists of 9,000 numbers (about 1.8 of the 2 million units of work one
# action may use) and the game can only end by an action whose requirement never holds.
COSTLY = """game "Costly" {
  players 2
  var k: int = 0
  setup { }
  turn {
    step play {
      action go {
        let big = [i for i in 1..9000]
        k = sum(size(big + [i]) for i in 1..200) - k
        end turn
      }
      action stop require k < 0 {
        finish draw
      }
    }
  }
}
"""


def _caps():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def rulelang_capped(*argv: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "rulelang", *argv], capture_output=True, text=True,
                          preexec_fn=_caps, cwd=ROOT)
    assert done.returncode in (0, 1), f"stopped by a cap or crashed: {done.returncode} {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done


@pytest.fixture()
def costly(tmp_path) -> str:
    path = tmp_path / "costly.rules"
    path.write_text(COSTLY, encoding="utf-8")
    assert rulelang.lint([str(path)])[0] == []          # lint-clean: not even a warning
    game = rulelang.load(str(path))
    match = game.new_match(2, 0)
    match.apply("go")
    assert WORK_LIMIT - match.work > WORK_LIMIT * 3 // 4      # each action: most of an effect's budget
    return str(path)


def test_simulate_of_costly_endless_games_stops_on_its_budget_with_one_line(costly):
    done = rulelang_capped("simulate", costly, "--max-cpu", "1")
    assert done.returncode == 1
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("rulelang simulate: stopped after 0 of 100 games: the run's budget of 1 s of CPU time "
                           "is spent"), line
    assert "--max-cpu" in line
    assert done.stdout.startswith("stopped after 0 of 100 games")
    assert "Costly: 0 games" in done.stdout and "errors: 0" in done.stdout


def test_simulate_json_says_it_stopped_and_counts_only_the_games_finished(costly):
    done = rulelang_capped("simulate", costly, "--max-cpu", "1", "--json", "--games", "7")
    result = json.loads(done.stdout)
    assert result["partial"] is True and result["planned"] == 7 and result["games"] == 0
    assert result["stopped"].startswith("stopped after 0 of 7 games")


def test_simulate_in_several_processes_shares_the_budget(costly):
    game = rulelang.load(costly)
    result = simulate(game, 2, 6, 0, workers=2, cpu_limit=1.0)
    assert result["partial"] and result["planned"] == 6 and result["games"] == 0
    assert result["errors"] == 0 and "budget of 1 s" in result["stopped"]


def test_simulate_without_a_budget_plays_every_game(costly, tmp_path):
    # the same file, no budget, two games cut short by the action cap: nothing is stopped
    game = rulelang.load(costly)
    result = simulate(game, 2, 2, 0, max_actions=2, cpu_limit=0)
    assert "stopped" not in result and result["games"] == 2 and result["errors"] == 2


def test_a_sweep_shares_one_budget(costly):
    # the budget is shared: the option values take turns game by game and stop together (a budget
    # spent on the first left the second unplayed: a designer's comparison said "Not run")
    ir = rulelang.compile_file(costly)
    ir["options"] = [{"name": "fast", "type": "bool", "default": False}]
    path = Path(costly).with_suffix(".json")
    path.write_text(json.dumps(ir), encoding="utf-8")
    done = rulelang_capped("simulate", str(path), "--max-cpu", "1", "--option", "fast=true,false")
    assert done.returncode == 1
    assert done.stdout.count("the run's budget of 1 s") == 2 and "its share" not in done.stdout
    assert done.stderr.count("stopped after") == 1 and "not run" not in done.stdout


def test_deep_lint_of_costly_endless_games_stops_with_a_warning(costly):
    done = rulelang_capped("lint", "--deep", "--max-cpu", "1", costly)
    assert done.returncode == 0, done.stdout              # a warning: the rules are not wrong, only costly
    assert "warning[W406]: the deep lint stopped after 1 of 200 games: its budget of 1 s of CPU time is spent" \
        in done.stdout, done.stdout
    assert done.stdout.strip().endswith("0 error(s), 1 warning(s)")


def test_deep_lint_without_a_budget_plays_every_game(costly):
    found = rulelang.deep_lint(costly, games=2, max_actions=3, cpu_limit=0)
    assert [(d.code, d.games) for d in found] == [("W405", 2)]
    assert "(in 2 of 2 games;" in found[0].message


def test_the_defaults_are_the_run_limit():
    parser = cli._parser()
    assert parser.parse_args(["simulate", "x.rules"]).max_cpu == RUN_CPU_LIMIT
    assert parser.parse_args(["lint", "--deep", "x.rules"]).max_cpu is None        # (deep_lint's default)
    import inspect
    assert inspect.signature(playtest.deep_lint).parameters["cpu_limit"].default == RUN_CPU_LIMIT
    assert inspect.signature(simulate).parameters["cpu_limit"].default == RUN_CPU_LIMIT
    assert RUN_CPU_LIMIT <= 50                  # with loading and one last effect: under a minute


@pytest.mark.parametrize("argv, message", [
    (["lint", "--max-cpu", "3", "x.rules"], "--max-cpu needs --deep"),
    (["simulate", "x.rules", "--max-cpu", "-1"], "must be 0 (no limit) or more seconds"),
    (["simulate", "x.rules", "--max-cpu", "nan"], "must be 0 (no limit) or more seconds"),
])
def test_a_bad_budget_is_a_usage_error(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_replay_line_of_a_game_that_never_ends_names_its_first_and_last_actions(tmp_path):
    path = tmp_path / "pass.rules"
    path.write_text('game "Pass" {\n  players 2\n  var k: int = 0\n  turn { step s {\n'
                    '    action pass { end turn }\n    action stop require k > 0 { finish draw } } }\n}\n')
    found = [d for d in rulelang.deep_lint(str(path), games=1, max_actions=500, cpu_limit=0) if d.code == "W405"]
    assert len(found) == 1 and len(found[0].log) == 500
    line = found[0].replay()
    assert line.split("then play: ")[1].count("pass") == playtest.REPLAY_SHOWN and "… 488 more … ·" in line
    assert line.endswith("(500 actions; all of them: `rulelang lint --deep --format json`)")
    assert len(found[0].format()) < 600


def test_lint_deep_takes_a_cap_of_actions_for_long_games(tmp_path, capsys):
    """A new author's Rummy: random games of ~3,500 actions, ended by the rules' own turn limit, read
    W405 at the deep lint's 2,000 with no way to raise the cap."""
    path = tmp_path / "long.rules"
    path.write_text('game "Long" {\n  players 2\n  var k: int = 0\n  turn limit 2500 { finish draw "limit" }\n'
                    '  turn { step s { action pass { k += 1  end turn } } }\n}\n')
    assert cli.main(["lint", "--deep", "--games", "1", str(path)]) == 0
    out = capsys.readouterr().out
    assert "W405" in out and "(`lint --deep --max-actions N` plays longer games)" in out
    assert cli.main(["lint", "--deep", "--games", "1", "--max-actions", "3000", str(path)]) == 0
    assert "W405" not in capsys.readouterr().out
    assert cli.main(["lint", "--max-actions", "3000", str(path)]) == 2
    assert "--max-actions needs --deep" in capsys.readouterr().err
