"""Playing many matches, in worker processes, and collecting one compact row per match.

The figures of a simulation must not depend on how many workers played it: match i always has the seed
`match_seed(seed, i)`, its bots are seeded from that seed alone (as `cardsmith run --seed` seeds them, so
any match replays exactly), the rows are put back in match order, and the only things added up across
workers are whole numbers (how often each action and phase was seen), whose sum has no order. Floats are
worked out afterwards, in the parent, from the ordered rows (stats.py).

Workers get chunks of matches, not single matches, and return plain tuples: a match of a commerce game
takes about 2 ms and one of a one-card poker game a twentieth of that, so per-task overhead would
otherwise eat the second core's gain.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from ..bots import BOTS, SeatView, make_bot, parse_bots, resampling, seat_seed, strategy_names
from ..dsl.diagnostics import RuleFileError
from ..dsl.limits import Limits
from ..dsl.pipeline import compile_file
from ..engine.errors import GameError, RuleError
from ..engine.game import Game
from ..engine.state import State

MAX_CHUNK = 4096  # matches per task at most
GUIDED = 4  # a task takes 1/(GUIDED · workers) of the matches left ...
SMALLEST_SHARE = 64  # ... but at least 1/SMALLEST_SHARE of a worker's even share


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` of a simulation with `seed`: 63 bits of BLAKE2b of the text 'seed:index'.
    A hash rather than seed + index, so simulations with nearby seeds share no matches."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Config:
    """Everything a worker needs to set up the game and the bots; picklable, compared to find a preload."""
    path: str
    players: int
    options: dict[str, str]
    limits: Limits
    bots: tuple[str, ...]  # one canonical spec per seat, in seat order for match 0
    rotate: bool  # match i: the first spec sits at seat i mod N, the others follow in order
    seed: int
    score_labels: tuple[str, ...] | None = None  # report lines to record; None: every one
    record_scores: bool = True  # False: no log is kept (faster), no score history

    def seat_bots(self, index: int) -> tuple[str, ...]:
        """The spec at each seat in match `index`."""
        if not self.rotate:
            return self.bots
        n = len(self.bots)
        r = index % n
        return tuple(self.bots[(p - r) % n] for p in range(n))


class Row(NamedTuple):
    """One match, as the statistics need it."""
    match: int  # its number, 0 to K - 1
    seed: int
    actions: int
    deals: int
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    first: int  # the seat of the match's first decision; -1 if it had none
    choices: int  # legal actions summed over its decisions (branching factor)
    forced: int  # decisions with a single legal action
    # report label -> each deal's values per seat, deal after deal in one flat array (8 bytes a value: a
    # million matches of a game of ten deals keep half a gigabyte of it, not two as tuples of floats would)
    scores: dict[str, array[float]] | None
    # per seat: worlds its bot's resampler gave up on, and moves it chose with no world at all (at random)
    resample_failures: tuple[int, ...] = ()
    blind_moves: tuple[int, ...] = ()


@dataclass
class Counts:
    """Whole-number tallies over many matches: they add up in any order."""
    legal_at: list[int]  # per action name: decisions where some action of that name was legal
    taken: list[int]  # per action name: times chosen
    phases: list[int]  # per phase: decisions taken in it

    @staticmethod
    def zero(actions: int, phases: int) -> Counts:
        return Counts([0] * actions, [0] * actions, [0] * phases)

    def add(self, other: Counts) -> None:
        for mine, theirs in ((self.legal_at, other.legal_at), (self.taken, other.taken),
                             (self.phases, other.phases)):
            for i, v in enumerate(theirs):
                mine[i] += v


@dataclass
class MatchFailure:
    """A match stopped by an error: where, and the error as the CLI prints it."""
    index: int
    seed: int
    actions: int
    rule_error: bool
    text: str


@dataclass
class Chunk:
    start: int
    rows: list[Row]
    counts: Counts
    failure: MatchFailure | None = None


class Player:
    """One process's game and tables, set up once and used for every match it plays."""

    def __init__(self, config: Config, game: Game | None = None) -> None:
        self.config = config
        self.game = game if game is not None else load(config)
        g = self.game
        self.action_names = [a.name for a in g.spec.actions]
        where = {name: i for i, name in enumerate(self.action_names)}
        self.name_of = [where[g.action_for(a).name] for a in range(g.num_actions)]
        self.phase_names = [ph.name for ph in g.phases]
        self.specs = {text: parse_bots(text, strategies=strategy_names(g))[0] for text in set(config.bots)}
        # Numbers only: a report line showing a card or a text cannot be a score.
        self.numeric = {label for label, _fn, kind, _span in g.reports if kind == "plain"}
        if config.score_labels is not None:
            self.numeric &= set(config.score_labels)
        self.log = config.record_scores and bool(self.numeric)
        kinds = [BOTS.get(spec.name) for spec in self.specs.values()]
        self.searching = any(kind is not None and kind.resamples for kind in kinds)
        self.done = 0  # actions of the match being played, for the report of one that fails

    def play(self, index: int, counts: Counts) -> Row:
        cfg, g = self.config, self.game
        self.done = 0
        seed = match_seed(cfg.seed, index)
        bots = [make_bot(self.specs[text], g, p, seat_seed(seed, p)) for p, text in enumerate(cfg.seat_bots(index))]
        # A native game plays natively unless the report lines' scores are wanted (they are read from the Python
        # state's log: replaying a native match to get them costs what playing it in Python does), but for a bot
        # that searches resampled worlds, natively several times faster: its match is played natively and then
        # replayed in Python for the log (`_logged`). The phase, deals and winners are read from the native
        # observation's words (`_Words`), so no move crosses into Python.
        native = g.backend == "native" and (not self.log or self.searching)
        s = g.new_initial_state(seed) if native else State.initial(g, seed, log=self.log)
        facts = _Words(s) if native else s
        name_of, legal_at, taken, phases = self.name_of, counts.legal_at, counts.taken, counts.phases
        actions = choices = forced = 0
        first = -1
        while not (s.is_terminal() if native else s.terminal):  # a native state's `terminal` asks its twin
            p = s.current_player()
            legal = s.legal_actions()
            if first < 0:
                first = p
            k = len(legal)
            choices += k
            if k == 1:
                forced += 1
                legal_at[name_of[legal[0]]] += 1
            else:
                for i in {name_of[a] for a in legal}:
                    legal_at[i] += 1
            phases[facts.phase] += 1
            a = bots[p].choose(SeatView(s, p))
            taken[name_of[a]] += 1
            s.apply_action(a)
            actions += 1
            self.done = actions
        failed = [resampling(b) for b in bots]
        return Row(index, seed, actions, facts.deal_no, tuple(facts.winners), tuple(s.returns()), first, choices,
                   forced, self._scores(self._logged(s, seed) if native else s) if self.log else None,
                   tuple(f for f, _ in failed),
                   tuple(b for _, b in failed))

    def _logged(self, s: Any, seed: int) -> State:
        """A native match replayed on a Python state that keeps the log (the same seed draws the same chance)."""
        t = State.initial(self.game, seed, log=True)
        for _who, what in s.entries():
            t.apply_action(what)
        return t

    def _scores(self, s: State) -> dict[str, array[float]]:
        """Each numeric report line's values, deal by deal, from the log's `end_deal` events. A line that
        shows anything but numbers in this match is left out of it (the statistics then say so)."""
        out: dict[str, array[float]] = {}
        bad: set[str] = set()
        for ev in s.log or ():
            if ev[0] != "end_deal":
                continue
            for label, values in ev[2]:
                if label not in self.numeric or label in bad:
                    continue
                if all(type(v) in (int, float) for v in values):
                    out.setdefault(label, array("d")).extend(values)
                else:
                    bad.add(label)
                    out.pop(label, None)
        return out

    def chunk(self, start: int, count: int) -> Chunk:
        counts = Counts.zero(len(self.action_names), len(self.phase_names))
        rows: list[Row] = []
        for i in range(start, start + count):
            try:
                rows.append(self.play(i, counts))
            except GameError as e:
                return Chunk(start, rows, counts, self._failure(i, e))
        return Chunk(start, rows, counts)

    def _failure(self, index: int, e: GameError) -> MatchFailure:
        seed = match_seed(self.config.seed, index)
        if isinstance(e, RuleError):
            # Like `cardsmith run`, the designer's tool: the error with the designer's view.
            return MatchFailure(index, seed, self.done, True, e.render(designer=True))
        return MatchFailure(index, seed, self.done, False, str(e))


class _Words:
    """A native state's phase, deal and winners, read from the first words of its observation (view.h: the
    phase, the player to act, dealer, deal, who is out, who sits out, over, the winners as bits) where its
    Python twin would replay every move to answer; the twin answers where the words do not (before the
    match's first step)."""

    __slots__ = ("s",)

    def __init__(self, s: Any) -> None:
        self.s = s

    def _words(self) -> memoryview | None:
        try:
            words = self.s.observation_words(0)
        except RuntimeError:
            return None
        return None if words is None else memoryview(words).cast("q")

    @property
    def phase(self) -> int:
        w = self._words()
        return int(self.s.phase if w is None else w[0])

    @property
    def deal_no(self) -> int:
        w = self._words()
        return int(self.s.deal_no if w is None else w[3])

    @property
    def winners(self) -> list[int]:
        w = self._words()
        if w is None:
            return list(self.s.winners)
        return [p for p in range(self.s.game.n) if (w[7] >> p) & 1]


def load(config: Config) -> Game:
    # A worker that loads the game itself (Ray's) plays on the Python backend; a forked one plays on the
    # parent's (`_PRELOADED`). A seed deals the same matches on both.
    loaded = compile_file(Path(config.path), config.limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    return Game(loaded.game, config.players, dict(config.options))


# ---------------------------------------------------------------- worker processes
_PRELOADED: tuple[Config, Game] | None = None  # the parent's game, inherited by forked workers
_PLAYER: Player | None = None  # this worker's


def _init_worker(config: Config) -> None:
    global _PLAYER
    # Ctrl-C reaches every process of the terminal's group: the parent alone handles it (it stops the
    # workers and reports the matches done), so a worker neither stops half-way nor prints a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pre = _PRELOADED
    _PLAYER = Player(config, pre[1] if pre is not None and pre[0] == config else None)


def _run_chunk(task: tuple[int, int]) -> Chunk:
    assert _PLAYER is not None
    return _PLAYER.chunk(*task)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """(first match, count) of each task, largest first ("guided" scheduling): each takes 1/(GUIDED ·
    workers) of the matches left, but at least SMALLEST_SHARE of an even split and at most MAX_CHUNK. Big
    tasks first keep the parent's cost per task (about a millisecond) small next to the matches'; small
    ones last let the workers finish together, so the second core's gain is not lost waiting for one
    worker's last big task."""
    out: list[tuple[int, int]] = []
    least = max(1, games // (workers * SMALLEST_SHARE))
    start = 0
    while start < games:
        left = games - start
        size = min(left, MAX_CHUNK, max(least, -(-left // (workers * GUIDED))))
        out.append((start, size))
        start += size
    return out


class Progress(Protocol):
    """A progress display: entered once the workers are running, told of each batch of matches done."""

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...

    def advance(self, n: int) -> None: ...


class _Silent:
    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def advance(self, n: int) -> None:
        pass


@dataclass
class Outcome:
    rows: list[Row]
    counts: Counts
    action_names: list[str]
    phase_names: list[str]
    interrupted: bool = False
    failure: MatchFailure | None = None


def simulate(config: Config, games: int, workers: int, game: Game, progress: Progress | None = None) -> Outcome:
    """Play matches 0..games-1 and collect their rows in match order. `game` is the parent's copy (forked
    workers reuse its tables); `progress` is entered once the workers run and told of each batch done.
    Ctrl-C stops the run and returns the matches finished so far, marked interrupted."""
    global _PRELOADED
    shown = progress if progress is not None else _Silent()
    here = Player(config, game)
    out = Outcome([], Counts.zero(len(here.action_names), len(here.phase_names)), here.action_names,
                  here.phase_names)
    workers = max(1, min(workers, games))
    if workers == 1:
        with shown:
            _collect(out, _in_process(here, games), shown)
        return out
    _PRELOADED = (config, game)
    tasks = chunks(games, workers)
    # The pool is made before the progress display starts its thread: forking a process with threads
    # running can copy a lock another thread holds.
    # Workers forked while Ctrl-C is ignored inherit that at once, so one pressed while they start cannot
    # stop a worker before its initializer runs (a traceback per worker); a Ctrl-C then is lost, no more.
    main = threading.current_thread() is threading.main_thread()  # only it may set signal handlers
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        pool = multiprocessing.get_context().Pool(workers, _init_worker, (config,))
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    try:
        with shown:
            _collect(out, pool.imap_unordered(_run_chunk, tasks), shown)
    except KeyboardInterrupt:  # Ctrl-C while the progress display starts or stops: the same clean stop
        out.interrupted = True
    finally:
        # Not close(): after Ctrl-C or a failed match the tasks left are not wanted.
        pool.terminate()
        pool.join()
        _PRELOADED = None
    return out


def _in_process(player: Player, games: int) -> Iterator[Chunk]:
    """One worker: the matches in this process, in chunks of one for an exact progress count."""
    for i in range(games):
        yield player.chunk(i, 1)


def _collect(out: Outcome, chunks: Iterator[Chunk], progress: Progress) -> None:
    got: list[Chunk] = []
    try:
        for c in chunks:
            got.append(c)
            out.counts.add(c.counts)
            progress.advance(len(c.rows))
            if c.failure is not None:
                out.failure = c.failure
                break
    except KeyboardInterrupt:
        out.interrupted = True
    # Chunks arrive in any order; rows go back in match order so every figure is the same whatever the
    # number of workers.
    out.rows = [row for c in sorted(got, key=lambda c: c.start) for row in c.rows]
