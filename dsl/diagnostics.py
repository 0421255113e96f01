"""Diagnostics are data: a code, a span, a message and an optional hint.

Every stage reports problems as `Diagnostic` values instead of raising, so that
one run can show every mistake in a file. `render` turns one into the
`file:line:col: error: message` form with the source line and a caret.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int  # 1-based
    col: int  # 1-based
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    span: Span
    message: str
    hint: str | None = None
    severity: str = "error"


class RuleFileError(Exception):
    """Raised at the end of a stage that found problems; carries all of them."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        super().__init__(f"{len(diagnostics)} problem(s)")
        self.diagnostics = diagnostics
        self.sources = sources or {}

    def render(self) -> str:
        return render_all(self.diagnostics, self.sources)


class Refused(Exception):
    """Raised deep inside a stage (a tree walk) to stop it with one diagnostic, which its caller reports."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


MAX_TEXT = 1_000  # characters of a message or hint shown; the middle of a longer one is elided
QUOTE_MIN = 160  # characters of a source line quoted around a caret, however many problems share the line
QUOTE_MAX = 10_000  # characters of a source line quoted at most, around the caret


def shown(text: str) -> str:
    """`text` on one line: control and format characters (newlines, escapes, bidi marks) as `\\n`, `\\x1b`, ..."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def clipped(text: str, limit: int = MAX_TEXT) -> str:
    """`text`, or its two ends around a note of how much was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}...({len(text) - 2 * half:,} characters)...{text[-half:]}"


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """'1 deal', '2 deals', '1,000 actions', '3 random matches': a number and its noun, plural unless it is one."""
    if n == 1:
        return f"1 {noun}"
    return f"{n:,} {plural or noun + ('es' if noun.endswith(('ch', 'sh', 's', 'x')) else 's')}"


def _quote(line: str, d: Diagnostic, width: int) -> list[str]:
    """The source line (at most `width` characters of it, around the caret) and the caret line, escaped.

    Only the part shown is copied, so quoting a long line many times costs no more than the output."""
    size = len(line)
    start = min(max(d.span.col - 1, 0), size)
    end = start + 1
    if d.span.end_col is not None and d.span.end_col > d.span.col:
        end = start + (d.span.end_col - d.span.col)
    lo, hi = 0, size
    if size > width:
        lo = max(0, min(start - width // 4, size - width))
        hi = lo + width

    def part(a: int, b: int) -> str:
        return shown(line[a:b].replace("\t", " "))  # a tab is one column, as in the span's count

    left = ("..." if lo > 0 else "") + part(lo, start)
    marked = part(start, min(end, hi))
    right = part(min(end, hi), hi) + ("..." if hi < size else "")
    beyond = max(0, end - size) if hi == size else 0  # a span running past the end of the line
    return [f"    {left}{marked}{right}", "    " + " " * len(left) + "^" * max(1, len(marked) + beyond)]


def _render(d: Diagnostic, lines: list[str] | None, width: int | None = None) -> str:
    out = [shown(f"{d.span}: {d.severity}: {clipped(d.message)} [{d.code}]")]
    if lines is not None and 1 <= d.span.line <= len(lines):
        line = lines[d.span.line - 1]
        out += _quote(line, d, min(QUOTE_MAX, max(QUOTE_MIN, len(line)) if width is None else width))
    if d.hint:
        out.append(f"    hint: {shown(clipped(d.hint))}")
    return "\n".join(out)


def render(d: Diagnostic, source: str | None) -> str:
    """One diagnostic: `file:line:col: error: message [CODE]`, the source line, a caret, the hint.

    Text from the file is escaped (`shown`), so a name holding a terminal escape or a line break
    prints as one harmless line, and the caret is placed on the escaped line."""
    return _render(d, source.splitlines() if source is not None else None)


def render_all(diags: list[Diagnostic], sources: dict[str, str]) -> str:
    """Every diagnostic in file order. Each source is split once, and a line that many diagnostics quote is
    shown around each caret, so the output grows linearly with the number of diagnostics."""
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))
    split: dict[str, list[str] | None] = {}
    sharing: dict[tuple[str, int], int] = {}
    for d in ordered:
        where = (d.span.file, d.span.line)
        sharing[where] = sharing.get(where, 0) + 1
    out = []
    for d in ordered:
        if d.span.file not in split:
            source = sources.get(d.span.file)
            split[d.span.file] = source.splitlines() if source is not None else None
        lines = split[d.span.file]
        width = None
        if lines is not None and 1 <= d.span.line <= len(lines):
            width = max(QUOTE_MIN, len(lines[d.span.line - 1]) // sharing[(d.span.file, d.span.line)])
        out.append(_render(d, lines, width))
    return "\n".join(out)
