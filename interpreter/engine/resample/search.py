"""Steps 2 and 3 of resampling: a history built step by step, each step's chance drawn afresh, what fails
repaired by swapping cards the player has not seen, and backtracking past that."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..history import CHANCE, blank, entries, explicit, groups, mark, play_group
from .info import Info, any_in, cards_of, differing, legal

if TYPE_CHECKING:
    from ..state import State

# Bounds of the repairs at one step. Each keeps one step from taking the whole budget: past it the step
# counts as failed and backtracking tries another choice, which is likelier to help than more of the same.
MAX_FILLS = 64  # fresh draws of chance tried at one step
MAX_ROUNDS = 24  # repairs tried at one step before it counts as failed
MAX_SWAPS = 8  # cards tried in turn to make one action legal (each a replay)
MAX_CHECKS = 64  # exchanges checked on a copy of the state (no replay, cheap) to make one action legal

_DONE: Any = object()  # no more choices at a step
Shuffle = tuple[int, tuple[int, ...]]  # (where its outcomes start in the step's outcomes, the cards it shuffled)
ENDED: Shuffle = (-1, ())  # in a step's shuffles: a deal ended here (it shuffles nothing)


def swap_places(t: State, c: int, d: int) -> None:
    zc, zd = t.loc[c], t.loc[d]
    ic, jd = t.z[zc].index(c), t.z[zd].index(d)
    t.z[zc][ic], t.z[zd][jd] = d, c
    t.loc[c], t.loc[d] = zd, zc
    t.by[c], t.by[d] = t.by[d], t.by[c]
    t.cards_moved()


def swap_outcomes(outcomes: list[int], sh: Shuffle, c: int, d: int) -> bool:
    """Swap cards c and d in the order a shuffle gave (its outcomes, then the card left over)."""
    start, cards = sh
    end = min(start + len(cards) - 1, len(outcomes))
    seq = outcomes[start:end]
    if len(seq) == len(cards) - 1:
        seq.append(next(iter(set(cards) - set(seq))))
    if c in seq and d in seq:
        i, j = seq.index(c), seq.index(d)
        seq[i], seq[j] = d, c
    elif c in seq:
        seq[seq.index(c)] = d
    elif d in seq:
        seq[seq.index(d)] = c
    else:
        return False
    outcomes[start:end] = seq[:end - start]
    return True


def restore(frames: list[Frame], changed: dict[int, list[int]]) -> bool:
    """Put back the outcomes a failed repair changed (step -> its outcomes before); False, the repair's result."""
    for j, old in changed.items():
        frames[j].outcomes = old
    return False


class Frame:
    __slots__ = ("base", "action", "outcomes", "shuffles", "choices", "drew", "ran")

    def __init__(self, base: State):
        self.base = base  # the state before the step
        self.action: int | None = None
        self.outcomes: list[int] = []
        self.shuffles: list[Shuffle] = []
        self.choices: Iterator[int | None] | None = None
        self.drew = False  # whether the step's last draw had any chance
        self.ran = False  # whether any choice of the step was run


def draw(base: State, action: int | None, seed: int) -> list[int] | None:
    """The chance outcomes of one run of a step on base, drawn from `seed` (None if the step fails)."""
    t = base.seeded_copy(seed)
    try:
        play_group(t, action, [])
    except GameError:
        return None
    new: list[tuple[int, Any]] = []
    h = t.trail
    while h is not base.trail and h:
        h, who, what = h
        new.append((who, what))
    new.reverse()
    return [what for who, what in explicit(new) if who == CHANCE]


class Search:
    """Steps 2 and 3, and backtracking: build a history the player cannot tell from the real one. Without
    the descent of step 4 (`Descent`), which overrides `_probe` and `_unforce`."""

    def __init__(self, info: Info, p: int, rng: random.Random, budget: int):
        self.info, self.p, self.rng, self.budget = info, p, rng, budget
        self.work = 0
        self.last = len(info.views) - 1
        self.frames: list[Frame] = []
        self.lazy_found: State | None = None  # see taken_lazily
        self.reached = 0  # the most steps that fitted at once: how far the search got (see `schedule`)

    def run(self) -> State | None:
        frames = self.frames
        if not frames:  # (a carried search starts with the steps of its hint: carry.py)
            frames.append(self._frame(blank(self.info.game, None), 0))
        self.reached = max(self.reached, len(frames) - 1)  # (one that goes on from another's history)
        while frames and self.work < self.budget:
            i = len(frames) - 1
            f = frames[-1]
            choice = next(f.choices, _DONE) if f.choices is not None else _DONE
            if choice is _DONE:
                # Before the step is given up, the descent once more from its last choice: some states
                # late in a deal are found no other way (tests/test_infostate.py keeps one).
                t = self._probe(i) if f.ran else None
                if t is None:
                    frames.pop()
                    continue
            else:
                f.action, f.outcomes, f.ran = choice, [], True
                t = self._step(i)
                if t is None:
                    continue
            if i == self.last:
                return t
            frames.append(self._frame(t, i + 1))
            self.reached = max(self.reached, i + 1)
        return None

    def seed(self, hint: State) -> State | None:
        """Fill `self.frames` with the hint's steps while each fits what the player knows, and a frame for the
        next step; the state after the last step if the whole hint fits (nothing the player saw happened since
        it was found), else None. For a carried search (carry.py)."""
        info = self.info
        g = info.game
        steps = groups(explicit(entries(hint.trail)))
        base = blank(g, None)
        frames = self.frames
        for i, (who, action, outcomes, _) in enumerate(steps):
            if i > self.last or who != info.who[i] or self.work >= self.budget:
                break
            if action is not None:
                known, text = info.known[i], info.text[i]
                if (known is not None and action != known) or \
                        (text is not None and g.public_action_string(action) != text):
                    break
            f = Frame(base)
            f.action, f.outcomes, f.ran = action, list(outcomes), True
            frames.append(f)
            t, f.shuffles = self._run(base, f, i)
            if t is None or not self._fits(t, i):
                frames.pop()
                break
            # Backtracking into a step taken from the hint tries its other choices, as for any other step.
            f.choices = self._choices(f, i)
            base = t
        if len(frames) > self.last:
            return base
        if frames:
            frames.append(self._frame(base, len(frames)))
        return None

    def _frame(self, base: State, i: int) -> Frame:
        f = Frame(base)
        f.choices = self._choices(f, i)
        return f

    def _choices(self, f: Frame, i: int) -> Iterator[int | None]:
        """The step's actions to try in random order: each the player could have seen as it did, each time
        with a fresh draw of the step's chance (made by _step), up to MAX_FILLS draws in all."""
        info, g, rng = self.info, self.info.game, self.rng
        known, text = info.known[i], info.text[i]
        if text is None:
            actions: list[int | None] = [known]
        else:
            base = f.base
            if base.pending is not None or base.terminal:
                return
            actions = [a for a in legal(base) if g.public_action_string(a) == text]
            rng.shuffle(actions)
        fills = 0
        while True:
            for a in actions:
                f.drew = False
                yield a
                fills += f.drew
            if fills == 0 or fills >= MAX_FILLS:
                return

    def _draw(self, base: State, action: int | None) -> list[int] | None:
        """The chance outcomes of one run of the step, drawn from a seed taken from the random numbers."""
        self.work += 1
        return draw(base, action, self.rng.getrandbits(64))

    def _run(self, base: State, f: Frame, i: int) -> tuple[State | None, list[Shuffle]]:
        """Step i on base; the state after it (None if it failed) and the shuffles it made."""
        t = base.clone()
        trace: list[Any] = []
        self.work += 1
        try:
            play_group(t, f.action, f.outcomes, trace)
        except GameError:
            return None, []
        return t, [(r[1], r[2]) if r[0] == "shuffle" else ENDED for r in trace if r[0] in ("shuffle", "ended")]

    def _fits(self, t: State, i: int) -> bool:
        if i == self.last and self.info.lazy_tail:
            return self.taken_lazily(i)
        return self._ends_right(t, i) and t.observation(self.p) == self.info.views[i]

    def taken_lazily(self, i: int) -> bool:
        """For a real state that deals lazily, at a chance node (Info.lazy_tail): the state before step i,
        dealing lazily from the real blocks, takes the step's action again and stops at a chance node too
        (then kept as `lazy_found`: the state found)."""
        f = self.frames[i]
        try:
            if f.action is None:
                t = self.info.game.new_initial_state()  # the start of the match: nothing has happened yet
            else:
                t = f.base.clone()
                mark(t, self.info.blocks)
                t.apply_action(f.action)
        except GameError:
            return False
        if t.pending is None:
            return False
        self.lazy_found = t
        return True

    def _ends_right(self, t: State, i: int) -> bool:
        """Step i, run to t, ends where the real one did: done, or (the player's state is at a chance node)
        pending after as many chance outcomes of the step as the real one had had. Pending after fewer is
        another point of the history, which the player's information does not say (the real state's)."""
        if i == self.last and self.info.ends_pending:
            return t.pending is not None and len(self.frames[i].outcomes) == self.info.tail
        return t.pending is None or (i == self.last and self.info.lazy_tail)

    def _step(self, i: int) -> State | None:
        """Run step i with its current choice, repairing it (steps 3 and 4); the state after it, or None."""
        f = self.frames[i]
        info, g = self.info, self.info.game
        drawn: list[int] | None = None
        for _ in range(MAX_ROUNDS):
            if self.work >= self.budget or (info.who[i] is not None and f.base.cur != info.who[i]):
                return None
            if f.action is not None and info.known[i] is not None and not f.base.pending and \
                    not f.base.terminal and f.action not in legal(f.base):
                cards = [c for _, c in cards_of(g, f.action)]
                if not self._legalize(i, cards) and not self._gather(i, cards) and not self._unforce(i, cards) \
                        and not self._supply(i):
                    return self._probe(i)
                continue
            if drawn is None:
                drawn = self._draw(f.base, f.action)
                if drawn is None:
                    return None
                if info.tail is not None and i == self.last:
                    drawn = drawn[:info.tail]
                f.outcomes = drawn
                f.drew = len(drawn) > 0
            t, f.shuffles = self._run(f.base, f, i)
            if t is None:
                return None
            if self._fits(t, i):
                return t
            pairs = differing(info.views[i], t.observation(self.p), info.names) if t.pending is None else None
            if not pairs or not self._mend(i, pairs):
                return self._probe(i)
        return self._probe(i)

    def _probe(self, i: int) -> State | None:
        """Step i once more by the descent (`Descent`); backtracking alone has none."""
        return None

    def _unforce(self, i: int, cards: list[int]) -> bool:
        """Step i's refused action made legal by exchanging the cards that force another (`Descent`)."""
        return False

    def _origin(self, i: int, c: int, after: bool, ended: bool = False) -> tuple[int, int] | None:
        """(step, shuffle) that card c last went through, before step i or (after) within it too, if the
        player has not seen c since (else None: it is where the player knows it is). `ended`: as the last
        deal ended, in step i (not the shuffles step i made for the next deal)."""
        top = i if after else i - 1
        for j in range(top, -1, -1):
            shuffles = self.frames[j].shuffles
            last = len(shuffles) - 1
            if ended and j == i and ENDED in shuffles:  # the deal that ended last in the step
                last = max(k for k, x in enumerate(shuffles) if x == ENDED) - 1
            for k in range(last, -1, -1):
                if c in shuffles[k][1]:
                    return (j, k) if self._unseen(c, j, i, after) else None
        return None

    def _unseen(self, c: int, j: int, i: int, after: bool) -> bool:
        info = self.info
        return not any_in(info.seen_at[c], j, i) and not any_in(info.acted_at[c], j + 1, i + 1 if after else i)

    def _mend(self, i: int, pairs: list[tuple[int, int, bool]]) -> bool:
        """Swap each card the player must see at a place with the card there, in the shuffle both went
        through, and replay from the earliest one changed."""
        changed: dict[int, list[int]] = {}
        swaps: list[tuple[int, int, int]] = []
        # Each wanted card goes to the place in its shuffle where the card now seen there was, in one go:
        # a chain of places (c where d is, d where e is, ...) is mended at once, not one link per replay,
        # which matters where the player saw whole hands at once (turned up at the end of a deal).
        where: dict[tuple[int, int], list[int]] = {}  # shuffle -> its cards in order, as mended so far
        first: dict[tuple[int, int], list[int]] = {}  # shuffle -> its cards in order before the mend
        for c, d, ended in pairs:
            o = self._origin(i, c, True, ended)
            if o is None or o != self._origin(i, d, True, ended):
                return False
            j, k = o
            f = self.frames[j]
            if o not in where:
                start, cards = f.shuffles[k]
                end = min(start + len(cards) - 1, len(f.outcomes))
                seq = f.outcomes[start:end]
                if len(seq) == len(cards) - 1:
                    seq.append(next(iter(set(cards) - set(seq))))
                where[o], first[o] = seq, seq[:]
            seq = where[o]
            if d not in first[o] or c not in seq:
                return False
            x = seq[first[o].index(d)]  # the card now at the place where d was seen
            if x == c:
                continue
            if j not in changed:
                changed[j] = f.outcomes[:]
            if not swap_outcomes(f.outcomes, f.shuffles[k], c, x):
                return False
            a, b = seq.index(c), seq.index(x)
            seq[a], seq[b] = x, c
            swaps.append((j, c, x))
        if not swaps:
            return False
        return self._replay(i, changed, swaps, True)

    def _legalize(self, i: int, cards: list[int]) -> bool:
        """Make step i's action legal by swapping one of its cards with an unseen card of the same shuffle
        whose place makes it so."""
        def swaps() -> Iterator[tuple[tuple[int, int], int, int]]:
            for c in cards:
                o = self._origin(i, c, False)
                if o is None:
                    continue
                j, k = o
                others = [d for d in self.frames[j].shuffles[k][1] if d != c and self._origin(i, d, False) == o]
                self.rng.shuffle(others)
                yield from ((o, c, d) for d in others)
        return self._first_legal(i, swaps(), False)

    def _first_legal(self, i: int, swaps: Iterator[tuple[tuple[int, int], int, int]], charge: bool) -> bool:
        """The first swap (shuffle, c, d) that makes step i's action legal on a copy of the state before it
        (each check counted as work with `charge`) and replays as the player saw it; at most MAX_SWAPS legal
        ones are replayed."""
        f = self.frames[i]
        tries = 0
        for o, c, d in swaps:
            t = f.base.clone()
            swap_places(t, c, d)
            self.work += charge
            if f.action not in legal(t):
                continue
            saved = self._frames_up_to(i)
            if self._swap_before(i, o, c, d):
                # The replayed history need not bring the cards where the copy had them (cards that move by
                # what they are: every card of a rank handed over): the action must be legal after it too.
                if f.action in legal(f.base):
                    return True
                self._put_back(saved)
            tries += 1
            if tries >= MAX_SWAPS:
                return False
        return False

    def _frames_up_to(self, i: int) -> list[tuple[Any, int | None, list[Shuffle], list[int]]]:
        """What steps 0 to i are now, to put back (`_put_back`) if a swap and its replay do not help."""
        return [(m.base, m.action, m.shuffles, m.outcomes[:]) for m in self.frames[:i + 1]]

    def _put_back(self, saved: list[tuple[Any, int | None, list[Shuffle], list[int]]]) -> None:
        for m, (base, action, sh, out) in zip(self.frames, saved):
            m.base, m.action, m.shuffles, m.outcomes = base, action, sh, out

    def _swap_before(self, i: int, o: tuple[int, int], c: int, d: int) -> bool:
        """Swap cards c and d in shuffle o (step, shuffle) and replay the steps from there up to step i; on a
        failure, nothing is changed."""
        j, k = o
        fj = self.frames[j]
        before = fj.outcomes[:]
        if swap_outcomes(fj.outcomes, fj.shuffles[k], c, d) and self._replay(i, {j: before}, [(j, c, d)], False):
            return True
        fj.outcomes = before
        return False

    def _supply(self, i: int) -> bool:
        """Make step i's action legal by bringing an unseen card into the acting player's zones, in exchange
        for one of theirs from the same shuffle: an action that names no card (ask for a rank, say) may need
        the player to hold some card, and no card of the action tells which. Each exchange is tried on a copy
        of the state before the step (a cheap check) before the history is replayed with it."""
        info, g, f = self.info, self.info.game, self.frames[i]
        actor = info.who[i]
        if actor is None:
            return False
        t = f.base
        own = {zi for zi, owner in enumerate(g.zone_owner) if owner == actor}
        mine: dict[tuple[int, int], list[int]] = {}
        for zi in own:
            for c in t.z[zi]:
                o = self._origin(i, c, False)
                if o is not None:
                    mine.setdefault(o, []).append(c)
        if not mine:
            return False
        theirs = [(d, o) for o in mine for d in self.frames[o[0]].shuffles[o[1]][1]
                  if t.loc[d] not in own and self._origin(i, d, False) == o]
        self.rng.shuffle(theirs)
        rng = self.rng

        def swaps() -> Iterator[tuple[tuple[int, int], int, int]]:
            # A card d that makes the action legal is rare (a card of the rank asked for); which of the
            # player's cards goes in its place decides whether the steps before still replay: each of them
            # is tried with it, in random order, and the other cards d once each.
            for d, o in theirs[:MAX_CHECKS]:
                cs = mine[o][:]
                rng.shuffle(cs)
                t = f.base.clone()
                swap_places(t, cs[0], d)
                self.work += 1
                if f.action in legal(t):
                    yield from ((o, c, d) for c in cs)
        return self._first_legal(i, swaps(), False)

    def _gather(self, i: int, cards: list[int]) -> bool:
        """Make step i's action of a list of cards (a meld) legal by bringing each of its cards into the acting
        player's zone that holds most of them, each by a swap with an unseen card there from the shuffle both
        went through; one swap (`_legalize`) cannot place two cards."""
        info, g, f = self.info, self.info.game, self.frames[i]
        actor = info.who[i]
        assert f.action is not None
        if actor is None or len(set(cards)) < 2 or not any(p.kind == "cards" for p in g.action_for(f.action).params):
            return False  # (an action of one card per parameter is `_legalize`'s alone, as it always was)
        own = [zi for zi, owner in enumerate(g.zone_owner) if owner == actor]
        if not own:
            return False
        t = f.base.clone()
        target = max(own, key=lambda zi: sum(t.loc[c] == zi for c in cards))
        changed: dict[int, list[int]] = {}
        swaps: list[tuple[int, int, int]] = []

        for c in cards:
            if t.loc[c] == target:
                continue
            o = self._origin(i, c, False)
            if o is None:
                return restore(self.frames, changed)
            pool = [d for d in t.z[target] if d not in cards and self._origin(i, d, False) == o]
            if not pool:
                return restore(self.frames, changed)
            d = pool[self.rng.randrange(len(pool))]
            j, k = o
            fj = self.frames[j]
            changed.setdefault(j, fj.outcomes[:])
            if not swap_outcomes(fj.outcomes, fj.shuffles[k], c, d):
                return restore(self.frames, changed)
            swap_places(t, c, d)
            swaps.append((j, c, d))
        if not swaps or f.action not in legal(t):
            return restore(self.frames, changed)
        return self._replay(i, changed, swaps, False)

    def _replay(self, i: int, changed: dict[int, list[int]], swaps: list[tuple[int, int, int]],
                then: bool) -> bool:
        """Replay the steps from the first one changed up to step i (not included), checking each. Cards
        swapped in a shuffle are swapped in the secret actions after it too (and in step i's, with `then`):
        what a secret action chose is as hidden as the shuffle. On a failure, nothing is changed."""
        frames = self.frames
        j = min(changed)
        base = frames[j].base
        done: list[tuple[State, list[Shuffle]]] = []
        actions = {m: frames[m].action for m in range(j, i + 1)}

        def undo() -> bool:
            for m2, a in actions.items():
                frames[m2].action = a
            return restore(frames, changed)

        for m in range(j, i + (1 if then else 0)):
            f = frames[m]
            if self.info.known[m] is None and f.action is not None:
                a = self._renamed(base, m, [(c, d) for j2, c, d in swaps if j2 < m])
                if a is None:
                    return undo()
                f.action = a
            if m == i:
                break
            t, shuffles = self._run(base, f, m)
            if t is None or not self._fits(t, m):
                return undo()
            done.append((t, shuffles))
            base = t
        for m, (t, shuffles) in enumerate(done, start=j):
            frames[m].shuffles = shuffles
            frames[m + 1].base = t
        return True

    def _renamed(self, base: State, m: int, swaps: list[tuple[int, int]]) -> int | None:
        """Step m's secret action with the swapped cards swapped in it: a legal action on base, or None."""
        g = self.info.game
        a = self.frames[m].action
        assert a is not None
        info = g.action_for(a)
        vals = list(info.decode(a - info.offset))
        new = vals[:]
        for c, d in swaps:
            new = [(d if v == c else c if v == d else v) if prm.kind == "card" else
                   [d if x == c else c if x == d else x for x in v] if prm.kind == "cards" else v
                   for prm, v in zip(info.params, new)]
        if new == vals:
            return a
        if base.pending is not None or base.terminal:
            return None

        def key(values: list[Any]) -> list[Any]:
            # A list of cards with a card swapped may stand in another order among the ids: the same cards.
            return [sorted(v) if prm.kind == "cards" else v for prm, v in zip(info.params, values)]

        want = key(new)
        for b in legal(base):
            if g.action_for(b) is info and key(list(info.decode(b - info.offset))) == want:
                return b
        return None
