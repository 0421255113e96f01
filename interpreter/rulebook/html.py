"""The rulebook as one self-contained HTML page: its style inline, no script, nothing loaded from elsewhere.

Every piece of text goes through `html.escape` (after control characters are made visible), so a rule
file's `<script>` in a summary, a label or a comment is shown as text. The only markup is written here,
and anchors are letters, digits and dashes.
"""

from __future__ import annotations

import html
import re

from ..dsl.diagnostics import shown
from .markdown import safe_anchor
from .model import Block, Bullets, Code, Document, Note, Paragraph, Runs, Section, Table

STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1, h2, h3, h4 { line-height: 1.25; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
code, pre { font: 14px/1.4 ui-monospace, monospace; background: #f4f4f4; }
code { padding: 0 .2em; border-radius: 3px; }
pre { padding: .6rem .8rem; overflow-x: auto; border-radius: 4px; }
pre code { padding: 0; }
table { border-collapse: collapse; margin: .6rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
blockquote.note { margin: .5rem 0; padding: .1rem .8rem; border-left: 3px solid #bbb; color: #555; }
.details { color: #555; font-size: .9rem; }
"""


def _esc(s: str, keep_lines: bool = False) -> str:
    if keep_lines:
        return "\n".join(html.escape(shown(line), quote=True) for line in s.splitlines())
    return html.escape(shown(re.sub(r"\s+", " ", s)), quote=True)


def runs(rs: Runs) -> str:
    out = []
    for r in rs:
        if r.kind == "code":
            out.append(f"<code>{_esc(r.text)}</code>")
        elif r.kind == "em":
            out.append(f"<em>{_esc(r.text)}</em>")
        elif r.kind == "strong":
            out.append(f"<strong>{_esc(r.text)}</strong>")
        elif r.kind == "link":
            out.append(f'<a href="#{safe_anchor(r.target)}">{_esc(r.text)}</a>')
        elif r.kind == "codelink":
            out.append(f'<a href="#{safe_anchor(r.target)}"><code>{_esc(r.text)}</code></a>')
        else:
            out.append(_esc(r.text))
    return "".join(out)


def block(b: Block) -> str:
    if isinstance(b, Paragraph):
        return f"<p>{runs(b.runs)}</p>"
    if isinstance(b, Note):
        return f'<blockquote class="note">{runs(b.runs)}</blockquote>'
    if isinstance(b, Code):
        return f"<pre><code>{_esc(b.text, keep_lines=True)}</code></pre>"
    if isinstance(b, Table):
        head = "".join(f"<th>{runs(c)}</th>" for c in b.header)
        rows = "".join("<tr>" + "".join(f"<td>{runs(c)}</td>" for c in r) + "</tr>" for r in b.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    assert isinstance(b, Bullets)
    return "<ul>" + "".join("<li>" + "".join(block(x) for x in it) + "</li>" for it in b.items) + "</ul>"


def _section(s: Section, level: int) -> str:
    h = min(level, 6)
    cls = "" if s.main else ' class="details"'
    inner = "".join(block(b) for b in s.blocks) + "".join(_section(x, level + 1) for x in s.sections)
    return f'<section id="{safe_anchor(s.anchor)}"{cls}><h{h}>{_esc(s.title)}</h{h}>{inner}</section>'


def to_html(doc: Document) -> str:
    contents = "".join(f'<li><a href="#{safe_anchor(s.anchor)}">{_esc(s.title)}</a></li>' for s in doc.sections)
    body = (f"<h1>{_esc(doc.title)}</h1>" + "".join(block(b) for b in doc.blocks)
            + (f"<nav><p>Contents:</p><ul>{contents}</ul></nav>" if contents else "")
            + "".join(_section(s, 2) for s in doc.sections))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(doc.title)}: rules</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n"
            "</html>\n")
