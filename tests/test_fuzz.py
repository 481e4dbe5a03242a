"""A bounded run of the fuzz harness (tests/fuzz.py): a fixed seed, every kind of input.

Rule files, compiled IR and save files, mutated, must never make rulelang raise anything but a
RulelangError, hang, or point a diagnostic outside its file. The full run (>= 10,000 cases) is

    python tests/fuzz.py --cases 10000 --seed 1 --jobs 2

and with the cost dimension (mutants that multiply sizes, every case in a child capped at 1 GB and
60 s of CPU, through lint, the language server, lint --deep, play and simulate):

    python tests/fuzz.py --cases 10000 --seed 1 --cost
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402

import fuzz  # noqa: E402

CASES = 6                    # (~2 s on 2 cores beside the suite: a smoke test; the full run is the command above)
COST_CASES = 16              # (~10 s of CPU: cost mutants each read, linted, played and simulated)
SEED = 20240611


@pytest.mark.slow
def test_bounded_fuzz_run_finds_no_failure(tmp_path):
    report = fuzz.run_fuzz(CASES, seed=SEED, kinds=fuzz.KINDS, jobs=2, out=tmp_path)
    assert report.cases == CASES
    if report.groups:
        pytest.fail("fuzzing found failures:\n" + report.summary(tmp_path), pytrace=False)


def test_mutators_change_the_input_and_are_deterministic():
    seeds = fuzz.build_seeds()
    for i in range(len(fuzz.KINDS) * 4):
        one, two = fuzz.make_case(seeds, 7, i, fuzz.KINDS), fuzz.make_case(seeds, 7, i, fuzz.KINDS)
        assert one.text == two.text and one.notes == two.notes
    changed = sum(fuzz.make_case(seeds, 7, i, ("rules",)).text != seeds.rules[fuzz.make_case(seeds, 7, i, ("rules",)).seed]
                  for i in range(30))
    assert changed >= 25


def test_the_oracle_flags_a_span_outside_the_file():
    from rulelang import Diagnostic, Span
    inside = Diagnostic("E001", "x", Span("f", 2, 3))
    assert fuzz.span_problem(inside, {"f": "ab\ncd\n"}) is None
    assert fuzz.span_problem(Diagnostic("E001", "x", Span("f", 3, 1)), {"f": "ab\ncd\n"}) is None   # end of file
    assert "line 4" in fuzz.span_problem(Diagnostic("E001", "x", Span("f", 4, 1)), {"f": "ab\ncd\n"})
    assert "column 9" in fuzz.span_problem(Diagnostic("E001", "x", Span("f", 1, 9)), {"f": "ab\ncd\n"})


def test_a_hang_is_told_by_cpu_time_not_by_the_wall_clock(tmp_path, monkeypatch):
    monkeypatch.setattr(fuzz, "CALL_LIMIT", 0.3)
    probe = fuzz.Probe({}, str(tmp_path))
    assert probe.call("wait", time.sleep, 1.0) == (True, None)     # waiting (a busy machine) is no hang
    assert probe.failures == []

    def spin():
        while True:
            pass
    assert probe.call("spin", spin) == (False, None)
    [failure] = probe.failures
    assert failure.sig.startswith("Hang in ") and failure.message == "no answer within 0.3 s of CPU time"


@pytest.mark.slow
def test_bounded_cost_fuzz_run_stays_within_the_caps(tmp_path):
    report = fuzz.run_fuzz(COST_CASES, seed=SEED, kinds=("cost",), jobs=2, out=tmp_path, capped=True)
    assert report.cases == COST_CASES
    if report.groups:
        pytest.fail("cost fuzzing found failures:\n" + report.summary(tmp_path), pytrace=False)
    assert {"lint", "lsp", "lint --deep", "play", "simulate"} <= set(report.entries), report.entries
    assert 0 < report.max_rss[0] < 1024 and 0 < report.max_cpu[0] < fuzz.CAP_CPU
    assert "runs over the caps (CPU or memory, or a hang): 0" in report.summary(tmp_path)


def test_cost_mutants_multiply_sizes_and_are_deterministic():
    seeds = fuzz.build_seeds()
    cases = [fuzz.make_case(seeds, 3, i, ("cost",)) for i in range(16, 24)]      # (both kinds among them)
    again = [fuzz.make_case(seeds, 3, i, ("cost",)) for i in range(16, 24)]
    assert [c.text for c in cases] == [c.text for c in again]
    notes = " ".join(n for c in cases for n in c.notes)
    for what in ("cost: ", "cost-ir: "):
        assert what in notes
    assert all(len(c.text) <= 400_000 for c in cases if c.meta["format"] == "rules")   # the rule-file limit


def _spin(*args, **kwargs):
    while True:
        pass


def _allocate(mutant, work, case=0, entries=None):
    probe = fuzz.Probe({}, str(work))
    probe.call("allocate", bytearray, 2 << 30)                 # over the 1 GB address-space cap
    return probe.failures


def test_a_capped_case_over_the_cpu_cap_is_a_cap_kill(tmp_path, monkeypatch):
    monkeypatch.setattr(fuzz, "CAP_CPU", 1)
    monkeypatch.setattr(fuzz, "run_case", _spin)                # (the forked child runs the patched one)
    failures, stats = fuzz.run_case_capped(fuzz.Mutant("cost", "", "x"), tmp_path)
    assert [f.sig for f in failures] == ["CapKill SIGXCPU"] and fuzz.cap_kill(failures[0].sig)
    # (the kernel counts CPU in ticks: 0.99 s at a 1 s cap on an idle machine, 0.85 s seen on a busy one)
    assert stats["cpu"] >= 0.5


def test_a_capped_case_over_the_memory_cap_is_a_cap_kill(tmp_path, monkeypatch):
    monkeypatch.setattr(fuzz, "run_case", _allocate)
    failures, stats = fuzz.run_case_capped(fuzz.Mutant("cost", "", "x"), tmp_path)
    assert [f.sig.split()[0] for f in failures] == ["MemoryError"] and fuzz.cap_kill(failures[0].sig)
    assert stats["rss_mb"] < 1024
