"""Property tables that leave a card of the pack without a value (C038).

A `by_rank` table gives each card the value of its rank (a special card, `card:` in the pack, is looked
up by its name), a `by_suit` table the value of its suit (a special card has none), and a rank or suit
the table does not list gets the property's `default:`. Without a default it would get `none`, and the
first rule that adds or compares the value would fail in the middle of a match, pointing at that rule
and not at the table. The usual way to get there is a variant that adds a rank (`deck: ranks:` in a
file that `extends:` a game) to a deck whose tables were written for the base's ranks.

Which cards the pack can hold is worked out from the pack entries alone: every suit x rank an entry
names (its `suits:`/`ranks:` subsets, or all), and every `card:`. `when` and `where` are not evaluated:
they depend on the player count and the options, and `where` is itself evaluated over every card its
entry names, so it may read the property of a card it then leaves out. An entry with `copies: 0` adds
no card, and the ranks and suits no entry names need no value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .diagnostics import Span
from .files import shown
from .spec import GameSpec, PropertySpec

SHOWN_NAMES = 8  # missing ranks named in one message; the others are counted


@dataclass
class Reach:
    """The suits, ranks and special cards the pack can hold, in the deck's order."""
    suits: list[str] = field(default_factory=list)
    ranks: list[str] = field(default_factory=list)
    cards: dict[str, Span] = field(default_factory=dict)  # a special card's name: where its entry names it


def reach(spec: GameSpec) -> Reach:
    # An entry without a subset names every suit (rank): one flag, not a walk over the deck per entry,
    # so a file of many entries over a large deck is read in linear time.
    all_suits = all_ranks = False
    suits: set[str] = set()
    ranks: set[str] = set()
    out = Reach()
    for e in spec.pack:
        if e.copies == 0:
            continue
        if e.card is not None:
            out.cards.setdefault(e.card, e.card_span or e.span)
            continue
        if not (e.suits or spec.suits) or not (e.ranks or spec.ranks):
            continue  # suits x ranks with one side empty: no card
        if e.suits:
            suits.update(e.suits)
        else:
            all_suits = True
        if e.ranks:
            ranks.update(e.ranks)
        else:
            all_ranks = True
    out.suits = [s for s in spec.suits if all_suits or s in suits]
    out.ranks = [r for r in spec.ranks if all_ranks or r in ranks]
    return out


@dataclass
class _Missing:
    """What one table misses of one kind: the first few names, in the deck's order, and how many in all."""
    names: list[tuple[str, Span | None]]
    total: int


def _missing(order: list[str], members: set[str], table: dict[str, Span], where: dict[str, Span]) -> _Missing:
    """The names of `order` (whose set is `members`) that `table` lacks. The work is bounded by the table's
    size plus SHOWN_NAMES, not by the deck's, so thousands of tables over thousands of ranks stay cheap:
    the count comes from the table's keys, and the walk in deck order stops at the names it shows."""
    total = len(order) - sum(1 for k in table if k in members)
    names: list[tuple[str, Span | None]] = []
    if total:
        for n in order:
            if n not in table:
                names.append((n, where.get(n)))
                if len(names) == min(total, SHOWN_NAMES):
                    break
    return _Missing(names, total)


def check_tables(spec: GameSpec, err: Callable[[str, Span, str, str | None], None]) -> None:
    """C038 for each `by_rank`/`by_suit` property without a default that leaves a card of the pack without
    a value: one diagnostic per property, naming what it misses."""
    tables = [p for p in spec.properties if p.by in ("rank", "suit") and p.default is None]
    if not tables:
        return
    pack = reach(spec)
    rank_set, suit_set = set(pack.ranks), set(pack.suits)
    # A special card named like a rank of the pack shares that rank's entry (and is named once).
    own = [c for c in pack.cards if c not in rank_set]
    own_set = set(own)
    every_card = _Missing([(c, pack.cards[c]) for c in list(pack.cards)[:SHOWN_NAMES]], len(pack.cards))
    for p in tables:
        written = p.table_spans  # every key of the table, also one whose value was refused (S018)
        if p.by == "rank":
            missing = _missing(pack.ranks, rank_set, written, spec.rank_spans)
            cards = _missing(own, own_set, written, pack.cards)
        else:
            missing = _missing(pack.suits, suit_set, written, spec.suit_spans)
            cards = every_card  # a special card has no suit: a by_suit table never gives it a value
        if missing.total or cards.total:
            _report(spec, p, p.by, missing, cards, err)


def _listed(names: list[str], total: int) -> str:
    quoted = [f"'{n}'" for n in names]
    if total > len(names):
        return ", ".join(quoted) + f" and {total - len(names):,} more"
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _report(spec: GameSpec, p: PropertySpec, kind: str, missing: _Missing, cards: _Missing,
            err: Callable[[str, Span, str, str | None], None]) -> None:
    table = p.table_span or p.span
    what = " and ".join(f"{word}{'s' if m.total > 1 else ''} {_listed([n for n, _ in m.names], m.total)}"
                        for word, m in ((kind, missing), ("card", cards)) if m.total)
    them = "it" if not missing.total and cards.total == 1 else "them"
    subject = f"cards of {what}" if missing.total else what
    message = f"{subject} can be in the pack, but property '{p.name}' gives {them} no value"
    both = [n for n, _ in missing.names + cards.names]
    keys = _listed(both, missing.total + cards.total)
    if kind == "suit" and cards.total:
        fix = (f"a card of its own ('card:' in the pack) has no suit, so only a default gives it a value: give "
               f"'{p.name}' a 'default:'")
    else:
        fix = f"add {keys} to its 'by_{kind}' table, or give '{p.name}' a 'default:' for the {kind}s not listed"
    # The designer to tell is the one who wrote last: a variant that added a rank to a base whose table
    # does not have it gets the error at the rank it added, with the table's place in the message.
    order = {f: i for i, f in enumerate(spec.files)}
    later = [s for _, s in missing.names + cards.names if s is not None
             and order.get(s.file, len(order)) < order.get(table.file, len(order))]
    if not later:
        err("C038", table, message, fix)
        return
    at = f"{shown(table.file)}:{table.line}:{table.col}"
    err("C038", later[0], f"{message}: its 'by_{kind}' table is at {at}",
        f"write '{p.name}' under 'deck: properties:' here, with {keys} in its table or a 'default:' (a "
        "variant's 'properties' replace all of the base's)")
