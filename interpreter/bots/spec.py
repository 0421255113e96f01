"""Naming bots: `random`, `ismcts(iterations=400, c=0.7)`, and a list of them, one per seat.

A spec is a bot's name with optional parameters in parentheses; a list is specs separated by commas. The
last spec of a list fills the seats left: `ismcts, random` is ISMCTS at seat 0 and random players at the
others. Every parameter is declared with its type, range and default, so a mistyped spec gets an answer
that names what is wrong and what was expected, never a traceback.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..dsl.diagnostics import clipped
from ..engine.seeds import WIDE, derived
from .errors import BadBotSpec
from .greedy import GreedyBot
from .ismcts import IsmctsBot
from .rollout import ROLLOUTS
from .simple import FirstBot, RandomBot
from .strategy import StrategyBot

if TYPE_CHECKING:
    from ..engine.game import Game
    from .view import SeatView


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView) -> int: ...


def resampling(bot: Bot) -> tuple[int, int]:
    """(worlds the resampler gave up on, moves chosen with no world at all) over the bot's decisions so far;
    (0, 0) for a bot that does not resample."""
    return int(getattr(bot, "resample_failures", 0)), int(getattr(bot, "blind_moves", 0))


@dataclass(frozen=True)
class Param:
    kind: type  # int, float or str
    default: Any
    doc: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    strategies_too: bool = False  # the rule file's strategies are choices too


@dataclass(frozen=True)
class BotKind:
    make: Callable[..., Any]
    doc: str
    params: dict[str, Param] = field(default_factory=dict)
    # Whether the bot searches worlds resampled from what its seat knows: on a native state that search runs
    # natively (several times faster), so a simulation with such a bot plays its matches natively even where it
    # then replays them in Python for their report lines (sim/runner.py).
    resamples: bool = False


BOTS: dict[str, BotKind] = {
    "random": BotKind(RandomBot, "a uniform choice among the legal actions"),
    "first": BotKind(FirstBot, "always the lowest-numbered legal action"),
    "greedy": BotKind(GreedyBot, "one step of lookahead, valued by the rule file's returns or a report line", {
        "by": Param(str, "", "what to maximise: 'returns', or the label of a numeric 'report:' line (default: "
                    "returns if the file has 'match: returns', else its first numeric report)"),
    }),
    "ismcts": BotKind(IsmctsBot, "information-set Monte Carlo tree search (Cowling, Powley and Whitehouse)",
                      resamples=True, params={
        "iterations": Param(int, 200, "searches per decision", 1, 1_000_000),
        "seconds": Param(float, 0.0, "a time budget per decision instead of a number of iterations "
                         "(0: use iterations)", 0, 3600),
        "c": Param(float, 0.7, "UCT exploration constant, on returns scaled to 0..1", 0, 100),
        "worlds": Param(int, 0, "states resampled from the seat's information per decision, the "
                        "iterations taking turns among them (0: a new one while resampling has cost no more "
                        "steps than the playouts)", 0, 100_000),
        "rollout": Param(str, "random", "how a simulation plays on past the tree", choices=ROLLOUTS,
                         strategies_too=True),
        "by": Param(str, "", "with rollout=greedy, what it maximises (as greedy's by)"),
        "carry": Param(int, 32, "worlds carried forward to the next decision (extended to what the seat "
                       "knows then) where fresh ones are dear (0: never)", 0, 10_000),
        "carry_below": Param(int, 8, "fresh worlds are dear when a decision affords fewer than this",
                             0, 1_000_000),
    }),
}


@dataclass(frozen=True)
class BotSpec:
    name: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}({', '.join(f'{k}={v}' for k, v in self.params)})"

    def settings(self) -> dict[str, Any]:
        """Every parameter of the bot: the given ones, and the defaults of the rest (a strategy has none)."""
        kind = BOTS.get(self.name)
        out = {k: p.default for k, p in kind.params.items()} if kind else {}
        out.update(self.params)
        return out


_WHOLE = re.compile(r"[+-]?[0-9]{1,15}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})")
_SPEC = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_-]*)\s*(?:\((.*?)\))?\s*\Z", re.S)


def _split(text: str) -> list[str]:
    """Split at the commas outside parentheses."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise BadBotSpec(f"bot spec '{clipped(text, 60)}': a ')' without its '('")
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth:
        raise BadBotSpec(f"bot spec '{clipped(text, 60)}': a '(' without its ')'")
    parts.append("".join(cur))
    return parts


def _value(bot: str, key: str, p: Param, text: str, strategies: Collection[str] | None) -> Any:
    text = text.strip()
    if p.kind is str:
        if not p.choices or (p.strategies_too and strategies is None):  # (None: the game is not known yet)
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
                raise BadBotSpec(f"{bot}: {key} must be a name, not '{clipped(text, 40)}'")
            return text
        choices = [*p.choices, *(strategies if p.strategies_too and strategies else ())]
        if text not in choices:
            raise BadBotSpec(f"{bot}: {key} must be one of {', '.join(choices)}, not '{clipped(text, 40)}'")
        return text
    # Digits 0-9 only, as every number on the command line (float() would take 'nan', '1e999' and '١').
    if not (_WHOLE if p.kind is int else _DECIMAL).fullmatch(text):
        what = "a whole number" if p.kind is int else "a number"
        raise BadBotSpec(f"{bot}: {key} must be {what}, not '{clipped(text, 40)}'")
    v = p.kind(text)
    if (p.lo is not None and v < p.lo) or (p.hi is not None and v > p.hi):
        raise BadBotSpec(f"{bot}: {key} must be from {_shown(p.lo)} to {_shown(p.hi)}, not {text}")
    return v


def _shown(x: float | None) -> str:
    return f"{int(x):,}" if x is not None and float(x).is_integer() else f"{x}"


def parse_bot(text: str, strategies: Collection[str] | None = ()) -> BotSpec:
    """One spec. A name that is no bot is a strategy of the rule file if `strategies` has it; with
    `strategies=None` (the game not known yet) any name is taken as one, to be checked by `make_bot`."""
    m = _SPEC.match(text)
    if not m:
        raise BadBotSpec(f"bot spec '{clipped(text.strip(), 60)}': expected a bot's name, optionally followed by "
                         "parameters in parentheses, like ismcts(iterations=400)")
    name, args = clipped(m.group(1), 40), m.group(2)
    kind = BOTS.get(name)
    if kind is None:
        if strategies is None or name in strategies:
            if args and args.strip():
                raise BadBotSpec(f"strategy '{name}' takes no parameters")
            return BotSpec(name)
        raise BadBotSpec(_unknown(name, strategies))
    params: dict[str, Any] = {}
    for item in (args.split(",") if args and args.strip() else []):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BadBotSpec(f"{name}: expected key=value, not '{clipped(item.strip(), 40)}'")
        p = kind.params.get(key)
        if p is None:
            has = ", ".join(sorted(kind.params)) or "none"
            raise BadBotSpec(f"{name} has no parameter '{clipped(key, 40)}'; its parameters: {has}")
        if key in params:
            raise BadBotSpec(f"{name}: {key} is given twice")
        params[key] = _value(name, key, p, value, strategies)
    return BotSpec(name, tuple(params.items()))


def _unknown(name: str, strategies: Collection[str]) -> str:
    rule = f"; the rule file's strategies: {', '.join(sorted(strategies))}" if strategies else \
        "; the rule file has no strategies"
    return f"no bot named '{name}'; the bots are {', '.join(sorted(BOTS))}{rule}"


def parse_bots(text: str, seats: int | None = None, strategies: Collection[str] | None = ()) -> list[BotSpec]:
    """A comma-separated list of specs; with `seats`, one per seat, the last filling the seats left."""
    specs = [parse_bot(part, strategies) for part in _split(text)]
    if seats is None:
        return specs
    if len(specs) > seats:
        raise BadBotSpec(f"{len(specs)} bots for {seats} seats")
    return specs + [specs[-1]] * (seats - len(specs))


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in the match of `seed`: each seat's bot draws its own numbers. From a
    wide seed (engine/seeds.py), one-way: a bot's random moves tell nothing of the deal's seed."""
    if seed >= WIDE:
        return derived(seed, "seat", seat)
    return (seed * 0x9E3779B97F4A7C15 + (seat + 1) * 0xBF58476D1CE4E5B9) % 2**64


def make_bot(spec: BotSpec | str, game: Game, seat: int, seed: int) -> Any:
    """The bot for `seat`, its random choices drawn from `seed` alone (so a match replays exactly)."""
    names = strategy_names(game)
    if isinstance(spec, str):
        spec = parse_bot(spec, names)
    kind = BOTS.get(spec.name)
    if kind is None:
        if spec.name not in names:
            raise BadBotSpec(_unknown(spec.name, names))
        return StrategyBot(random.Random(seed), game=game, seat=seat, strategy=spec.name)
    return kind.make(random.Random(seed), game=game, seat=seat, **spec.settings())


# The most a bot from a file may think per move (a save file may come from anyone): the web table's caps.
FILE_CAPS: dict[str, int] = {"iterations": 20_000, "seconds": 10, "worlds": 2_000, "carry": 2_000}


def capped(spec: BotSpec, caps: dict[str, int]) -> BotSpec:
    """`spec` with each parameter that buys time lowered to its cap."""
    return BotSpec(spec.name, tuple((k, min(v, caps[k]) if k in caps else v) for k, v in spec.params))


def check_bots(specs: Collection[BotSpec], game: Game) -> None:
    """Raise BadBotSpec for a spec the game cannot take (greedy's `by`, an ismcts rollout or its `by`): what
    parsing alone cannot tell, found by making the bot, which costs no search."""
    for spec in dict.fromkeys(specs):
        make_bot(spec, game, 0, 0)


def strategy_names(game: Game) -> list[str]:
    """The strategies the game's rule file writes (`strategies:`), each a bot of its name."""
    return [s.name for s in game.spec.strategies]


def describe_bots() -> list[str]:
    """One line per bot and per parameter, for --help and the docs."""
    lines = []
    for name, kind in BOTS.items():
        lines.append(f"{name}: {kind.doc}")
        for key, p in kind.params.items():
            default = f" (default {p.default})" if p.default != "" else ""
            choices = f", one of {', '.join(p.choices)}" if p.choices else ""
            if p.strategies_too:
                choices += " or a strategy of the rule file"
            lines.append(f"    {key}{default}: {p.doc}{choices}")
    return lines
