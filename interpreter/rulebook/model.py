"""The rulebook as data: sections of paragraphs, lists, tables, code and the designer's notes.

The builder (build.py) makes a `Document`; the renderers (markdown.py, html.py, lines.py) and the web
table (as JSON, `to_json`) show it. Text in a document is plain text, never markup: every renderer
escapes it for its own format, since most of it comes from a rule file, which may be a stranger's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RUN_KINDS = ("text", "code", "em", "strong", "link", "codelink")


@dataclass(frozen=True)
class Run:
    """A piece of a line of text: plain text, code (a name or an expression as written), emphasis, or a
    link to a section of the same document (`target` is the section's anchor), as text or as code."""

    kind: str
    text: str
    target: str = ""


Runs = list[Run]


def text(s: str) -> Run:
    return Run("text", s)


def code(s: str) -> Run:
    return Run("code", s)


def em(s: str) -> Run:
    return Run("em", s)


def strong(s: str) -> Run:
    return Run("strong", s)


def link(s: str, target: str) -> Run:
    return Run("link", s, target)


def codelink(s: str, target: str) -> Run:
    return Run("codelink", s, target)


@dataclass
class Paragraph:
    runs: Runs


@dataclass
class Note:
    """The designer's comment next to a definition in the rule file, quoted as it is."""

    runs: Runs


@dataclass
class Bullets:
    """A list; each item is a list of blocks (a paragraph, then perhaps a nested list)."""

    items: list[list[Block]]


@dataclass
class Table:
    header: list[Runs]
    rows: list[list[Runs]]


@dataclass
class Code:
    """An expression or a table as written in the rule file, kept line by line."""

    text: str


Block = Paragraph | Note | Bullets | Table | Code


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    main: bool = True  # part of the rules a player reads; False: details for the curious (strategies for bots)


@dataclass
class Document:
    title: str
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)


def item(*blocks: Block) -> list[Block]:
    return list(blocks)


def para(*runs: Run | str) -> Paragraph:
    return Paragraph([text(r) if isinstance(r, str) else r for r in runs])


# ---------------------------------------------------------------- JSON, for the web table
def _runs(runs: Runs) -> list[Any]:
    return [[r.kind, r.text, r.target] if r.target else [r.kind, r.text] for r in runs]


def _block(b: Block) -> dict[str, Any]:
    if isinstance(b, Paragraph):
        return {"type": "p", "runs": _runs(b.runs)}
    if isinstance(b, Note):
        return {"type": "note", "runs": _runs(b.runs)}
    if isinstance(b, Bullets):
        return {"type": "list", "items": [[_block(x) for x in it] for it in b.items]}
    if isinstance(b, Table):
        return {"type": "table", "header": [_runs(c) for c in b.header],
                "rows": [[_runs(c) for c in r] for r in b.rows]}
    return {"type": "code", "text": b.text}


def _section(s: Section) -> dict[str, Any]:
    return {"title": s.title, "anchor": s.anchor, "main": s.main, "blocks": [_block(b) for b in s.blocks],
            "sections": [_section(x) for x in s.sections]}


def to_json(doc: Document) -> dict[str, Any]:
    """The document as plain data (lists and dicts of text) for a page to build with text nodes only."""
    return {"title": doc.title, "blocks": [_block(b) for b in doc.blocks],
            "sections": [_section(s) for s in doc.sections]}

