"""The rulebook as Markdown (CommonMark with GitHub's tables), for docs/games/ and `explain --format md`.

Every piece of text is escaped, so what a rule file writes in a name, a label, a doc or a comment (a `*`,
a `<script>`, a `|` in a table, a line break) shows as those characters and never becomes markup; anchors
are made of letters, digits and dashes only.
"""

from __future__ import annotations

import re

from ..dsl.diagnostics import shown
from .model import Block, Bullets, Code, Document, Note, Paragraph, Run, Runs, Section, Table

_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~&!])")
# What makes a line a list item, a quote or a heading's underline: escaped at the start of a paragraph.
_LEADING = re.compile(r"^(\s*)(?:([-+*])(?=\s|$)|([=>])|(\d+)([.)])(?=\s|$))")


def safe_anchor(a: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", a.lower())


def _plain(s: str) -> str:
    """One line of text: control characters escaped visibly, runs of spaces and line breaks made one space."""
    return shown(re.sub(r"\s+", " ", s))


def _text(s: str) -> str:
    return _SPECIAL.sub(r"\\\1", _plain(s))


def _code(s: str, table: bool) -> str:
    body = _plain(s)
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    if body.startswith("`") or body.endswith("`") or (body.startswith(" ") and body.endswith(" ")):
        body = f" {body} "
    if table:
        body = body.replace("|", "\\|")  # GitHub's tables split cells at a bar, even inside code
    return f"{fence}{body}{fence}" if body else ""


def _wrap(mark: str, s: str) -> str:
    """Emphasis around the words only: `*` next to a space does not open or close it."""
    body = _text(s.strip())
    lead, trail = (" " if s[:1].isspace() else ""), (" " if s[-1:].isspace() else "")
    return f"{lead}{mark}{body}{mark}{trail}" if body else _text(s)


def runs(rs: Runs, table: bool = False) -> str:
    out = []
    for r in rs:
        if r.kind == "code":
            out.append(_code(r.text, table))
        elif r.kind == "em":
            out.append(_wrap("*", r.text))
        elif r.kind == "strong":
            out.append(_wrap("**", r.text))
        elif r.kind in ("link", "codelink"):
            label = _code(r.text, table) if r.kind == "codelink" else _text(r.text)
            out.append(f"[{label}](#{safe_anchor(r.target)})")
        else:
            out.append(_text(r.text))
    line = "".join(out)
    return line if table else _LEADING.sub(_escape_lead, line, count=1)


def _escape_lead(m: re.Match[str]) -> str:
    if m.group(4):
        return f"{m.group(1)}{m.group(4)}\\{m.group(5)}"
    return f"{m.group(1)}\\{m.group(2) or m.group(3)}"


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def block(b: Block) -> list[str]:
    """A block as lines (without the blank line that separates it from the next)."""
    if isinstance(b, Paragraph):
        return [runs(b.runs)]
    if isinstance(b, Note):
        return ["> " + runs(b.runs)]
    if isinstance(b, Code):
        lines = [shown(ln) for ln in b.text.splitlines()]
        fence = _fence(b.text)
        return [fence] + lines + [fence]
    if isinstance(b, Table):
        head = "| " + " | ".join(runs(c, True) or " " for c in b.header) + " |"
        sep = "| " + " | ".join("---" for _ in b.header) + " |"
        rows = ["| " + " | ".join(runs(c, True) or " " for c in r) + " |" for r in b.rows]
        return [head, sep] + rows
    assert isinstance(b, Bullets)
    out: list[str] = []
    for it in b.items:
        first = True
        for inner in it:
            lines = block(inner)
            if not first:
                out.append("")
            for i, ln in enumerate(lines):
                lead = "- " if first and i == 0 else "  "
                out.append((lead + ln).rstrip() if ln else "")
            first = False
    return out


def _blocks(bs: list[Block]) -> list[str]:
    out: list[str] = []
    for b in bs:
        out += block(b) + [""]
    return out


def _section(s: Section, level: int) -> list[str]:
    out = [f'<a id="{safe_anchor(s.anchor)}"></a>', "", f"{'#' * min(level, 6)} {runs([Run('text', s.title)])}", ""]
    out += _blocks(s.blocks)
    for sub in s.sections:
        out += _section(sub, level + 1)
    return out


def to_markdown(doc: Document, contents: bool = True) -> str:
    out = [f"# {runs([Run('text', doc.title)])}", ""]
    out += _blocks(doc.blocks)
    if contents and doc.sections:
        out += ["Contents:", ""]
        out += [f"- [{_text(s.title)}](#{safe_anchor(s.anchor)})" for s in doc.sections]
        out.append("")
    for s in doc.sections:
        out += _section(s, 2)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"
