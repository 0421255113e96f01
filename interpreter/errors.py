"""Errors raised while a game runs; each renders as one clear message."""

from __future__ import annotations

from collections.abc import Mapping

from dsl.diagnostics import Diagnostic, Span, render
from dsl.files import loaded_text


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

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        """file:line:col, the source line and a caret, then what the game was doing.

        The line comes from `sources` (a Loaded's sources) or the text read when the game was loaded
        (dsl.files.loaded_text); the file is never read again."""
        if self.span is None:
            return str(self)
        source = sources.get(self.span.file) if sources is not None else loaded_text(self.span.file)
        d = Diagnostic(self.code, self.span, self.message, self.context or None)
        return render(d, source).replace(": error: ", ": rule error: ", 1).replace("    hint: ", "    ", 1)
