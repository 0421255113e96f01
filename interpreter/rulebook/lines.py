"""The rulebook as lines of styled text for the terminal table's rules help (`?` in `cardsmith play`).

A line is a list of (text, style) segments, as the terminal table draws them (table/terminal.py, which
escapes every segment when it prints). Tables become one line per row, each value after its heading.
"""

from __future__ import annotations

import re

from .model import Block, Bullets, Code, Document, Note, Paragraph, Runs, Section, Table

Seg = tuple[str, str]
Line = list[Seg]
_STYLE = {"code": "cyan", "codelink": "cyan", "em": "italic", "strong": "bold", "link": "underline", "text": ""}


def _runs(rs: Runs) -> Line:
    # Code keeps its backquotes: without colours (a transcript, a pipe) they are what marks it.
    return [(f"`{t}`" if r.kind in ("code", "codelink") else t, _STYLE[r.kind]) for r in rs if r.text
            for t in [re.sub(r"\s+", " ", r.text)]]


def _cells(header: list[Runs], row: list[Runs]) -> Line:
    """A table's row: its first cell, then each other cell after its column's heading."""
    out: Line = [(t, st or "bold") for t, st in _runs(row[0])] if row else []
    said = 0
    for head, cell in zip(header[1:], row[1:]):
        if cell:
            out += [(" — " if not said else "; ", ""), (" ".join(r.text for r in head) + ": ", "dim")] + _runs(cell)
            said += 1
    return out


def block(b: Block, indent: str = "") -> list[Line]:
    if isinstance(b, Paragraph):
        return [[(indent, "")] + _runs(b.runs)]
    if isinstance(b, Note):
        return [[(indent, ""), ("note: ", "dim")] + [(s, "dim") for s, _ in _runs(b.runs)]]
    if isinstance(b, Code):
        return [[(indent + "    ", ""), (ln, "cyan")] for ln in b.text.splitlines()]
    if isinstance(b, Table):
        return [[(indent + "  ", "")] + _cells(b.header, row) for row in b.rows]
    assert isinstance(b, Bullets)
    out: list[Line] = []
    for it in b.items:
        for i, inner in enumerate(it):
            lines = block(inner, indent + "  ")
            if i == 0 and lines and isinstance(inner, Paragraph):
                lines[0] = [(indent + "- ", "")] + lines[0][1:]
            out += lines
    return out


def _section(s: Section, depth: int) -> list[Line]:
    out: list[Line] = [[], [(s.title, "bold cyan" if depth == 0 else "bold")]]
    for b in s.blocks:
        out += block(b)
    for sub in s.sections:
        out += _section(sub, depth + 1)
    return out


def to_lines(doc: Document, main_only: bool = False, head: bool = True) -> list[Line]:
    """The document as lines; `main_only`: without the details for the curious (strategies for bots);
    `head=False`: its sections only, without the title and the summary above them."""
    out: list[Line] = [[(doc.title, "bold")]] if head else []
    for b in doc.blocks if head else []:
        out += block(b)
    for s in doc.sections:
        if s.main or not main_only:
            out += _section(s, 0)
    return out
