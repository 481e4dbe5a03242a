"""The package's layers, checked: who may import whom.

- leaf utilities (errors, limits, textsafe, safejson, types) import no other rulelang module
  but each other;
- the engine (codegen, engine, boards, irspec) imports nothing from the front end of the language
  (parser, checker, compiler, lints, nodes, content);
- front ends (cli, repl, bots, simulate, bench, replay, playtest, interop) use the public API — the
  `rulelang` package itself — and each other, never engine or language internals;
- editor support (lsp) reads the language's syntax trees and diagnostics (parser, nodes, checker, and
  irspec's table of builtins) but nothing that runs a game, nor any front end; front ends may start it;
- there are no import cycles between modules (the package's own `__init__`, which is the public
  API and imports lazily, is left out of that check).

Imports are read from the source (top-level and inside functions alike), so a lazy import counts.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rulelang"
LEAVES = {"errors", "limits", "textsafe", "safejson", "types"}
ENGINE = {"codegen", "engine", "boards", "irspec", "chance"}
LANGUAGE = {"parser", "checker", "compiler", "lints", "nodes", "content", "desugar"}
EDITOR = {"lsp"}
FRONT_ENDS = {"cli", "repl", "screen", "bots", "simulate", "bench", "replay", "playtest", "report", "__main__", "interop"}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def imports() -> dict[str, set[str]]:
    """Module -> the rulelang modules it imports (dotted, relative to the package; "" is the package)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        here = name.split(".") if path.name != "__init__.py" or name == "__init__" else name.split(".") + ["x"]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[:len(here) - node.level]
                    target = ".".join(base + ([node.module] if node.module else []))
                elif node.module and node.module.split(".")[0] == "rulelang":
                    target = node.module[len("rulelang."):] if "." in node.module else ""
                else:
                    continue
                if not node.module or (node.level and target == ".".join(base)):
                    for alias in node.names:       # from . import x: x may be a module
                        sub = (target + "." if target else "") + alias.name
                        found.add(sub if (PACKAGE / (sub.replace(".", "/") + ".py")).exists()
                                  or (PACKAGE / sub.replace(".", "/")).is_dir() else target)
                else:
                    found.add(target)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "rulelang":
                        found.add(alias.name[len("rulelang."):] if "." in alias.name else "")
        graph[name if name != "__init__" else ""] = {f for f in found if f != (name if name != "__init__" else "")}
    return graph


def layer(module: str) -> str:
    top = module.split(".")[0]
    for label, members in (("leaf", LEAVES), ("engine", ENGINE), ("language", LANGUAGE), ("editor", EDITOR),
                           ("front end", FRONT_ENDS)):
        if top in members:
            return label
    return "api" if module == "" else "other"


def test_every_module_has_a_layer():
    assert {m for m in imports() if layer(m) == "other"} <= {"cache"}


def test_leaf_utilities_import_only_each_other():
    bad = {(m, t) for m, ts in imports().items() if layer(m) == "leaf" for t in ts if layer(t) != "leaf"}
    assert not bad


def test_the_engine_imports_nothing_from_the_language_front_end():
    bad = {(m, t) for m, ts in imports().items() if layer(m) == "engine" for t in ts
           if layer(t) in ("language", "front end", "api")}
    assert not bad


def test_front_ends_use_only_the_public_api():
    bad = {(m, t) for m, ts in imports().items() if layer(m) == "front end" for t in ts
           if layer(t) not in ("api", "front end", "leaf", "editor")}
    assert not bad


def test_editor_support_reads_the_language_but_runs_nothing():
    bad = {(m, t) for m, ts in imports().items() if layer(m) == "editor" for t in ts
           if layer(t) not in ("api", "leaf", "language", "editor") and t != "irspec"}
    assert not bad


def test_there_are_no_import_cycles():
    graph = {m: {t for t in ts if t != ""} for m, ts in imports().items() if m != ""}
    state: dict[str, int] = {}
    cycles = []

    def visit(m, path):
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                cycles.append(path[path.index(t):] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2
    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles
