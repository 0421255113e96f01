"""Errors raised while a game runs; each renders as one clear message."""

from __future__ import annotations

from dsl.diagnostics import Span


class GameError(Exception):
    """Base class: a problem a user can act on, shown without a traceback."""


class IllegalAction(GameError):
    """An action id that is not legal in the current state."""


class BadOption(GameError):
    """A table option that does not exist or has a value out of range."""


class RuleError(GameError):
    """A rule failed while the game ran (division by zero, empty max, stuck phase...)."""

    def __init__(self, message: str, span: Span | None = None, context: str = ""):
        self.span = span
        self.context = context
        where = f"{span}: " if span else ""
        extra = f"\n    {context}" if context else ""
        super().__init__(f"{where}rule error: {message}{extra}")
        self.message = message
