"""Step 1 of resampling: what the player knows, from one replay of the real history; and how two of its
observations compare."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..history import blank, entries, explicit, groups, lazy_from_start, mark, play_group

if TYPE_CHECKING:
    from ..state import State


class Info:
    """What the player knows, from one replay of the real history (step 1); nothing else is kept."""

    def __init__(self, s: State, p: int):
        g = self.game = s.game
        items = entries(s.trail)
        steps = groups(explicit(items))
        self.who: list[int | None] = []
        self.known: list[int | None] = []  # the action, if the player saw it in full
        self.text: list[str | None] = []  # the public text of another player's secret action
        self.views: list[dict[str, Any]] = []  # the player's observation after each step
        self.view_cards: list[set[int]] = []  # the cards in it
        self.act_cards: list[set[int]] = []  # the cards of the action, if the player saw it in full
        names = {n: c for c, n in enumerate(g.card_names)}
        self.names = names
        t = blank(g, None, lazy=lazy_from_start(s, items))
        for who, action, outcomes, after in steps:
            self.who.append(who)
            public = action is None or who == p or is_public(g, action)
            self.known.append(action if public else None)
            self.text.append(None if public or action is None else g.public_action_string(action))
            self.act_cards.append({c for _, c in cards_of(g, action)} if public and action is not None else set())
            play_group(t, action, outcomes)
            if after is not None:
                mark(t, after)
            view = t.observation(p)
            self.views.append(view)
            self.view_cards.append(cards_in(view, names))
        # For each card, the steps whose view or fully seen action holds it, in order: whether a card was
        # seen between two steps is a bisection, not a scan of the history (asked for many cards each try).
        self.seen_at: list[list[int]] = [[] for _ in range(g.num_cards)]
        self.acted_at: list[list[int]] = [[] for _ in range(g.num_cards)]
        for m, cards in enumerate(self.view_cards):
            for c in cards:
                self.seen_at[c].append(m)
        for m, cards in enumerate(self.act_cards):
            for c in cards:
                self.acted_at[c].append(m)
        # A state that deals lazily (chance.py) at a chance node: its chance comes as cards are needed, not
        # where a replay of its shuffles puts it. The state found before the last step then deals lazily
        # from the real blocks and takes the step again, which must stop at a chance node too (search.py).
        self.lazy_tail = t.pending is not None and t.unfixed is not None
        # The blocks the state deals lazily from before the last step (public: what was shuffled and dealt).
        self.blocks = tuple(sorted(t.unfixed.items())) if self.lazy_tail and t.unfixed is not None else ()
        self.ends_pending = t.pending is not None and not self.lazy_tail
        # How far the last step's chance had gone: a state at a chance node stays one, at the same point.
        self.tail = len(steps[-1][2]) if self.ends_pending else None


def any_in(steps: list[int], lo: int, hi: int) -> bool:
    """Whether the sorted `steps` hold one in [lo, hi)."""
    k = bisect_left(steps, lo)
    return k < len(steps) and steps[k] < hi


def legal(t: State) -> list[int]:
    """The legal actions of a state the search made; none where its rules fail (a rule error): an exchange
    of cards can make a state no history reaches, and the rules need not hold up there."""
    try:
        return t.legal_actions()
    except GameError:
        return []


def is_public(g: Any, a: int) -> bool:
    return bool(g.public_action_string(a) == g.action_to_string(None, a))


def cards_of(g: Any, a: int) -> list[tuple[int, int]]:
    """(parameter position, card) of each card of action a: of a card parameter, and each card of a parameter
    over lists of cards."""
    info = g.action_for(a)
    vals = info.decode(a - info.offset)
    out = []
    for k, (prm, v) in enumerate(zip(info.params, vals)):
        if prm.kind == "card":
            out.append((k, v))
        elif prm.kind == "cards":
            out.extend((k, c) for c in v)
    return out


def cards_in(view: dict[str, Any], names: dict[str, int]) -> set[int]:
    # Not the cards of the last deal as it ended (`deal_end`): they were seen before the next deal's
    # shuffle, and counting them as seen since would pin nearly every card of the new deal.
    out: set[int] = set()
    for cards in view["zones"].values():
        if isinstance(cards, list):
            out.update(names[n] for n in cards)
    for v in view["variables"].values():
        for x in v if isinstance(v, list) else [v]:
            for y in x if isinstance(x, list) else [x]:  # a card_lists variable: lists of card names
                if isinstance(y, str) and y in names:
                    out.add(names[y])
    return out


def differing(want: dict[str, Any], got: dict[str, Any], names: dict[str, int],
              ended: bool = False) -> list[tuple[int, int, bool]] | None:
    """(card wanted, card there, whether at the end of the last deal) for each place where two observations
    differ in a card only; None if they differ in anything else (no swap of cards can mend that)."""
    if {k: v for k, v in want.items() if k not in ("zones", "variables", "deal_end")} != \
            {k: v for k, v in got.items() if k not in ("zones", "variables", "deal_end")}:
        return None
    out: list[tuple[int, int, bool]] = []
    end, end_got = want.get("deal_end"), got.get("deal_end")
    if end != end_got:
        if end is None or end_got is None:
            return None
        inner = differing(end, end_got, names, True)
        if inner is None:
            return None
        out.extend(inner)
    # At the end of a deal, values worked out from the cards (what each hand is worth, who lost a life) differ
    # wherever the cards do: they are left to the mend of the cards, which may set them right.
    derived = False
    for part in ("zones", "variables"):
        a, b = want[part], got[part]
        if a.keys() != b.keys():
            return None
        for key, x in a.items():
            y = b[key]
            if x == y:
                continue
            xs, ys = (x, y) if isinstance(x, list) and isinstance(y, list) else ([x], [y])
            if len(xs) != len(ys):
                return None
            if any(isinstance(u, list) or isinstance(w, list) for u, w in zip(xs, ys)):
                # A card_lists variable: lists of the same lengths differ in cards only, card for card.
                if not all(isinstance(u, list) and isinstance(w, list) and len(u) == len(w) for u, w in zip(xs, ys)):
                    return None
                xs, ys = [c for u in xs for c in u], [c for w in ys for c in w]
            for u, w in zip(xs, ys):
                if u == w:
                    continue
                if not (isinstance(u, str) and isinstance(w, str) and u in names and w in names):
                    if ended and part == "variables":
                        derived = True
                        continue
                    return None
                out.append((names[u], names[w], ended))
    if derived and not any(e for _c, _d, e in out):
        return None  # values alone differ: no card of the deal's end to mend
    return out


def distance(want: dict[str, Any], got: dict[str, Any]) -> int:
    """The number of places where two observations differ: an entry, or one element of equal-length lists."""
    out = 0
    for key, x in want.items():
        y = got.get(key)
        if key in ("zones", "variables", "deal_end") and isinstance(x, dict) and isinstance(y, dict):
            out += distance(x, y)
        elif x != y:
            if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
                out += sum(u != w for u, w in zip(x, y))
            else:
                out += 1
    return out
