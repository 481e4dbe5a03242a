"""Moved: the code generator is the package rulelang/codegen/. This name stays only until every
import is updated (engine.py, boards.py, replay.py), then goes."""
from .codegen import Action, Compiled, Lowerer, RuleFault, plain_text, player_text  # noqa: F401
from .codegen.analysis import _walk  # noqa: F401
from .codegen.constants import PY_ASSIGN, PY_BINARY, PY_UNARY  # noqa: F401
