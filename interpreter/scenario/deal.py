"""Fixing a deal in a scenario: the `set:` and `deals:` maps, and every value written in them.

Each map becomes the engine's setup of one deal (engine/setup.py, `Deal(exact=True)`): its cards are
dealt by the deal itself, its variables set after the deal's steps.

Each value is checked against what it fills, with the scenario's line: a zone takes a list of card
names; a variable takes a value of its declared type (a whole number, a number, true/false, text, a
suit or rank of the deck, a player `P1`, a card name, or a list of these for `cards`, `players`,
`numbers`), and a per-player variable one such value per player. A map or a list where one value
belongs, a list inside a list of cards, a number for text: each is a located failure, never stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..dsl import abi
from ..dsl import types as T
from ..dsl.codegen.reach import ORDERED
from ..dsl.diagnostics import Span, count_of
from ..dsl.suggest import closest
from ..dsl.yaml_loader import YList, YMap, YNode, YScalar, plain
from ..engine.game import Game
from ..engine.setup import Deal


def _closest(word: str, candidates: Iterable[str]) -> list[str]:
    """The one close candidate, as a list (empty if none), with the bounded work of dsl.suggest."""
    found = closest(word, candidates)
    return [found] if found is not None else []

_TARGET = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?$")
PLAYER = re.compile(r"^P(\d+)$")
Fail = Callable[[YNode | None, str], Exception]


def _kind_of(node: YNode) -> str:
    """How a value that is not a single value is named in a message (never its content)."""
    return "a list" if isinstance(node, YList) else "a map" if isinstance(node, YMap) else "a value"


def _few(names: list[str]) -> str:
    return ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")


class DealValues:
    """Reads the values of a scenario against one game instance; `fail` makes the located failure."""

    def __init__(self, game: Game, fail: Fail):
        self.game = game
        self.fail = fail
        # What a file written for an older cardsmith may mean otherwise now, where it is written (`_rest_note`).
        self.notes: list[tuple[Span, str]] = []

    # ------------------------------------------------------------ single values
    def scalar(self, node: YNode, what: str) -> Any:
        if not isinstance(node, YScalar):
            raise self.fail(node, f"{what}, not {_kind_of(node)}")
        return node.value

    def player(self, node: YNode) -> int:
        g = self.game
        what = f"a player is written P0 to P{g.n - 1}"
        v = self.scalar(node, what)
        m = PLAYER.match(v) if isinstance(v, str) else None
        p = v if isinstance(v, int) and not isinstance(v, bool) else int(m.group(1)) if m else -1
        if not 0 <= p < g.n:
            raise self.fail(node, f"'{v}' is not a player of this game (P0 to P{g.n - 1})")
        return p

    def card(self, node: YNode) -> int:
        v = self.scalar(node, "a card is written by its name, like 'A of clubs'")
        if v is None or isinstance(v, (bool, float)):
            raise self.fail(node, f"a card is written by its name, like 'A of clubs', not {v!r}")
        text = str(v)
        try:
            return self.game.card_id(text)
        except KeyError:
            close = _closest(text, self.game.card_names)
            hint = f"; did you mean '{close[0]}'?" if close else " (cards are named like 'A of clubs')"
            raise self.fail(node, f"the pack has no card '{text}'{hint}") from None

    def value(self, node: YNode, ty: T.Type, name: str) -> Any:
        """The value `node` gives a variable of type `ty` (YAML null is none)."""
        if isinstance(node, YScalar) and node.value is None:
            return None
        if T.is_list(ty):  # a list type: cards, players, numbers, card_lists
            if not isinstance(node, YList):
                raise self.fail(node, f"'{name}' holds a list of {self._what(ty.item, plural=True)}, "
                                f"not {_kind_of(node) if not isinstance(node, YScalar) else repr(node.value)}")
            if T.is_list(ty.item):  # card_lists: each item a list of cards ([[A of clubs, 2 of clubs], []])
                return [self.value(x, ty.item, name) if isinstance(x, YList) else self._not_a_list(x, name)
                        for x in node.items]
            return [self.item(x, ty.item, name) for x in node.items]
        return self.item(node, ty, name)

    def item(self, node: YNode, ty: T.Type, name: str) -> Any:
        g = self.game
        if ty == T.PLAYER:
            return self.player(node)
        if ty == T.CARD:
            return self.card(node)
        v = self.scalar(node, f"'{name}' holds {self._what(ty)}")
        fits: dict[T.Type, bool] = {
            T.INT: isinstance(v, int) and not isinstance(v, bool),
            T.NUM: isinstance(v, (int, float)) and not isinstance(v, bool),
            T.BOOL: isinstance(v, bool),
            T.STR: isinstance(v, str),
            T.SUIT: isinstance(v, (str, int)) and not isinstance(v, bool) and str(v) in g.spec.suits,
            T.RANK: isinstance(v, (str, int)) and not isinstance(v, bool) and str(v) in g.spec.ranks,
        }
        if not fits.get(ty, False):
            hint = " (quote it: \"...\")" if ty == T.STR and v is not None else ""
            raise self.fail(node, f"'{name}' holds {self._what(ty)}, not {v!r}{hint}")
        return str(v) if ty in (T.SUIT, T.RANK) else v

    def _not_a_list(self, node: YNode, name: str) -> Any:
        shown = _kind_of(node) if not isinstance(node, YScalar) else repr(node.value)
        raise self.fail(node, f"'{name}' holds lists of cards: each item is a list like [A of clubs, 2 of clubs], "
                        f"not {shown}")

    def _what(self, ty: T.Type, plural: bool = False) -> str:
        g = self.game
        words = {
            T.INT: ("a whole number", "whole numbers"), T.NUM: ("a number", "numbers"),
            T.BOOL: ("true or false", "true/false values"), T.STR: ("text", "texts"),
            T.SUIT: (f"a suit of the deck ({_few(g.spec.suits)})", "suits"),
            T.RANK: (f"a rank of the deck ({_few(g.spec.ranks)})", "ranks"),
            T.PLAYER: (f"a player (P0 to P{g.n - 1})", "players"), T.CARD: ("a card name", "cards"),
            T.ListOf(T.CARD): ("a list of cards", "lists of cards"),
        }.get(ty, ("a value", "values"))
        return words[1] if plural else words[0]

    # ------------------------------------------------------------ a deal
    def zone_index(self, name: str) -> int | None:
        names = self.game.zone_names
        return names.index(name) if name in names else None

    def _rest_note(self, rest: str, span: Span) -> None:
        """`rest:` changed its meaning on 2026-11-26 (CHANGELOG.md): the cards it takes went on top of the zone,
        and go under its own cards now. Where the rules read the zone's order (deal or draw from it, read
        its top), a scenario written before may mean another card: say so where `rest` is written."""
        z = abi.zone(rest.split("[")[0])
        compiled = self.game.compiled
        ordered = any(ORDERED + z in names for names in compiled.reach.values()) or re.search(
            rf"_deal(?:_each)?\(s, [^\n]*?\b{z}\b", compiled.source) is not None
        if ordered:
            self.notes.append((span, f"'rest: {rest}' puts the cards it takes under the cards the deal gave "
                                     f"'{rest}' (before 2026-11-26 it put them on top), so its top cards are the "
                                     "deal's: list them with 'top of' to fix them"))

    def deal_of(self, node: YNode) -> Deal:
        """The engine's setup of one deal from a `set:` map: its zones hold exactly the listed cards, a
        `top of ZONE` key's zone those cards on top of the others the deal gave it."""
        if not isinstance(node, YMap):
            raise self.fail(node, "'set' must map zones and variables to values")
        g = self.game
        placed: dict[int, YNode] = {}
        cards: dict[str, list[int]] = {}
        top: dict[str, list[int]] = {}
        values: dict[str, Any] = {}
        rest: str | None = None
        for key, (ks, vn) in node.items.items():
            zone = key[len("top of "):].strip() if key.startswith("top of ") else None
            if zone is not None and self.zone_index(zone) is None:
                raise self.fail(ks, f"'{key}': the game has no zone '{zone}'")
            if (zone is not None and zone in cards) or key in top:
                raise self.fail(ks, f"zone '{zone or key}' is given whole and by its top cards: give one")
            if zone is not None or self.zone_index(key) is not None:
                if not isinstance(vn, YList):
                    raise self.fail(vn, f"zone '{zone or key}' must be given a list of cards")
                ids = []
                for item in vn.items:
                    c = self.card(item)
                    if c in placed:
                        raise self.fail(item, f"card '{g.card_names[c]}' is placed twice (first at line "
                                        f"{placed[c].span.line})")
                    placed[c] = item
                    ids.append(c)
                (top if zone is not None else cards)[zone or key] = ids
            elif key == "rest":
                rest = str(self.scalar(vn, "'rest' names one zone"))
                if self.zone_index(rest) is None:
                    raise self.fail(vn, f"unknown zone '{plain(vn)}'")
                self._rest_note(rest, vn.span)
            else:
                values.update(self.var_values(ks, key, vn))
        return Deal(cards=cards, exact=True, rest=rest, values=values, top=top)

    def var_values(self, ks: YScalar, key: str, vn: YNode) -> dict[str, Any]:
        g = self.game
        m = _TARGET.match(key)
        base = m.group(1) if m else key
        if m is None or not any(v.name == base for v, _ in g.var_specs) and base not in ("dealer", "current"):
            names = [v.name for v, _ in g.var_specs] + list(dict.fromkeys(n.split("[")[0] for n in g.zone_names))
            close = _closest(base, names)
            raise self.fail(ks, f"'{key}' is neither a zone nor a variable" +
                            (f"; did you mean '{close[0]}'?" if close else ""))
        if base in ("dealer", "current"):
            return {base: self.player(vn)}
        ty = next(v.ty for v, _ in g.var_specs if v.name == base)
        if m.group(2) is not None:
            if key not in g.var_names:
                raise self.fail(ks, f"'{key}': there is no player {m.group(2)} in a game of {g.n}")
            return {key: self.value(vn, ty, key)}
        per = [i for i, (v, _) in enumerate(g.var_specs) if v.name == base]
        if len(per) > 1 or g.var_specs[per[0]][1] is not None:  # per player: one value each
            if not isinstance(vn, YList) or len(vn.items) != len(per):
                raise self.fail(vn, f"'{base}' is per player: give a list of {count_of(len(per), 'value')}")
            return {base: [self.value(x, ty, base) for x in vn.items]}
        return {base: self.value(vn, ty, base)}
