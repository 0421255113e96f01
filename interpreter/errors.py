"""Errors raised while a game runs; each renders as one clear message."""

from __future__ import annotations

from pathlib import Path

from dsl.diagnostics import Diagnostic, Span, render


class GameError(Exception):
    """Base class: a problem a user can act on, shown without a traceback."""


class IllegalAction(GameError):
    """An action id that is not legal in the current state."""


class BadOption(GameError):
    """A table option that does not exist or has a value out of range."""


class RuleError(GameError):
    """A rule failed while the game ran (division by zero, empty max, stuck phase...).

    Codes: R001 a rule failed, R002 a player is left with no legal action,
    R003 the match does not end, R004 a rule walked too many list items."""

    def __init__(self, message: str, span: Span | None = None, context: str = "", code: str = "R001"):
        self.span = span
        self.context = context
        self.code = code
        where = f"{span}: " if span else ""
        extra = f"\n    {context}" if context else ""
        super().__init__(f"{where}rule error: {message}{extra}")
        self.message = message

    def render(self) -> str:
        """file:line:col, the source line and a caret, then what the game was doing."""
        if self.span is None:
            return str(self)
        try:
            source = Path(self.span.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            source = None
        d = Diagnostic(self.code, self.span, self.message, self.context or None)
        return render(d, source).replace(": error: ", ": rule error: ", 1).replace("    hint: ", "    ", 1)
