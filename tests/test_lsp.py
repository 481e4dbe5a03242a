"""`rulelang lsp`: a scripted editor session over stdio (JSON-RPC with Content-Length framing), and
the server's answers (positions, hover, definition, completion) on awkward documents.

`python tests/test_lsp.py docs/lsp-session.md` runs the same session and writes its transcript.
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from rulelang.editor import lsp  # noqa: E402
from rulelang.core.limits import SOURCE_LIMIT  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120          # seconds to wait for an answer: only a server that hangs takes anything like it

BROKEN = '''game "Demo" {
  players 2
  include "parts.rules"
  show def total = sizee(pool) + double(bonus)
  def double(x) = 2 * x
  turn { step go { action pass { finish draw } } }
}
'''
FIXED = BROKEN.replace("sizee(pool)", "size(pool)")
PARTS = '''# declarations shared by several games
zone pool: pile, public
about zone pool "The shared pile everyone draws from."
var bonus: int = 0, public
'''


class Client:
    """A minimal LSP client: requests wait for their answer; notifications are kept in order."""

    def __init__(self, cwd: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "rulelang", "lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        self.log: list[tuple[str, dict]] = []          # ("->" | "<-", message): the transcript
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        message = {"jsonrpc": "2.0", **message}
        self.log.append(("->", message))
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        self.send({"method": method, "params": params})

    def receive(self, until) -> dict:
        """Messages until one satisfies `until` (answering the server's own requests with null)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.inbox.get(timeout=max(0.1, deadline - time.monotonic()))
            if message is None:
                raise AssertionError("the server closed its output: " + self.proc.stderr.read().decode()[-2000:])
            self.log.append(("<-", message))
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
                continue
            if until(message):
                return message

    def request(self, method: str, params: dict | None = None):
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        answer = self.receive(lambda m: m.get("id") == ident and "method" not in m)
        assert "error" not in answer, answer
        return answer.get("result")

    def diagnostics(self, uri: str, version: int | None) -> list[dict]:
        found = self.receive(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri and m["params"].get("version") == version)
        return found["params"]["diagnostics"]

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                stream.close()


def where(text: str, word: str, nth: int = 0, inside: int = 0) -> dict:
    """The LSP position of the nth occurrence of `word` (plus `inside` characters)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(word, at + 1)
    at += inside
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def session(folder: Path) -> tuple[dict, Client]:
    """The whole scripted session; returns what the test checks, and the client (for its log)."""
    (folder / "parts.rules").write_text(PARTS, encoding="utf-8")
    main = folder / "demo.rules"
    main.write_text(BROKEN, encoding="utf-8")
    uri = main.resolve().as_uri()
    doc = {"uri": uri}
    seen: dict = {}
    client = Client(folder)
    try:
        seen["initialize"] = client.request("initialize", {"processId": os.getpid(), "rootUri": folder.resolve().as_uri(),
                                                           "capabilities": {}})
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {**doc, "languageId": "rulelang", "version": 1,
                                                                "text": BROKEN}})
        seen["opened"] = client.diagnostics(uri, 1)
        client.notify("textDocument/didChange", {"textDocument": {**doc, "version": 2},
                                                 "contentChanges": [{"text": FIXED}]})
        seen["fixed"] = client.diagnostics(uri, 2)
        seen["hover builtin"] = client.request("textDocument/hover", {"textDocument": doc,
                                                                      "position": where(FIXED, "size(", inside=1)})
        seen["hover def"] = client.request("textDocument/hover", {"textDocument": doc,
                                                                  "position": where(FIXED, "double(bonus)", inside=2)})
        seen["hover included zone"] = client.request("textDocument/hover", {"textDocument": doc,
                                                                             "position": where(FIXED, "pool")})
        seen["definition def"] = client.request("textDocument/definition", {"textDocument": doc,
                                                                            "position": where(FIXED, "double(bonus)")})
        seen["definition included"] = client.request("textDocument/definition", {"textDocument": doc,
                                                                                 "position": where(FIXED, "bonus)")})
        seen["completion"] = client.request("textDocument/completion", {"textDocument": doc,
                                                                        "position": where(FIXED, "2 * x")})
        (folder / "parts.rules").write_text(PARTS.replace("int = 0", "int = zero"), encoding="utf-8")
        client.notify("textDocument/didSave", {"textDocument": doc})
        seen["included file saved"] = client.diagnostics(uri, 2)
        typing = FIXED.replace("2 * x", "2 * x + do")
        client.notify("textDocument/didChange", {"textDocument": {**doc, "version": 3},
                                                 "contentChanges": [{"text": typing}]})
        seen["typing"] = client.diagnostics(uri, 3)
        seen["completion prefix"] = client.request("textDocument/completion", {
            "textDocument": doc, "position": where(typing, "x + do", inside=6)})
        garbage = "\x00\x01 game {{{ \udcff" + "(" * 5000
        client.notify("textDocument/didChange", {"textDocument": {**doc, "version": 4},
                                                 "contentChanges": [{"text": garbage.encode("utf-8", "replace").decode()}]})
        seen["garbage"] = client.diagnostics(uri, 4)
        seen["hover garbage"] = client.request("textDocument/hover", {"textDocument": doc,
                                                                      "position": {"line": 0, "character": 9}})
        seen["shutdown"] = client.request("shutdown")
        client.notify("exit")
        seen["exit code"] = client.close()
    except BaseException:
        client.proc.kill()
        client.close()
        raise
    return seen, client


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    return session(tmp_path_factory.mktemp("lsp"))[0]


def test_initialize_announces_the_features(seen):
    caps = seen["initialize"]["capabilities"]
    assert caps["hoverProvider"] and caps["definitionProvider"]
    assert "." in caps["completionProvider"]["triggerCharacters"]
    assert seen["initialize"]["serverInfo"]["name"] == "rulelang"


def test_an_error_is_reported_where_it_is(seen):
    [error] = [d for d in seen["opened"] if d["severity"] == 1]
    assert error["code"] == "E101" and error["source"] == "rulelang"
    assert "unknown function `sizee`" in error["message"] and "did you mean `size`" in error["message"]
    assert error["range"]["start"] == where(BROKEN, "sizee")
    assert error["range"]["end"]["line"] == 3 and error["range"]["end"]["character"] > 20


def test_fixing_it_clears_the_diagnostics(seen):
    assert seen["fixed"] == []


def test_hover_shows_a_builtins_docs(seen):
    text = seen["hover builtin"]["contents"]["value"]
    assert "size(z)" in text and "builtin function" in text and "how many" in text
    assert seen["hover builtin"]["range"]["start"] == where(FIXED, "size(")


def test_hover_shows_a_declaration(seen):
    text = seen["hover def"]["contents"]["value"]
    assert "def double(x)" in text and "line 5" in text
    zone = seen["hover included zone"]["contents"]["value"]
    assert "zone pool: pile, public" in zone and "parts.rules, line 2" in zone
    assert "The shared pile everyone draws from." in zone


def test_go_to_definition(seen):
    [here] = seen["definition def"]
    assert here["uri"].endswith("/demo.rules")
    assert here["range"]["start"] == where(FIXED, "double(x)") and here["range"]["end"]["character"] == 12
    [there] = seen["definition included"]
    assert there["uri"].endswith("/parts.rules")
    assert there["range"] == {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}}


def test_completion_offers_declarations_locals_builtins_and_keywords(seen):
    labels = {item["label"] for item in seen["completion"]["items"]}
    assert {"pool", "bonus", "double", "total", "go", "x"} <= labels          # declared, included, local
    assert {"size", "neighbours", "me", "players"} <= labels                   # builtins
    assert {"finish", "move", "if"} <= labels                                  # keywords
    assert not any(label.startswith("__") for label in labels)
    offered = [item["label"] for item in seen["completion prefix"]["items"]]
    assert "double" in offered and all(label.startswith("do") for label in offered)


def test_an_error_in_an_included_file_shows_on_the_include_line(seen):
    [error] = seen["included file saved"]
    assert error["code"] == "E101" and error["message"].startswith("parts.rules:4:18: unknown name `zero`")
    assert error["range"]["start"] == where(FIXED, '"parts.rules"')
    [there] = error["relatedInformation"]
    assert there["location"]["uri"].endswith("/parts.rules")
    assert there["location"]["range"]["start"] == {"line": 3, "character": 17}


def test_a_document_being_typed_or_garbage_never_breaks_the_server(seen):
    assert any(d["severity"] == 1 for d in seen["typing"])
    assert seen["garbage"] and all(d["code"].startswith("E0") for d in seen["garbage"])
    assert seen["hover garbage"] is None or "contents" in seen["hover garbage"]
    assert seen["shutdown"] is None and seen["exit code"] == 0


def test_without_pygls_the_command_says_how_to_get_it(tmp_path):
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ImportError('no pygls here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    done = subprocess.run([sys.executable, "-m", "rulelang", "lsp"], env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == "rulelang lsp needs pygls: pip install 'rulelang[lsp]'"


# ---- the analysis itself, without a client ------------------------------------------------------
def test_positions_count_utf16_units_and_every_kind_of_line_break():
    source = 'game "é" {\r\n  players 2\r  def x = "😀" + sizee(1)\n}\n'
    analysis = lsp.analyze(source, "/nowhere/x.rules")
    [error] = [d for d in lsp.lsp_diagnostics(analysis) if d["code"] == "E101"]
    assert error["range"]["start"] == {"line": 2, "character": 17}                  # the emoji counts 2
    [error] = [d for d in lsp.lsp_diagnostics(analysis, "utf-32") if d["code"] == "E101"]
    assert error["range"]["start"] == {"line": 2, "character": 16}
    text = lsp.Text('a😀b\nc')
    assert text.position(2) == (0, 3) and text.position(2, "utf-32") == (0, 2) and text.position(2, "utf-8") == (0, 5)
    assert text.at(0, 3) == 2 and text.at(0, 99) == 3 and text.at(9, 0) == len(text.text)


def test_a_form_feed_is_a_line_to_the_parser_but_not_to_lsp():
    source = 'game "x" {\n  players 2 \f def y = nope\n}\n'
    [error] = [d for d in lsp.lsp_diagnostics(lsp.analyze(source, "x.rules")) if d["code"] == "E101"]
    assert error["range"]["start"] == {"line": 1, "character": source.split("\n")[1].index("nope")}


@pytest.mark.parametrize("source", [
    "", "\x00" * 100, "game", '"' * 1000, "game \"x\" {" + "(" * 3000, "{" * 3000,
    'game "x" {\n players 2\n def a = ' + "[" * 200 + "]" * 200 + "\n}",
    "x" * (SOURCE_LIMIT + 10),
])
def test_any_document_gives_diagnostics_and_answers_without_raising(source):
    analysis = lsp.analyze(source, "/nowhere/x.rules")
    found = lsp.lsp_diagnostics(analysis)
    assert found and all(d["severity"] in (1, 2) and d["code"] for d in found)
    for line, character in ((0, 0), (0, 5), (3, 1), (10**6, 10**6)):
        lsp.hover(analysis, line, character)
        lsp.definition(analysis, line, character)
        lsp.completion(analysis, line, character)


def test_includes_resolve_beside_the_document_only(tmp_path):
    (tmp_path / "parts.rules").write_text("zone pool: pile, public\nvar bonus: int = oops\n")
    source = BROKEN.replace("sizee", "size")
    analysis = lsp.analyze(source, str(tmp_path / "demo.rules"))
    [error] = [d for d in lsp.lsp_diagnostics(analysis) if d["severity"] == 1]
    assert error["message"].startswith("parts.rules:2:")           # shown on the include line
    assert error["range"]["start"]["line"] == 2
    assert error["relatedInformation"][0]["location"]["uri"].endswith("/parts.rules")
    untitled = lsp.analyze(source, lsp.path_of("untitled:Untitled-1"))
    assert [d.code for d in untitled.diagnostics] == ["E007"]           # not looked for where the server runs


def test_an_included_file_opened_alone_is_checked_as_part_of_its_game(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "demo.rules").write_text(FIXED.replace('"parts.rules"', '"cards/parts.rules"'), encoding="utf-8")
    part = tmp_path / "cards" / "parts.rules"
    broken = PARTS.replace("int = 0", "int = zero")
    part.write_text(broken, encoding="utf-8")
    analysis = lsp.analyze(broken, str(part))
    [error] = lsp.lsp_diagnostics(analysis)                        # not "expected `game`"
    assert error["code"] == "E101" and "`zero`" in error["message"]
    assert error["range"]["start"] == where(broken, "zero")
    use = where(broken, "bonus")
    assert "var bonus: int" in lsp.hover(analysis, use["line"], use["character"])["contents"]["value"]
    labels = {i["label"] for i in lsp.completion(analysis, 1, 0)}
    assert {"double", "total", "pool"} <= labels                   # the including game's names
    typing = "zone pool pile\n" + PARTS                          # a syntax error: found in the text as typed
    [error] = lsp.lsp_diagnostics(lsp.analyze(typing, str(part)))
    assert error["code"] == "E001" and error["range"]["start"] == {"line": 0, "character": 10}
    alone = tmp_path / "alone.rules"                                # no game includes it: syntax only
    assert lsp.lsp_diagnostics(lsp.analyze(PARTS, str(alone))) == []


def test_hover_and_definition_on_the_example_games():
    path = str(ROOT / "games" / "valgard.rules")
    source = Path(path).read_text(encoding="utf-8")
    analysis = lsp.analyze(source, path)
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    use = where(source, "move stack[from] to stack[to]", inside=5)
    text = lsp.hover(analysis, use["line"], use["character"])["contents"]["value"]
    assert "zone stack: pile per cell of field" in text and "What stands on a cell" in text
    [loc] = lsp.definition(analysis, use["line"], use["character"])
    assert loc["range"]["start"] == where(source, "stack: pile")
    field = where(source, "]).owner", inside=3)
    assert "a field of kind Warrior" in lsp.hover(analysis, field["line"], field["character"])["contents"]["value"]
    assert {i["label"] for i in lsp.completion(analysis, field["line"], field["character"])} >= {"owner", "row"}
    step = where(source, "step act")                          # the keyword, not the builtin step(c, dir)
    assert "a decision point" in lsp.hover(analysis, step["line"], step["character"])["contents"]["value"]
    players = where(source, "players 2..2")
    assert "seat counts" in lsp.hover(analysis, players["line"], players["character"])["contents"]["value"]
    comment = where(source, "# V13")
    assert lsp.hover(analysis, comment["line"], comment["character"] + 3) is None
    # (a review: a def's `about def` words were not shown on hover, as a zone's are)
    home = where(source, "def open_home", inside=5)
    assert "the empty octagons of your home row" in lsp.hover(analysis, home["line"], home["character"])["contents"]["value"]
    dead = where(source, "not dead[c]", inside=5)                 # (and a variable's, `about var`)
    assert "dead land, beside a rune" in lsp.hover(analysis, dead["line"], dead["character"])["contents"]["value"]


def test_a_card_is_found_by_its_name_in_a_string(tmp_path):
    source = ('game "x" {\n  players 2\n  kind Card { power: int }\n  card Card "Big One" { power: 5  copies: 2 }\n'
              '  zone deck: pile, public\n  setup { create cards Card in deck }\n'
              '  turn { step go { action pass { log "Big One"  finish draw } } }\n}\n')
    analysis = lsp.analyze(source, str(tmp_path / "x.rules"))
    assert [d.code for d in analysis.diagnostics if d.severity == "error"] == []
    use = where(source, '"Big One"', 1, inside=3)
    text = lsp.hover(analysis, use["line"], use["character"])["contents"]["value"]
    assert 'card Card "Big One" { power: 5, copies: 2 }' in text
    [loc] = lsp.definition(analysis, use["line"], use["character"])
    assert loc["range"]["start"] == where(source, '"Big One"')
    assert lsp.completion(analysis, use["line"], use["character"]) == []


def test_every_builtin_has_hover_docs():
    functions, values = lsp.builtin_names()
    for name in list(functions) + list(values):
        analysis = lsp.analyze(f"{name}(x)", "x.rules")                  # used as a builtin is
        kind, doc = lsp.resolve(analysis, lsp.Cursor(name, 0, len(name), False, 0))
        assert kind in ("function", "value") and len(doc) > len(name) + 30, name
    missing = set(functions) - set(lsp.BUILTIN_DOCS)
    assert not missing, f"add these builtins to rulelang/editor/reference.py's BUILTIN_DOCS (from docs/language.md): {missing}"


def test_the_docs_tables_are_read_for_hover():
    tables = lsp.doc_tables((ROOT / "docs" / "language.md").read_text(encoding="utf-8"))
    assert "size" in tables["function"] and "zone" in tables["declaration"] and "move" in tables["statement"]
    assert "|" in tables["declaration"]["zone"][0]                       # `pile\|set`: an escaped bar, kept


def write_transcript(target: Path) -> None:
    """The session above, its messages abridged (long lists cut), as Markdown."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        seen, client = session(Path(folder))
        prefix = Path(folder).resolve().as_uri()

    def shorten(value, depth=0):
        if isinstance(value, str):
            value = value.replace(prefix, "file:///work")
            return value if len(value) <= 400 else value[:400] + "…"
        if isinstance(value, list):
            cut = [shorten(v, depth + 1) for v in value[:4]]
            return cut + ([f"… {len(value) - 4} more"] if len(value) > 4 else [])
        if isinstance(value, dict):
            if depth >= 1 and "capabilities" in value and isinstance(value["capabilities"], dict) and len(value["capabilities"]) > 6:
                value = {**value, "capabilities": {k: value["capabilities"][k] for k in list(value["capabilities"])[:6]}}
            return {k: shorten(v, depth + 1) for k, v in value.items()}
        return value
    lines = ["# An LSP session with `rulelang lsp`", "",
             "Written by `python tests/test_lsp.py docs/lsp-session.md`: the scripted session of tests/test_lsp.py",
             "(a client speaking JSON-RPC over the server's stdin and stdout), every message as sent, abridged:",
             "long texts and lists are cut, and the temporary folder is shown as `file:///work`.", "",
             "The folder holds `demo.rules`, opened with an error (`sizee`), then fixed, and `parts.rules`, which",
             "it includes. Then `parts.rules` is saved with an error (`int = zero`), the main file is typed in",
             "(`+ do`, completed) and finally replaced by garbage; the server answers throughout.", "",
             "```rulelang", BROKEN.rstrip(), "```", "", "```rulelang", PARTS.rstrip(), "```", ""]
    for direction, message in client.log:
        who = "client → server" if direction == "->" else "server → client"
        what = message.get("method") or f"response to #{message.get('id')}"
        lines += [f"**{who}**: `{what}`", "", "```json", pretty(shorten(message)), "```", ""]
    lines.append(f"The server exited with code {seen['exit code']}.")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def pretty(value, indent: str = "") -> str:
    """JSON with whatever fits in 100 characters on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + len(indent) <= 100 or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {pretty(v, inner).lstrip()}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + pretty(v, inner).lstrip() for v in value) + "\n" + indent + "]"


if __name__ == "__main__":
    write_transcript(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/lsp-session.md"))


def test_many_diagnostics_in_one_content_file_read_and_split_that_file_once(tmp_path, monkeypatch):
    # fuzz finding (issue 25): 3,000 bad YAML rows re-read and re-split their file per diagnostic,
    # quadratic in the file's size
    rows = "".join(f"- {{name: c{i}, colour: nope{i}}}\n" for i in range(300))
    (tmp_path / "cards.yaml").write_text(rows, encoding="utf-8")
    source = ('game "x" {\n  players 2\n  enum Colour { red, blue }\n  kind Card { name: text  colour: Colour }\n'
              '  zone deck: pile\n  setup { create Card from "cards.yaml" in deck }\n'
              '  turn { step s { action go { finish draw } } }\n}\n')
    path = tmp_path / "x.rules"
    path.write_text(source, encoding="utf-8")
    analysis = lsp.analyze(source, str(path))
    splits = []
    from rulelang.editor import analysis as analysed
    real_text = analysed.Text
    monkeypatch.setattr(analysed, "Text", lambda text: splits.append(len(text)) or real_text(text))
    found = lsp.lsp_diagnostics(analysis)
    about_rows = [d for d in found if d["message"].startswith("cards.yaml:")]
    assert len(about_rows) == 300
    assert all(d["relatedInformation"][0]["location"]["range"]["start"]["line"] == int(d["message"].split(":")[1]) - 1
               for d in about_rows)
    assert len(splits) == 2                       # this document and the content file, once each


@pytest.mark.parametrize("length", ["9223372036854775808", "4611686018427387904"])
def test_a_message_too_long_to_read_stops_the_server_with_one_line(length):
    """A fuzz trial: `Content-Length: 2**63` ended in "internal error: OverflowError … please report"."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "rulelang", "lsp"], input=f"Content-Length: {length}\r\n\r\n{{}}".encode(),
                          capture_output=True, env=env, cwd=str(ROOT), timeout=120)
    assert done.returncode == 1 and b"internal error" not in done.stderr
    assert done.stderr.decode().strip() == "rulelang lsp: a message announced more bytes than can be read; stopping"


def test_input_ending_while_typing_pauses_ends_the_server_without_a_traceback():
    """A fuzz trial: an editor gone without `exit` right after a change (the server waiting for the
    typing to pause) left `asyncio.CancelledError` and its traceback on stderr."""
    def frame(message):
        body = json.dumps(message).encode()
        return f"Content-Length: {len(body)}\r\n\r\n".encode() + body
    uri = "file:///tmp/x.rules"
    data = b"".join([
        frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "rulelang", "version": 1, "text": 'game "x" {}'}}}),
        frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": 'game "y" {}'}]}})])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "rulelang", "lsp"], input=data, capture_output=True, env=env,
                          cwd=str(ROOT), timeout=120)
    assert done.returncode == 1                       # (no `shutdown` first: 1, as the protocol says)
    assert b"Traceback" not in done.stderr and b"CancelledError" not in done.stderr, done.stderr.decode()[-800:]


@contextlib.contextmanager
def started(folder: Path):
    """A server initialized in `folder`; shut down and exited (code 0) at the end — killed on a failure."""
    client = Client(folder)
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": folder.resolve().as_uri(),
                                      "capabilities": {}})
        client.notify("initialized", {})
        yield client
        client.request("shutdown")
        client.notify("exit")
        assert client.close() == 0
    except BaseException:
        client.proc.kill()
        client.close()
        raise


def test_a_request_about_a_file_the_editor_never_opened_reads_nothing_from_disk(tmp_path):
    """A fuzz trial: a hover naming a document never opened made the server read that path itself —
    a FIFO blocked it for ever (no answer to anything after), /dev/zero took 1.8 GB, another folder's
    rule file was read and answered from. It answers nothing of such a file, at once."""
    fifo = tmp_path / "fifo.rules"
    os.mkfifo(fifo)
    (tmp_path / "private.rules").write_text('game "P" {\n  def SECRET_hunter2 = 1\n}\n', encoding="utf-8")
    private = (tmp_path / "private.rules").resolve().as_uri()
    with started(tmp_path) as client:
        for uri in (fifo.resolve().as_uri(), "file:///dev/zero", private):
            assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                         "position": {"line": 1, "character": 7}}) is None
        found = client.request("textDocument/completion", {"textDocument": {"uri": private},
                                                           "position": {"line": 1, "character": 7}})
        assert "hunter2" not in json.dumps(found)


def test_saves_in_a_burst_are_checked_once(tmp_path):
    """A fuzz trial: five saves of a large file, each checking every open document at once, held a
    hover up 29 s. Saves are checked once saving pauses, as typing is."""
    main = tmp_path / "demo.rules"
    main.write_text(FIXED, encoding="utf-8")
    (tmp_path / "parts.rules").write_text(PARTS, encoding="utf-8")
    uri = main.resolve().as_uri()
    with started(tmp_path) as client:
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulelang", "version": 1,
                                                                "text": FIXED}})
        client.diagnostics(uri, 1)
        for _ in range(5):
            client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        client.diagnostics(uri, 1)                     # (the one check of the burst)
        time.sleep(1.0)
        assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": where(FIXED, "size(", inside=1)}) is not None
        published = [m for way, m in client.log if way == "<-" and m.get("method") == "textDocument/publishDiagnostics"]
        assert len(published) == 2, published          # (the open's, and one for the five saves)


def test_a_document_whose_path_has_a_space_or_an_accent_is_answered(tmp_path):
    """A review: a file URI arrives percent-encoded (`sp%20ace`, `%C3%BC`), pygls keeps the document
    under its unquoted form, and the server answered nothing of such a document — a broken file
    looked clean."""
    folder = tmp_path / "sp ace ü"
    folder.mkdir()
    (folder / "parts.rules").write_text(PARTS, encoding="utf-8")
    main = folder / "demo.rules"
    main.write_text(FIXED, encoding="utf-8")
    uri = main.resolve().as_uri()
    assert "%20" in uri
    with started(folder) as client:
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulelang", "version": 1,
                                                                "text": BROKEN}})
        assert client.diagnostics(uri, 1)                          # (the broken file's errors, under its URI)
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": FIXED}]})
        client.diagnostics(uri, 2)
        assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": where(FIXED, "size(", inside=1)}) is not None
        client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        client.diagnostics(uri, 2)                                 # (published under the editor's URI)
