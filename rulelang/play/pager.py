"""Reading long text at a terminal (issue 28): the rulebook in sections, and paging.

`sections` cuts the text rulebook (`repl.rulebook`) at its headings; `overview` is what `rules`
with no argument shows at a terminal: the game in a paragraph, how to win, the turn's steps, and
a table of contents naming each section (and each group of cards and pieces) as `rules KEY`;
`find_section` is `rules KEY`. `pages` cuts lines into screens. Nothing here knows a game.
"""
from __future__ import annotations

import re

STOP_WORDS = {"a", "an", "and", "the", "to", "how", "of", "in"}
MORE = "-- more: Enter, q to stop --"


def sections(text: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(the lines before the first heading, [(heading, its lines)]) of a text rulebook, where a
    heading is a line underlined with `-` of its length."""
    lines = text.split("\n")
    head: list[str] = []
    found: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        under = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and under and set(under) == {"-"} and len(under) == len(line):
            found.append((line, []))
            i += 2
            continue
        (found[-1][1] if found else head).append(line)
        i += 1
    return head, [(title, _trimmed(body)) for title, body in found]


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def key_of(title: str) -> str:
    """The word `rules KEY` names a section by: its last word that is no stop word, lower case
    (`How to win` → win, `A turn` → turn, `Cards and pieces` → cards)."""
    words = [w for w in re.findall(r"[\w'-]+", title.lower()) if w not in STOP_WORDS]
    if not words:
        return title.lower()
    return words[0] if len(words) > 1 and words[-1] == "pieces" else words[-1]


def find_section(text: str, groups: list[tuple[str, list[tuple[str, str]]]], wanted: str) -> list[str] | None:
    """The lines of the section (or group of cards and pieces) `wanted` names: its key, its
    heading, or a word of its heading, any case; None when none does."""
    wanted = " ".join(wanted.lower().split())
    _, found = sections(text)
    for title, body in found:
        if wanted in (key_of(title), title.lower()):
            return [title, "-" * len(title), ""] + body
    out: list[str] = []
    for title, entries in groups:
        name = title.lower().rstrip(":")
        if wanted in (name, name.rstrip("s"), name + "s", key_of(title), key_of(title).rstrip("s")):
            out += [title, "-" * len(title), ""] + [f"- {names}: {words}" for names, words in entries] + [""]
    if out:
        return out[:-1]
    for title, body in found:
        if wanted in [w for w in re.findall(r"[\w'-]+", title.lower()) if w not in STOP_WORDS]:
            return [title, "-" * len(title), ""] + body
    return None


def overview(text: str, groups: list[tuple[str, list[tuple[str, str]]]]) -> list[str]:
    """`rules` at a terminal: the game's first paragraph, how to win, the turn step by step (the
    steps' words, without their actions), then what else there is to read and how."""
    head, found = sections(text)
    out = _trimmed(head)
    paragraphs = _paragraphs(out[3:]) if len(out) > 2 and set(out[1]) == {"="} else _paragraphs(out)
    out = out[:3] + (paragraphs[0] if paragraphs else [])
    for title, body in found:
        key = key_of(title)
        if key == "win":
            out += ["", title, "-" * len(title), ""] + _paragraphs(body)[0]
            ends = [x for x in body if x.startswith("The game ends")]
            if ends:
                out.append("(rules win: every way the game ends)")
        elif key == "turn":
            parts = _paragraphs(body)
            out += ["", title, "-" * len(title), ""] + (parts[0] if parts else [])
            steps = [p[0] for p in parts[1:] if p and p[0].startswith("Step ")]
            out += [""] + [f"  {s}" for s in steps]
            out.append("(rules turn: every step with its actions)")
    out += ["", "More to read (type rules and a word):"]
    for title, _ in found:
        out.append(f"  rules {key_of(title):<12} {title}")
    if groups:
        example = next((names.split(",")[0].split(" (")[0] for _, entries in groups for names, _ in entries), "")
        out.append(f"  rules {'NAME':<12} one card or piece" + (f", e.g. rules {example}" if example else ""))
        out.append(f"  rules {'GROUP':<12} a group of them: " + ", ".join(key_of(t) for t, _ in groups))
    out.append(f"  rules {'all':<12} everything")
    return out


def _paragraphs(lines: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    block: list[str] = []
    for line in lines:
        if line.strip():
            block.append(line)
        elif block:
            out.append(block)
            block = []
    if block:
        out.append(block)
    return out


def pages(lines: list[str], height: int) -> list[list[str]]:
    """`lines` cut into screens of `height` lines less one (the `-- more --` line)."""
    size = max(1, height - 1)
    return [lines[i:i + size] for i in range(0, len(lines), size)] or [[]]
