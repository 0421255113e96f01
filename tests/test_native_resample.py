"""The native resampler, stage A (issue 33; docs/design/native.md, "The resampler natively"), each piece against
the Python code it ports, on the same states and the same random numbers:

- the primitives of a game's library (abi.h): a step of a history with its chance outcomes given and its
  shuffles noted (history.play_group with a trace), stopping at a chance node or failing where the Python
  replay does; a seeded draw of a step as outcomes (search.py `_draw`); a swap of two cards' places
  (`swap_places`); the legal actions; the observation words of every player after each of them;
- CPython's set order where the Python resampler iterates a set of zones (`py_set_order`);
- `matching.assign`: the same deal, the same failing card, the generator left in the same state;
- `Info` (step 1): who acted, the action as seen, public texts as classes, the views, seen_at and acted_at;
- `Search` (steps 2 and 3 and backtracking): the same history (or none), the same replayed steps, the same
  `reached` and the generator left in the same state, over states of trick-taking, fishing, rummy, poker,
  cribbage and commerce games, at two budgets;
- `Descent` (step 4) and `Deals` (the constraint layer), stage B's first pieces, the same way;
- the whole `resample_with_work`: the same state (history, new seed or lazy blocks), the same replayed steps,
  the same errors word for word.

They build the binding and the games' libraries (g++ and pybind11; skipped without them), so they are slow."""

from __future__ import annotations

import random
import time
from typing import Any

import cardsmith
import pytest
from cardsmith.engine import resample as R
from cardsmith.engine.errors import GameError
from cardsmith.engine.history import blank, entries, explicit, groups, play_group
from cardsmith.engine.resample.constraints import Deals
from cardsmith.engine.resample.descent import Descent
from cardsmith.engine.resample.info import Info
from cardsmith.engine.resample.matching import NoDeal
from cardsmith.engine.resample.matching import assign as py_assign
from cardsmith.engine.resample.search import Search, swap_places
from cardsmith.engine.resample.search import draw as _draw
from cardsmith.native import build
from cardsmith.native import resample as nr

pytestmark = [pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}"), pytest.mark.slow]

_games: dict[tuple[str, int], Any] = {}


def native(name: str, players: int) -> Any:
    key = (name, players)
    if key not in _games:
        _games[key] = cardsmith.load(name, players=players, backend="native")
    return _games[key]


def random_state(g: Any, rnd: random.Random, seeded: bool, most: int = 60) -> Any:
    """A native state of a random match after up to `most` actions, not at a chance node (or None: over)."""
    s = g.new_initial_state(rnd.randrange(10**6) if seeded else None)
    play_on(s, rnd, rnd.randrange(1, most))
    return None if s.is_terminal() else s


def play_on(s: Any, rnd: random.Random, actions: int) -> None:
    """Up to `actions` random actions and chance outcomes on s, then chance until a player acts (or the end)."""
    for _ in range(actions):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_action(rnd.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rnd.choice(s.legal_actions()))
    while not s.is_terminal() and s.is_chance_node():
        s.apply_action(rnd.choice([a for a, _ in s.chance_outcomes()]))


# ---------------------------------------------------------------- primitives
def _shuffles(trace: list[Any]) -> list[tuple[int, tuple[int, ...]]]:
    return [(r[1], r[2]) if r[0] == "shuffle" else (-1, ()) for r in trace if r[0] in ("shuffle", "ended")]


def _noted(words: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    out, k = [], 0
    while k < len(words):
        start, n = words[k], words[k + 1]
        out.append((start, tuple(words[k + 2:k + 2 + n])))
        k += 2 + n
    return out


def _same_state(g: Any, t: Any, e: Any) -> None:
    """The Python state t and the resampler's native state e agree on what the resampler reads."""
    assert e.pending() == (t.pending is not None)
    assert e.cur() == t.cur
    for zi in range(len(g.zone_names)):
        assert e.zone(zi) == t.z[zi]
    for c in range(g.num_cards):
        assert e.loc(c) == t.loc[c]
    if t.pending is None:
        assert e.legal() == (t.legal_actions() if not t.terminal else [])
        for p in range(g.n):
            assert g.views.observation(memoryview(e.words(p)), p) == t.observation(p)


@pytest.mark.parametrize("name,players", [("hearts", 4), ("go-fish", 3), ("gin-rummy", 2), ("schwimmen", 3)])
def test_the_primitives_are_the_python_replays(name: str, players: int) -> None:
    g = native(name, players)
    rnd = random.Random(5)
    for m in range(4):
        py = g.new_initial_state(m).python_state()
        for _ in range(rnd.randrange(20, 80)):
            if py.is_terminal():
                break
            py.apply_action(rnd.choice(py.legal_actions()))
        steps = groups(explicit(entries(py.trail)))
        t, e = blank(g, None), g.native.eager()
        for _who, action, outcomes, _ in steps:
            # a fresh draw of the step from a seed, on both
            seed = rnd.getrandbits(64)
            assert e.draw(action, seed) == _draw(t, action, seed)
            # a run cut short by its chance outcomes running out: a chance node, the state as before the step
            if outcomes:
                t2, e2 = t.clone(), e.clone()
                k = rnd.randrange(len(outcomes))
                play_group(t2, action, outcomes[:k])
                assert e2.play(action, outcomes[:k])[0] == (1 if t2.pending is not None else 0)
                _same_state(g, t2, e2)
            trace: list[Any] = []
            play_group(t, action, outcomes, trace)
            code, noted, err = e.play(action, outcomes)
            assert (code, err) == (0, "")
            assert _noted(noted) == _shuffles(trace)
            _same_state(g, t, e)
            # two cards trade places (outside a step), on copies
            c, d = rnd.randrange(g.num_cards), rnd.randrange(g.num_cards)
            t4, e4 = t.clone(), e.clone()
            swap_places(t4, c, d)
            e4.swap(c, d)
            _same_state(g, t4, e4)


@pytest.mark.parametrize("name,players", [("hearts", 4), ("go-fish", 2)])
def test_a_step_fails_or_stops_where_the_python_replay_does(name: str, players: int) -> None:
    g = native(name, players)
    py = g.new_initial_state(3).python_state()
    steps = groups(explicit(entries(py.trail)))
    _, _, outcomes, _ = steps[0]
    # the deal's outcomes cut short: a chance node on both, the state as before the step
    t, e = blank(g, None), g.native.eager()
    play_group(t, None, outcomes[:5])
    assert t.pending is not None
    assert e.play(None, outcomes[:5])[0] == 1
    assert e.pending()
    # an outcome that is not a card of the shuffled zone, and one too many: both fail
    t, e = blank(g, None), g.native.eager()
    with pytest.raises(GameError):
        play_group(t, None, [g.num_cards + 5, *outcomes[1:]])
    assert e.play(None, [g.num_cards + 5, *outcomes[1:]])[0] == -1
    t, e = blank(g, None), g.native.eager()
    with pytest.raises(GameError):
        play_group(t, None, [*outcomes, outcomes[0]])
    assert e.play(None, [*outcomes, outcomes[0]])[0] == -1
    # an action that is not legal: refused, the state unchanged
    t, e = blank(g, None), g.native.eager()
    play_group(t, None, outcomes)
    assert e.play(None, outcomes)[0] == 0
    illegal = next(a for a in range(g.num_actions) if a not in t.legal_actions())
    with pytest.raises(GameError):
        play_group(t.clone(), illegal, [])
    code, _, err = e.play(illegal, [])
    assert code == -1 and err == "illegal action"
    _same_state(g, t, e)


def test_the_set_order_is_cpythons() -> None:
    g = native("hearts", 4)
    rnd = random.Random(2)
    for _ in range(2000):
        xs = sorted(rnd.sample(range(rnd.choice((12, 40, 200))), rnd.randrange(0, 12)))
        if rnd.random() < 0.3:
            rnd.shuffle(xs)
        assert g.binding.set_order(xs) == list({x for x in xs})


# ---------------------------------------------------------------- assign
def test_assign_draws_the_python_deal() -> None:
    g = native("hearts", 4)
    rnd = random.Random(9)
    failed = 0
    for k in range(600):
        cards = rnd.sample(range(52), rnd.randrange(1, 30))
        places = rnd.randrange(len(cards), len(cards) + 8)
        domains = {c: set(rnd.sample(range(places), rnd.randrange(0 if k % 7 == 0 else 1, places + 1)))
                   for c in cards}
        keep = {c: rnd.randrange(places) for c in cards if rnd.random() < 0.3} if k % 2 else None
        r1, r2 = random.Random(k), random.Random(k)
        try:
            want: dict[int, int] | int = py_assign(domains, r1, keep)
        except NoDeal as e:
            want = e.card
        try:
            got: dict[int, int] | int = nr.assign(g, domains, r2, keep)
        except NoDeal as e:
            got = e.card
        failed += isinstance(want, int)
        assert got == want
        if isinstance(want, dict):
            assert list(got) == list(want)  # (the dict's order, which callers iterate)
        assert r1.getstate() == r2.getstate()
    assert 0 < failed < 600


# ---------------------------------------------------------------- Info and Search
GAMES = [("hearts", 4, 40), ("go-fish", 2, 30), ("go-fish", 4, 20), ("gin-rummy", 2, 30), ("leduc-poker", 2, 60),
         ("schwimmen", 3, 30), ("cribbage", 2, 30)]


def _check_info(g: Any, s: Any, p: int) -> tuple[Info, Any]:
    info = s.python_state()._evaluating(Info, p)
    ni = nr.info(s, p)
    assert ni.who == [-1 if w is None else w for w in info.who]
    assert ni.known == [-1 if a is None else a for a in info.known]
    classes: dict[int, str] = {}
    for text, klass in zip(info.text, ni.text):
        assert (text is None) == (klass == -1)
        if text is not None:
            assert classes.setdefault(klass, text) == text
    assert len(set(classes.values())) == len(classes)
    assert [g.views.observation(memoryview(w), p) for w in ni.views] == info.views
    assert (ni.seen_at, ni.acted_at) == (info.seen_at, info.acted_at)
    return info, ni


@pytest.mark.parametrize("name,players,states", GAMES)
@pytest.mark.parametrize("kind", nr.KINDS)
def test_the_native_search_finds_the_python_history(name: str, players: int, states: int, kind: str) -> None:
    """Search; and stage B's Descent (step 4, the descent over exchanges) and Deals (the constraint layer), on
    half as many states each."""
    g = native(name, players)
    rnd = random.Random(17 + nr.KINDS.index(kind))
    if kind != "search":
        states //= 2
    found = searched = 0
    while searched < states:
        s = random_state(g, rnd, seeded=searched % 2 == 0)
        if s is None:
            continue
        p = rnd.choice([s.current_player(), rnd.randrange(g.n)])
        info, ni = _check_info(g, s, p)
        for budget in (300, 3000):
            seed = rnd.randrange(10**9)
            r1, r2 = random.Random(seed), random.Random(seed)
            search = {"search": Search, "descent": Descent, "deals": Deals}[kind](info, p, r1, budget)
            t = search.run()
            steps, work, reached, stuck = nr.search(g, ni, r2, budget, kind)
            assert stuck == (search.stuck if isinstance(search, Deals) else None)
            want = None if t is None else [(a, o) for _, a, o, _ in groups(explicit(entries(t.trail)))]
            assert steps == want
            assert (work, reached) == (search.work, search.reached)
            assert r1.getstate() == r2.getstate()
            found += t is not None
        searched += 1
    assert found > 0


def test_a_state_at_a_chance_node_is_not_taken() -> None:
    g = native("hearts", 4)
    s = g.new_initial_state()
    assert s.is_chance_node()
    with pytest.raises(RuntimeError, match="chance node"):
        nr.info(s, 0)


# ---------------------------------------------------------------- resample_with_work
def _outcome(fn: Any, *args: Any) -> Any:
    try:
        t, work = fn(*args)
    except GameError as e:
        return type(e).__name__, str(e)
    return entries(t.trail), work


@pytest.mark.parametrize("name,players,states", [("hearts", 4, 16), ("go-fish", 3, 8), ("schwimmen", 4, 12),
                                                 ("gin-rummy", 2, 12), ("cribbage", 3, 12), ("oh-hell", 4, 12)])
def test_the_native_resampler_gives_the_python_state(name: str, players: int, states: int) -> None:
    """The whole `resample_with_work` (stage B): the same state, history and marks (a new seed, or the lazy
    blocks), the same replayed steps, the generator in the same state."""
    g = native(name, players)
    rnd = random.Random(23)
    done = 0
    while done < states:
        s = random_state(g, rnd, seeded=done % 2 == 0, most=80)
        if s is None:
            continue
        p = rnd.choice([s.current_player(), rnd.randrange(g.n)])
        seed = rnd.randrange(10**9)
        r1, r2 = random.Random(seed), random.Random(seed)
        want = _outcome(R.resample_with_work, s.python_state(), p, r1)
        assert _outcome(nr.resample_with_work, s, p, r2) == want
        assert r1.getstate() == r2.getstate()
        done += 1


def test_the_native_resampler_fails_as_the_python_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within smaller bounds (the module's constants, which the native resampler reads) many Go Fish states are
    not found: the same GameError word for word (the constraint layer's stuck card too); past a deadline, the
    same OutOfTime; a bad player or seed, the same refusal."""
    monkeypatch.setattr(R, "MAX_WORK", 1500)
    monkeypatch.setattr(R, "DEALS", 300)
    monkeypatch.setattr(R, "SCOUT", 200)
    g = native("go-fish", 2)
    rnd = random.Random(4)
    failed = stuck = done = 0
    while done < 12:
        s = random_state(g, rnd, seeded=done % 2 == 0, most=120)
        if s is None:
            continue
        p = s.current_player()
        seed = rnd.randrange(10**9)
        r1, r2 = random.Random(seed), random.Random(seed)
        want = _outcome(R.resample_with_work, s.python_state(), p, r1)
        assert _outcome(nr.resample_with_work, s, p, r2) == want
        assert r1.getstate() == r2.getstate()
        failed += want[0] == "GameError"
        stuck += "had no place for" in str(want[1])
        py = s.python_state()
        late = _outcome(R.resample_with_work, py, p, random.Random(seed), time.monotonic() - 1)
        assert _outcome(nr.resample_with_work, s, p, random.Random(seed), time.monotonic() - 1) == late
        done += 1
    assert failed > 0 and stuck > 0
    s = random_state(g, random.Random(1), seeded=True)
    for p, r in ((9, 1), (-1, 1), ("0", 1), (0, 1.5), (0, "x")):
        assert _outcome(nr.resample_with_work, s, p, r) == _outcome(R.resample_with_work, s.python_state(), p, r)


@pytest.mark.parametrize("name,players", [("go-fish", 2), ("hearts", 4), ("schwimmen", 3)])
def test_the_native_carry_extends_a_hint_as_the_python_one(name: str, players: int) -> None:
    """`carry_with_work`: a state found for the seat earlier in the match (a hint), extended to what it knows
    now: the same state or None, the same steps, the generator in the same state; a hint of another game, None."""
    g = native(name, players)
    rnd = random.Random(31)
    done = extended = 0
    while done < 10:
        s = random_state(g, rnd, seeded=done % 2 == 0, most=40)
        if s is None:
            continue
        p = s.current_player()
        try:
            hint, _ = R.resample_with_work(s.python_state(), p, rnd.randrange(10**9))
        except GameError:
            continue
        play_on(s, rnd, rnd.randrange(1, 8))  # the match goes on
        if s.is_terminal():
            continue
        seed = rnd.randrange(10**9)
        r1, r2 = random.Random(seed), random.Random(seed)
        t1, w1 = R.carry_with_work(s.python_state(), p, r1, hint)
        t2, w2 = nr.carry_with_work(s, p, r2, hint)
        assert (None if t1 is None else entries(t1.trail), w1) == (None if t2 is None else entries(t2.trail), w2)
        assert r1.getstate() == r2.getstate()
        extended += t1 is not None
        done += 1
    assert extended > 0
    other = cardsmith.load(name, players=players).new_initial_state(seed=1)
    assert nr.carry_with_work(s, p, 1, other) == (None, 0)


def test_a_native_state_resamples_as_its_twin() -> None:
    """`resample_from_infostate` of a native state: natively, the Python backend's state; at a chance node (which
    the native resampler does not take) the Python resampler's on the twin; a bad seat, its error."""
    g = native("hearts", 4)
    rnd = random.Random(8)
    for k in range(6):
        s = random_state(g, rnd, seeded=k % 2 == 0)
        if s is None:
            continue
        p = rnd.randrange(4)
        assert entries(s.resample_from_infostate(p, k).trail) == \
            entries(s.python_state().resample_from_infostate(p, k).trail)
    s = g.new_initial_state()
    assert s.is_chance_node()
    assert entries(s.resample_from_infostate(1, 3).trail) == \
        entries(s.python_state().resample_from_infostate(1, 3).trail)
    s = g.new_initial_state(seed=2)
    with pytest.raises(GameError, match="no player 7: the seats are 0 to 3"):
        s.resample_from_infostate(7, 1)
    # a generator of another kind (no state to hand over): the Python resampler on the twin
    for _ in range(9):
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(nr.Unavailable):
        nr.resample_with_work(s, 1, random.SystemRandom())
    t = s.resample_from_infostate(1, random.SystemRandom())
    assert t.information_state_string(1) == s.information_state_string(1)
