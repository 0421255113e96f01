"""ISMCTS's decision natively (docs/design/native.md, "Stage C"): `IsmctsBot._search` run in the binding
(mc_search.h) for a native state, with the worlds the native resampler draws made native states and the bot's
iterations played on them, never crossing into Python per step.

It gives what the Python bot's own loop gives for the same generator, to the bit: the root's statistics, the
worlds searched and failed, the last failure's message and the generator's state after (which goes on to the
bot's `random.Random`). Where it cannot (a state at a chance node or without a seed, a generator that is not
`random.Random` itself, a game the native resampler does not take, a rule failing or the action limit within
an iteration) it answers None before the generator is touched, and the bot searches in Python. The worlds a
decision keeps for the next one to carry are `Kept`: their steps, made Python states only if the bot's own loop
asks for them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..engine import resample as R
from . import resample as nr
from .resample import Kept, Unavailable, _binding, _words, hint_steps, info

ROLLOUTS = ("random", "first")  # the rollout policies played natively (rollout.py's), by their number


@dataclass
class Searched:
    """What a native decision found, in the Python bot's terms (bots/ismcts.py)."""

    root: list[tuple[int, int, float, int]]  # the root's children: (action, visits, total, avail), in its order
    worlds: int  # the worlds searched
    failed: int  # the fresh worlds the resampler gave up on
    fresh: int  # the worlds drawn fresh
    failure: str | None  # why the resampler last gave up
    timed_out: bool  # whether the time (`stop_at`) ran out inside the resampler
    kept: list[Kept]  # the last `keep` worlds, where fewer than `keep_below` were fresh (to carry next)


def _secret(game: Any) -> list[int]:
    """Per action id, whether another seat sees the action by its public text only (kept on the game)."""
    made = getattr(game, "_mc_secret", None)
    if made is None:
        made = game._mc_secret = [int(game.action_for(a).secret) for a in range(game.num_actions)]
    return made  # type: ignore[no-any-return]


def decide(s: Any, p: int, rng: Any, *, iterations: int, deadline: float | None, stop_at: float | None, c: float,
           worlds: int, rollout: str, scale: tuple[float, float] | None, failed_work: int, hints: list[Any],
           carry: int, keep: int, keep_below: int) -> Searched | None:
    """One `ismcts` decision for seat `p` of the native state `s` with the generator `rng` (the bot's settings by
    name, as IsmctsBot holds them; `deadline` a time.process_time() and `stop_at` a time.monotonic(), None for
    none; `hints` the last decision's worlds to carry forward, `Kept` or Python states), or None where the Python
    bot decides instead (`rng` then untouched)."""
    g = s.game
    if rollout not in ROLLOUTS or type(rng) is not random.Random or s.is_chance_node() or s.seed() is None:
        return None
    try:
        known = info(s, p)
    except (Unavailable, RuntimeError):
        return None
    b = _binding(g)
    plan = b.Plan()
    plan.iterations, plan.c, plan.worlds, plan.rollout = iterations, c, worlds, ROLLOUTS.index(rollout)
    plan.deadline = -1.0 if deadline is None else deadline
    plan.stop_at = -1.0 if stop_at is None else stop_at
    plan.scaled = scale is not None
    if scale is not None:
        plan.lo, plan.span = scale
    plan.failed_work, plan.limit = failed_work, g.action_limit
    plan.secret = _secret(g)
    plan.carry, plan.carry_work, plan.max_seed = carry, nr.carry_mod.CARRY_WORK, nr.carry_mod.MAX_SEED
    steps = [hint_steps(h) if h.game is g else None for h in hints]
    state, words = _words(rng)
    bounds = [R.MAX_TRIES, R.MAX_WORK, R.RESTARTS, R.MORE_RESTARTS, R.PER_STEP, R.SCOUT, R.DEALS]
    out = b.ismcts(known, plan, words, bounds, steps, keep, keep_below)
    if not out[0]:
        return None
    _, root, count, failed, fresh, work, stuck, late, after, kept = out
    rng.setstate((state[0], tuple(after), state[2]))
    failure = None if work is None else R.not_found(g, p, work, stuck)
    return Searched(root, count, failed, fresh, failure, late, [Kept(g, steps, seed) for steps, seed in kept])


__all__ = ["ROLLOUTS", "Searched", "decide"]
