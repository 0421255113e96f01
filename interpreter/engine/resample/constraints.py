"""The constraint layer of resampling: per-card facts from what the player saw, and deals drawn to fit them all.

A shuffle's outcomes put its cards at positions; the history then carries each position's card along the
same way whichever card it is, as long as the player sees nothing different (dealing, passing, playing a
card the player sees). So what the player knows of an unseen card is, mostly, a fact about the positions
it may take in the shuffle it last went through (its *domain*):

- pinned: the player saw card c where the candidate history has card d (its observation after a step,
  its own hand, a trick, the cards at the end of a deal): c takes d's position;
- held: another seat's public action uses card c, which only a card held there makes legal: c takes a
  position whose card the seat holds then (the positions a swap of c makes the action legal from);
- excluded: another seat's public action would have been illegal had the seat held c (the probe is a
  swap of c into the seat's zones, with the action checked: a suit it failed to follow), or other cards
  force another choice on the seat now (`forcing`): c takes no position whose card the seat holds then.

Each fact is derived from the player's information (`Info`: who acted, the action as the player saw it,
its observation) and the candidate history the search built from it alone, never from the real state. A
step that does not fit adds facts, and every shuffle the facts touch is dealt again at once with all the
facts so far (`matching.assign`: a random deal, found whenever one exists, else the card with nowhere to
go); the history from that shuffle is replayed and checked as the search always does. What facts cannot
say (a count, a score, another seat's secret choice) is left to the search's other repairs and to
backtracking; past this search's budget the history goes on to the other searches (`resample_with_work`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .descent import Descent
from .info import Info, cards_of, differing, legal
from .matching import NoDeal, assign
from .search import ENDED, restore, swap_outcomes, swap_places

if TYPE_CHECKING:
    from ..state import State

Key = tuple[int, int]  # a shuffle: (step, its index among the step's shuffles)
# (the step it was learned at, the shuffle, the card, positions, whether the card takes one of them (True)
# or none of them (False))
Fact = tuple[int, Key, int, frozenset[int], bool]


class Deals(Descent):
    """Steps 2 and 3 with the constraint layer: a step that does not fit is mended by dealing the shuffles
    again under every fact learned so far, not by swapping two cards at random."""

    def __init__(self, info: Info, p: int, rng: random.Random, budget: int):
        super().__init__(info, p, rng, budget)
        self.facts: list[Fact] = []
        self.learned: set[int] = set()  # the steps whose exclusions (`_learn`) are among the facts
        self.stuck: int | None = None  # the last card no deal had a place for (NoDeal)

    def _step(self, i: int) -> State | None:
        # Facts learned at step i or later came from another choice there: forgotten when it is tried anew.
        self.facts = [x for x in self.facts if x[0] < i]
        self.learned = {m for m in self.learned if m < i}
        return super()._step(i)

    def _probe(self, i: int) -> State | None:
        """Step i differs from what the player saw in more than cards (a value worked out from them: the
        trump a turned card names, points in a hand): its cards are mended first, as pinned facts, and the
        values then follow them or not; else the descent (`Descent`)."""
        f = self.frames[i]
        if f.ran:
            t, f.shuffles = self._run(f.base, f, i)
            if t is not None and t.pending is None and not self._fits(t, i):
                pairs = card_pairs(self.info.views[i], t.observation(self.p), self.info.names, zones=_all_zones(t))
                if pairs and self._mend(i, pairs):
                    t, f.shuffles = self._run(f.base, f, i)
                    if t is not None and self._fits(t, i):
                        return t
        return super()._probe(i)

    # ------------------------------------------------------------ the positions of a shuffle
    def _seq(self, o: Key) -> list[int] | None:
        """The cards of shuffle o in the order it gave them (None if it is not all drawn yet)."""
        j, k = o
        f = self.frames[j]
        start, cards = f.shuffles[k]
        end = min(start + len(cards) - 1, len(f.outcomes))
        seq = f.outcomes[start:end]
        if len(seq) != len(cards) - 1:
            return None
        seq.append(next(iter(set(cards) - set(seq))))
        return seq

    def _origins(self, i: int, after: bool, ended: bool = False) -> dict[int, Key]:
        """`Search._origin` of every card at once: the shuffle each card last went through before step i (or
        within it too, `after`), for the cards the player has not seen since."""
        last: dict[int, Key] = {}
        top = i if after else i - 1
        for j in range(top + 1):
            shuffles = self.frames[j].shuffles
            n = len(shuffles)
            if ended and j == i and ENDED in shuffles:  # the deal that ended last in the step
                n = max(k for k, x in enumerate(shuffles) if x == ENDED)
            for k in range(n):
                for c in shuffles[k][1]:
                    last[c] = (j, k)
        return {c: o for c, o in last.items() if self._unseen(c, o[0], i, after)}

    def _held(self, i: int, seat: int, origins: dict[int, Key]) -> dict[Key, list[int]]:
        """The cards the seat holds before step i that the player has not seen since their shuffle, by it."""
        g, base = self.info.game, self.frames[i].base
        out: dict[Key, list[int]] = {}
        for zi, owner in enumerate(g.zone_owner):
            if owner == seat:
                for c in base.z[zi]:
                    o = origins.get(c)
                    if o is not None:
                        out.setdefault(o, []).append(c)
        return out

    # ------------------------------------------------------------ facts
    def _learn(self, i: int) -> None:
        """Step i fits: the cards another seat's public action at i excludes from its zones (the
        action would be refused had it held one), and from the zones of each seat the action names (what
        the player saw after the step would differ, beyond which cards it saw, had that seat held one:
        asked for a rank it did not have, say)."""
        info, f = self.info, self.frames[i]
        seat, a = info.who[i], f.action
        if seat is None or a is None or info.known[i] is None or f.base.pending is not None:
            return
        g = info.game
        act = g.action_for(a)
        named = {v for prm, v in zip(act.params, act.decode(a - act.offset)) if prm.kind == "player"}
        origins = self._origins(i, False)
        used = {c for _, c in cards_of(g, a)}
        for who in ({seat} | named) - {self.p}:
            held = self._held(i, who, origins)
            if who == seat:
                self._exclude(i, who, held, origins, used, lambda t: a in legal(t))
            if who in named:
                self._exclude(i, who, held, origins, used, lambda t: self._same(t, i))

    def _same(self, base: State, i: int) -> bool:
        """Whether step i, run on `base`, leaves the player seeing what it saw but for which cards."""
        t, _ = self._run(base, self.frames[i], i)
        if t is None or t.pending is not None:
            return False
        got = t.observation(self.p)
        return got == self.info.views[i] or differing(self.info.views[i], got, self.info.names) is not None

    def _exclude(self, i: int, who: int, held: dict[Key, list[int]], origins: dict[int, Key], used: set[int],
                 fits: Callable[[State], bool]) -> None:
        """Each unseen card that, swapped into seat `who`'s zones before step i in place of any of the seat's
        cards there, makes `fits` false: it takes none of the positions whose cards the seat holds then."""
        base = self.frames[i].base
        own = {zi for zi, owner in enumerate(self.info.game.zone_owner) if owner == who}
        for o, cards in held.items():
            seq = self._seq(o)
            spare = [x for x in cards if x not in used]
            if seq is None or not spare:
                continue
            places = frozenset(seq.index(x) for x in cards)
            for y in seq:
                if base.loc[y] in own or y in used or origins.get(y) != o:
                    continue
                if not any(fits(swapped(base, y, x)) for x in spare):
                    self.facts.append((i, o, y, places, False))

    def _legalize(self, i: int, cards: list[int]) -> bool:
        """Step i's action is refused: each of its cards must be held by the acting seat (at a position a
        swap makes the action legal from, else any the seat holds), and, if no single card's place is
        enough, the cards forcing another choice must be elsewhere. Then the shuffles are dealt anew."""
        info, f = self.info, self.frames[i]
        seat, a, base = info.who[i], f.action, f.base
        if seat is None:
            return False
        own = {zi for zi, owner in enumerate(info.game.zone_owner) if owner == seat}
        origins = self._origins(i, False)
        held = self._held(i, seat, origins)
        touched: set[Key] = set()
        enough = False
        for c in cards:
            o = origins.get(c)
            seq = self._seq(o) if o is not None else None
            if o is None or seq is None:
                continue
            good = set()
            for d in held.get(o, []):  # (a card the seat plays is one it holds: its places are tried)
                if d != c:
                    t = base.clone()
                    swap_places(t, c, d)
                    if a in legal(t):
                        good.add(seq.index(d))
            enough = enough or bool(good)
            if not good and base.loc[c] not in own:
                good = {seq.index(d) for d in held.get(o, [])}
            if good:
                self.facts.append((i, o, c, frozenset(good), True))
                touched.add(o)
        if not enough:
            # A suit to follow: the cards of the choices left are held where the action's must not be.
            forcing = {x for b in legal(base) for _, x in cards_of(info.game, b)} - set(cards)
            for o, mine in held.items():
                seq = self._seq(o)
                if seq is None:
                    continue
                places = frozenset(seq.index(x) for x in mine)
                for x in mine:
                    if x in forcing:
                        self.facts.append((i, o, x, places, False))
                        touched.add(o)
        if touched and self._deal(i, touched, False, False, False):
            return True
        return super()._legalize(i, cards)

    def _mend(self, i: int, pairs: list[tuple[int, int, bool]]) -> bool:
        """Each card the player must see at a place takes the position of the card there, and the shuffles
        are dealt anew with every fact so far; else the search's own swaps."""
        touched: dict[bool, set[Key]] = {}
        for c, d, ended in pairs:
            o = self._origin(i, c, True, ended)
            seq = self._seq(o) if o is not None else None
            if o is None or seq is None or d not in seq or o != self._origin(i, d, True, ended):
                return super()._mend(i, pairs)
            self.facts.append((i, o, c, frozenset({seq.index(d)}), True))
            touched.setdefault(ended, set()).add(o)
        # (The search's swap before the deal, as a cheaper first try, changed no median over the bundled
        # games: faster on some, slower on others; see docs/design/resampling.md.)
        if len(touched) == 1:
            ended = next(iter(touched))
            if self._deal(i, touched[ended], True, ended, True):
                return True
        return super()._mend(i, pairs)

    # ------------------------------------------------------------ dealing anew
    def _deal(self, i: int, keys: set[Key], after: bool, ended: bool, then: bool) -> bool:
        """Deal each shuffle in `keys` anew: its unseen cards to its positions under every fact, at random
        (`assign`), then replay the history from the first one up to step i (`Search._replay`, `then` as
        there). On a failure nothing is changed."""
        # The exclusions of the steps before i, learned when a deal first needs them: a state whose
        # history fits as drawn never pays for them.
        for m in range(i):
            if m not in self.learned:
                self._learn(m)
                self.learned.add(m)
        changed: dict[int, list[int]] = {}
        swaps: list[tuple[int, int, int]] = []

        origins = self._origins(i, after, ended)
        for o in sorted(keys):
            j, k = o
            fj = self.frames[j]
            seq = self._seq(o)
            if seq is None:
                return restore(self.frames, changed)
            free = [c for c in seq if origins.get(c) == o]
            places = {seq.index(c) for c in free}
            domains = {c: set(places) for c in free}
            for _, key, c, at, keep in self.facts:
                if key == o and c in domains:
                    domains[c] = domains[c] & at if keep else domains[c] - at
            try:
                where = assign(domains, self.rng, {c: seq.index(c) for c in free})
            except NoDeal as e:
                self.stuck = e.card
                return restore(self.frames, changed)
            self.work += 1  # (a deal costs about a step's replay)
            for c in free:
                q = where[c]
                x = seq[q]
                if x == c:
                    continue
                changed.setdefault(j, fj.outcomes[:])
                if not swap_outcomes(fj.outcomes, fj.shuffles[k], c, x):
                    return restore(self.frames, changed)
                r = seq.index(c)
                seq[q], seq[r] = c, x
                swaps.append((j, c, x))
        if not swaps:
            return False
        return self._replay(i, changed, swaps, then)


def swapped(base: State, y: int, x: int) -> State:
    """A copy of `base` with cards y and x in each other's places.

    (The probe of `_exclude` tries every card of the seat in turn: with one card only, where taking that card
    out is what changes the step, the seat's only card of the rank asked for, every card probed was ruled
    out, a fact stricter than the truth.)"""
    t = base.clone()
    swap_places(t, y, x)
    return t


def _all_zones(t: State) -> dict[str, Any]:
    """Every card of t's zones, as an observation names them (for `card_pairs`: the candidate's own cards,
    which nobody sees)."""
    g = t.game
    return {name: [g.card_names[c] for c in t.z[zi]] for zi, name in enumerate(g.zone_names)}


def card_pairs(want: dict[str, Any], got: dict[str, Any], names: dict[str, int],
               ended: bool = False, zones: dict[str, Any] | None = None) -> list[tuple[int, int, bool]]:
    """(card wanted, card there, whether at the end of the last deal) at each place where two observations
    of the same shape show different cards, whatever else differs (unlike `differing`)."""
    out: list[tuple[int, int, bool]] = []
    end, end_got = want.get("deal_end"), got.get("deal_end")
    if isinstance(end, dict) and not ended and got.get("deal") == end.get("deal") and \
            (not isinstance(end_got, dict) or end_got.get("deal") != end.get("deal")):
        # The player saw this deal end in the step and the candidate's goes on (a 31 it did not make): the
        # cards seen at the deal's end are where the candidate's deal has them now (`zones`: all of its
        # cards, hidden ones too). The player's new deal was never dealt in the candidate: its cards pair
        # with nothing.
        return card_pairs(end, {"zones": zones or got.get("zones", {}), "variables": got.get("variables", {})},
                          names, True)
    if isinstance(end, dict) and isinstance(end_got, dict) and not ended:
        out.extend(card_pairs(end, end_got, names, True))
    for part in ("zones", "variables"):
        a, b = want.get(part, {}), got.get(part, {})
        for key, x in a.items():
            y = b.get(key)
            if x == y:
                continue
            xs, ys = (x, y) if isinstance(x, list) and isinstance(y, list) else ([x], [y])
            if len(xs) != len(ys):
                continue
            for u, w in zip(xs, ys):
                if u != w and isinstance(u, str) and isinstance(w, str) and u in names and w in names:
                    out.append((names[u], names[w], ended))
    return out
