"""Setting up a position through the deal itself: stacked decks.

`Setup` names the first dealer and, deal by deal, the cards some zones must hold once the deal's own
`match: deal` steps have run. Those cards are made the outcome of the deal's shuffles, so every step of
`match: deal` (a turned-up trump, who holds the 2 of clubs) and everything worked out from the dealt
cards sees them; the cards nobody fixed stay random.

How: before a fixed deal's steps run, a probe runs them on a copy of the state and records each shuffle's
order. The last shuffle a card went through says where it came from, so every place the deal filled
traces back to a (shuffle, position) slot. The real run then shuffles as usual and swaps each fixed card
into the slot of its place (with a seed: the seeded order, then the swaps, which keeps the unfixed cards
uniformly random; without a seed: the fixed positions are no chance nodes, and the other positions
choose among the unfixed cards). If the deal's steps read the cards, a slot may lead elsewhere in the
real run: the result is checked, the probe repeated with the swaps, and a deal that still does not
place a card is refused (`BadSetup`), as is a card for a zone the deal fills with fewer shuffled cards.

`Deal(exact=True)` is what scenario files' `set:` uses: each named zone then holds exactly its listed
cards. The deal still stacks what it can; what it cannot (a zone the deal does not fill, more cards than
it deals there) is moved there after the deal's steps, and the dealt cards of named zones that are not
listed go to the `rest` zone. Only cards moved after the deal's steps can be missed by them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..dsl import types as T
from ..dsl.diagnostics import count_of
from ..dsl.suggest import closest
from .errors import GameError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

# The probe of a deal dealt through chance nodes draws its shuffles from this seed: any order will do.
PROBE_SEED = 0x5EED
# Probes of a deal whose steps read the cards, before its setup is refused.
MAX_PROBES = 3


class BadSetup(GameError):
    """A setup that names what the game lacks, or asks for cards the deal cannot give.

    `deal` is the deal number it concerns (0: the setup as a whole), `zone` the zone's name, if any."""

    def __init__(self, message: str, deal: int = 0, zone: str | None = None):
        super().__init__(message)
        self.deal = deal
        self.zone = zone


@dataclass(frozen=True)
class Deal:
    """What one deal must give. `cards`: zone name (`hand[0]`, `stock`) -> cards, bottom to top, by name
    (`A of clubs`) or id. `exact`: the zones hold exactly these cards (else they are the top cards the
    deal gives the zone, the others random). `rest`: with `exact`, where the dealt cards of named zones
    that are not listed go, at the bottom (default: the first zone). `top`: zone name -> cards, bottom to
    top, that are the top cards the deal gives the zone, the others staying under them, even with `exact`
    (the next card drawn from a stock). `values`: variables (`lives`, `lives[1]`), `dealer` or
    `current`, set after the deal's steps."""

    cards: Mapping[str, Sequence[str | int]] = field(default_factory=dict)
    exact: bool = False
    rest: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    top: Mapping[str, Sequence[str | int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Setup:
    """A position to start from: the first dealer (it overrides the one `match: start` chooses) and the
    deals in turn (`None` leaves a deal random). Plain data: the seed and the setup reproduce a state."""

    dealer: int | None = None
    deals: Sequence[Deal | None] = ()


@dataclass(frozen=True)
class Fixed:
    """A deal's setup checked against a game: zone indices and card ids."""

    deal: int
    zones: tuple[tuple[int, tuple[int, ...]], ...]
    exact: bool
    rest: int
    values: tuple[tuple[str, int, Any], ...]  # ('var', slot, value), ('dealer'/'current', 0, player)
    tops: frozenset[int] = frozenset()  # zones of `zones` given only their top cards (never exact)

    def whole(self, zi: int) -> bool:
        """Whether zone `zi` holds exactly its listed cards once the deal's steps have run."""
        return self.exact and zi not in self.tops


@dataclass(frozen=True)
class Resolved:
    dealer: int | None
    deals: Mapping[int, Fixed]


# ------------------------------------------------------------------ checking a setup against a game
def resolve(g: Game, setup: Setup | Resolved | None) -> Resolved | None:
    if setup is None or isinstance(setup, Resolved):
        return setup
    if not isinstance(setup, Setup):
        raise BadSetup(f"a setup is a cardsmith Setup, not {type(setup).__name__}")
    dealer = None if setup.dealer is None else _player(g, setup.dealer, "the first dealer", 0)
    if isinstance(setup.deals, (str, bytes, Mapping)) or not isinstance(setup.deals, Sequence):
        raise BadSetup("Setup.deals is a list of Deal (or None), one for each deal in turn")
    deals = {}
    for k, d in enumerate(setup.deals, 1):
        if d is None:
            continue
        if not isinstance(d, Deal):
            raise BadSetup(f"deal {k} of the setup is a Deal (or None), not {type(d).__name__}", k)
        deals[k] = _fixed(g, d, k)
    return Resolved(dealer, deals)


def _player(g: Game, p: Any, what: str, deal: int) -> int:
    if type(p) is not int or not 0 <= p < g.n:
        raise BadSetup(f"{what} is a player of this game (0 to {g.n - 1}), not {p!r}", deal)
    return p


def _zone(g: Game, name: Any, deal: int) -> int:
    if isinstance(name, str) and name in g.zone_names:
        return g.zone_names.index(name)
    per = [n for n in g.zone_names if n.startswith(f"{name}[")]
    hint = f"; name a player's zone with the player: {per[0]}" if per else \
        f" (zones: {', '.join(g.zone_names[:12])}{', ...' if len(g.zone_names) > 12 else ''})"
    raise BadSetup(f"deal {deal}: the game has no zone {name!r}{hint}", deal, str(name))


def _card(g: Game, c: Any, zone: str, deal: int) -> int:
    if type(c) is int and 0 <= c < g.num_cards:
        return c
    if isinstance(c, str):
        try:
            return g.card_id(c)
        except KeyError:
            pass
    close = closest(c, g.card_names) if isinstance(c, str) else None
    hint = f"did you mean '{close}'?" if close else f"cards are named like '{g.card_names[0]}', or given by " \
        f"id 0 to {g.num_cards - 1}"
    raise BadSetup(f"deal {deal}: zone '{zone}' is given {c!r}, which is no card of the pack; {hint}", deal, zone)


def _fixed(g: Game, d: Deal, k: int) -> Fixed:
    if not isinstance(d.cards, Mapping) or not isinstance(d.top, Mapping):
        raise BadSetup(f"deal {k}: 'cards' and 'top' map zone names to lists of cards", k)
    zones: list[tuple[int, tuple[int, ...]]] = []
    where: dict[int, str] = {}
    tops: set[int] = set()
    for name, cards in [*d.cards.items(), *d.top.items()]:
        zi = _zone(g, name, k)
        if any(zi == z for z, _ in zones):
            raise BadSetup(f"deal {k}: zone '{name}' is given its cards twice (whole and top)", k, name)
        if name in d.top:
            tops.add(zi)
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise BadSetup(f"deal {k}: zone '{name}' is given a list of cards, not {type(cards).__name__}", k, name)
        ids = []
        for c in cards:
            ci = _card(g, c, name, k)
            if ci in where:
                raise BadSetup(f"deal {k}: card '{g.card_names[ci]}' is given twice (to '{where[ci]}' and to "
                               f"'{name}')", k, name)
            where[ci] = name
            ids.append(ci)
        zones.append((zi, tuple(ids)))
    if d.rest is not None and not d.exact:
        raise BadSetup(f"deal {k}: 'rest' says where the cards go that exact zones do not list; it needs "
                       "exact=True", k)
    rest = 0 if d.rest is None else _zone(g, d.rest, k)
    if not isinstance(d.values, Mapping):
        raise BadSetup(f"deal {k}: 'values' maps variable names to values", k)
    values = [v for key, val in d.values.items() for v in _values(g, key, val, k)]
    return Fixed(k, tuple(zones), bool(d.exact), rest, tuple(values), frozenset(tops))


def _values(g: Game, key: Any, val: Any, k: int) -> list[tuple[str, int, Any]]:
    if key in ("dealer", "current"):
        return [(key, 0, _player(g, val, f"deal {k}: '{key}'", k))]
    if key in g.var_names:
        slot = g.var_names.index(key)
        return [("var", slot, _typed(g, g.var_specs[slot][0].ty, val, key, k))]
    slots = [i for i, (v, _) in enumerate(g.var_specs) if v.name == key]
    if not slots:
        raise BadSetup(f"deal {k}: {key!r} is no variable of the game (nor 'dealer' or 'current')", k)
    if isinstance(val, (str, bytes)) or not isinstance(val, Sequence) or len(val) != len(slots):
        raise BadSetup(f"deal {k}: '{key}' is per player: give a list of {len(slots)} values", k)
    ty = g.var_specs[slots[0]][0].ty
    return [("var", i, _typed(g, ty, x, key, k)) for i, x in zip(slots, val)]


def _typed(g: Game, ty: T.Type, v: Any, name: str, k: int) -> Any:
    """`v` if it is a value of type `ty` (players and cards as ids, lists as lists); none fits any type."""
    if v is None:
        return None
    if T.is_list(ty):
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise BadSetup(f"deal {k}: '{name}' holds a list, not {v!r}", k)
        if T.is_list(T.elem(ty)) and any(x is None for x in v):  # card_lists: lists of cards, not none
            raise BadSetup(f"deal {k}: '{name}' holds lists of cards, not none", k)
        return [_typed(g, T.elem(ty), x, name, k) for x in v]
    fits: dict[T.Type, bool] = {
        T.INT: type(v) is int, T.NUM: type(v) in (int, float), T.BOOL: type(v) is bool, T.STR: type(v) is str,
        T.SUIT: isinstance(v, str) and v in g.spec.suits, T.RANK: isinstance(v, str) and v in g.spec.ranks,
        T.PLAYER: type(v) is int and 0 <= v < g.n, T.CARD: type(v) is int and 0 <= v < g.num_cards,
    }
    if not fits.get(ty, True):
        words: dict[T.Type, str] = {
            T.INT: "a whole number", T.NUM: "a number", T.BOOL: "true or false", T.STR: "text",
            T.SUIT: "a suit of the deck", T.RANK: "a rank of the deck (as text)",
            T.PLAYER: f"a player (0 to {g.n - 1})", T.CARD: f"a card id (0 to {g.num_cards - 1})"}
        what = words[ty]
        raise BadSetup(f"deal {k}: '{name}' holds {what}, not {v!r}", k)
    return v


# ------------------------------------------------------------------ dealing a fixed deal
class Stack:
    """The shuffles of one run of `match: deal`: what each gave (for a probe), and the cards each must put
    at which position (`plan[j]`: position -> card, for the j-th shuffle)."""

    __slots__ = ("plan", "calls", "seen")

    def __init__(self, plan: list[dict[int, int]]):
        self.plan = plan
        self.calls = 0
        self.seen: list[list[int]] = []

    def forced(self) -> dict[int, int]:
        j = self.calls
        self.calls += 1
        return self.plan[j] if j < len(self.plan) else {}


def force(zone: list[int], forced: dict[int, int]) -> None:
    """Swap each forced card into its position: after a uniform shuffle, the unfixed cards stay uniform."""
    for p, c in forced.items():
        if p < len(zone) and c in zone:
            j = zone.index(c)
            zone[p], zone[j] = zone[j], zone[p]


def deal(s: State, fx: Fixed) -> Any:
    """Run `match: deal` on `s` so that it gives the fixed cards; its result (the phase to enter)."""
    g = s.game
    base = s.clone()
    left = g.steps[0]  # each run of the deal gets the work a deal without a setup would have left
    plan: list[dict[int, int]] = []
    missed: tuple[int, int] | None = None
    for attempt in range(MAX_PROBES):
        # Each probe deals with the swaps the last one found: a deal whose steps read the cards may only
        # reach a zone once the cards before it are fixed.
        probe = base.clone()
        probe.log = None
        if probe.rng is None:
            probe.rng = PROBE_SEED
        probe.stack = Stack(plan)
        g.steps[0] = left
        g.match_deal(probe)
        plan, late, problem = _plan(probe, probe.stack, fx)
        if problem is not None:
            if attempt == MAX_PROBES - 1:
                raise problem
            continue
        if attempt:
            s._restore(base)
        s.stack = Stack(plan)
        g.steps[0] = left
        try:
            r = g.match_deal(s)
        finally:
            s.stack = None
        missed = _missed(s, fx, late)
        if missed is None or base.rng is None:
            # Through chance nodes the outcomes given so far belong to this run's positions: no second run.
            break
    if missed is not None:
        name = g.zone_names[missed[1]]
        raise BadSetup(f"deal {fx.deal}: the deal's steps do not put '{g.card_names[missed[0]]}' in '{name}' "
                       "whatever the shuffle gives (they read the cards they deal)", fx.deal, name)
    if fx.exact:
        _hold_exactly(s, fx)
    for kind, slot, val in fx.values:
        if kind == "dealer":
            s.dealer = val
        elif kind == "current":
            s.cur = val
        else:
            s.v[slot] = list(val) if isinstance(val, list) else val
    s.legal = None
    return r


def _plan(probe: State, stack: Stack, fx: Fixed) -> tuple[list[dict[int, int]], set[int], BadSetup | None]:
    """Per shuffle, the fixed cards by position; the cards the deal cannot place (only with exact); and
    why a card cannot be fixed (without exact), if one cannot."""
    g = probe.game
    origin: dict[int, tuple[int, int]] = {}
    for j, order in enumerate(stack.seen):
        for p, c in enumerate(order):
            origin[c] = (j, p)
    members = [set(order) for order in stack.seen]
    plan: list[dict[int, int]] = [{} for _ in stack.seen]
    late: set[int] = set()
    problem: BadSetup | None = None
    spare: list[tuple[int, int]] = []  # slots of exact zones below their listed cards: dealt, then moved away
    for zi, cards in fx.zones:
        slots = [origin[c] for c in probe.z[zi] if c in origin]
        name = g.zone_names[zi]
        top = not fx.whole(zi)
        if len(cards) > len(slots) and top:
            got = "no shuffled card" if not slots else f"only {count_of(len(slots), 'shuffled card')}"
            problem = problem or BadSetup(f"deal {fx.deal}: the deal's steps put {got} in zone '{name}', so "
                           f"{count_of(len(cards), 'card')} cannot be fixed there", fx.deal, name)
        cut = 0 if top else max(0, len(cards) - len(slots))
        late.update(cards[:cut])
        if not top:  # the cards under a zone's top cards stay there
            spare.extend(slots[:len(slots) - (len(cards) - cut)])
        for c, (j, p) in zip(cards[cut:], slots[len(slots) - (len(cards) - cut):]):
            if c not in members[j]:
                if top:
                    problem = problem or BadSetup(f"deal {fx.deal}: '{g.card_names[c]}' is not among the cards "
                                                  f"the deal shuffles into zone '{name}'", fx.deal, name)
                late.add(c)
                continue
            plan[j][p] = c
    # Cards moved in after the deal come from slots that are moved away anyway, so no other zone loses them.
    for c in sorted(late):
        while spare:
            j, p = spare.pop()
            if c in members[j]:
                plan[j][p] = c
                break
    return plan, late, problem


def _missed(s: State, fx: Fixed, late: set[int]) -> tuple[int, int] | None:
    """A fixed card the run did not deal where it belongs (card, zone), or None."""
    for zi, cards in fx.zones:
        want = [c for c in cards if c not in late]
        wanted = set(want)
        if [c for c in s.z[zi] if c in wanted] != want:
            return next(((c, zi) for c in want if s.loc[c] != zi), (want[0], zi))
    return None


def _hold_exactly(s: State, fx: Fixed) -> None:
    """Each zone named whole holds exactly its cards; the others it was dealt go to the bottom of the rest
    zone, so its top card (a face-up discard, the next card drawn) stays the one the deal gave it."""
    g = s.game
    whole = [(zi, cards) for zi, cards in fx.zones if fx.whole(zi)]
    named = {zi for zi, _ in whole}
    placed = {c for _, cards in whole for c in cards}
    leftovers = sorted(c for zi in named for c in s.z[zi] if c not in placed)
    if leftovers and fx.rest in named:
        name = g.zone_names[fx.rest]
        raise BadSetup(f"deal {fx.deal}: '{name}' holds exactly its listed cards, so the "
                       f"{len(leftovers)} other cards the deal put in the named zones need another zone: name "
                       "it with 'rest'", fx.deal, name)
    for zi in range(len(s.z)):
        if zi not in named:
            s.z[zi] = [c for c in s.z[zi] if c not in placed]
    for zi, cards in whole:
        s.z[zi] = list(cards)
        for c in cards:
            if s.loc[c] != zi:
                s.loc[c] = zi
                s.by[c] = s.dealer
    s.z[fx.rest][:0] = leftovers
    for c in leftovers:
        s.loc[c] = fx.rest
        s.by[c] = s.dealer


# ------------------------------------------------------------------ a setup as plain data (serialize)
MAX_DEALS = 10_000  # deals a serialized setup may name


def to_data(g: Game, r: Resolved) -> dict[str, Any]:
    """A checked setup as JSON-ready data, by name, as `Setup` takes it (`from_data` reads it back)."""
    deals: dict[str, Any] = {}
    for k, fx in sorted(r.deals.items()):
        values: dict[str, Any] = {}
        for kind, slot, val in fx.values:
            values[g.var_names[slot] if kind == "var" else kind] = val
        deals[str(k)] = {"cards": {g.zone_names[zi]: list(ids) for zi, ids in fx.zones if zi not in fx.tops},
                         "exact": fx.exact, "rest": g.zone_names[fx.rest] if fx.exact else None, "values": values}
        if fx.tops:
            deals[str(k)]["top"] = {g.zone_names[zi]: list(ids) for zi, ids in fx.zones if zi in fx.tops}
    return {"dealer": r.dealer, "deals": deals}


def from_data(g: Game, data: Any) -> Resolved:
    """The setup `to_data` wrote, checked against `g` like any Setup; BadSetup says what is wrong."""
    if not isinstance(data, dict) or set(data) - {"dealer", "deals"} or not isinstance(data.get("deals", {}), dict):
        raise BadSetup("a setup is {'dealer': ..., 'deals': {'1': {...}, ...}}")
    given: dict[int, Deal] = {}
    for key, d in data.get("deals", {}).items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and 1 <= int(key) <= MAX_DEALS):
            raise BadSetup(f"a setup's deals are numbered 1 to {MAX_DEALS:,}, not {str(key)[:20]!r}")
        if not isinstance(d, dict) or set(d) - {"cards", "exact", "rest", "values", "top"}:
            raise BadSetup(f"deal {key} of a setup has 'cards', 'exact', 'rest', 'values' and 'top' only", int(key))
        if not isinstance(d.get("exact", False), bool):
            raise BadSetup(f"deal {key}: 'exact' is true or false", int(key))
        given[int(key)] = Deal(cards=d.get("cards", {}), exact=d.get("exact", False), rest=d.get("rest"),
                               values=d.get("values", {}), top=d.get("top", {}))
    deals = [given.get(k) for k in range(1, max(given, default=0) + 1)]
    resolved = resolve(g, Setup(dealer=data.get("dealer"), deals=deals))
    assert resolved is not None
    return resolved
