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


def render(d: Diagnostic, source: str | None) -> str:
    out = [f"{d.span}: {d.severity}: {d.message} [{d.code}]"]
    if source is not None:
        lines = source.splitlines()
        if 1 <= d.span.line <= len(lines):
            text = lines[d.span.line - 1].expandtabs(1)
            out.append(f"    {text}")
            width = 1
            if d.span.end_col is not None and d.span.end_col > d.span.col:
                width = d.span.end_col - d.span.col
            out.append("    " + " " * (d.span.col - 1) + "^" * max(1, width))
    if d.hint:
        out.append(f"    hint: {d.hint}")
    return "\n".join(out)


def render_all(diags: list[Diagnostic], sources: dict[str, str]) -> str:
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code))
    return "\n".join(render(d, sources.get(d.span.file)) for d in ordered)
