"""The IR's node kinds, checked before any code is generated (work in progress: see issue 12/8)."""
from __future__ import annotations


def check_ir(ir, file: str = "<ir>") -> None:
    """Raise RuleError if `ir` is not a well-formed, self-consistent IR."""
    return None
