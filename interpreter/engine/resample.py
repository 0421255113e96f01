"""Resampling: a full state one player cannot tell from the real one, for search with hidden information.

The method, for any rule file (docs/architecture.md, "Resampling from an information state"):

1. Replay the state's history once to learn what the player knows, and only that: who acted at each step,
   the action as the player saw it (its own and the public ones in full, a `secret:` one by its public
   text), and the player's observation after each step. Nothing else of the real history is kept: not its
   chance outcomes, not where any card was, not the hidden part of a secret action.
2. Build a history step by step from that alone. Each step's chance is drawn afresh (a seed from the
   random numbers run on the step), a secret action is any legal action with the same public text. A step
   is kept if its action is legal and the player's observation after it is the one the player had.
3. Repair what fails before giving up on it. A card the player must see at a place (its observation) or
   that a public action uses is swapped, in the shuffle it last went through, with a card the player has
   not seen since that shuffle: the card at the place, or one whose place makes the action legal. The
   history from that shuffle on is replayed and checked again. An action refused because other cards
   force another choice (a suit to follow) gets those cards exchanged away, one at a time (`_unforce`).
4. What no swap mends (who leads, a lost life, a deal ended by a 31) is a descent (`_probe`): cards the
   player has not seen are exchanged, two or three at a time within any shuffle of the history, and an
   exchange is kept if the steps before still fit and the step comes no further from what the player saw
   (`_gap`), each time the step fails and once more before it is given up. Past that, a depth-first
   search: the step's next choice, then the steps before it; and past
   a share of the budget, a fresh search (`RESTARTS`). Searches take turns with and without the
   forced-choice repair and the descent (backtracking alone is quicker where a fresh deal soon fits).

The result depends on the player's information state and the random numbers only, since nothing else of
the real history is read; so a search bot built on it cannot cheat. Tries and replayed steps are bounded;
past the bounds a GameError says so, and the real state is never returned. The states found are
consistent, not drawn exactly from the posterior: the search keeps the first consistent history.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .errors import GameError
from .history import CHANCE, RESEED, blank, entries, explicit, groups, play_group

if TYPE_CHECKING:
    from .state import State

MAX_TRIES = 10_000
MAX_WORK = 400_000  # steps replayed over all tries
RESTARTS = 8  # a search gets at most MAX_WORK // RESTARTS before a fresh one starts
MAX_FILLS = 64  # fresh draws of chance tried at one step
MAX_ROUNDS = 24  # repairs tried at one step before it counts as failed
MAX_SWAPS = 8  # cards tried in turn to make one action legal
MAX_UNFORCE = 64  # exchanges tried to take away the cards that force another choice than a step's action
PROBES = 8  # random exchanges of unseen cards tried each time a step fails that no repair mends

_DONE: Any = object()  # no more choices at a step
Shuffle = tuple[int, tuple[int, ...]]  # (where its outcomes start in the step's outcomes, the cards it shuffled)


class _Info:
    """What the player knows, from one replay of the real history (step 1); nothing else is kept."""

    def __init__(self, s: State, p: int):
        g = self.game = s.game
        steps = groups(explicit(entries(s.trail)))
        self.who: list[int | None] = []
        self.known: list[int | None] = []  # the action, if the player saw it in full
        self.text: list[str | None] = []  # the public text of another player's secret action
        self.views: list[dict[str, Any]] = []  # the player's observation after each step
        self.view_cards: list[set[int]] = []  # the cards in it
        self.act_cards: list[set[int]] = []  # the cards of the action, if the player saw it in full
        names = {n: c for c, n in enumerate(g.card_names)}
        self.names = names
        t = blank(g, None)
        for who, action, outcomes, _ in steps:
            self.who.append(who)
            public = action is None or who == p or _public(g, action)
            self.known.append(action if public else None)
            self.text.append(None if public or action is None else g.public_action_string(action))
            self.act_cards.append({c for _, c in _cards_of(g, action)} if public and action is not None else set())
            play_group(t, action, outcomes)
            view = t.observation(p)
            self.views.append(view)
            self.view_cards.append(_cards_in(view, names))
        self.ends_pending = t.pending is not None
        # How far the last step's chance had gone: a state at a chance node stays one, at the same point.
        self.tail = len(steps[-1][2]) if self.ends_pending else None


def _public(g: Any, a: int) -> bool:
    return bool(g.public_action_string(a) == g.action_to_string(None, a))


def _cards_of(g: Any, a: int) -> list[tuple[int, int]]:
    """(parameter position, card) of each card parameter of action a."""
    info = g.action_for(a)
    vals = info.decode(a - info.offset)
    return [(k, v) for k, (prm, v) in enumerate(zip(info.params, vals)) if prm.kind == "card"]


def _cards_in(view: dict[str, Any], names: dict[str, int]) -> set[int]:
    out: set[int] = set()
    for cards in view["zones"].values():
        if isinstance(cards, list):
            out.update(names[n] for n in cards)
    for v in view["variables"].values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, str) and x in names:
                out.add(names[x])
    return out


def _pairs(want: dict[str, Any], got: dict[str, Any], names: dict[str, int]) -> list[tuple[int, int]] | None:
    """(card wanted, card there) for each place where two observations differ in a card only; None if they
    differ in anything else (no swap of cards can mend that)."""
    if {k: v for k, v in want.items() if k not in ("zones", "variables")} != \
            {k: v for k, v in got.items() if k not in ("zones", "variables")}:
        return None
    out: list[tuple[int, int]] = []
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
            for u, w in zip(xs, ys):
                if u == w:
                    continue
                if not (isinstance(u, str) and isinstance(w, str) and u in names and w in names):
                    return None
                out.append((names[u], names[w]))
    return out


def _distance(want: dict[str, Any], got: dict[str, Any]) -> int:
    """The number of places where two observations differ: an entry, or one element of equal-length lists."""
    out = 0
    for key, x in want.items():
        y = got.get(key)
        if key in ("zones", "variables") and isinstance(x, dict) and isinstance(y, dict):
            out += _distance(x, y)
        elif x != y:
            if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
                out += sum(u != w for u, w in zip(x, y))
            else:
                out += 1
    return out


def _swap_places(t: State, c: int, d: int) -> None:
    zc, zd = t.loc[c], t.loc[d]
    ic, jd = t.z[zc].index(c), t.z[zd].index(d)
    t.z[zc][ic], t.z[zd][jd] = d, c
    t.loc[c], t.loc[d] = zd, zc
    t.by[c], t.by[d] = t.by[d], t.by[c]
    t.legal = None


def _swap_outcomes(outcomes: list[int], sh: Shuffle, c: int, d: int) -> bool:
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


class _Frame:
    __slots__ = ("base", "action", "outcomes", "shuffles", "choices", "drew", "ran")

    def __init__(self, base: State):
        self.base = base  # the state before the step
        self.action: int | None = None
        self.outcomes: list[int] = []
        self.shuffles: list[Shuffle] = []
        self.choices: Iterator[int | None] | None = None
        self.drew = False  # whether the step's last draw had any chance
        self.ran = False  # whether any choice of the step was run


class _Search:
    """Steps 2 and 3: build a history the player cannot tell from the real one."""

    def __init__(self, info: _Info, p: int, rng: random.Random, budget: int, descend: bool):
        self.info, self.p, self.rng, self.budget = info, p, rng, budget
        self.descend = descend  # whether to try _unforce and _probe before backtracking
        self.work = 0
        self.last = len(info.views) - 1
        self.frames: list[_Frame] = []

    def run(self) -> State | None:
        frames = self.frames
        frames.append(self._frame(blank(self.info.game, None), 0))
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
        return None

    def _frame(self, base: State, i: int) -> _Frame:
        f = _Frame(base)
        f.choices = self._choices(f, i)
        return f

    def _choices(self, f: _Frame, i: int) -> Iterator[int | None]:
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
            actions = [a for a in base.legal_actions() if g.public_action_string(a) == text]
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
        t = base.clone()
        t.rng = self.rng.getrandbits(64)
        self.work += 1
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

    def _run(self, base: State, f: _Frame, i: int) -> tuple[State | None, list[Shuffle]]:
        """Step i on base; the state after it (None if it failed) and the shuffles it made."""
        t = base.clone()
        trace: list[Any] = []
        self.work += 1
        try:
            play_group(t, f.action, f.outcomes, trace)
        except GameError:
            return None, []
        return t, [(r[1], r[2]) for r in trace if r[0] == "shuffle"]

    def _fits(self, t: State, i: int) -> bool:
        return (t.pending is not None) == (i == self.last and self.info.ends_pending) and \
            t.observation(self.p) == self.info.views[i]

    def _step(self, i: int) -> State | None:
        """Run step i with its current choice, repairing it (steps 3 and 4); the state after it, or None."""
        f = self.frames[i]
        info, g = self.info, self.info.game
        drawn: list[int] | None = None
        for _ in range(MAX_ROUNDS):
            if self.work >= self.budget or (info.who[i] is not None and f.base.cur != info.who[i]):
                return None
            if f.action is not None and info.known[i] is not None and not f.base.pending and \
                    not f.base.terminal and f.action not in f.base.legal_actions():
                cards = [c for _, c in _cards_of(g, f.action)]
                if not self._legalize(i, cards) and not (self.descend and self._unforce(i, cards)):
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
            pairs = _pairs(info.views[i], t.observation(self.p), info.names) if t.pending is None else None
            if not pairs or not self._mend(i, pairs):
                return self._probe(i)
        return self._probe(i)

    def _probe(self, i: int) -> State | None:
        """Step i differs from what the player saw in a way no swap of the differing cards mends: a public
        consequence of hidden cards (who holds the card that leads, who lost a life), or an action that other
        cards forbid. Exchange cards the player has not seen, two or three at a time in a shuffle they all
        went through, at random, and keep an exchange if the steps before i still look to the player as they
        did and step i comes no further from it (`_gap`): a descent over the histories that fit so far,
        until step i fits too. The exchanges are drawn from the random numbers, so the result still depends
        on nothing else."""
        if not self.descend:
            return None
        f = self.frames[i]
        rng = self.rng
        # Every shuffle counts, not only the last each card went through: the cards of a deal that ended in
        # step i were shuffled again for the next one, and their places in the deal decide its scores.
        pools = [((j, k), unseen) for j in range(i + 1) for k, (_, cards) in enumerate(self.frames[j].shuffles)
                 if len(unseen := [c for c in cards if self._unseen(c, j, i, True)]) > 1]
        if not pools:
            return None
        gap = self._gap(i)[0]
        # The later a shuffle, the likelier its cards decide step i, at first; a shuffle whose exchanges
        # leave step i as it was is tried less and less (the new deal a wrongly ended deal made, say).
        weights = [0.5 ** (len(pools) - 1 - n) for n in range(len(pools))]
        # A few exchanges each time the step fails, between which backtracking tries the step's other
        # choices and earlier steps' (another secret choice, another deal): many exchanges at once starve it.
        for _ in range(PROBES):
            if self.work >= self.budget:
                return None
            n = rng.choices(range(len(pools)), weights)[0]
            (j, k), cards = pools[n]
            # Two cards exchanged, or three in a cycle: when the two cards that must move cannot trade
            # places, each exchange alone can contradict what the player saw.
            picked = rng.sample(cards, 3 if len(cards) > 2 and rng.random() < 0.5 else 2)
            swaps = [(j, picked[0], d) for d in picked[1:]]
            fj = self.frames[j]
            before = fj.outcomes[:]
            if not all(_swap_outcomes(fj.outcomes, fj.shuffles[k], c, d) for _, c, d in swaps):
                fj.outcomes = before
                continue
            # What to go back to if step i comes out further off (a mend below may reach back before j).
            saved = [(m.base, m.action, m.shuffles, m.outcomes) for m in self.frames[:i + 1]]
            saved[j] = saved[j][:3] + (before,)
            if not self._replay(i, {j: before}, swaps, True):
                continue
            new, t, shuffles = self._gap(i)
            if t is not None and new[0] == 0 and new[1] > 0 and t.pending is None:
                # What is left may be cards in the wrong places only (a new deal the step made): mend those.
                pairs = _pairs(self.info.views[i], t.observation(self.p), self.info.names)
                if pairs and self._mend(i, pairs):
                    new, t, shuffles = self._gap(i)
            if t is not None and new == (0, 0):
                f.shuffles = shuffles
                return t
            weights[n] = max(weights[n] / 2, 1e-3) if new == gap else 1.0
            if new > gap:
                for m, (base, action, sh, out) in zip(self.frames, saved):
                    m.base, m.action, m.shuffles, m.outcomes = base, action, sh, out
                continue
            gap = new
        return None

    def _gap(self, i: int) -> tuple[tuple[int, int], State | None, list[Shuffle]]:
        """How far step i, run on its current base, is from what the player saw: (1, the number of choices
        left) if its action is refused, else (0, the number of places where the observations differ); with
        the state after it and its shuffles."""
        f = self.frames[i]
        if f.action is not None and self.info.known[i] is not None and not f.base.pending and \
                not f.base.terminal:
            legal = f.base.legal_actions()
            if f.action not in legal:
                return (1, len(legal)), None, []
        t, shuffles = self._run(f.base, f, i)
        if t is None or (t.pending is not None and not (i == self.last and self.info.ends_pending)):
            # The exchanged cards changed what the step does (it ends a deal and deals the next, or no
            # longer does): its chance is drawn afresh.
            drawn = self._draw(f.base, f.action)
            if drawn is not None:
                f.outcomes = drawn[:self.info.tail] if i == self.last and self.info.tail is not None else drawn
                t, shuffles = self._run(f.base, f, i)
        if t is None:
            return (2, 0), None, []
        if (t.pending is not None) != (i == self.last and self.info.ends_pending):
            return (0, 1 + _distance(self.info.views[i], t.observation(self.p))), t, shuffles
        return (0, _distance(self.info.views[i], t.observation(self.p))), t, shuffles

    def _origin(self, i: int, c: int, after: bool) -> tuple[int, int] | None:
        """(step, shuffle) that card c last went through, before step i or (after) within it too, if the
        player has not seen c since (else None: it is where the player knows it is)."""
        top = i if after else i - 1
        for j in range(top, -1, -1):
            shuffles = self.frames[j].shuffles
            for k in range(len(shuffles) - 1, -1, -1):
                if c in shuffles[k][1]:
                    return (j, k) if self._unseen(c, j, i, after) else None
        return None

    def _unseen(self, c: int, j: int, i: int, after: bool) -> bool:
        info = self.info
        if any(c in info.view_cards[m] for m in range(j, i)):
            return False
        return not any(c in info.act_cards[m] for m in range(j + 1, i + 1 if after else i))

    def _mend(self, i: int, pairs: list[tuple[int, int]]) -> bool:
        """Swap each card the player must see at a place with the card there, in the shuffle both went
        through, and replay from the earliest one changed."""
        changed: dict[int, list[int]] = {}
        swaps: list[tuple[int, int, int]] = []
        moved: set[int] = set()
        for c, d in pairs:
            if c in moved or d in moved:
                continue
            o = self._origin(i, c, True)
            if o is None or o != self._origin(i, d, True):
                return False
            j, k = o
            f = self.frames[j]
            if j not in changed:
                changed[j] = f.outcomes[:]
            if not _swap_outcomes(f.outcomes, f.shuffles[k], c, d):
                return False
            moved.update((c, d))
            swaps.append((j, c, d))
        return self._replay(i, changed, swaps, True)

    def _legalize(self, i: int, cards: list[int]) -> bool:
        """Make step i's action legal by swapping one of its cards with an unseen card of the same shuffle
        whose place makes it so."""
        f = self.frames[i]
        tries = 0
        for c in cards:
            o = self._origin(i, c, False)
            if o is None:
                continue
            j, k = o
            others = [d for d in self.frames[j].shuffles[k][1] if d != c and self._origin(i, d, False) == o]
            self.rng.shuffle(others)
            for d in others:
                t = f.base.clone()
                _swap_places(t, c, d)
                if f.action not in t.legal_actions():
                    continue
                fj = self.frames[j]
                before = fj.outcomes[:]
                if _swap_outcomes(fj.outcomes, fj.shuffles[k], c, d) and \
                        self._replay(i, {j: before}, [(j, c, d)], False):
                    return True
                fj.outcomes = before
                tries += 1
                if tries >= MAX_SWAPS:
                    return False
        return False

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
            legal = base.legal_actions()
            if a in legal:
                return True
            forcing = {c for b in legal for _, c in _cards_of(g, b)} - set(cards)
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
            _swap_places(t, x, y)
            after = t.legal_actions()
            if a not in after and len(after) >= len(legal):
                continue
            fj = self.frames[j]
            before = fj.outcomes[:]
            # A failed swap changes nothing, and a failed replay undoes itself.
            if _swap_outcomes(fj.outcomes, fj.shuffles[k], x, y):
                self._replay(i, {j: before}, [(j, x, y)], True)
        return False

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
            for m2, old in changed.items():
                frames[m2].outcomes = old
            for m2, a in actions.items():
                frames[m2].action = a
            return False

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
            new = [(d if v == c else c if v == d else v) if prm.kind == "card" else v
                   for prm, v in zip(info.params, new)]
        if new == vals:
            return a
        if base.pending is not None or base.terminal:
            return None
        for b in base.legal_actions():
            if g.action_for(b) is info and list(info.decode(b - info.offset)) == new:
                return b
        return None


def resample(s: State, p: Any, rng: Any) -> State:
    g = s.game
    if type(p) is not int or not 0 <= p < g.n:
        raise GameError(f"no player {p!r}: the seats are 0 to {g.n - 1}")
    if isinstance(rng, random.Random):
        r = rng
    elif type(rng) is int:
        r = random.Random(rng)
    else:
        raise GameError(f"resampling takes a random.Random or a whole number as its seed, not {type(rng).__name__}")
    info = s._evaluating(_Info, p)
    work = 0
    for k in range(MAX_TRIES):
        if work >= MAX_WORK:
            break
        # Restarts: a search that went wrong early rarely recovers, and a fresh one often finds a state fast.
        # They take turns at two ways: backtracking alone, quick where a fresh deal soon fits (most states);
        # and with the descent first, for states that almost no deal fits as drawn.
        search = _Search(info, p, r, min(MAX_WORK - work, MAX_WORK // RESTARTS), descend=k % 2 == 1)
        found = search.run()
        work += search.work
        if found is not None:
            if s.rng is not None:
                # The real state's seed holds its future shuffles: the new state draws its own.
                seed = r.getrandbits(64)
                found.rng = seed
                found.trail = (found.trail, RESEED, seed)
            return found
    raise GameError(f"found no state {g.player_name(p)} cannot tell from this one in {work:,} replayed steps; "
                    "its information rules out almost every arrangement of the cards it has not seen")


__all__ = ["resample"]
