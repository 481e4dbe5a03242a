"""The package's layers, checked: one rule per folder, who may import whom (docs/engine.md draws them).

    core/      errors, limits, safe text and JSON, value types, graphs, version imports: core
    ir/        the IR's node table, schema and validation                   imports: core, ir
    language/  parser, nodes, checker, lints, desugaring, content, compiler, cache
                                                                             imports: core, ir, language
    engine/    Game and Match, codegen, boards, chance                      imports: core, ir, engine
    the API    rulelang/__init__.py and rulelang/playtest.py (the deep lint)
                                                                             imports: core, ir, language, engine, API
    play/, interop/, web/   front ends, through the public API              imports: core, ir, API, play, own folder
    editor/    the language server                                          imports: core, ir, language, editor
    cli        the command line (cli.py, __main__.py)                       imports: core, ir, API, play, editor, web, cli

There are no exemptions, and no import cycles between modules, the package's `__init__` included.
Imports are read
from the source, top-level and inside functions alike, so a lazy import counts; an import under
`if TYPE_CHECKING:` is for annotations only and never runs, so it does not.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rulelang"
API = {"", "playtest"}
CLI = {"cli", "__main__"}
FOLDERS = {"core", "ir", "language", "engine", "play", "interop", "web", "editor"}
ALLOWED = {
    "core": {"core"},
    "ir": {"core", "ir"},
    "language": {"core", "ir", "language"},
    "engine": {"core", "ir", "engine"},
    "api": {"core", "ir", "language", "engine", "api"},
    "play": {"core", "ir", "api", "play"},
    "interop": {"core", "ir", "api", "play", "interop"},
    "web": {"core", "ir", "api", "play", "web"},
    "editor": {"core", "ir", "language", "editor"},
    "cli": {"core", "ir", "api", "play", "editor", "web", "interop", "cli"},
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def _runtime_nodes(tree):
    """Every node, but those under `if TYPE_CHECKING:` (imports for annotations only, never run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports() -> dict[str, set[str]]:
    """Module -> the rulelang modules it imports (dotted, relative to the package; "" is the package)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        here = name.split(".") if path.name != "__init__.py" or name == "__init__" else name.split(".") + ["x"]
        found: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
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
    if module in API:
        return "api"
    if top in CLI:
        return "cli"
    return top if top in FOLDERS else "other"


def test_every_module_is_in_a_layer():
    assert {m for m in imports() if layer(m) == "other"} == set()


def test_top_level_modules_are_only_the_api_and_the_command_line():
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top == {"__init__", "playtest", "cli", "__main__"}


def test_each_folder_imports_only_the_layers_below_it():
    bad = sorted((m, t) for m, ts in imports().items() for t in ts if layer(t) not in ALLOWED[layer(m)])
    assert not bad


def test_the_engine_and_the_language_do_not_know_each_other():
    graph = imports()
    assert not [(m, t) for m, ts in graph.items() for t in ts
                if {layer(m), layer(t)} == {"engine", "language"}]


def test_there_are_no_import_cycles():
    graph = imports()
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


def test_a_compiled_game_loads_without_the_language_front_end(tmp_path):
    """A `.json` game is validated by ir/validate.py and run by the engine: neither the parser,
    the checker, the compiler nor Lark is imported."""
    import json
    import subprocess
    import sys

    import rulelang
    path = tmp_path / "regicide.json"
    path.write_text(json.dumps(rulelang.compile_file(str(PACKAGE.parent / "games" / "regicide.rules"))), encoding="utf-8")
    probe = ("import sys, rulelang\n"
             f"m = rulelang.load({str(path)!r}).new_match(2, seed=1)\n"
             "m.apply(m.legal_actions()[0])\n"
             "print(sorted(n for n in sys.modules if n == 'lark' or n.startswith(('lark.', 'rulelang.language.'))))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "['rulelang.language.cache']"


def test_generated_code_uses_only_the_declared_match_interface():
    """Generated code and the runtime it calls read a match through `m.NAME`: every such name is
    declared, with a line saying what it is, in engine/match.py's GENERATED_CODE_INTERFACE, and each
    declared name is an attribute, property or method a match has."""
    import re

    import rulelang
    from rulelang.engine.match import GENERATED_CODE_INTERFACE
    used = set()
    for path in (PACKAGE / "engine" / "codegen").glob("*.py"):
        used |= set(re.findall(r"\bm\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8")))
    assert used - set(GENERATED_CODE_INTERFACE) == set()
    game = rulelang.Game(rulelang.compile_source(
        'game "G" { players 2  turn { step s { action go { finish draw } } } }', "g.rules"))
    m = game.new_match(2, seed=1)
    missing = [name for name in GENERATED_CODE_INTERFACE
               if not (hasattr(m, name) or hasattr(type(m), name)
                       or name in ("seq", "answers", "trig", "frames", "known", "replacing", "grants", "private"))]
    assert missing == []
