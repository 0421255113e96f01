"""The `cardsmith` command."""

from .main import main

__all__ = ["main"]
