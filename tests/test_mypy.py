"""The package type-checks where it is covered: mypy over core/, ir/ and engine/ (its codegen/
included) is clean, and the README's test command, and so CI, runs it. The language, the front ends
and the interop are not covered yet. Match is one object made of parts, which type-check on their own
because what they share is declared once, with types (engine/parts.py); the code generator's parts
are objects of their own, sharing a typed `Shared` state (engine/codegen/parts.py; docs/engine.md,
"Types")."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["rulelang/core", "rulelang/ir", "rulelang/engine"]


@pytest.mark.slow
def test_mypy_is_clean_over_the_covered_layers(tmp_path):
    pytest.importorskip("mypy", reason="pip install -e '.[test]' installs mypy")
    done = subprocess.run([sys.executable, "-m", "mypy", *CHECKED, "--ignore-missing-imports",
                           "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_generated_code_interface_has_types():
    """Each name generated code reads on a match (match.GENERATED_CODE_INTERFACE) is declared with
    its type in MatchParts, or is a method or property of Match (whose signature mypy sees)."""
    from rulelang.engine.match import GENERATED_CODE_INTERFACE, Match
    from rulelang.engine.parts import MatchParts
    untyped = [name for name in GENERATED_CODE_INTERFACE if name not in MatchParts.__annotations__
               and not callable(getattr(Match, name, None)) and not isinstance(getattr(Match, name, None), property)]
    assert untyped == []
