"""Step 4 of resampling: what no swap of the differing cards mends (who leads, a lost life, a deal a hand
ended at once, an action other cards forbid) is a descent over exchanges of the cards the player has not seen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .info import cards_in, cards_of, differing, distance, legal
from .search import MAX_CHECKS, MAX_SWAPS, Search, Shuffle, swap_outcomes, swap_places

if TYPE_CHECKING:
    from ..state import State

# Bounds of the descent, as those of search.py: past them the step fails and backtracking takes over.
MAX_UNFORCE = 64  # exchanges tried to take away the cards that force another choice than a step's action
# Random exchanges of unseen cards tried each time a step fails that no repair mends: a few, so that
# backtracking tries the step's other choices (another deal, another secret choice) in between.
PROBES = 8
# How often an exchange that takes step i further from what the player saw is kept all the same. Without
# it the descent sticks in the first near miss: a deal ended at once by one hand when the player saw it
# ended by another that loses everyone else a life; from there, each exchange towards the right hand alone
# takes the step further off.
NOISE = 0.1
# Random exchanges tried on a copy of the state before the step for each one replayed (`_best`): a copy costs a
# step's run, a replay as many steps as lie between the shuffle and the step (late in a fishing game, 50 or more).
PREVIEW = 8


class Descent(Search):
    """A search that tries the descent (and the forced-choice exchanges) before it backtracks."""

    def _probe(self, i: int) -> State | None:
        """Step i differs from what the player saw in a way no swap of the differing cards mends: a public
        consequence of hidden cards (who holds the card that leads, who lost a life), or an action that other
        cards forbid. Exchange cards the player has not seen within a shuffle they all went through, at
        random (`_exchange`), and keep an exchange if the steps before i still look to the player as they did
        and step i comes no further from it (`_gap`), or now and then all the same (`NOISE`): a descent over
        the histories that fit so far, until step i fits too. The exchanges are drawn from the random
        numbers, so the result still depends on nothing else."""
        f = self.frames[i]
        rng = self.rng
        # Every shuffle counts, not only the last each card went through: the cards of a deal that ended in
        # step i were shuffled again for the next one, and their places in the deal decide its scores.
        # Step i's own shuffles come and go with the exchanges (it ends a deal, or no longer does).
        earlier = [((j, k), unseen) for j in range(i) for k, (_, shuffled) in enumerate(self.frames[j].shuffles)
                   if len(unseen := [c for c in shuffled if self._unseen(c, j, i, True)]) > 1]
        # The later a shuffle, the likelier its cards decide step i, at first; a shuffle whose exchanges
        # leave step i as it was is tried less and less (the new deal a wrongly ended deal made, say).
        # A shuffle whose cards were all shuffled again before step i (an earlier deal) decides it only
        # through what outlived that shuffle (a hidden score), and costs a longer replay: rarely.
        last: dict[int, tuple[int, int]] = {}
        for j in range(i):
            for k, (_, shuffled) in enumerate(self.frames[j].shuffles):
                last.update((c, (j, k)) for c in shuffled)
        weights = {key: 0.5 ** (len(earlier) - n) * (1 if any(last.get(c) == key for c in cards) else 1 / 64)
                   for n, (key, cards) in enumerate(earlier)}
        gap, t0, f.shuffles = self._gap(i)
        focus = self._focus(i, t0)
        if gap[0] == 0:
            if (t := self._shift(i, focus)) is not None:
                return t
            gap, t0, f.shuffles = self._gap(i)  # (a replayed exchange may have changed the step)
        # A few exchanges each time the step fails, between which backtracking tries the step's other
        # choices and earlier steps' (another secret choice, another deal): many exchanges at once starve it.
        for _ in range(PROBES):
            if self.work >= self.budget:
                return None
            pools = earlier + [((i, k), list(shuffled)) for k, (_, shuffled) in enumerate(f.shuffles)
                               if len(shuffled) > 1]
            if not pools:
                return None
            n = rng.choices(range(len(pools)), [weights.setdefault(key, 1.0) for key, _ in pools])[0]
            (j, k), cards = pools[n]
            exchange = self._exchange(cards, f.base, focus)
            if PREVIEW and j < i:
                exchange = self._best(i, cards, focus, exchange)
            swaps = [(j, c, d) for c, d in exchange]
            fj = self.frames[j]
            before = fj.outcomes[:]
            if not swaps or not all(swap_outcomes(fj.outcomes, fj.shuffles[k], c, d) for _, c, d in swaps):
                fj.outcomes = before
                weights[(j, k)] = max(weights[(j, k)] / 2, 1e-3)
                continue
            # What to go back to if step i comes out further off (a mend below may reach back before j).
            saved = [(m.base, m.action, m.shuffles, m.outcomes) for m in self.frames[:i + 1]]
            saved[j] = saved[j][:3] + (before,)
            if not self._replay(i, {j: before}, swaps, True):
                weights[(j, k)] = max(weights[(j, k)] / 2, 1e-3)
                continue
            new, t, f.shuffles = self._gap(i)
            if t is not None and new[0] == 0 and new[1] > 0 and t.pending is None:
                # What is left may be cards in the wrong places only (a new deal the step made): mend those,
                # in the shuffles of this run of the step.
                pairs = differing(self.info.views[i], t.observation(self.p), self.info.names)
                if pairs and self._mend(i, pairs):
                    new, t, f.shuffles = self._gap(i)
            if t is not None and new == (0, 0):
                return t
            weights[(j, k)] = max(weights[(j, k)] / 2, 1e-3) if new == gap else 1.0
            if new > gap and not (new[0] == gap[0] == 0 and rng.random() < NOISE):
                for m, (base, action, sh, out) in zip(self.frames, saved):
                    m.base, m.action, m.shuffles, m.outcomes = base, action, sh, out
                continue
            gap = new
        return None

    def _shift(self, i: int, focus: set[int]) -> State | None:
        """Step i's action is legal but the player saw something else after it, which may be a count no card
        names (how many cards a seat handed over, who acts next): each card the step is about is exchanged,
        on a copy of the state before the step, with unseen cards elsewhere from the shuffle both went
        through (MAX_CHECKS checks in all, each a step's run), and the exchanges after which the step fits
        are replayed (MAX_SWAPS at most); the state after the step if one still fits after its replay."""
        f, rng = self.frames[i], self.rng
        base = f.base
        origins = {c: o for c in sorted(focus) if (o := self._origin(i, c, False)) is not None}
        if not origins:
            return None
        by: dict[tuple[int, int], list[int]] = {}
        for o in set(origins.values()):
            j, k = o
            by[o] = [d for d in self.frames[j].shuffles[k][1] if self._origin(i, d, False) == o]
        near = list(origins)
        rng.shuffle(near)
        per = max(1, MAX_CHECKS // len(near))
        tries = 0
        for c in near:
            o = origins[c]
            others = [d for d in by[o] if base.loc[d] != base.loc[c]]
            for d in rng.sample(others, min(per, len(others))):
                if self.work >= self.budget:
                    return None
                trial = base.clone()
                swap_places(trial, c, d)
                outcomes = f.outcomes
                f.base = trial
                gap, _, _ = self._gap(i)
                f.base, f.outcomes = base, outcomes
                if gap != (0, 0):
                    continue
                saved = self._frames_up_to(i)
                if self._swap_before(i, o, c, d):
                    gap, t, f.shuffles = self._gap(i)
                    if gap == (0, 0):
                        return t
                    # The replay brought the cards elsewhere than the copy had them: as it was, and the next.
                    self._put_back(saved)
                tries += 1
                if tries >= MAX_SWAPS:
                    return None
        return None

    def _best(self, i: int, cards: list[int], focus: set[int], first: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Of PREVIEW random exchanges, the one that brings step i closest to what the player saw, tried on
        a copy of the state before the step (a step's run, not a replay of the history from the shuffle)."""
        f = self.frames[i]
        base, outcomes = f.base, f.outcomes
        best, best_gap = first, None
        pairs = first
        for n in range(PREVIEW):
            if n:
                pairs = self._exchange(cards, base, focus)
            if not pairs:
                continue
            t = base.clone()
            for c, d in pairs:
                swap_places(t, c, d)
            f.base = t
            gap, _, _ = self._gap(i)
            f.base, f.outcomes = base, outcomes
            if best_gap is None or gap < best_gap:
                best, best_gap = pairs, gap
        return best

    def _focus(self, i: int, t: State | None) -> set[int]:
        """The cards step i is about: those it moved in its last run, those the player's observation after it
        shows at a place in one run and not in the other, and those of the zones of the acting player and of
        each player its action names. Where the observations differ in what no card names (how many cards a
        hidden hand holds, who is to act), exchanging one of these with any card is far likelier to mend it
        than exchanging two cards at random."""
        f, info, g = self.frames[i], self.info, self.info.game
        base = f.base
        out: set[int] = set()
        if t is not None:
            out.update(c for c in range(len(base.loc)) if base.loc[c] != t.loc[c])
            if t.pending is None:
                out.update(info.view_cards[i] ^ cards_in(t.observation(self.p), info.names))
        players = {info.who[i]}
        if f.action is not None:
            a = g.action_for(f.action)
            players.update(v for prm, v in zip(a.params, a.decode(f.action - a.offset)) if prm.kind == "player")
        for zi, owner in enumerate(g.zone_owner):
            if owner is not None and owner in players:
                out.update(base.z[zi])
        return out

    def _exchange(self, cards: list[int], base: State, focus: set[int]) -> list[tuple[int, int]]:
        """A random exchange among unseen cards of one shuffle, as pairs of cards to swap in turn: half the
        time a card step i is about (`_focus`) with any other."""
        rng = self.rng
        near = [c for c in cards if c in focus]
        if near and rng.random() < 0.5:
            c = near[rng.randrange(len(near))]
            # The other card from the focus too, half the time: a card seen after the step into the acting
            # player's hand, or into the place of the card the step drew (two cards of one pile count).
            others = [d for d in (near if len(near) > 1 and rng.random() < 0.5 else cards) if d != c]
            return [(c, others[rng.randrange(len(others))])] if others else []
        r = rng.random()
        if r < 1 / 3:
            # The unseen cards of two places (at step i) traded as a whole: who holds a winning hand, say.
            loc = base.loc
            c, d = rng.sample(cards, 2)
            return [(x, y) for x, y in zip([x for x in cards if loc[x] == loc[c]],
                                           [y for y in cards if loc[y] == loc[d]]) if x != y]
        # Two cards exchanged, or three in a cycle: when the two cards that must move cannot trade places,
        # each exchange alone can contradict what the player saw.
        picked = rng.sample(cards, 3 if len(cards) > 2 and r < 2 / 3 else 2)
        return [(picked[0], d) for d in picked[1:]]

    def _gap(self, i: int) -> tuple[tuple[int, int], State | None, list[Shuffle]]:
        """How far step i, run on its current base, is from what the player saw: (1, the number of choices
        left) if its action is refused, else (0, the number of places where the observations differ); with
        the state after it and its shuffles."""
        f = self.frames[i]
        if f.action is not None and self.info.known[i] is not None and not f.base.pending and \
                not f.base.terminal:
            moves = legal(f.base)
            if f.action not in moves:
                return (1, len(moves)), None, []
        t, shuffles = self._run(f.base, f, i)
        if t is None or (t.pending is not None and not self._ends_right(t, i)):
            # The exchanged cards changed what the step does (it ends a deal and deals the next, or no
            # longer does): its chance is drawn afresh.
            drawn = self._draw(f.base, f.action)
            if drawn is not None:
                f.outcomes = drawn[:self.info.tail] if i == self.last and self.info.tail is not None else drawn
                t, shuffles = self._run(f.base, f, i)
        if t is None:
            return (2, 0), None, []
        if not self._ends_right(t, i):
            return (0, 1 + distance(self.info.views[i], t.observation(self.p))), t, shuffles
        return (0, distance(self.info.views[i], t.observation(self.p))), t, shuffles

    def _unforce(self, i: int, cards: list[int]) -> bool:
        """Step i's action is refused because other choices are forced on the player (a suit to follow,
        say): the cards of the actions legal instead. Exchange such a card, if unseen, with an unseen card
        elsewhere (half the time with the action's own card, which is to come where the forcing card leaves),
        keeping an exchange if it leaves the acting player fewer choices, or the action legal, and the steps
        before i as the player saw them."""
        f = self.frames[i]
        a, rng, g = f.action, self.rng, self.info.game
        for _ in range(MAX_UNFORCE):
            if self.work >= self.budget:
                return False
            base = f.base
            moves = legal(base)
            if a in moves:
                return True
            forcing = {c for b in moves for _, c in cards_of(g, b)} - set(cards)
            here = [(x, o) for x in sorted(forcing) if (o := self._origin(i, x, False)) is not None]
            if not here:
                return False
            x, (j, k) = here[rng.randrange(len(here))]
            there = [c for c in cards if base.loc[c] != base.loc[x] and self._origin(i, c, False) == (j, k)]
            if not there or rng.random() < 0.5:
                there = [y for y in self.frames[j].shuffles[k][1] if y not in forcing and
                         base.loc[y] != base.loc[x] and self._origin(i, y, False) == (j, k)]
            if not there:
                continue
            y = there[rng.randrange(len(there))]
            t = base.clone()
            swap_places(t, x, y)
            after = legal(t)
            if a not in after and len(after) >= len(moves):
                continue
            fj = self.frames[j]
            before = fj.outcomes[:]
            # A failed swap changes nothing, and a failed replay undoes itself.
            if swap_outcomes(fj.outcomes, fj.shuffles[k], x, y):
                self._replay(i, {j: before}, [(j, x, y)], True)
        return False
