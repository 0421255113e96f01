"""What the table accepts from the network: the size, shape and rate of messages.

A message from a socket is read as JSON (never evaluated) and checked against the few shapes the table knows;
anything else gets one line that says what was expected.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

MAX_MESSAGE = 2048  # characters of one socket message: the largest the page sends is far below this
MAX_REQUEST = 64 * 1024  # bytes of a lobby request
MAX_RECORD = 5 * 1024 * 1024  # bytes of a match record sent to be replayed
MAX_TOKENS = 16  # tokens in one request (a hot-seat screen holds one per seat)


class BadMessage(ValueError):
    """A message the table cannot read; its text says why."""


class Bucket:
    """A token bucket: `rate` messages a second on average, bursts of up to `burst`."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.clock = clock
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def load_json(text: str | bytes, limit: int) -> Any:
    if len(text) > limit:
        raise BadMessage(f"a message of at most {limit:,} bytes")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise BadMessage("the message is not JSON") from None


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity are not JSON


def whole(v: Any) -> bool:
    return type(v) is int and -(2**63) <= v < 2**63


def socket_message(text: Any) -> dict[str, Any]:
    """A socket message checked: {"type": "hello", "room": id, "token": t}, {"type": "move", "action": id,
    "seat"?: k, "version"?: v} or {"type": "ping"}."""
    if not isinstance(text, str):
        raise BadMessage("send text messages holding JSON")
    msg = load_json(text, MAX_MESSAGE)
    if not isinstance(msg, dict):
        raise BadMessage("expected a JSON object with a \"type\"")
    kind = msg.get("type")
    if kind == "hello":
        if not isinstance(msg.get("room"), str) or not isinstance(msg.get("token"), str):
            raise BadMessage("hello takes \"room\" and \"token\", both text")
    elif kind == "move":
        if not whole(msg.get("action")):
            raise BadMessage("move takes \"action\", a whole number (an id from the view's moves)")
        for key in ("seat", "version"):
            if key in msg and not whole(msg[key]):
                raise BadMessage(f"move's \"{key}\" must be a whole number")
    elif kind != "ping":
        raise BadMessage("the message types are hello, move and ping")
    return msg


def tokens_of(body: Any) -> list[str]:
    if not isinstance(body, dict) or not isinstance(body.get("tokens"), list):
        raise BadMessage("expected {\"tokens\": [...]}, the seats' tokens")
    toks = body["tokens"]
    if not 1 <= len(toks) <= MAX_TOKENS or not all(isinstance(t, str) for t in toks):
        raise BadMessage(f"from 1 to {MAX_TOKENS} tokens, each text")
    return toks
