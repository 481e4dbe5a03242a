"""`rulelang lsp`: a language server for editors (diagnostics as you type, hover, go to definition,
completion), speaking LSP over stdio through pygls.

pygls is an optional extra (`rulelang[lsp]`): it is imported only by `serve`, so everything else here
(the analysis of a document, the answers to hover, definition and completion) is plain Python that
tests call directly. A document comes from an editor and may be anything: it goes through the same
parser and checker as `rulelang lint` (with their limits, rulelang/core/limits.py), nothing in it is ever
run, and every handler answers "nothing" rather than let an exception reach the client.

Its parts: positions.py (lines and columns both ways), reference.py (builtin and keyword docs),
analysis.py (a document checked and indexed, diagnostics), navigation.py (hover, definition,
completion); this module is the server.
"""
from __future__ import annotations

from urllib.parse import unquote

from ..core.textsafe import printable
from .analysis import Analysis, Index, _range, analyze, lsp_diagnostics, read_file
from .navigation import Cursor, completion, cursor, definition, hover, path_of, resolve, uri_of
from .positions import Text, units
from .reference import BUILTIN_DOCS, builtin_names, doc_tables, keywords, reference

# The editor's parts, one module each (positions, reference, analysis, navigation); this module is
# the server over them and the one name callers and tests import.
__all__ = ["serve", "analyze", "lsp_diagnostics", "read_file", "Analysis", "Index", "hover", "definition",
           "completion", "cursor", "Cursor", "resolve", "path_of", "uri_of", "Text", "units", "BUILTIN_DOCS",
           "builtin_names", "doc_tables", "keywords", "reference"]


DEBOUNCE = 0.15                 # seconds of quiet typing before a changed document is checked again


# ---- the server ----------------------------------------------------------------------------------
def serve(stdin=None, stdout=None) -> int:
    """Run the server on stdio until the client says exit."""
    import asyncio
    import logging

    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer

    from ..core.version import __version__

    logging.getLogger("pygls").setLevel(logging.CRITICAL)    # nothing on stderr for a routine hiccup
    # (nor for an editor gone with the server's output closed: six tracebacks from the futures' logger)
    logging.getLogger("concurrent.futures").setLevel(logging.CRITICAL)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    server = LanguageServer("rulelang", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Full)
    analyses: dict[str, Analysis] = {}         # uri -> the latest analysis
    good: dict[str, Analysis] = {}             # uri -> the latest one that parsed (for hover while typing)
    pending: dict[str, int] = {}               # uri -> the newest change waiting to be checked

    def encoding() -> str:
        try:
            return str(server.workspace.position_encoding or "utf-16")
        except Exception:
            return "utf-16"

    def current(uri: str) -> Analysis | None:
        """The document's analysis, made afresh if the text moved on since; while it does not
        parse, the last one that did lends its declarations."""
        # (only what the editor opened — kept under its unquoted URI: `sp%20ace` is `sp ace`, a review —;
        # a request naming any other file made the server read it from disk, a FIFO for ever, /dev/zero
        # to 1.8 GB: a fuzz trial)
        doc = server.workspace.text_documents.get(unquote(uri))
        if doc is None:
            return None
        source = doc.source
        found = analyses.get(uri)
        if found is None or found.source != source:
            opened = {}
            for other in list(server.workspace.text_documents.values()):
                if other.uri != uri and other.uri.startswith("file:"):
                    opened[path_of(other.uri)] = other.source
            found = analyses[uri] = analyze(source, path_of(uri), opened)
            if found.index is not None:
                good[uri] = found
        if found.index is None and uri in good:
            return Analysis(found.source, found.path, found.diagnostics, good[uri].index)
        return found

    def publish(uri: str, version) -> None:
        try:
            analysis = current(uri)
            items = lsp_diagnostics(analysis, encoding()) if analysis else []
        except Exception as err:
            items = [{"range": _range(((0, 0), (0, 0))), "severity": 1, "code": "E000", "source": "rulelang",
                      "message": printable(f"internal error: {type(err).__name__}: {err} (please report this)")}]
        diagnostics = [t.Diagnostic(range=_lsp_range(t, d["range"]), message=d["message"],
                                    severity=t.DiagnosticSeverity(d["severity"]), code=d["code"], source="rulelang",
                                    related_information=[t.DiagnosticRelatedInformation(
                                        location=t.Location(uri=r["location"]["uri"],
                                                            range=_lsp_range(t, r["location"]["range"])),
                                        message=r["message"]) for r in d.get("relatedInformation", [])] or None)
                       for d in items]
        server.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: t.DidOpenTextDocumentParams):
        try:
            publish(params.text_document.uri, params.text_document.version)
        except Exception:
            pass

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: t.DidChangeTextDocumentParams):
        """Checked once typing pauses: a burst of keystrokes costs one parse, of the last text."""
        try:
            uri, version = params.text_document.uri, params.text_document.version
            pending[uri] = version
            await asyncio.sleep(DEBOUNCE)
            if pending.get(uri) == version:
                publish(uri, version)
        except asyncio.CancelledError:      # (the input ended while typing paused: an editor gone
            return                          # without `exit` got a traceback on stderr — a fuzz trial)
        except Exception:
            pass

    saves: list = []                           # the latest save waiting to be checked (one item)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls, params: t.DidSaveTextDocumentParams):
        """A saved file may be included by (or include) another open document, which reads it from
        disk: every open document is checked again — once saving pauses (five saves of a large
        file, each checking everything at once, held a hover up 29 s: a fuzz trial)."""
        mark = object()
        saves[:] = [mark]
        try:
            await asyncio.sleep(DEBOUNCE)
        except asyncio.CancelledError:
            return
        if saves[:1] != [mark]:
            return
        for doc in list(server.workspace.text_documents.values()):
            try:                                # (by the editor's own URI, not the unquoted key: a review)
                analyses.pop(doc.uri, None)
                publish(doc.uri, doc.version)
            except Exception:
                pass

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: t.DidCloseTextDocumentParams):
        try:
            uri = params.text_document.uri
            for table in (analyses, good, pending):
                table.pop(uri, None)
            server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        except Exception:
            pass

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: t.HoverParams):
        try:
            analysis = current(params.text_document.uri)
            found = hover(analysis, params.position.line, params.position.character, encoding())
            if found is None:
                return None
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=found["contents"]["value"]),
                           range=_lsp_range(t, found["range"]))
        except Exception:
            return None

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: t.DefinitionParams):
        try:
            uri = params.text_document.uri
            analysis = current(uri)
            found = definition(analysis, params.position.line, params.position.character, encoding(), uri)
            return [t.Location(uri=f["uri"], range=_lsp_range(t, f["range"])) for f in found] or None
        except Exception:
            return None

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls, params: t.CompletionParams):
        try:
            analysis = current(params.text_document.uri)
            found = completion(analysis, params.position.line, params.position.character, encoding())
            return t.CompletionList(is_incomplete=False, items=[
                t.CompletionItem(label=i["label"], kind=t.CompletionItemKind(i["kind"]), detail=i.get("detail"),
                                 documentation=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                                               value=i["documentation"]["value"])
                                 if "documentation" in i else None) for i in found])
        except Exception:
            return t.CompletionList(is_incomplete=False, items=[])

    # The protocol gets its own handle on the output (pygls closes it at exit); meanwhile anything
    # printed by mistake goes to stderr rather than into the protocol's stream.
    import os
    import sys
    out = stdout or os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        server.start_io(stdin or sys.stdin.buffer, out)
    except (OverflowError, MemoryError):        # (a `Content-Length` of 2**63: pygls read it whole — a fuzz trial)
        print("rulelang lsp: a message announced more bytes than can be read; stopping", file=sys.stderr)
        return 1
    finally:
        sys.stdout = saved
    return 0 if getattr(server.protocol, "_shutdown", False) else 1      # LSP: exit without shutdown is 1


def _lsp_range(t, rng: dict):
    return t.Range(start=t.Position(line=rng["start"]["line"], character=rng["start"]["character"]),
                   end=t.Position(line=rng["end"]["line"], character=rng["end"]["character"]))
