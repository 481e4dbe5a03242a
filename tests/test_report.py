"""Simulations a designer can act on: every seat's outcomes, sides, workers that change nothing
but the time, option sweeps, and the balance report (Markdown, raw JSON, plots)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.play.report import difference, kept_numbers, mean_interval, paired_difference, summary, wilson, write_report
from rulelang.play.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
VALGARD = str(ROOT / "games" / "valgard.rules")
SHADOW = str(ROOT / "games" / "shadow_hunters.rules")


def timeless(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("seconds", "actions_per_s", "playouts_per_s")}


@pytest.mark.slow
def test_the_results_are_the_same_for_any_number_of_workers():
    game = rulelang.load(VALGARD)
    one = simulate(game, 2, 12, 5, "random")
    two = simulate(game, 2, 12, 5, "random", workers=2)
    three = simulate(game, 2, 12, 5, "random", workers=3)
    assert timeless(one) == timeless(two) == timeless(three)
    assert one["finished"] == 12


@pytest.mark.slow
def test_no_more_workers_start_than_there_are_games(monkeypatch):
    """A fuzz trial: `--workers 64 --games 3` started 64 processes, each with 1/64 of the budget."""
    import multiprocessing
    real, started = multiprocessing.get_context, []

    class Counted:
        def __init__(self, kind):
            self.context = real(kind)

        def Pool(self, processes, **kw):
            started.append(processes)
            return self.context.Pool(processes, **kw)
    monkeypatch.setattr(multiprocessing, "get_context", Counted)
    game = rulelang.load(VALGARD)
    result = simulate(game, 2, 2, 0, "random", workers=16)
    assert started == [2] and result["finished"] == 2


@pytest.mark.slow
def test_several_workers_build_the_game_from_its_ir():
    game = rulelang.Game(rulelang.compile_file(VALGARD))          # no file path: the IR travels
    assert timeless(simulate(game, 2, 4, 0, "random", workers=2)) == timeless(simulate(game, 2, 4, 0, "random"))


def test_every_seat_has_its_outcomes_and_sides_have_win_rates():
    game = rulelang.load(SHADOW)
    result = simulate(game, 5, 10, 1, "random")
    seats = result["outcomes_by_seat"]
    assert len(seats) == 5 and all(sum(c.values()) == result["finished"] == 10 for c in seats)
    assert result["outcomes"] == seats[0]
    # each game's five characters are 2 Shadows, 2 Hunters, 1 Neutral: a side is one outcome a game
    # (its two players win or lose together: counted twice, its interval was too narrow by √2)
    by_side = result["outcomes_by_side"]
    assert {k: sum(v.values()) for k, v in by_side.items()} == {"Hunter": 10, "Neutral": 10, "Shadow": 10}
    for side in by_side:
        won = sum(1 for r in result["records"]
                  if any(s == side and x == "win" for s, x in zip(r["sides"], r["results"])))
        assert by_side[side]["win"] == won

    # the report says of how many games each side's rate is (a designer's trial: a character dealt in
    # 65 of 99 games read as if in all of them)
    md_lines = "\n".join(_md_side_lines(result))
    for side, counts in by_side.items():
        assert f"| side {side} | " in md_lines and f"] of {sum(counts.values())} |" in md_lines


def _md_side_lines(result) -> list:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        write_report([result], folder)
        with open(f"{folder}/report.md", encoding="utf-8") as f:
            return [line for line in f.read().splitlines() if line.startswith("| side ")]


def test_the_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson(0, 100)
    assert lo == 0.0 and hi == pytest.approx(0.037, abs=1e-3)


def test_a_report_has_the_tables_and_the_raw_json(tmp_path):
    game = rulelang.load(VALGARD)
    results = [simulate(game, 2, 8, 0, "random", options={"hardcore": v}) for v in (False, True)]
    files = write_report(results, str(tmp_path / "rep"))
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert files[0].endswith("report.md")
    assert "| | hardcore=false | hardcore=true |" in md
    for heading in ("## Win rates", "## Game length", "## Legal actions per decision", "## Actions taken"):
        assert heading in md
    s = summary(results[0])
    assert f"| P1 wins | {s['seats'][0]['wins'] / 8:.1%}" in md
    raw = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    assert [x["variant"] for x in raw["summaries"]] == ["hardcore=false", "hardcore=true"]
    assert sum(raw["summaries"][0]["actions_taken"].values()) == results[0]["actions"]
    assert len(raw["simulations"][1]["records"]) == 8
    if importlib.util.find_spec("matplotlib") is None:
        assert "pip install 'rulelang[plots]'" in md
    else:
        assert (tmp_path / "rep" / "win_rates.png").stat().st_size > 1000 and "![win_rates.png]" in md


def test_simulate_sweeps_an_option_and_prints_json_per_variant(capsys, tmp_path):
    code = main(["simulate", VALGARD, "--games", "4", "--bot", "random", "--option", "hardcore=false,true",
                 "--json", "--report", str(tmp_path / "r")])
    assert code == 0
    out, err = capsys.readouterr()
    listed = json.loads(out)                     # (the JSON alone: the files written are said on stderr)
    assert [x["options"] for x in listed] == [{"hardcore": False}, {"hardcore": True}]
    assert all("records" not in x and len(x["outcomes_by_seat"]) == 2 for x in listed)
    assert "wrote " in err and (tmp_path / "r" / "report.md").exists()


def test_a_repeated_option_sweeps_text_values_and_commas_stay_in_text(capsys):
    main(["simulate", SHADOW, "--players", "4", "--games", "2", "--bot", "random",
          "--option", "characters=base", "--option", "characters=expansion", "--json"])
    listed = json.loads(capsys.readouterr().out)
    assert [x["options"] for x in listed] == [{"characters": "base"}, {"characters": "expansion"}]


def test_commas_sweep_an_option_of_listed_values_and_stay_in_free_text(capsys):
    """`characters=base,expansion` (values the option lists) sweeps both; it said the option must
    be one of base, expansion, all, not 'base,expansion'. Free text keeps its commas (Smash Up's
    `factions=pirates+ninjas,robots+zombies`)."""
    main(["simulate", SHADOW, "--players", "4", "--games", "2", "--bot", "random",
          "--option", "characters=base,expansion", "--json"])
    listed = json.loads(capsys.readouterr().out)
    assert [x["options"] for x in listed] == [{"characters": "base"}, {"characters": "expansion"}]
    smash = str(Path(SHADOW).with_name("smash_up.rules"))
    main(["simulate", smash, "--players", "2", "--games", "1", "--bot", "random",
          "--option", "factions=pirates+ninjas,robots+zombies", "--json"])
    listed = json.loads(capsys.readouterr().out)
    assert listed["options"] == {"factions": "pirates+ninjas,robots+zombies"}


def test_bad_worker_counts_are_one_line_errors(capsys):
    assert main(["simulate", VALGARD, "--games", "2", "--workers", "0"]) == 1
    assert "--workers" in capsys.readouterr().err


@pytest.mark.slow
def test_ray_on_a_local_instance_gives_the_same_results_as_one_process():
    ray = pytest.importorskip("ray")
    game = rulelang.load(VALGARD)
    try:
        on_ray = simulate(game, 2, 8, 3, "random", ray=True, workers=2)
    finally:
        ray.shutdown()
    assert timeless(on_ray) == timeless(simulate(game, 2, 8, 3, "random"))


LEADS = """game "Leads" {
  players 2 ranked by pts[me]
  var pts: int = 0 per player
  turn { step go { action go {
    pts[me] += if turn_count == 4 then 2 else 1
    if turn_count == 4 { finish by score }
    end turn
  } } }
}
"""


def test_a_lead_change_is_one_player_alone_ahead_overtaken_by_another():
    """A designer's trial counted 2.55 lead changes a game where 0.875 happened: the first lead
    out of 0-0 and every tie were counted. Here P1 leads, a tie, P1 leads, then P2: one change."""
    game = rulelang.Game(rulelang.compile_source(LEADS, "leads.rules"))
    result = simulate(game, 2, 3, seed=1, cpu_limit=None)
    assert [r["lead_changes"] for r in result["records"]] == [1, 1, 1]
    assert summary(result)["lead_changes"] == 1
    assert result["estimate_by_seat"] is None             # (no `estimate` declared: none reported)


def test_the_rules_estimate_at_the_end_is_reported_per_seat_with_its_interval():
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    result = simulate(game, 1, 30, seed=1, cpu_limit=None)
    ends = [r["estimate"][0] for r in result["records"]]
    mean, half = result["estimate_by_seat"][0]
    assert all(0 <= e <= 100 for e in ends) and mean == round(sum(ends) / len(ends), 3) and 0 < half < 10
    assert summary(result)["estimate"] == result["estimate_by_seat"]


def test_a_sweep_cut_short_by_its_budget_names_what_it_did_not_play(tmp_path, capsys):
    """A designer's trial: the budget ran out in the first variant, the second was never played,
    and the report said nothing of it (nor of the games it had asked for). Now the variants take
    turns game by game, so the budget stops them at the same games, and the report says each was
    cut short."""
    rules = str(Path(__file__).resolve().parent.parent / "docs" / "tutorial" / "grid_5.rules")
    code = main(["simulate", rules, "--games", "50", "--seed", "1", "--bot", "random", "--option", "misere=false",
                 "--option", "misere=true", "--max-cpu", "0.001", "--report", str(tmp_path / "rep")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "not run" not in out
    assert out.count("the run's budget of 0.001 s of CPU time is spent") == 2
    report = (tmp_path / "rep" / "report.md").read_text()
    # (one budget for the run: said once in the report, not once per variant run together)
    assert "of the 50 games asked per variant" in report and report.count("the run's budget of 0.001 s") == 1


COIN = """
game "Coin" {
  players 2
  turn { step s {
    action toss { if roll(10) <= CHANCE { finish win for 0 } else { finish win for 1 } }
  } }
}
"""


def compared_coins(tmp_path, capsys, rules: str, *more: str) -> tuple:
    """A fair coin game and a biased copy, simulated side by side (`--compare`, `--json`, a report
    in tmp_path/r): (the two paths, the JSON list of variants)."""
    fair, biased = tmp_path / "coin.rules", tmp_path / "coin_biased.rules"
    fair.write_text(rules.replace("CHANCE", "5"), encoding="utf-8")
    biased.write_text(rules.replace("CHANCE", "9"), encoding="utf-8")
    code = main(["simulate", str(fair), "--compare", str(biased), *more, "--json", "--report", str(tmp_path / "r")])
    assert code == 0
    out = capsys.readouterr().out
    return fair, biased, json.loads(out)


def test_a_changed_copy_of_a_rule_file_is_compared_with_the_same_seeds(tmp_path, capsys):
    """`--compare`: the designer's "change a rule, see if it mattered". Each file is a column, and
    each seat's win rate against the first file's with its interval, said real when it holds no 0."""
    fair, _, listed = compared_coins(tmp_path, capsys, COIN, "--games", "200", "--bot", "random")
    assert [x["rules"] for x in listed] == ["coin.rules", "coin_biased.rules"]
    assert [x["seed"] for x in listed] == [0, 0]
    wins = [x["outcomes_by_seat"][0]["win"] for x in listed]
    assert 70 <= wins[0] <= 130 and wins[1] >= 165
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "| | coin.rules | coin_biased.rules |" in md
    assert "| | coin_biased.rules against coin.rules |" in md
    # each game paired with the same seed's game of the first file (the same roll: 5 of 10 faces agree)
    raw = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))["simulations"]
    firsts = {r["game"]: r["results"][0] == "win" for r in raw[0]["records"]}
    pairs = [(r["results"][0] == "win", firsts[r["game"]]) for r in raw[1]["records"]]
    d, lo, hi = paired_difference(pairs)
    assert f"| P1 wins | {100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] (a real difference) |" in md
    assert "| games paired | 200 |" in md
    assert hi - lo < difference(wins[1], 200, wins[0], 200)[2] - difference(wins[1], 200, wins[0], 200)[1]
    same = main(["simulate", str(fair), "--compare", str(fair), "--games", "20", "--bot", "random",
                 "--report", str(tmp_path / "s")])
    assert same == 0
    md = (tmp_path / "s" / "report.md").read_text(encoding="utf-8")
    assert "| P1 wins | +0.0 [" in md and "(a real difference)" not in md    # the same seeds: the same games


def test_the_comparison_is_on_the_terminal_and_in_the_json_not_only_in_the_report(tmp_path, capsys):
    """A designer's trial: the paired comparison of `--compare` was in report.md only; the terminal
    and `--json` (what a script reads) had each file's own rates and no difference."""
    fair, biased, listed = compared_coins(tmp_path, capsys, COIN, "--games", "200", "--bot", "random")
    assert "change" not in listed[0]
    change = listed[1]["change"]
    assert change["against"] == "coin.rules" and change["variant"] == "coin_biased.rules"
    assert change["games_paired"] == 200 and (change["variant_index"], change["against_index"]) == (1, 0)
    p1 = change["rows"][0]
    raw = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    firsts = {r["game"]: r["results"][0] == "win" for r in raw["simulations"][0]["records"]}
    pairs = [(r["results"][0] == "win", firsts[r["game"]]) for r in raw["simulations"][1]["records"]]
    assert p1["row"] == "P1 wins" and p1["real"] and [p1["difference"], *p1["interval"]] == list(paired_difference(pairs))
    assert [r["row"] for r in change["rows"]] == ["P1 wins", "P2 wins", "draws", "game length (actions)"]
    lengths = {r["game"]: r["actions"] for r in raw["simulations"][0]["records"]}    # (paired by seed too)
    diffs = [r["actions"] - lengths[r["game"]] for r in raw["simulations"][1]["records"]]
    assert change["rows"][-1]["mean"] == pytest.approx(sum(diffs) / len(diffs))
    assert raw["changes"] == [change]
    code = main(["simulate", str(fair), "--compare", str(biased), "--games", "200", "--bot", "random"])
    out = capsys.readouterr().out
    assert code == 0
    d, lo, hi = paired_difference(pairs)
    assert "coin_biased.rules against coin.rules, 200 games paired:" in out
    assert f"P1 wins {100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] (a real difference)" in out
    alone = main(["simulate", str(fair), "--games", "5", "--bot", "random"])   # nothing compared: no block
    assert alone == 0 and "changes (" not in capsys.readouterr().out


def test_a_compared_run_stopped_midway_has_a_comparison(tmp_path, capsys, monkeypatch):
    """A designer's trial: `--compare` played the files one after the other, so a run stopped in
    the first (Ctrl-C, a `timeout`) had nothing of the changed file. They now take turns game by
    game: stopped in the fifth round, each file has four games, and the report compares them."""
    from rulelang.play import simulate as sim
    play, calls = sim.play_game, []

    def stop_in_round_five(*args):
        calls.append(args[1])
        if len(calls) == 9:
            raise KeyboardInterrupt
        return play(*args)
    monkeypatch.setattr(sim, "play_game", stop_in_round_five)
    fair, biased = tmp_path / "coin.rules", tmp_path / "coin_biased.rules"
    fair.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    biased.write_text(COIN.replace("CHANCE", "9"), encoding="utf-8")
    code = main(["simulate", str(fair), "--compare", str(biased), "--games", "100", "--bot", "random",
                 "--report", str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert code == 130 and calls == [0, 0, 1, 1, 2, 2, 3, 3, 4]
    assert out.count("interrupted: partial results, 4 of 100 games") == 2 and "not run" not in out
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "| | coin_biased.rules against coin.rules |" in md and "| games paired | 4 |" in md


@pytest.mark.slow
def test_compared_files_take_turns_in_several_processes_too_and_a_stop_keeps_their_games(tmp_path, capsys, monkeypatch):
    """A designer's trial: with `--workers`, the compared files were played one after the other, each
    with an equal share of the budget, so a run cut short had 958 games of one and 2,791 of the
    other, and Ctrl-C kept nothing. The workers now play game i of each file, then game i + 1, the
    results as in one process; stopped after 7 games, the first file has 4 and the changed one 3."""
    from rulelang import cli
    fair, biased = tmp_path / "coin.rules", tmp_path / "coin_biased.rules"
    fair.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    biased.write_text(COIN.replace("CHANCE", "9"), encoding="utf-8")
    run = ["simulate", str(fair), "--compare", str(biased), "--games", "30", "--bot", "random", "--json"]
    assert main(run) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(run + ["--workers", "2"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    assert [timeless(x) for x in pooled] == [timeless(x) for x in here]

    class StopAtSeven:
        def __call__(self, done, total, what=""):
            if done == 7:
                raise KeyboardInterrupt

        def close(self):
            pass
    monkeypatch.setattr(cli._Progress, "for_terminal", classmethod(lambda cls, unit, log=False: StopAtSeven()))
    code = main(["simulate", str(fair), "--compare", str(biased), "--games", "30", "--bot", "random",
                 "--workers", "2"])
    out = capsys.readouterr().out
    assert code == 130
    assert "interrupted: partial results, 4 of 30 games" in out and "interrupted: partial results, 3 of 30 games" in out
    assert "coin_biased.rules against coin.rules, 3 games paired:" in out


def test_a_run_whose_output_is_not_a_terminal_says_how_far_it_is(tmp_path, capsys, monkeypatch):
    """A night's run under `nohup` or `timeout`, its output in a file, printed nothing until its
    end (a designer's trial); it now writes a line a minute (here: every game) to stderr."""
    from rulelang import cli
    monkeypatch.setattr(cli._Progress, "LOG_EVERY", 0.0)
    rules = tmp_path / "coin.rules"
    rules.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    assert main(["simulate", str(rules), "--compare", str(rules), "--games", "3", "--bot", "random"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [f"rulelang: {n} of 6 games" for n in range(1, 6)]
    assert "\033" not in "".join(lines)


TIE_BEHIND = """
game "Tie Behind" {
  players 3 ranked by pts[me]
  var pts: int = 0 per player
  turn { step s { action go {
    pts[1] = 1
    pts[2] = 1
    if roll(2) == 1 { pts[0] = 2 }
    finish by score "scored"
  } } }
}
"""


def test_the_draw_rate_counts_games_where_any_player_drew(tmp_path, capsys):
    """A new author's Hearts: P2 and P3 tied for first while P1 lost, and the draw rate read P1's
    results only: 0 %. A game with a draw is one where some player drew."""
    rules = tmp_path / "tie.rules"
    rules.write_text(TIE_BEHIND, encoding="utf-8")
    code = main(["simulate", str(rules), "--compare", str(rules), "--games", "40", "--bot", "random", "--json",
                 "--report", str(tmp_path / "r")])
    out = capsys.readouterr().out
    first = json.loads(out)[0]
    records = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))["simulations"][0]["records"]
    tied = sum(r["results"] == ["lose", "draw", "draw"] for r in records)
    assert code == 0 and 5 < tied < 35 and first["outcomes"]["draw"] == 0
    assert first["draws"] == tied and first["draw_rate"] == tied / 40
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert f"| draws | {100 * tied / 40:.1f}%" in md
    main(["simulate", str(rules), "--games", "40", "--bot", "random"])
    assert f"draw rate (games in which some player drew): {tied / 40:.1%}\n" in capsys.readouterr().out


def test_a_paired_difference_is_newcombes_for_paired_data():
    """Method 10 of Newcombe's paired paper: with no correlation between the pairs (a·d = b·c) it
    is the independent interval; the more games go the same way in both, the narrower it is."""
    pairs = [(True, True)] * 10 + [(True, False)] * 10 + [(False, True)] * 10 + [(False, False)] * 10
    assert paired_difference(pairs) == pytest.approx(difference(20, 40, 20, 40))
    alike = [(True, True)] * 30 + [(True, False)] * 6 + [(False, True)] * 2 + [(False, False)] * 42
    d, lo, hi = paired_difference(alike)
    apart = difference(36, 80, 32, 80)
    assert d == pytest.approx(0.05) and lo < d < hi and hi - lo < (apart[2] - apart[1]) / 2
    d, lo, hi = paired_difference([(True, True)] * 5)          # (a margin of 0: no correlation known)
    assert d == 0 and lo < 0 < hi


def test_the_difference_of_two_rates_has_newcombes_interval():
    d, lo, hi = difference(56, 70, 48, 80)          # Newcombe (1998), example (a): 0.0524 to 0.3339
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)


def test_games_that_never_end_are_not_said_to_have_no_length():
    """A simulation whose games all hit the action cap printed "game length: mean 0.0, max 0
    actions" beside 300,000 actions played (a new author's game that never ended)."""
    from rulelang.play.simulate import format_report
    endless = ('game "Loop" {\n  players 2\n  var n: int = 0\n  turn { step s { action tick { n += 1  if n < 0 { finish draw }  end turn } } }\n}\n')
    game = rulelang.Game(rulelang.compile_source(endless, "loop.rules"))
    text = format_report(simulate(game, 2, 3, 0, "random", max_actions=40))
    assert "game length: no game ended" in text and "no end after 40 actions" in text
    chips = rulelang.load(VALGARD)
    result = simulate(chips, 2, 4, 0, "random")
    result["finished"] -= 1                       # (as if one had not ended: said of those that did)
    assert "(of the 3 games that ended)" in format_report(result)


ENDINGS = """
game "Endings" {
  players 2
  var n: int = 0
  turn { step s {
    action go { n += 1  if n >= 3 { finish win for me "P" + text(me + 1) + " counted to " + text(n) }  end turn }
    action stop { finish draw "a stop after " + text(n) + " turns" }
    action quit { finish lose for me }
  } }
}
"""


def test_a_simulation_says_how_its_games_ended(tmp_path, capsys):
    """A designer could not tell that 38 of 40 games ended at the turn limit (a new author's trial):
    the reasons are counted, their numbers and seats made one (#), most common first."""
    game = rulelang.Game(rulelang.compile_source(ENDINGS))
    result = simulate(game, 2, 60, 1, "random")
    endings = dict(map(tuple, result["endings"]))
    ours = {r.get("reason") for r in result["records"]}
    counting = sorted({r["reason"] for r in result["records"] if (r.get("reason") or "").startswith("P")})
    # (numbers that never differ are kept: "P1 counted to 3" where only that was reached)
    key = counting[0] if len(counting) == 1 else "P# counted to #"
    assert set(endings) <= {key, "a stop after # turns", "(no reason given)"} and len(endings) == 3
    assert sum(endings.values()) == result["finished"] == 60 and None in ours
    assert [k for _, k in result["endings"]] == sorted(endings.values(), reverse=True)
    counted = sum(1 for r in result["records"] if (r.get("reason") or "").startswith("P"))
    assert endings[key] == counted
    from rulelang.play.simulate import format_report
    line = next(x for x in format_report(result).splitlines() if x.startswith("how games ended"))
    assert f"{counted / 60:.1%} {key}" in line
    write_report([result], str(tmp_path / "rep"))
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "## How games ended (share of finished games; #: a number)" in md
    assert f"| {key} | {counted / 60:.1%} |" in md


def test_a_slow_run_says_its_games_a_minute_or_an_hour_not_zero_a_second():
    """A designer's trial: a search bot's run printed "0.0 playouts/s"."""
    from rulelang.play.simulate import _games_rate
    assert _games_rate(2.5) == "2.5 games/s"
    assert _games_rate(0.05) == "3.0 games/min"
    assert _games_rate(0.001) == "3.6 games/h"


def test_a_report_where_a_seat_wins_every_game_has_its_plots(tmp_path):
    """A fuzz finding: with 6 games and a seat winning all, the Wilson bound lay a rounding error
    under 1 and matplotlib refused the negative error bar: no report.md, exit 1."""
    pytest.importorskip("matplotlib")
    sure = tmp_path / "sure.rules"
    sure.write_text(COIN.replace("CHANCE", "10"), encoding="utf-8")
    code = main(["simulate", str(sure), "--games", "6", "--bot", "random", "--report", str(tmp_path / "r")])
    assert code == 0
    assert (tmp_path / "r" / "report.md").exists() and (tmp_path / "r" / "win_rates.png").exists()


def test_an_ending_is_one_way_to_end_whoever_died_and_won():
    """A designer's trial: Shadow Hunters' two endings were 36 "reasons", split by the characters
    named in brackets and after the first sentence."""
    from rulelang.play.simulate import way_to_end
    assert way_to_end("Shadows win: every Hunter is dead (P3 George, P1 Emi). The winners: P2 Unknown") == \
        "Shadows win: every Hunter is dead"
    assert way_to_end("cannot pay 12 damage: P1's hand is worth 5") == "cannot pay # damage: P#'s hand is worth #"
    assert way_to_end(None) == "(no reason given)"
    assert way_to_end("P2 cannot move at the start of their turn: no piece of theirs is left on the board, and they "
                      "cannot deploy (every octagon of their home row is dead or taken)") == \
        "P# cannot move at the start of their turn: no piece of theirs is left on the board, and they cannot deploy"
    game = rulelang.load(SHADOW)
    result = simulate(game, 4, 30, 1, "random")
    ways = [why for why, _ in result["endings"]]
    assert not [why for why in ways if "(" in why or "The winners" in why], ways
    assert len(ways) <= 6 and "Shadows win: every Hunter is dead" in ways


def test_player_counts_are_swept_and_compared_only_with_the_same_count(tmp_path, capsys):
    """`--players 2,3`: a variant per count (named by it), every seat row up to the largest count
    (– where a variant has no such seat), and a changed file measured against the first file's
    games of the same count, never against another count's."""
    _, _, listed = compared_coins(tmp_path, capsys, COIN.replace("players 2", "players 2..3"),
                                  "--players", "2,3", "--games", "60")
    assert [(x["rules"], x["players"]) for x in listed] == [("coin.rules", 2), ("coin.rules", 3),
                                                           ("coin_biased.rules", 2), ("coin_biased.rules", 3)]
    assert [len(x["outcomes_by_seat"]) for x in listed] == [2, 3, 2, 3]
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert ("| | coin.rules, 2 players | coin.rules, 3 players | coin_biased.rules, 2 players | "
            "coin_biased.rules, 3 players |") in md
    p3 = next(line for line in md.splitlines() if line.startswith("| P3 wins |"))
    assert p3.split(" | ")[1] == "–" and p3.split(" | ")[3] == "–"
    assert ("| | coin_biased.rules, 2 players against coin.rules, 2 players | "
            "coin_biased.rules, 3 players against coin.rules, 3 players |") in md
    assert "| games paired | 60 | 60 |" in md


def test_a_player_count_the_game_cannot_have_is_refused_before_any_game(tmp_path, capsys):
    path = tmp_path / "coin.rules"
    path.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    assert main(["simulate", str(path), "--players", "2,5", "--games", "5"]) != 0
    captured = capsys.readouterr()
    assert "is for 2 players, not 5" in captured.err and "win rate" not in captured.out


def test_a_run_with_no_game_played_to_its_end_says_so_instead_of_a_speed():
    """A new author's Hearts with `ismcts` and no `estimate`: the budget ran out in the first game
    and the speed line read "0 actions in 93.48 s … 93481.52 ms per action"."""
    from rulelang.play.simulate import format_report, summarize
    result = summarize("Hearts", 4, 0, 0, ["ismcts"] * 4, {}, [], 93.48)
    text = format_report(result)
    assert "speed: no game was played to its end in 93.48 s of wall-clock time" in text
    assert "ms per action" not in text


COIN_ESTIMATE = """
game "Coin" {
  players 2
  estimate if me == 0 then CHANCE * 10 else 50
  turn { step s {
    action toss { if roll(10) <= CHANCE { finish win for 0 } else { finish win for 1 } }
  } }
}
"""


def test_an_estimate_that_changed_beyond_chance_is_said_to_be_a_real_difference(tmp_path, capsys):
    """A designer's trial: the estimate rows never said "(a real difference)" (Regicide +5.8 ±4.5), where
    the win-rate rows do; and a lone difference among many rows is said to be a lead, not a finding."""
    compared_coins(tmp_path, capsys, COIN_ESTIMATE, "--games", "40", "--bot", "random")
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "| P1 estimate at the end | +40.0 ±0.0 (a real difference) |" in md
    assert "| P2 estimate at the end | +0.0 ±0.0 |" in md
    assert "a lone one among many is a lead to test with more games" in md


def test_no_game_ended_gives_no_rates(tmp_path, capsys):
    """A new author: every game ended in a rule error, and the report read `win 0.0%` for every
    seat (as if each lost every game)."""
    rules = tmp_path / "broken.rules"
    rules.write_text('game "Broken" {\n  players 2\n  kind Card { v: int }\n  zone pile: pile, public\n'
                     '  turn { step s { action a { log text(top(pile).v)  finish draw } } }\n}\n', encoding="utf-8")
    code = main(["simulate", str(rules), "--games", "3", "--bot", "random", "--json"])
    out = capsys.readouterr().out
    result = json.loads(out[out.index("{"):])
    assert code == 1 and result["finished"] == 0
    assert result["win_rate_by_seat"] == [None, None] and result["draw_rate"] is None
    assert result["win_interval_by_seat"] == [None, None]
    main(["simulate", str(rules), "--games", "3", "--bot", "random"])
    text = capsys.readouterr().out
    assert "results: none, no game ended (errors below)" in text and "0.0%" not in text
    # (stopped by its budget with no error: "(errors below)" above "errors: 0" misled a new author)
    endless = tmp_path / "endless.rules"
    endless.write_text('game "Endless" {\n  players 2\n  var n: int = 0\n  turn { step s { action a { end turn }  '
                       'action b { end turn }  action stop require n > 5 { finish draw } } }\n}\n', encoding="utf-8")
    main(["simulate", str(endless), "--games", "2", "--bot", "random", "--max-cpu", "0.2"])
    text = capsys.readouterr().out
    assert "results: none, no game ended (the run was stopped before a game's end)" in text and "errors: 0" in text


def test_an_estimates_interval_over_few_games_is_students_t():
    """A designer's trial: 3 paired games gave `+7.0 ±7.4` with the normal 1.96; Student's t (2
    degrees of freedom: 4.303) gives ±16.3. Past 30 degrees of freedom it is still Student's (2.023
    at 39), not the normal 1.96 (a later designer's trial: 2 to 4 % too narrow at 40 to 60 games)."""
    from rulelang.play.report import mean_interval
    mean, half = mean_interval([0.0, 7.0, 14.0])
    assert mean == 7.0 and abs(half - 4.303 * 7.0 / 3 ** 0.5) < 0.001
    many = [float(i % 5) for i in range(40)]
    sd = (sum((x - 2.0) ** 2 for x in many) / 39) ** 0.5
    assert abs(mean_interval(many)[1] - 2.0227 * sd / 40 ** 0.5) < 0.001
    # (kept to 3 decimals, so the report's 1 is rounded once: 7.055 was kept 7.05 and printed ±7.0)
    assert f"{mean_interval([0.0, 7.0, 14.0])[1]:.1f}" == f"{4.303 * 7.0 / 3 ** 0.5:.1f}"


def test_an_option_a_compared_file_lacks_is_said_with_the_files_name(tmp_path, capsys):
    """A designer's trial: `--option hand_bonus=0,1` with a compared copy that lacks the option said
    "unknown option `hand_bonus` for Regicide" — not which of the two files."""
    fair, plain = tmp_path / "coin.rules", tmp_path / "plain.rules"
    fair.write_text(COIN.replace("CHANCE", "5").replace('players 2', 'players 2\n  option bias: int = 0'),
                    encoding="utf-8")
    plain.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    code = main(["simulate", str(fair), "--compare", str(plain), "--option", "bias=0,1", "--games", "2"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error: plain.rules: unknown option `bias`") and err.count("\n") == 1


def test_a_bound_near_zero_is_not_rounded_to_zero():
    """A designer's trial: 0 wins in 19,644 games read `0.0% [0.0%, 0.0%]`, as if certain; the
    Wilson interval's upper bound is 0.02 %."""
    from rulelang.play.report import rate_text
    from rulelang.play.simulate import _interval
    assert rate_text(0, 19644) == _interval(0, 19644) == "0.0% [0.0%, 0.02%]"
    assert rate_text(163, 400) == "40.8% [36.0%, 45.6%]"


def test_a_bound_of_one_but_for_rounding_reads_with_one_decimal():
    """A new author's trial: 6 wins in 6 read `100.0% [61.0%, 100.00%]` (the upper bound is
    0.9999999999999999), every other figure with one decimal."""
    from rulelang.play.report import rate_text
    assert rate_text(6, 6) == "100.0% [61.0%, 100.0%]"
    assert rate_text(0, 6) == "0.0% [0.0%, 39.0%]"


def test_a_difference_over_a_handful_of_games_is_not_called_real():
    """A designer's trial: a side dealt in 2 of 60 paired games read `-100.0 [-100.0, -7.0] (a real
    difference)` (an exact sign test gives 0.5), and a bound of 0.00005 points read `+0.00`. A row
    measured on fewer games than were paired says on how many."""
    from rulelang.play.report import change_text, paired_real, paired_text
    assert paired_text([(False, True)] * 2) == "-100.0 [-100.0, -7.0]"
    assert not paired_real([(True, False)] * 5, 0.4, 1.0)        # (5 of 5: 1 in 16 by chance)
    assert paired_real([(True, False)] * 6, 0.4, 1.0)            # (6 of 6: 1 in 32)
    # past 1,000 differing games, the normal approximation: 548 against 485 is p = 0.054 (not real)
    assert not paired_real([(True, False)] * 548 + [(False, True)] * 485, 0.000005, 0.12)
    assert paired_real([(True, False)] * 560 + [(False, True)] * 480, 0.01, 0.12)     # (p = 0.015)
    assert paired_text([(True, False)] * 30 + [(False, False)] * 70) == "+30.0 [+21.1, +39.6] (a real difference)"
    row = {"row": "side X", "difference": 0.5, "interval": [4.7e-7, 0.812], "real": False, "games": 6}
    assert change_text(row, 60) == "+50.0 [+5e-05, +81.2] (of 6 games)"
    assert change_text(dict(row, games=60), 60) == "+50.0 [+5e-05, +81.2]"


def test_a_change_of_nothing_over_many_games_is_not_written_minus_zero():
    """A designer's trial: `+0.0 [-0.0, +0.0]` over 19,644 games where nothing changed."""
    from rulelang.play.report import paired_text
    assert paired_text([(True, True)] * 5000 + [(False, False)] * 5000) == "+0.0 [-0.02, +0.02]"
    assert paired_text([(True, False)] * 30 + [(False, False)] * 70) == "+30.0 [+21.1, +39.6] (a real difference)"


SCORED = """
game "Dice race" {
  players 1..2 ranked by points[me]
  var points: int = 0 per player
  turn { step s {
    action throw { points[me] = points[me] + roll(6) + BONUS  if turn_count >= 5 { finish by score } else { end turn } }
  } }
}
"""


def test_a_scored_game_reports_each_seats_score_at_the_end_and_its_change(tmp_path, capsys):
    """A new author's Yahtzee: a solo scored game read `win 100%` and nothing of the scores (nor did
    `--json`). The score at the end, per seat, with its interval, and paired by seed in a comparison."""
    base, more = tmp_path / "race.rules", tmp_path / "race_bonus.rules"
    base.write_text(SCORED.replace("BONUS", "0"), encoding="utf-8")
    more.write_text(SCORED.replace("BONUS", "2"), encoding="utf-8")
    code = main(["simulate", str(base), "--compare", str(more), "--players", "1", "--games", "40",
                 "--json", "--report", str(tmp_path / "r")])
    assert code == 0
    out = capsys.readouterr().out
    listed = json.loads(out)
    raw = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))["simulations"]
    scores = [r["scores"][0] for r in raw[0]["records"]]
    assert len(scores) == 40 and all(5 <= x <= 30 for x in scores)
    assert listed[0]["score_by_seat"] == [mean_interval(scores)]
    bonus = {r["game"]: r["scores"][0] for r in raw[1]["records"]}
    # (the same seed, the same throws: +2 a throw, 5 throws, every game)
    assert all(bonus[r["game"]] - r["scores"][0] == 10 for r in raw[0]["records"])
    row = next(r for r in listed[1]["change"]["rows"] if r["row"] == "P1 score at the end")
    assert row == {"row": "P1 score at the end", "mean": 10.0, "half": 0.0, "real": True}
    md = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    m, h = mean_interval(scores)
    assert f"| P1 score at the end | {m:,.1f} ±{h:,.1f} |" in md and "| P1 score at the end | +10.0 ±0.0 (a real difference) |" in md
    assert main(["simulate", str(base), "--players", "2", "--games", "10"]) == 0
    assert "score at the end (mean, 95% interval): P1 " in capsys.readouterr().out


def test_a_score_change_under_one_point_is_shown_to_two_decimals():
    """A designer's trial: `+0.4 ±0.4 (a real difference)` read as an interval touching 0 (it was
    +0.41 ±0.36); `-0.0 ±0.2` as nothing. Where the half-width is under 1, two decimals."""
    from rulelang.play.report import change_text
    assert change_text({"row": "P1 score at the end", "mean": 0.41, "half": 0.36, "real": True}) == \
        "+0.41 ±0.36 (a real difference)"
    assert change_text({"row": "P1 score at the end", "mean": -0.04, "half": 0.2, "real": False}) == "-0.04 ±0.20"
    assert change_text({"row": "P1 score at the end", "mean": 5.8, "half": 4.5, "real": True}) == \
        "+5.8 ±4.5 (a real difference)"
    assert change_text({"row": "P1 score at the end", "mean": 10.0, "half": 0.0, "real": True}) == \
        "+10.0 ±0.0 (a real difference)"


def test_json_with_a_report_prints_the_json_alone_on_stdout(tmp_path, capsys):
    """A designer's trial: `--json --report out > result.json` held the `wrote …` lines before the
    JSON, which a script could not read; they go to stderr then."""
    rules = tmp_path / "coin.rules"
    rules.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    assert main(["simulate", str(rules), "--games", "5", "--json", "--report", str(tmp_path / "r")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 5 and "wrote " in err and "report.md" in err


@pytest.mark.slow
def test_variants_stopped_by_the_budget_in_several_processes_are_one_game_apart_at_most(tmp_path):
    """A designer's trial: with `--workers 2` each process has its own share of the budget; when one
    was spent the other went on, and the variants stopped 1,318 and 1,311 games in (2 runs of 17).
    The games are cut at the first one left unplayed in the order the variants take turns. (The
    race is timing's: this checks the promise on a run whose budget ends mid-way.)"""
    from rulelang.play.simulate import play_in_pool, seat_bots
    game = rulelang.load(VALGARD)
    kinds = seat_bots("random", 2)
    variants = [(game, 2, kinds, {"hardcore": False}), (game, 2, kinds, {"hardcore": True})]
    records, spent, interrupted = play_in_pool(variants, 100_000, 7, 2, None, 3.0)
    counts = [len(r) for r in records]
    assert spent and not interrupted and counts[0] - counts[1] in (0, 1), counts
    assert all([r["game"] for r in rs] == list(range(len(rs))) for rs in records)


def test_comparing_another_game_is_said(tmp_path, capsys):
    """A designer's trial: `--compare` of a file of another game was paired by seed silently."""
    fair, other = tmp_path / "coin.rules", tmp_path / "dice.rules"
    fair.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    other.write_text(COIN.replace("CHANCE", "5").replace('game "Coin"', 'game "Dice"'), encoding="utf-8")
    assert main(["simulate", str(fair), "--compare", str(other), "--games", "4"]) == 0
    err = capsys.readouterr().err
    assert f"{other} is another game (Dice, not Coin)" in err
    assert main(["simulate", str(fair), "--compare", str(fair), "--games", "4"]) == 0
    assert "another game" not in capsys.readouterr().err


def test_a_way_to_end_keeps_its_numbers_where_they_never_differ():
    # before: a fixed reason lost its numbers too (a new author's Go Fish: "all # books are down")
    game = rulelang.Game(rulelang.compile_source("""
game "Fish" {
  players 2
  var n: int = 0
  turn { step s {
    action books { finish win for me "all 13 books are down" }
    action wait { end turn }
    action points { n += 1  if n == 3 { finish win for me "" + text(me) + " has " + text(turn_count) + " points" }  end turn }
  } }
}
""", "fish.rules"))
    out = simulate(game, 2, 60, 1, "random")
    endings = dict(out["endings"])
    assert "all 13 books are down" in endings and "all # books are down" not in endings
    assert set(endings) == {"all 13 books are down", "P# has # points"}, endings


def test_a_way_to_end_is_not_cut_at_an_abbreviation():
    # before: "Mr. X escaped" and "Mr. X cannot move" were one way to end, "Mr" (a new author's
    # Scotland Yard: a win and a loss merged)
    from rulelang.play.simulate import way_to_end
    assert way_to_end("Mr. X escaped") == "Mr. X escaped"
    assert way_to_end("a detective caught Mr. X at station 5") == "a detective caught Mr. X at station #"
    assert way_to_end("Shadows win: every Hunter is dead (P1 George). The winners: P2") == \
        "Shadows win: every Hunter is dead"
    # (nor at any short title, an ellipsis, a nested bracket: a fuzzer's)
    assert way_to_end("Prof. Plum did it in the library") == "Prof. Plum did it in the library"
    assert way_to_end("Gen. Lee won. The winners: P2") == "Gen. Lee won"
    assert way_to_end("game over... P2 wins") == "game over... P# wins"
    assert way_to_end("all books are down (P1 (George) died)") == "all books are down"


def test_a_report_path_that_cannot_be_a_folder_is_said_before_any_game(tmp_path, capsys, monkeypatch):
    """A designer's trial: `--report afile` (a file there) played every game, printed the figures,
    then said `File exists` — the night's games lost to a typo."""
    import rulelang.play.simulate as sim
    blocked = tmp_path / "afile"
    blocked.write_text("x")
    monkeypatch.setattr(sim, "simulate", lambda *a, **k: pytest.fail("a game was played"))
    code = main(["simulate", str(ROOT / "games" / "valgard.rules"), "--games", "3", "--report", str(blocked)])
    assert code == 1 and "a file is there, and the report is a folder" in capsys.readouterr().err


def test_a_second_interrupt_waits_while_the_report_is_written(tmp_path, monkeypatch):
    """A designer's trial: Ctrl-C twice, the second while the report was written, left report.json
    alone (no report.md, no plots), unsaid."""
    import signal
    import rulelang.play.report as report
    seen = []
    real = report.write_report

    def watched(*a, **k):
        seen.append(signal.getsignal(signal.SIGINT))
        return real(*a, **k)
    monkeypatch.setattr(report, "write_report", watched)
    assert main(["simulate", str(ROOT / "games" / "valgard.rules"), "--games", "2", "--report", str(tmp_path / "r")]) == 0
    assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    assert (tmp_path / "r" / "report.md").exists()


def test_a_report_with_no_game_ended_shows_no_length_as_if_measured(tmp_path, capsys):
    """A designer's trial: every game stopped by a rule error, and report.md read "mean 0.0, min 0 …"
    and 0.0 legal actions in every tenth, as if measured."""
    rules = tmp_path / "broken.rules"
    rules.write_text('game "Broken" {\n  players 2\n  var n: int = 0\n'
                     '  turn { step s { action go { n = [1][n - 1] } action stop require n > 5 { finish draw } } }\n}\n')
    code = main(["simulate", str(rules), "--games", "3", "--bot", "random", "--report", str(tmp_path / "r")])
    capsys.readouterr()
    raw = json.loads((tmp_path / "r" / "report.json").read_text())
    summary = raw["summaries"][0]
    assert summary["finished"] == 0 and summary["length"] == {"mean": None, "min": None, "median": None, "max": None}
    assert set(summary["legal_by_decision"]) == {None} and raw["simulations"][0]["mean_length"] is None
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| mean | – |" in md and "| 0–10 % | – |" in md and code == 1


def test_answers_in_a_window_are_counted_by_their_words():
    """A new author's Coup: every challenge, block and pass was counted as `choose` (63.5 % of the
    actions), so the designer could not see how often players challenged."""
    game = rulelang.load(str(Path(__file__).parent / "games" / "harbour.rules"))
    taken: dict = {}
    for record in simulate(game, 3, 10, 1, "random")["records"]:
        for name, n in record["taken"].items():
            taken[name] = taken.get(name, 0) + n
    assert taken.get("challenge (an answer in a window)", 0) > 0 and taken.get("pass (an answer in a window)", 0) > 0
    assert not any(name.startswith("P") and ": " in name for name in taken)      # (`P3: challenge` too)


STUCK = """
game "Stuck" {
  players 2
  var moved: int = 0
  turn { step s {
    action wait require moved < LIMIT { moved += 1  end turn }
    action give_up require moved >= FIRST { finish lose for me "" + text(me) + " cannot move" }
  } }
}
"""


def test_one_way_to_end_is_one_row_across_variants_and_an_even_count_has_the_middle_median(tmp_path):
    """A designer's trial: every game of one variant ended "P2 cannot move" (its number kept), the
    other's "P# cannot move" — two rows, one ending read as vanishing and another appearing; and 16
    games' median length was the upper middle one (129 for 123.5)."""
    import statistics
    a, b = tmp_path / "a.rules", tmp_path / "b.rules"
    a.write_text(STUCK.replace("LIMIT", "1").replace("FIRST", "1"), encoding="utf-8")   # P1 waits, P2 gives up
    b.write_text(STUCK.replace("LIMIT", "9").replace("FIRST", "0"), encoding="utf-8")   # either, any time
    assert main(["simulate", str(a), "--compare", str(b), "--games", "8", "--seed", "2", "--bot", "random",
                 "--max-cpu", "0", "--report", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "2 players, bots: P1 random, P2 random, seed 2" in md     # (by seat: a designer's trial)
    rows = [line for line in md.splitlines() if "cannot move" in line and line.startswith("|")]
    assert len(rows) == 1 and rows[0].startswith("| P# cannot move |"), rows
    raw = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    for result, summed in zip(raw["simulations"], raw["summaries"]):
        lengths = [r["actions"] for r in result["records"]]
        assert len(lengths) == 8 and summed["length"]["median"] == statistics.median(lengths)
    assert summed["length"]["median"] == 1.5           # (b's games: 1, 1, 1, 1, 2, 3, 5, 7 actions)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_run_killed_outright_goes_on_where_it_stopped_with_resume(tmp_path, capsys, monkeypatch, workers):
    """A designer's trial: `kill -9` of a night's run left an empty report folder, every game lost,
    and no way to go on. Each game is written to DIR/games.jsonl as it ends; `--resume` plays only
    the others (a cut last line, or a line that is no record, is played again), and a larger
    `--games` extends the run: the figures are those of one run of them all."""
    from rulelang.play import simulate as sim
    folder = tmp_path / "night"
    base = ["simulate", VALGARD, "--bot", "random", "--max-cpu", "0", "--json", "--workers", str(workers)]
    assert main(base + ["--games", "5", "--report", str(folder)]) == 0
    lines = (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["rulelang_run"] == 1
    bad = json.loads(lines[2])
    bad["record"]["results"] = ["win"]                       # (one result for two players: not a record)
    # as a kill leaves it: games 0, 2 and 3 written, game 1 not one, the last line cut in the middle
    (folder / "games.jsonl").write_text("\n".join([lines[0], lines[1], json.dumps(bad), lines[3], lines[4],
                                                   lines[5][:40]]), encoding="utf-8")
    capsys.readouterr()
    played = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda game, index, *a, **k: played.append(index) or real(game, index, *a, **k))
    assert main(base + ["--games", "7", "--report", str(folder), "--resume"]) == 0
    out, err = capsys.readouterr()
    assert "3 game(s) of the run found" in err and "its variants together" not in err
    if workers == 1:
        assert played == [1, 4, 5, 6]
    resumed = json.loads(out)
    assert main(base + ["--games", "7"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert timeless(resumed) == timeless(fresh) and resumed["games"] == 7
    assert len((folder / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 8


def test_resume_refuses_the_games_of_another_run(tmp_path, capsys):
    folder = tmp_path / "night"
    assert main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0", "--report", str(folder)]) == 0
    capsys.readouterr()
    code = main(["simulate", VALGARD, "--bot", "greedy", "--games", "2", "--max-cpu", "0", "--report", str(folder),
                 "--resume"])
    err = capsys.readouterr().err
    assert code != 0 and "holds the games of another run" in err and "Traceback" not in err
    # (which part differs: "other rules, players, bots, options or seed" left a designer to find it)
    assert '(other bots: ["random", "random"], not ["greedy", "greedy"])' in err, err
    assert main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0", "--report", str(folder),
                 "--resume", "--seed", "5"]) != 0
    assert "seed 0, not 5" in capsys.readouterr().err
    assert main(["simulate", VALGARD, "--games", "2", "--resume"]) != 0
    assert "give the run's --report DIR" in capsys.readouterr().err


def test_a_mean_of_more_than_31_games_has_students_t_not_the_normal_value():
    """A designer's trial: past 30 degrees of freedom the interval took 1.96, 2 to 4 % too narrow at
    40 to 60 games; Student's t is 2.021 at 40, 2.000 at 60, 1.980 at 120."""
    from rulelang.play.report import t_975
    for df, t in ((31, 2.0395), (40, 2.0211), (60, 2.0003), (120, 1.9799), (10_000, 1.9602)):
        assert abs(t_975(df) - t) < 0.002
    xs = [0, 1] * 20 + [0]                             # 41 games: 40 degrees of freedom
    mean, half = mean_interval(xs)
    sd = (sum((x - sum(xs) / 41) ** 2 for x in xs) / 40) ** 0.5
    assert half == round(2.0211 * sd / 41 ** 0.5, 2) != round(1.96 * sd / 41 ** 0.5, 2)


def test_a_report_says_what_its_search_bots_are(tmp_path):
    """A designer's trial: the report read the next morning did not say that `mcts` sees hidden
    cards, nor that a search bot named without a budget gives other games on another machine."""
    path = tmp_path / "stuck.rules"
    path.write_text(STUCK.replace("LIMIT", "2").replace("FIRST", "0"), encoding="utf-8")
    assert main(["simulate", str(path), "--games", "2", "--bot", "1=mcts", "--bot", "2=random", "--max-cpu", "0",
                 "--report", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "bots: P1 mcts, P2 random" in md and "`mcts` sees every hidden card" in md
    assert "stops at a CPU time per move" in md


def test_games_two_sides_won_at_once_are_counted_where_the_side_rates_pass_100(tmp_path):
    """A designer's trial: 2 Shadow Hunters games of 2,000 were won by both sides at once (the rules
    allow it), the sides' rates added up to 100.2 % and nothing said why."""
    path = tmp_path / "both.rules"
    path.write_text("""
game "Both" {
  players 2
  side if me == 0 then "left" else "right"
  turn { step s {
    action both { finish win for players "everyone" }
    action one { finish win for me "one" }
  } }
}
""", encoding="utf-8")
    assert main(["simulate", str(path), "--games", "20", "--bot", "random", "--max-cpu", "0",
                 "--report", str(tmp_path / "rep")]) == 0
    raw = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    both = sum(1 for r in raw["simulations"][0]["records"] if r["results"] == ["win", "win"])
    assert 0 < both < 20 and raw["summaries"][0]["shared_wins"] == both
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert f"| games won by two sides at once (the sides' rates add up past 100 %) | {both} |" in md


def test_a_report_folder_where_the_games_file_cannot_be_written_is_one_line(tmp_path, capsys):
    """The run's games file (DIR/games.jsonl) that cannot be made is said in one line before any game."""
    folder = tmp_path / "rep"
    (folder / "games.jsonl").mkdir(parents=True)               # (a folder where the file must go)
    code = main(["simulate", VALGARD, "--games", "2", "--bot", "random", "--max-cpu", "0", "--report", str(folder)])
    err = capsys.readouterr().err
    assert code != 0 and "games.jsonl" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_ending_s_numbers_alike_in_every_game_are_kept(tmp_path, capsys):
    """A new author's Backgammon read `all # checkers borne off by P#` when the winner differed from
    game to game, and `all 15 …` when it did not: only the numbers that differ are `#`."""
    path = tmp_path / "race.rules"
    path.write_text("""
game "Race" {
  players 2
  turn { step s {
    action finish_it { finish win for me "all 15 checkers borne off by " + text(me) }
    action wait { end turn }
  } }
}
""", encoding="utf-8")
    assert main(["simulate", str(path), "--games", "40", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("how games ended"))
    assert "all 15 checkers borne off by P#" in line and "all # checkers" not in line, line
    assert kept_numbers("P1 has 12 VP", "P2 has 15 VP") == "P# has # VP"
    assert kept_numbers("a 1", "a 1 b 2") is None


def test_two_runs_into_one_report_folder_at_once_the_second_is_refused(tmp_path, capsys):
    """A designer's trial: two runs given one --report at once both said they wrote it, and the first
    run's games and report were silently replaced by the second's. A run holds the folder while it
    writes there; a rerun without --resume says it starts anew over the earlier games."""
    from rulelang.play import simulate as sim
    folder = tmp_path / "night"
    game = rulelang.load(VALGARD)
    first = sim.Journal(str(folder), [(game, 2, ["random", "random"], {})], 0, sim.MAX_ACTIONS, False)
    try:
        code = main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0",
                     "--report", str(folder)])
        err = capsys.readouterr().err
        assert code != 0 and "another run is writing its games there now" in err and "Traceback" not in err
    finally:
        first.close()
    assert main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0", "--report", str(folder)]) == 0
    capsys.readouterr()
    assert main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0", "--report", str(folder)]) == 0
    assert "held 2 game(s) of an earlier run: started anew (--resume goes on with them)" in capsys.readouterr().err


def test_a_report_names_the_fingerprint_of_the_rules_it_measured(tmp_path):
    """A designer edited a rule file after a night's run: the report named its path only, and could not
    be tied to the version it measured. It gives each variant's fingerprint, as saves name the rules."""
    assert main(["simulate", VALGARD, "--bot", "random", "--games", "2", "--max-cpu", "0",
                 "--report", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert f"Rules measured (their fingerprint, as saves name them): `{rulelang.load(VALGARD).fingerprint}`." in md
    raw = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    assert raw["simulations"][0]["fingerprint"] == rulelang.load(VALGARD).fingerprint


def test_a_report_folder_is_never_written_through_a_planted_link_or_a_fifo(tmp_path, capsys):
    """A fuzzer's shared folder: `report.md` a link to another file, beside a real report.json, and
    `simulate --report` wrote the report into that file; a FIFO as `.run.lock` hung the run before
    its first game. Both are refused, before any game, and the other file is untouched."""
    import os
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "report.json").write_text('{"simulations": []}', encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (shared / "report.md").symlink_to(victim)
    (shared / "games.jsonl").symlink_to(tmp_path / "nowhere.txt")     # (a dangling one: created through)
    code = main(["simulate", VALGARD, "--games", "2", "--max-cpu", "0", "--report", str(shared)])
    err = capsys.readouterr().err
    assert code == 1 and "there is a symbolic link: not followed" in err and "Traceback" not in err
    assert victim.read_text(encoding="utf-8") == "precious" and not (tmp_path / "nowhere.txt").exists()
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / ".run.lock")
    code = main(["simulate", VALGARD, "--games", "2", "--max-cpu", "0", "--report", str(fifo)])
    assert code == 1 and "its .run.lock is not a file" in capsys.readouterr().err


def test_a_crafted_journal_record_with_counts_no_run_writes_is_played_again(tmp_path, capsys):
    """A fuzzer's `games.jsonl`: an action count of 300 digits ended `--resume` in numpy's TypeError
    (an internal error, no report), and 200,000 action names in one record took minutes. Such a
    record is not the run's: its game is played again, and the report is written."""
    folder = tmp_path / "night"
    base = ["simulate", VALGARD, "--games", "3", "--max-cpu", "0", "--report", str(folder)]
    assert main(base[:3] + ["2"] + base[4:]) == 0
    lines = (folder / "games.jsonl").read_text(encoding="utf-8").splitlines()
    huge, many = json.loads(lines[1]), json.loads(lines[2])
    huge["record"]["actions"] = 10 ** 300
    many["record"]["taken"] = {f"a{i}": 1 for i in range(20_000)}
    (folder / "games.jsonl").write_text("\n".join([lines[0], json.dumps(huge), json.dumps(many)]) + "\n",
                                        encoding="utf-8")
    capsys.readouterr()
    assert main(base + ["--resume"]) == 0
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Valgar" in (folder / "report.md").read_text(encoding="utf-8")
    assert "a19999" not in (folder / "report.md").read_text(encoding="utf-8")


def test_counting_a_journal_s_games_reads_it_a_piece_at_a_time(tmp_path):
    """A fuzzer planted a 4 GB `games.jsonl` of one line (a sparse file) beside a report of ours:
    counting its games to say "held N game(s) of an earlier run" took it all into memory."""
    import os
    import tracemalloc
    from rulelang.play.simulate import _lines
    (tmp_path / "a").write_bytes(b'{"x": 1}\n{"x": 2}\n{"x": 3}')
    assert _lines(tmp_path / "a") == 3 and _lines(tmp_path / "missing") == 0
    with open(tmp_path / "sparse", "wb") as file:
        file.truncate(64 << 20)
    tracemalloc.start()
    try:
        assert _lines(tmp_path / "sparse") == 1
        assert tracemalloc.get_traced_memory()[1] < 8 << 20
    finally:
        tracemalloc.stop()
    os.remove(tmp_path / "sparse")


def test_a_link_planted_in_the_report_folder_during_a_run_is_not_written_through(tmp_path, capsys, monkeypatch):
    """A review: the folder was checked before the games, and `report.md` linked to another file while
    the run went on had the report written into that file at its end."""
    import rulelang.play.report as report
    folder = tmp_path / "night"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    real = report.write_report

    def planted(results, directory, not_run=()):
        (folder / "report.md").symlink_to(victim)      # (as if planted while the games were played)
        return real(results, directory, not_run)
    monkeypatch.setattr(report, "write_report", planted)
    code = main(["simulate", VALGARD, "--games", "2", "--max-cpu", "0", "--report", str(folder)])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write the report in" in err and "Traceback" not in err, err
    assert victim.read_text(encoding="utf-8") == "precious"


def test_resume_takes_the_same_rules_however_their_path_is_typed(tmp_path, capsys, monkeypatch):
    """A designer's trial: a run begun with `orig/valgard.rules` was refused with `./orig/valgard.rules`
    or an absolute path ("a rule file changed": the hash held the path as typed); a journal begun by
    the older hash still resumes."""
    import hashlib
    import shutil
    (tmp_path / "orig").mkdir()
    shutil.copy(VALGARD, tmp_path / "orig" / "valgard.rules")
    monkeypatch.chdir(tmp_path)
    base = ["--bot", "random", "--max-cpu", "0", "--report", "night"]
    assert main(["simulate", "orig/valgard.rules", "--games", "2"] + base) == 0
    for typed in ("./orig/valgard.rules", str(tmp_path / "orig" / "valgard.rules")):
        capsys.readouterr()
        assert main(["simulate", typed, "--games", "3", "--resume"] + base) == 0, capsys.readouterr().err
        assert "game(s) of the run found" in capsys.readouterr().err
    journal = tmp_path / "night" / "games.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    game = rulelang.load("orig/valgard.rules")
    head["variants"][0]["rules"] = hashlib.sha256(json.dumps(game.ir, sort_keys=True).encode()).hexdigest()
    journal.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    assert main(["simulate", "orig/valgard.rules", "--games", "3", "--resume"] + base) == 0
    assert "3 game(s) of the run found" in capsys.readouterr().err
    # a message that rolls a die changes every later draw: other rules (a review: it resumed)
    source = (tmp_path / "orig" / "valgard.rules").read_text(encoding="utf-8")
    assert main(["simulate", "orig/valgard.rules", "--games", "3"] + base[:-2] + ["--report", "msg"]) == 0
    word = next(line for line in source.splitlines() if line.strip().startswith("log "))
    (tmp_path / "orig" / "valgard.rules").write_text(source.replace(word, word + " + text(roll(6))", 1),
                                                     encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", "orig/valgard.rules", "--games", "3", "--resume"] + base[:-2] + ["--report", "msg"]) != 0
    assert "other rules (a rule file changed)" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_resumed_runs_time_left_counts_only_the_games_it_plays(tmp_path, capsys, monkeypatch, workers):
    """A designer's trial: resumed with 39 games already played, a night's run said "55 of 200 games,
    65 s, ~171 s left" after playing 16 — the time left counted the journal's games as played here."""
    from rulelang import cli
    monkeypatch.setattr(cli._Progress, "LOG_EVERY", 0.0)
    clock = iter(range(0, 10_000, 10))                     # 10 s between two readings of the clock
    monkeypatch.setattr(cli.time, "perf_counter", lambda: next(clock))
    rules = tmp_path / "coin.rules"
    rules.write_text(COIN.replace("CHANCE", "5"), encoding="utf-8")
    run = ["simulate", str(rules), "--bot", "random", "--max-cpu", "0", "--report", str(tmp_path / "night")]
    assert main(run + ["--games", "4"]) == 0
    capsys.readouterr()
    assert main(run + ["--games", "8", "--resume", "--workers", workers]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("rulelang: ")]
    # games 1-4 from the journal, then one played per 10 s: after the 5th, 3 left at 10 s each (not 1.5 s each)
    fifth = next(line for line in lines if line.startswith("rulelang: 5 of 8 games"))
    taken = int(fifth.split(", ")[1].removesuffix(" s"))       # (of the fake clock above: no machine's time)
    left = f"~{taken * 3:.0f} s left"
    assert fifth.endswith(left), lines
    # resumed with fewer games: it says how many it uses (it said all 8 were "not played again")
    assert main(run + ["--games", "3", "--resume", "--workers", workers]) == 0
    assert ("3 game(s) of the run found in " in (err := capsys.readouterr().err)
            and "not played again (5 more, past --games 3, left aside)" in err), err


def test_json_gives_each_seats_win_rate_with_its_interval(capsys):
    """A designer's trial: `--json` gave bare win rates, the intervals only in the terminal's text and
    report.json, and a script recomputed them."""
    assert main(["simulate", VALGARD, "--games", "30", "--bot", "random", "--json", "--max-cpu", "0"]) == 0
    result = json.loads(capsys.readouterr().out)
    for wins, interval in zip(result["outcomes_by_seat"], result["win_interval_by_seat"]):
        assert interval == [round(x, 4) for x in wilson(wins["win"], result["finished"])]
    assert interval[0] < result["win_rate_by_seat"][-1] < interval[1]
