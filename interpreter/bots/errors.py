"""The error a bot's spec raises, apart from `spec.py`: the bots check their own parameters (`by=`, `rollout=`)
and `spec.py` imports the bots, so the error sits below both and neither imports the other back."""

from __future__ import annotations

from ..engine.errors import GameError


class BadBotSpec(GameError):
    """A bot spec that names no bot, or gives a parameter it does not have or a value out of range."""
