"""Resampling: a full state one player cannot tell from the real one, for search with hidden information.

The method, for any rule file (docs/architecture.md, "Resampling from an information state"):

1. Replay the state's history (what a seed drew written as chance outcomes, history.explicit), noting
   where each shuffle took its outcomes, each `pick`, and after each step the player's observation.
   A card the player saw (in an observation, in its own action or another's public action text) is
   *seen for the shuffle it last went through*: a card seen in an earlier deal is hidden again once it
   is shuffled.
2. Propose a history: in each shuffle, the cards not seen for it are dealt out anew among the places of
   its order they held (a random arrangement of those cards: the proposal uses where unseen cards were,
   never which ones were where); every `pick` is drawn anew, and every action of another player whose
   public text hides something (`secret:`) is any legal action with the same public text.
3. Replay it step by step, a depth-first search over the picks and secret actions: a step is kept if its
   action is legal and the player's observation after it is the one the player had. So an opponent's
   past move stays legal (a failure to follow suit keeps that suit out of their hand) and every card the
   player saw is where it was. A proposal whose search fails is dropped for a new one.

The result depends on the player's information state and the random numbers only: two states that
differ in cards hidden from the player give the same proposals (the same positions of unseen cards in the
same shuffles). Tries and replayed steps are bounded; past the bounds a GameError says so, and the real
state is never returned. The states found are consistent, not drawn exactly from the posterior: the
search takes the first consistent combination of picks and secret actions in a random order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING, Any

from .errors import GameError
from .history import RESEED, Group, blank, entries, explicit, groups, play_group

if TYPE_CHECKING:
    from .state import State

MAX_TRIES = 10_000
MAX_WORK = 400_000  # steps replayed over all tries
MAX_BRANCH = 24  # choices tried at one step without shuffles (combinations of picks and a secret action)
MAX_FILLS = 64  # arrangements of the unseen cards tried at one step that shuffles


class _Shuffle:
    __slots__ = ("step", "start", "cards", "seen", "unseen", "left")

    def __init__(self, step: int, start: int, cards: tuple[int, ...]):
        self.step = step
        self.start = start
        self.cards = cards
        self.seen: set[int] = set()
        self.unseen: list[int] = []  # sorted
        self.left = -1  # the card the outcomes leave at the bottom, if they are all given


class _Truth:
    """What step 1 learns from the real history."""

    def __init__(self, s: State, p: int):
        g = self.game = s.game
        self.steps: list[Group] = groups(explicit(entries(s.trail)))
        self.shuffles: list[_Shuffle] = []
        self.picks: list[list[tuple[int, int]]] = []  # per step: (position in its outcomes, list size)
        self.views: list[dict[str, Any]] = []  # per step: the player's observation after it
        self.ends_pending = False
        names = {n: c for c, n in enumerate(g.card_names)}
        last = [-1] * g.num_cards  # card -> the shuffle it last went through
        t = blank(g, None)

        def saw(c: int) -> None:
            if last[c] >= 0:
                self.shuffles[last[c]].seen.add(c)

        for i, (who, action, outcomes, _) in enumerate(self.steps):
            if who is not None and action is not None and (who == p or _public(g, action)):
                for c in _cards_of(g, action):
                    saw(c)
            trace: list[Any] = []
            play_group(t, action, outcomes, trace)
            picks = []
            for rec in trace:
                if rec[0] == "shuffle":
                    for c in rec[2]:
                        last[c] = len(self.shuffles)
                    self.shuffles.append(_Shuffle(i, rec[1], rec[2]))
                else:
                    picks.append((rec[1], rec[2]))
            self.picks.append(picks)
            view = t.observation(p)
            self.views.append(view)
            for cards in view["zones"].values():
                if isinstance(cards, list):
                    for n in cards:
                        saw(names[n])
            for v in view["variables"].values():
                for x in v if isinstance(v, list) else [v]:
                    if isinstance(x, str) and x in names:
                        saw(names[x])
        self.ends_pending = t.pending is not None
        self.by_step: list[list[_Shuffle]] = [[] for _ in self.steps]
        for sh in self.shuffles:
            self.by_step[sh.step].append(sh)
            sh.unseen = sorted(set(sh.cards) - sh.seen)
            drawn = self.steps[sh.step][2][sh.start:sh.start + len(sh.cards) - 1]
            sh.left = next(iter(set(sh.cards) - set(drawn)))


def _public(g: Any, a: int) -> bool:
    return bool(g.public_action_string(a) == g.action_to_string(None, a))


def _secret(truth: _Truth, i: int, p: int) -> bool:
    """Whether step i is an action of another player that the player saw only in part."""
    who, action, _, _ = truth.steps[i]
    return who is not None and who != p and action is not None and not _public(truth.game, action)


def _cards_of(g: Any, a: int) -> list[int]:
    info = g.action_for(a)
    vals = info.decode(a - info.offset)
    return [v for prm, v in zip(info.params, vals) if prm.kind == "card"]


def _fill(truth: _Truth, i: int, rng: random.Random) -> list[int]:
    """Step 2 for the shuffles of step i: its chance outcomes with the unseen cards of each rearranged."""
    out = list(truth.steps[i][2])
    for sh in truth.by_step[i]:
        n = len(sh.cards)
        end = min(sh.start + n - 1, len(out))
        seq = out[sh.start:end]
        if len(seq) == n - 1:  # complete: the card left over is at the bottom
            seq.append(sh.left)
        seen = sh.seen
        slots = [k for k, c in enumerate(seq) if c not in seen]
        for k, c in zip(slots, rng.sample(sh.unseen, len(slots))):
            seq[k] = c
        out[sh.start:end] = seq[:end - sh.start]
    return out


Choice = tuple[int | None, list[int]]  # (the action, the chance outcomes of its step)


def _choices(t: State, p: int, truth: _Truth, i: int, rng: random.Random) -> Iterator[Choice]:
    """The choices to try at step i, in random order: every combination of a secret action and picks
    (at most MAX_BRANCH), or, if the step shuffles cards the player did not see, MAX_FILLS random ones."""
    g = t.game
    who, action, _, _ = truth.steps[i]
    actions: list[int | None] = [action]
    if action is not None and _secret(truth, i, p):
        if t.pending is not None or t.terminal:
            return
        text = g.public_action_string(action)
        actions = [a for a in t.legal_actions() if g.public_action_string(a) == text]
    picks = truth.picks[i]
    shuffles = any(sh.unseen for sh in truth.by_step[i])

    def outcomes(values: tuple[int, ...]) -> list[int]:
        given = _fill(truth, i, rng) if shuffles else list(truth.steps[i][2])
        for (pos, _), v in zip(picks, values):
            if pos < len(given):
                given[pos] = v
        return given

    total = len(actions)
    for _, n in picks:
        total *= n
    if not shuffles and total <= MAX_BRANCH:
        combos = list(product(actions, *(range(n) for _, n in picks)))
        rng.shuffle(combos)
        for a, *values in combos:
            yield a, outcomes(tuple(int(v) for v in values))  # type: ignore[arg-type]
        return
    for _ in range(MAX_FILLS if shuffles else MAX_BRANCH):
        yield rng.choice(actions), outcomes(tuple(rng.randrange(n) for _, n in picks))


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
    truth = s._evaluating(_Truth, p)
    work = 0
    for _ in range(MAX_TRIES):
        if work >= MAX_WORK:
            break
        found, used = _search(truth, p, r, MAX_WORK - work)
        work += used
        if found is not None:
            if s.rng is not None:
                # The real state's seed holds its future shuffles: the new state draws its own.
                seed = r.getrandbits(64)
                found.rng = seed
                found.trail = (found.trail, RESEED, seed)
            return found
    raise GameError(f"found no state {g.player_name(p)} cannot tell from this one in {work:,} replayed steps; "
                    "its information rules out almost every arrangement of the cards it has not seen")


def _search(truth: _Truth, p: int, rng: random.Random, budget: int) -> tuple[State | None, int]:
    """Step 3: replay proposals step by step, depth first over each step's choices."""
    steps = truth.steps
    last = len(steps) - 1
    start = blank(truth.game, None)
    frames: list[tuple[State, Iterator[Choice]]] = [(start, _choices(start, p, truth, 0, rng))]
    work = 0
    while frames and work < budget:
        i = len(frames) - 1
        base, choices = frames[-1]
        choice = next(choices, None)
        if choice is None:
            frames.pop()
            continue
        t = base.clone()
        work += 1
        trace: list[Any] = []
        try:
            play_group(t, choice[0], choice[1], trace)
            ok = (t.pending is not None) == (i == last and truth.ends_pending) and t.observation(p) == truth.views[i]
        except GameError:
            ok = False
        if not ok:
            if not trace and not _secret(truth, i, p):
                # The step failed before it drew any chance: no other choice here can do better.
                frames.pop()
            continue
        if i == last:
            return t, work
        frames.append((t, _choices(t, p, truth, i + 1, rng)))
    return None, work


__all__ = ["resample"]
