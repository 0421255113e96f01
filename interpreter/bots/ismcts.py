"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012, "SO-ISMCTS").

The bot searches a tree of information sets. Each iteration takes a determinization (a full state drawn by
`SeatView.resample` from what the seat knows, never the real state), walks down the tree by UCB among the
actions legal in that determinization, adds one node, plays the match out with the rollout policy, and
backs the returns up. A node is the information of the seat to act in that world, as OpenSpiel's ISMCTSBot
keys its nodes: the actions since the root as that seat saw them (a secret action of another seat by its
public text) and what it sees now. At the root that is the bot's own information, the same in every
world; further down, another seat's node holds the cards that seat has in the world, so the search
models an opponent that plays its own hand. (Keying every node by the bot's information alone, the
"single observer" form, models opponents that do not know their own cards: against random players in
the bundled poker game it took 0.16 chips a game where this form takes about what OpenSpiel's bot takes.)

Where ISMCTS differs from plain UCT: an action is not legal in every determinization, so a child's UCB
uses the number of times it was *available* at selection in place of its parent's visits.

Cost: resampling can be the expensive part (milliseconds to a second, depending on the game and how much the
seat knows). OpenSpiel's ISMCTSBot resamples on every iteration; this bot draws a new world only while the
resampler has replayed no more steps than its iterations have played, and otherwise its iterations take
turns among the worlds it has (`_wants_world`). Drawing few worlds where resampling is cheap is a mistake:
a fixed 16 worlds in a one-card poker game put the opponent's card at the two values in uneven proportions, and the
bot took a third of the chips OpenSpiel's took from random players. If the resampler gives up on a
world (its work is bounded), the bot searches the worlds it has; with none, it chooses at random.
Where the budget affords fewer than `carry_below` fresh worlds, the next decision first carries up to `carry`
of them forward (`SeatView.carry_with_work`: the resampler extends each to what the seat knows then, at a
small fraction of a fresh search's cost), so a game whose worlds are dear is not searched in one or two.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

from ..engine.errors import GameError
from ..engine.resample import MAX_WORK, OutOfTime
from .rollout import policy

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State
    from .view import SeatView


def _draw_chance(s: State, rng: random.Random) -> None:
    """A chance outcome drawn uniformly (a world resampled from a state without a seed has chance nodes)."""
    outs = s.chance_outcomes()
    s.apply_action(outs[rng.randrange(len(outs))][0])


class _Child:
    __slots__ = ("visits", "total", "avail")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class IsmctsBot:
    name = "ismcts"

    def __init__(self, rng: random.Random, *, game: Game, seat: int, iterations: int = 200,
                 seconds: float = 0.0, c: float = 0.7, worlds: int = 0, rollout: str = "random", by: str = "",
                 carry: int = 32, carry_below: int = 8) -> None:
        self.rng = rng
        self.game = game
        self.seat = seat
        self.iterations = iterations
        self.seconds = seconds
        # Wall-clock seconds per decision at most, whatever `iterations` says: set by a host that must answer in
        # time (the web table); 0 for none, so seeded play is unchanged.
        self.wall_cap = 0.0
        self.c = c
        self.worlds = worlds
        self._policy = policy(rollout, game, rng, by)
        self._rollout = rollout
        # A decision that affords fewer fresh worlds than `carry_below` (resampling is dear: a fishing game late in a
        # match) has the next one carry `carry` of its worlds forward. Where fresh worlds are many, the bot
        # draws as it always did, to the same random numbers.
        self.carry = carry
        self.carry_below = carry_below
        # The last decision's worlds, to carry forward (only where it is `_dear`): states, or what a native search
        # kept of them (native/resample.py `Kept`), which the carry reads as it reads a state.
        self._kept: list[Any] = []
        self._dear = False  # whether the last decision could afford fewer than carry_below fresh worlds
        lo, hi = game.min_utility, game.max_utility
        self._scale = (float(lo), float(hi) - float(lo)) if lo is not None and hi is not None and hi > lo else None
        self.last: dict[Any, _Child] = {}  # the root's children after the last decision (for tests and logs)
        self.last_worlds = 0  # the worlds it searched
        # The resampler's failures, shown to the user (simulate's summary, the web table's log): a bot whose
        # resampler gives up plays weakly and slowly for no visible reason otherwise.
        self.last_failed = 0  # fresh worlds the resampler gave up on at the last decision
        self.last_blind = False  # whether the last decision had no world at all (a uniform random move)
        self.resample_failures = 0  # over every decision of this bot
        self.blind_moves = 0  # decisions with no world, over every decision of this bot
        self.last_failure: str | None = None  # why the resampler last gave up (its message), for logs
        # Whether the last decision's time (`wall_cap`) ran out inside the resampler, which stops there
        # rather than run its whole budget (a hard state takes it 30-45 s) past the host's cap.
        self.last_timed_out = False

    # ---------------------------------------------------------------- the decision
    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions()
        self.last_failed, self.last_blind, self.last_timed_out = 0, False, False
        if len(legal) == 1:
            return int(legal[0])
        self._seen = [math.inf, -math.inf]  # returns seen, to scale them when the game has no bounds
        deadline = time.process_time() + self.seconds if self.seconds > 0 else None
        stop_at = time.monotonic() + self.wall_cap if self.wall_cap > 0 else None
        # Where the last decision could afford few fresh worlds, its worlds are carried forward first.
        hints = self._kept if self._dear else []
        self._kept = []
        root = self._natively(view, hints, deadline, stop_at)
        if root is None:
            root = self._search(view, hints, deadline, stop_at)
        # The root is the bot's information now, the first node of every iteration (its observation in each
        # world is the one it has).
        self.last_blind = not root
        if not root:  # no world could be drawn: a uniform choice, as a random player would
            self.last = {}
            self.blind_moves += 1
            return int(legal[self.rng.randrange(len(legal))])
        self.last = root
        best = max(ch.visits for a, ch in root.items() if a in legal)
        top = [a for a in legal if a in root and root[a].visits == best]
        return int(top[self.rng.randrange(len(top))])

    def _natively(self, view: SeatView, hints: list[Any], deadline: float | None,
                  stop_at: float | None) -> dict[int, _Child] | None:
        """The decision's search as `_search` makes it, run natively where the seat's state can (a native state:
        native/ismcts.py): the root's children, or None for `_search` to run (the generator untouched)."""
        keep = self.carry if self.carry and not self.worlds else 0
        done = view.search_natively(self.rng, iterations=self.iterations, deadline=deadline, stop_at=stop_at,
                                    c=self.c, worlds=self.worlds, rollout=self._rollout, scale=self._scale,
                                    failed_work=MAX_WORK, hints=hints, carry=self.carry, keep=keep,
                                    keep_below=self.carry_below)
        if done is None:
            return None
        self.last_worlds = done.worlds
        self.last_failed = done.failed
        self.resample_failures += done.failed
        if done.failure is not None:
            self.last_failure = done.failure
        self.last_timed_out = done.timed_out
        if keep:
            self._dear = done.fresh < self.carry_below
            self._kept = done.kept  # (empty unless the next decision carries them)
        root: dict[int, _Child] = {}
        for a, visits, total, avail in done.root:
            ch = root[a] = _Child()
            ch.visits, ch.total, ch.avail = visits, total, avail
        return root

    def _search(self, view: SeatView, hints: list[Any], deadline: float | None,
                stop_at: float | None) -> dict[int, _Child]:
        """The decision's search: worlds drawn (or carried from `hints`) and iterations on them, within the
        bot's iterations or time; the root's children."""
        tree: dict[Any, dict[int, _Child]] = {}
        worlds: list[State] = []
        self._root: Any = None
        it = failed = drawn = played = 0
        carried: list[State] = []
        tries = fresh = 0
        while True:
            if stop_at is not None and it > 0 and time.monotonic() >= stop_at:
                break
            if deadline is None:
                if it >= self.iterations:
                    break
            elif it > 0 and time.process_time() >= deadline:
                break
            if hints and len(carried) < self.carry and tries < 2 * self.carry:
                # Each world of the last decision in turn, then again those carried so far (another draw
                # of what happened since), until `carry` worlds are carried.
                hint = hints[tries] if tries < len(hints) else carried[(tries - len(hints)) % len(carried)] \
                    if carried else None
                tries += 1
                if hint is None:
                    continue
                world, work = view.carry_with_work(self.rng.getrandbits(64), hint)
                drawn += work
                if world is None:
                    continue
                carried.append(world)
                worlds.append(world)
            elif self._wants_world(len(worlds) + failed, drawn, played):
                try:
                    world, work = view.resample_with_work(self.rng.getrandbits(64), stop_at)
                except OutOfTime:
                    self.last_timed_out = True
                    break
                except GameError as e:
                    # The resampler gave up (its work is bounded): search the worlds drawn so far.
                    failed += 1
                    self.last_failure = str(e)
                    drawn += MAX_WORK
                    continue
                worlds.append(world)
                drawn += work
                fresh += 1
            elif not worlds:
                break
            else:
                world = worlds[it % len(worlds)]
            played += self._iterate(world.clone(), tree)
            it += 1
        self.last_worlds = len(worlds)
        self.last_failed = failed
        self.resample_failures += failed
        if self.carry and not self.worlds:
            self._dear = fresh < self.carry_below
            self._kept = worlds[-self.carry:] if self._dear else []
        return tree.get(self._root, {}) if self._root is not None else {}

    # ---------------------------------------------------------------- one iteration
    def _wants_world(self, count: int, drawn: int, played: int) -> bool:
        """Whether the next iteration draws a new world: with `worlds` set, until there are that many; by
        default, while the steps the resampler replayed are no more than the steps the iterations played
        (so at most about half the work goes to resampling, and where resampling is cheap nearly every
        iteration has a world of its own). Counted in steps, not seconds, so a seed replays exactly."""
        if count == 0:
            return True
        if self.worlds:
            return count < self.worlds
        return drawn <= played

    def _iterate(self, s: State, tree: dict[Any, dict[int, _Child]]) -> int:
        """One iteration from the world `s`; the steps it played (its actions, and a greedy rollout's lookahead)."""
        rng = self.rng
        start = s.moves
        path: list[tuple[_Child, int]] = []  # (child chosen, the seat that chose it)
        seen: list[Any] = [()] * self.game.n  # each seat's actions since the root, as that seat saw them
        expanded = False
        while not s.is_terminal():
            if s.is_chance_node():
                _draw_chance(s, rng)
                continue
            who = s.current_player()
            # The seat to act's information in this world: what it saw since the root, and what it sees now.
            key = (who, seen[who], s.observation_string(who))
            if self._root is None:
                self._root = key
            node = tree.get(key)
            if node is None:
                if expanded:
                    break
                node = tree[key] = {}
                expanded = True
            legal = s.legal_actions()
            for a in legal:
                ch = node.get(a)
                if ch is None:
                    ch = node[a] = _Child()
                ch.avail += 1
            fresh = [a for a in legal if node[a].visits == 0]
            if fresh:
                a = fresh[rng.randrange(len(fresh))]
            else:
                a = self._ucb(node, legal)
            path.append((node[a], who))
            if self.game.action_for(a).secret:
                public = self.game.public_action_string(a)
                seen = [(k, a if q == who else public) for q, k in enumerate(seen)]
            else:
                seen = [(k, a) for k in seen]
            s.apply_action(a)
        looked = self._play_out(s)
        rets = self._scaled(s.returns())
        for ch, who in path:
            ch.visits += 1
            ch.total += rets[who]
        return s.moves - start + 1 + looked

    def _ucb(self, node: dict[int, _Child], legal: list[int]) -> int:
        c = self.c
        best = -math.inf
        top: list[int] = []
        for a in legal:
            ch = node[a]
            v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if v > best + 1e-12:
                best, top = v, [a]
            elif v > best - 1e-12:
                top.append(a)
        return top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]

    def _play_out(self, s: State) -> int:
        """Play `s` to its end by the rollout policy; the steps its choices played besides (a greedy one's
        lookahead), counted as search work."""
        rng, choose = self.rng, self._policy
        looked = 0
        while not s.is_terminal():
            if s.is_chance_node():
                _draw_chance(s, rng)
                continue
            a, n = choose(s, s.legal_actions())
            looked += n
            s.apply_action(a)
        return looked

    def _scaled(self, rets: list[float]) -> list[float]:
        if self._scale is not None:
            lo, span = self._scale
            return [(r - lo) / span for r in rets]
        seen = self._seen
        seen[0] = min(seen[0], *rets)
        seen[1] = max(seen[1], *rets)
        span = seen[1] - seen[0]
        return [(r - seen[0]) / span if span > 0 else 0.5 for r in rets]
