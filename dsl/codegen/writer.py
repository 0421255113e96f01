"""The line writer of generated code: indentation, and the line map from generated lines to rule-file spans.

Kept apart from what is written so that every stage of code generation (expressions, steps, actions, the
module) appends through the one object that numbers lines; a line's span is recorded as it is written, so
the map can never drift from the text. The PUSH/END/POP markers are the only contract between an
expression's code and the writer: an inlined function body (optimize.py) gets physical lines of its own,
mapped to the function's span, without the expression code knowing about lines.
"""

from __future__ import annotations

from ..diagnostics import Span

# In an expression's code, where an inlined body starts (PUSH, the index of its span, END) and where it ends
# (POP): the writer breaks the line there, so the body's code has lines, and spans, of its own.
PUSH, END, POP = "\x00", "\x01", "\x00-\x01"


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: dict[int, Span] = {}
        self.indent = 0
        self.marks: list[Span] = []  # spans named by PUSH marks

    def line(self, text: str, span: Span | None = None) -> None:
        if PUSH in text:
            self._lines(text, span)
            return
        self.lines.append("    " * self.indent + text)
        if span is not None:
            self.spans[len(self.lines)] = span

    def _lines(self, text: str, span: Span | None) -> None:
        """A line whose code holds inlined bodies: one physical line per stretch of one span (inside the
        brackets an inlined body is written in, so Python reads it as one expression)."""
        stack = [span]
        pad = "    " * (self.indent + 2)
        first, *rest = text.split(PUSH)
        self.lines.append("    " * self.indent + first)
        if span is not None:
            self.spans[len(self.lines)] = span
        for part in rest:
            mark, _, code = part.partition(END)
            if mark == "-":
                stack.pop()
            else:
                stack.append(self.marks[int(mark)])
            self.lines.append(pad + code)
            if stack[-1] is not None:
                self.spans[len(self.lines)] = stack[-1]
