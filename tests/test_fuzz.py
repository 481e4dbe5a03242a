"""A bounded run of the fuzz harness (tests/fuzz.py): a fixed seed, every kind of input.

Rule files, compiled IR and save files, mutated, must never make rulelang raise anything but a
RulelangError, hang, or point a diagnostic outside its file. The full run (>= 10,000 cases) is

    python tests/fuzz.py --cases 10000 --seed 1 --jobs 2
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402

import fuzz  # noqa: E402

CASES = 300                  # (~30 s on 2 cores; the full run is the command above)
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
