"""Information-state strings of native states, without the Python twin: the Python backend's text
(engine/infostate.py), word for word, from the native observation's words (view.h, read back by views.py).

A player's string is a header, then for each event as the player perceived it (its own actions in full, the
others' by their public text, chance not at all) the observation lines that changed after it, then the whole
observation now. What every player knew at a state that is not a chance node is a `Known`: the text up to its
"now:" line per player, and the observation's words (equal bytes are equal observations, so a step that
changes nothing a player sees costs a comparison of bytes, and only a changed observation is rendered as
lines to find which changed). A state keeps the `Known` of itself or of the last state before it that asked
(`_seen`, a field of the binding's state, shared by clones: a `Known` is never changed once made but to fill
in what it decides, its lines and whole texts). CFR and MCCFR clone a state, apply one action and ask the
string of the player to act: one action after its parent's `Known`, the child's is the parent's extended by
that step, for every player at once. Anything else (a state read back, or asked first after many actions) is
replayed on a new native state from its history, every player at once; the Python backend answers only
where the native observation cannot (before the match's first step, a `visible` rule failing) or the native
history does not start at the match's start (a state carried from a Python position): None here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.infostate import _changed, _whole, header, perceived
from ..engine.obstext import Lines

if TYPE_CHECKING:
    from .wrapper import NativeState


class Carried:
    """What `_seen` holds on a state carried into the native backend from a Python position (position.py
    `native_at`) and on its copies: its history starts at that position, so its strings are its twin's."""


FROM_POSITION = Carried()


class Known:
    """What each player knew at a state that is not a chance node, `count` entries into its history: the
    text up to the "now:" line (`heads`), the observation's words, its lines (made when first needed) and
    the whole string (once asked)."""

    __slots__ = ("count", "heads", "words", "lines", "texts", "state")

    def __init__(self, count: int, heads: list[str], words: list[bytes]) -> None:
        self.count = count
        self.heads = heads
        self.words = words
        self.lines: list[Lines | None] = [None] * len(words)
        self.texts: list[str | None] = [None] * len(words)
        # A native state at this position, kept by a replay (never moved: a later replay plays on a copy of it),
        # so that a state asked again several actions later is replayed from here, not from the start.
        self.state: NativeState | None = None

    def lines_of(self, s: NativeState, q: int) -> Lines:
        got = self.lines[q]
        if got is None:
            got = self.lines[q] = s._game.views.lines(memoryview(self.words[q]), q, [])
        return got


def information_state_string(s: NativeState, p: Any) -> str | None:
    """p's information-state string at native state `s`, or None where the Python backend answers (a seat that
    is no player, an observation the native backend does not give)."""
    g = s._game
    if type(p) is not int or not 0 <= p < g.n:
        return None
    seen = s._seen
    if isinstance(seen, Carried):
        return None
    count = s.entry_count()
    known: Known | None = seen
    acted: list[tuple[int, int]] = []
    if known is not None and known.count < count:
        acted = _acted(s.entries(known.count))
    if known is None or known.count > count or len(acted) > 1:  # two actions on: what was seen between is unknown
        known = _replayed(s, known)
        if known is None:
            return None
        acted = _acted(s.entries(known.count)) if known.count < count else []
    if known.count < count:
        # A replay keeps the last state that is not a chance node: at most one player action before `s`.
        if s.is_chance_node():  # the state before the step drawing its chance: what p knew, the action, now
            words = _words(s, p)
            if words is None:
                return None
            head = known.heads[p]
            for who, what in acted:
                head += _said(g, p == who, who, what)
            return _whole(head, g.views.lines(memoryview(words), p))
        later = _step(s, known, acted[0] if acted else None, count)
        if later is None:
            return None
        s._seen = known = later
    text = known.texts[p]
    if text is None:
        text = known.texts[p] = _whole(known.heads[p], known.lines_of(s, p))
    return text


def _acted(entries: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The player actions among history entries (the others are chance outcomes)."""
    return [e for e in entries if e[0] >= 0]


def _said(g: Any, own: bool, who: int, action: int) -> str:
    """The line of an action as its player (`own`) or another saw it (`perceived`), after a line break; kept
    per game, as a search meets the same actions again and again."""
    said: dict[tuple[bool, int, int], str] | None = g.__dict__.get("_native_said")
    if said is None:
        said = g.__dict__["_native_said"] = {}
    key = (own, who, action)
    text = said.get(key)
    if text is None:
        text = said[key] = "\n" + perceived(g, who if own else -1, who, action)  # -1: not the actor
    return text


def _words(s: NativeState, p: int) -> bytes | None:
    try:
        return s.observation_words(p)
    except RuntimeError:  # a `visible` rule failed: the Python backend's error says where
        return None


def _step(s: NativeState, before: Known | None, acted: tuple[int, int] | None, count: int) -> Known | None:
    """What every player knows at `s` (not a chance node, `count` entries in), one step after `before` (None:
    the match's first state that is not a chance node), `acted` the player action of that step if any."""
    g = s._game
    n = g.n
    words: list[bytes] = []
    for q in range(n):
        w = _words(s, q)
        if w is None:
            return None
        words.append(w)
    later = Known(count, [], words)
    heads = later.heads
    if before is None:
        reader = g.views
        for q in range(n):
            now = later.lines[q] = reader.lines(memoryview(words[q]), q, [])
            heads.append("\n".join([header(s, q), "observation:", *_changed(None, now)]))
        return later
    for q in range(n):
        head = before.heads[q]
        if acted is not None:
            head += _said(g, q == acted[0], acted[0], acted[1])
            if words[q] != before.words[q]:
                old = before.lines_of(s, q)
                now = later.lines_of(s, q)
                if now[0] != old[0]:
                    head += "\n" + "\n".join(["observation:", *_changed(old, now)])
        # else: only chance since `before`, which the Python backend's text does not show either
        heads.append(head)
    return later


def _replayed(s: NativeState, since: Known | None) -> Known | None:
    """What every player knew at the last state up to `s` that is not a chance node, worked out by playing
    its history again on a native state: from `since` (what `s` last knew, at a state before it) where that
    kept its state, else from the start. Kept as `s`'s. None where a native observation is missing."""
    g = s._game
    count = s.entry_count()
    known: Known | None
    if since is not None and since.state is not None and since.count <= count:
        t, known, start = since.state.clone(), since, since.count
    else:
        t, known, start = g.state_class.start(g, s._seed, -1), None, 0
        if not t.is_chance_node():
            known = _step(t, None, None, 0)
            if known is None:
                return None
    acted: tuple[int, int] | None = None
    for i, (who, what) in enumerate(s.entries(start), start + 1):
        t.apply_action(what)
        if who >= 0:
            acted = (who, what)
        if not t.is_chance_node():
            known = _step(t, known, acted, i)
            if known is None:
                return None
            acted = None
    if known is not None:
        if known.count == count and known.state is None:
            known.state = t
        s._seen = known
    return known
