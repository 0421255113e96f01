"""A native observation (view.h's words) read back into the Python backend's: the dict `observe` gives and
the text `observation_string` renders, word for word. The plan of what each player sees is the Python
backend's (`observation._plan`); the words carry the cards, counts and values that plan lets through, so
nothing is read here that the player may not see."""

from __future__ import annotations

from typing import Any

from ..dsl import types as T
from ..engine.observation import _plan, _show
from ..engine.obstext import Lines, _labels, _var_text
from .ir import NONE_V

_WHOLE, _FLAG, _CARD, _LONG = range(4)
_SHORT = {T.INT: _WHOLE, T.PLAYER: _WHOLE, T.BOOL: _FLAG, T.CARD: _CARD}


class Reader:
    """What one game's words mean: its names, the interned texts of its library, each variable's type."""

    __slots__ = ("g", "n", "zones", "variables", "strings", "phases", "shown")

    def __init__(self, g: Any, strings: list[str]) -> None:
        self.g = g
        self.n = g.n
        zplan, vplan = _plan(g)
        self.zones = [name for name, *_ in zplan]
        self.variables = [(name, ty) for name, _how, _owner, _rule, ty in vplan]
        self.strings = strings
        self.phases = [ph.name for ph in g.phases]
        # Each variable's line: its label, and how its one word is shown where that is all it takes (a whole
        # number or a player, a flag, a card), else its type (read and shown as `_var_text` shows it).
        self.shown = [(label, key, _SHORT.get(ty, _LONG) if ty != T.NUM else _LONG, ty, plain)
                      for label, key, _how, _owner, _rule, ty, plain in _labels(g).variables]

    def observation(self, words: memoryview, p: int) -> dict[str, Any]:
        """observation.observe's dict, from the words of `observe` in view.h."""
        w = words.cast("q")
        n = self.n
        phase, cur, dealer, deal, outs, sits, over, wins = w[:8]
        at = 8 + n
        teams = list(w[8:at])
        zones, variables, at = self._seen(w, at)
        deal_end = None
        if w[at]:
            ended = w[at + 1]
            z, v, at = self._seen(w, at + 2)
            deal_end = {"deal": ended, "zones": z, "variables": v}
        return {
            "player": p,
            "phase": self.phases[phase],
            "current": None if cur < 0 else cur,
            "dealer": dealer,
            "deal": deal,
            "active": [q for q in range(n) if not (outs >> q) & 1 and not (sits >> q) & 1],
            "sitting_out": [q for q in range(n) if (sits >> q) & 1],
            "teams": teams,
            "zones": zones,
            "variables": variables,
            "deal_end": deal_end,
            "terminal": bool(over),
            "winners": [q for q in range(n) if (wins >> q) & 1] if over else None,
        }

    def text(self, words: memoryview, p: int) -> str:
        """The observation string (obstext.py's lines, from the words): `render(g, observation(...))`."""
        return "\n".join(self.lines(words, p)[0])

    def lines(self, words: memoryview, p: int, keys: list[str] | None = None) -> Lines:
        """The observation string's lines and, when `keys` is given, each line's key into it (what
        `obstext.observation_lines` gives: the information state string compares observations by them)."""
        w = words.cast("q")
        n = self.n
        lab = _labels(self.g)
        names = lab.players
        phase, cur, dealer, deal, outs, sits, over, wins = w[:8]
        if over:
            turn = "over, won by " + (", ".join(names[q] for q in range(n) if (wins >> q) & 1) or "nobody")
        else:
            turn = "chance to act" if cur < 0 else f"{names[cur]} to act"
        lines = [f"{lab.sees[p]}deal {deal}, dealer {names[dealer]}, phase '{lab.phases[phase]}', {turn}",
                 lab.in_play + ", ".join([names[q] for q in range(n) if not ((outs | sits) >> q) & 1])]
        if keys is not None:
            keys += (lab.sees_key[p], lab.in_play_key)
        at = self._lines(w, 8 + n, lab, "", lines, keys)
        if w[at]:
            self._lines(w, at + 2, lab, f"end of deal {w[at + 1]}, ", lines, keys)
        return lines, keys or []

    def _lines(self, w: memoryview, at: int, lab: Any, prefix: str, lines: list[str], keys: list[str] | None) -> int:
        cards = lab.cards
        for label, key, *_ in lab.zones:
            k = w[at]
            if k < 0:
                lines.append(f"{prefix}{label}{-1 - k} hidden")
                at += 1
            else:
                lines.append(prefix + label + (" | ".join([cards[c] for c in w[at + 1:at + 1 + k]]) if k else "-"))
                at += 1 + k
            if keys is not None:
                keys.append(prefix + key)
        for label, key, short, ty, plain in self.shown:
            seen = w[at]
            at += 1
            if not seen:
                continue
            if keys is not None:
                keys.append(prefix + key)
            if short != _LONG:
                x = w[at]
                at += 1
                if x == NONE_V:
                    text = "none"
                elif short == _WHOLE:
                    text = str(x)
                elif short == _FLAG:
                    text = "true" if x else "false"
                else:
                    text = cards[x]
            else:
                value, at = self._value(w, at, ty)
                text = _var_text(self.g, value, ty, plain)
            lines.append(prefix + label + text)
        return at

    def _seen(self, w: memoryview, at: int) -> tuple[dict[str, Any], dict[str, Any], int]:
        names = self.g.card_names
        zones: dict[str, Any] = {}
        for name in self.zones:
            k = w[at]
            if k < 0:
                zones[name] = -1 - k
                at += 1
            else:
                zones[name] = [names[c] for c in w[at + 1:at + 1 + k]]
                at += 1 + k
        variables: dict[str, Any] = {}
        for name, ty in self.variables:
            seen = w[at]
            at += 1
            if not seen:
                continue
            value, at = self._value(w, at, ty)
            variables[name] = _show(self.g, value, ty)
        return zones, variables, at

    def _value(self, w: memoryview, at: int, ty: Any) -> tuple[Any, int]:
        if T.is_list(ty):
            k = w[at]
            at += 1
            if T.is_list(ty.item):
                out = []
                for _ in range(k):
                    m = w[at]
                    out.append([self._item(x, ty.item.item) for x in w[at + 1:at + 1 + m]])
                    at += 1 + m
                return out, at
            return [self._item(x, ty.item) for x in w[at:at + k]], at + k
        if ty == T.NUM:
            return memoryview(w[at:at + 1].tobytes()).cast("d")[0], at + 1
        return self._item(w[at], ty), at + 1

    def _item(self, x: int, ty: Any) -> Any:
        if x == NONE_V:
            return None
        if ty == T.BOOL:
            return bool(x)
        if ty in T.TEXTUAL:
            return self.strings[x]
        return x
