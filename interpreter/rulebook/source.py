"""What the rule file itself says, beyond its tree: expressions as the designer wrote them, and comments.

The spec keeps each expression as a tree whose nodes know where their first token is written
(dsl/diagnostics.py, `Span`), not the text. The text is found again from the files the game was read from
(`CompiledGame.sources`): each file is read once more by the same YAML loader, which keeps every value's
position, and the value holding the expression's leftmost token is parsed again. Its text is used only if
it parses into the very same tree, so a quote is always the expression itself, never a neighbour.

PyYAML drops comments, so they are read from the lines: the comment lines right above a definition
(up to a blank line) and the comment at the end of its line. A `#` inside a quoted value or a block of
expression text is not a comment; each comment is given once, to the first definition that asks.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import fields, is_dataclass
from typing import Any

from ..dsl import ast as A
from ..dsl import parser
from ..dsl.diagnostics import Diagnostic, Span
from ..dsl.limits import Limits
from ..dsl.yaml_loader import YList, YMap, YNode, YScalar, load

# A comment that draws a line (`# -----`, `# ===== cards`) heads a part of the file; it says nothing of a rule.
_RULE = re.compile(r"[\s#\-=*_~+.]*\Z|[#\-=*_~+]{3,}")


def same(a: Any, b: Any) -> bool:
    """Two trees alike in everything but their places and what the checker added (types, references)."""
    if isinstance(a, A.Node) or isinstance(b, A.Node):
        if type(a) is not type(b) or not is_dataclass(a):
            return False
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a)
                   if f.name not in ("ty", "ref") and f.name not in A.PLACE_FIELDS)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


class _File:
    def __init__(self, name: str, text: str, limits: Limits) -> None:
        self.name = name
        self.lines = text.splitlines()
        self.root = load(name, text, [], limits)
        self.scalars: list[YScalar] = []
        self.keys: list[YScalar] = []
        self._collect(self.root, top=True)
        # Where each text value starts (its first character that is not a space), in file order.
        starts = []
        for sc in self.scalars:
            starts.append(((_first(sc).line, _first(sc).col), sc))
        starts.sort(key=lambda x: x[0])
        self.starts = [p for p, _ in starts]
        self.by_start = [sc for _, sc in starts]
        # Lines that are text inside a block value (`|`, `>`): a `#` there belongs to the expression.
        self.inside: set[int] = {fl for sc in self.scalars for fl, _ in sc.line_starts}
        self.quoted: dict[int, list[int]] = {}  # line -> columns where a quoted value starts
        for sc in self.scalars + self.keys:
            if sc.style in ("'", '"'):
                self.quoted.setdefault(sc.span.line, []).append(sc.span.col)

    def _collect(self, node: YNode | None, top: bool = False) -> None:
        if isinstance(node, YScalar):
            self.scalars.append(node)
        elif isinstance(node, YList):
            for n in node.items:
                self._collect(n)
        elif isinstance(node, YMap):
            for k, v in node.items.values():
                self.keys.append(k)
                self._collect(v)


def _first(sc: YScalar) -> Span:
    """Where the value's text starts: its first character that is not a space."""
    v = sc.value
    if not isinstance(v, str):
        return sc.span
    i = len(v) - len(v.lstrip())
    before = v[:i]
    line = before.count("\n") + 1
    return sc.span_at(line, i - (before.rfind("\n") + 1) + 1)


def _comment_at(line: str, quoted: list[int]) -> str | None:
    """The comment ending a YAML line, if any: a `#` at its start or after a space, outside quotes."""
    skip: list[tuple[int, int]] = []
    for col in quoted:
        i = col - 1
        if i >= len(line) or line[i] not in "'\"":
            continue
        q, j = line[i], i + 1
        while j < len(line):
            if q == '"' and line[j] == "\\":
                j += 2
                continue
            if line[j] == q:
                if q == "'" and j + 1 < len(line) and line[j + 1] == "'":
                    j += 2
                    continue
                break
            j += 1
        skip.append((i, j))
    for m in re.finditer(r"(?:^|(?<=\s))#", line):
        if not any(a <= m.start() <= b for a, b in skip):
            return line[m.start() + 1:].strip()
    return None


class Source:
    """The text of the files a game was read from, to quote expressions and comments from."""

    def __init__(self, sources: dict[str, str], limits: Limits) -> None:
        self._texts = sources
        self._limits = limits
        self._files: dict[str, _File] = {}
        self._used: set[tuple[str, int]] = set()
        self._texts_of: dict[int, tuple[A.Expr, str | None]] = {}

    def _file(self, name: str) -> _File | None:
        if name not in self._texts:
            return None
        if name not in self._files:
            self._files[name] = _File(name, self._texts[name], self._limits)
        return self._files[name]

    # ------------------------------------------------------------ expressions
    def text(self, e: A.Expr | None) -> str | None:
        """The expression as the rule file writes it (lines kept), or None if no value of the file holds
        exactly it (a part of a statement, or a value changed on its way, such as `=` defaults)."""
        if e is None:
            return None
        known = self._texts_of.get(id(e))
        if known is not None and known[0] is e:
            return known[1]
        found = self._text(e)
        self._texts_of[id(e)] = (e, found)
        return found

    def _text(self, e: A.Expr) -> str | None:
        f = self._file(e.span.file)
        if f is None:
            return None
        left = min(((n.span.line, n.span.col) for n in A.walk(e) if n.span.file == e.span.file),
                   default=(e.span.line, e.span.col))
        k = bisect.bisect_right(f.starts, left) - 1
        if k < 0:
            return None
        sc = f.by_start[k]
        if not isinstance(sc.value, str):
            return None if not same(A.Const(sc.span, sc.value), e) else _plain(sc.value)
        diags: list[Diagnostic] = []
        tree = parser.parse(sc.value, "expression", lambda ln, c: Span(f.name, ln, c), diags, self._limits)
        if diags or tree is None or not same(tree, e):
            return None
        return _dedent(sc.value)

    # ------------------------------------------------------------ comments
    def comments(self, span: Span | None, above: bool = True) -> list[str]:
        """The designer's comment on the line of `span` and (with `above`) the comment lines right above it,
        each line once per document; lines that only draw a rule are left out."""
        if span is None:
            return []
        f = self._file(span.file)
        if f is None or not 1 <= span.line <= len(f.lines):
            return []
        out: list[str] = []
        if above:
            i = span.line - 1  # the line above, 1-based
            block: list[tuple[int, str]] = []
            while i >= 1 and i not in f.inside and f.lines[i - 1].lstrip().startswith("#"):
                block.append((i, f.lines[i - 1].lstrip()[1:].strip()))
                i -= 1
            for ln, c in reversed(block):
                if (f.name, ln) not in self._used:
                    self._used.add((f.name, ln))
                    if not _RULE.match(c):
                        out.append(c)
        if span.line not in f.inside and (f.name, span.line) not in self._used:
            end = _comment_at(f.lines[span.line - 1], f.quoted.get(span.line, []))
            if end is not None and not f.lines[span.line - 1].lstrip().startswith("#"):
                self._used.add((f.name, span.line))
                if not _RULE.match(end):
                    out.append(end)
        return out

    def key_span(self, *path: str) -> Span | None:
        """Where a key is written (`key_span('deck', 'suits')`): in the rule file, else in the files it
        extends, nearest first."""
        for name in self._texts:
            f = self._file(name)
            node: YNode | None = f.root if f is not None else None
            span = None
            for k in path:
                if not isinstance(node, YMap) or k not in node.items:
                    span = None
                    break
                ks, node = node.items[k]
                span = ks.span
            if span is not None:
                return span
        return None

    def header(self, file: str) -> list[str]:
        """The comment lines the file starts with (before its first key): what the designer says of it."""
        f = self._file(file)
        if f is None:
            return []
        out = []
        for ln, line in enumerate(f.lines, 1):
            s = line.strip()
            if not s.startswith("#"):
                break
            self._used.add((f.name, ln))
            c = s[1:].strip()
            if not _RULE.match(c):
                out.append(c)
        return out


def _plain(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def _dedent(text: str) -> str:
    lines = [ln.rstrip() for ln in text.strip("\n").splitlines()]
    return "\n".join(lines).strip()
