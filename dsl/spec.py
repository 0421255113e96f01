"""The rule file as read: plain dataclasses holding ASTs, and the names of its sections.

`schema.read_spec` builds a `GameSpec` from the located YAML tree; the checker and the compiler read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from . import types as T
from .diagnostics import Span
from .limits import MAX_PLAYERS as MAX_PLAYERS  # defined with the limits: dsl/limits.py says why

# A variable's type as the rule file names it (`type: cards`).
VAR_TYPES: dict[str, T.Type] = {
    "int": T.INT, "number": T.NUM, "bool": T.BOOL, "player": T.PLAYER, "card": T.CARD,
    "suit": T.SUIT, "rank": T.RANK, "text": T.STR,
    "cards": T.ListOf(T.CARD), "players": T.ListOf(T.PLAYER), "numbers": T.ListOf(T.NUM),
    "card_lists": T.ListOf(T.ListOf(T.CARD)),
}


@dataclass(eq=False)
class OptionSpec:
    name: str
    span: Span
    kind: str  # int, bool, choice
    default: Any  # plain value, or an A.Expr computed from players/other options
    min: int | None = None
    max: int | None = None
    values: list[str] = field(default_factory=list)
    doc: str = ""
    default_text: str = ""  # as written, for listings
    # An int option's bound worked out when the game is set up (`max: =52 // num_players`); min/max are then None.
    min_expr: A.Expr | None = None
    max_expr: A.Expr | None = None
    min_text: str = ""  # the bounds as written, for listings
    max_text: str = ""


@dataclass(eq=False)
class ConstraintSpec:
    """A setting of the table the rules refuse: `refuse: EXPR` (or `require: EXPR`, refused when false),
    with the designer's message."""
    span: Span
    cond: A.Expr
    refuse: bool  # True: refused when cond holds; False (require): refused when it does not
    message: str
    text: str = ""  # the condition as written, for listings


@dataclass(eq=False)
class PropertySpec:
    name: str
    span: Span
    by: str  # "rank", "suit", "expr", "const"
    table: dict[str, Any] = field(default_factory=dict)
    default: Any = None
    expr: A.Expr | None = None
    table_spans: dict[str, Span] = field(default_factory=dict)
    table_span: Span | None = None  # where 'by_rank' or 'by_suit' is written
    value_spans: dict[str, Span] = field(default_factory=dict)  # where each value of the table is written
    default_span: Span | None = None


@dataclass(eq=False)
class PackEntry:
    span: Span
    suits: list[str] | None
    ranks: list[str] | None
    copies: int
    when: A.Expr | None
    where: A.Expr | None
    card: str | None = None  # a card outside suits x ranks, e.g. a joker
    card_span: Span | None = None


@dataclass(eq=False)
class ZoneSpec:
    name: str
    span: Span
    per_player: bool
    visible: str | A.Expr  # "everyone" | "owner" | "nobody" | expression (list of players)
    # How the tables present it: a name for players, a sentence of help, and whether it is drawn at all.
    # None of it hides anything: what a seat may see is `visible`'s alone.
    label: str = ""
    doc: str = ""
    show: bool | A.Expr = True  # an expression: fixed for the game (read when it is set up, from the options)


@dataclass(eq=False)
class VarSpec:
    name: str
    span: Span
    ty: T.Type
    per_player: bool
    scope: str  # match | deal
    initial: A.Expr | None
    visible: str | A.Expr
    # One value per team (slots 0 to num_players - 1, indexed by a team number: score[team[p]]).
    per_team: bool = False
    label: str = ""  # as a zone's
    doc: str = ""
    show: bool | A.Expr = True


@dataclass(eq=False)
class FuncSpec:
    name: str
    span: Span
    params: list[str]
    body: A.Expr | None


@dataclass(eq=False)
class ProcSpec:
    name: str
    span: Span
    params: list[str]
    body: list[A.Stmt]


@dataclass(eq=False)
class ParamSpec:
    name: str
    span: Span
    domain: A.Expr  # the values it may take in a state (`from`; `ids` itself when `from` is not given)
    # A parameter over lists of cards: every value it can ever take, fixed for the game; a value's id is its
    # position in this list, so a designer reproduces an outside numbering by writing the list in that order.
    ids: A.Expr | None = None


@dataclass(eq=False)
class ActionSpec:
    name: str
    span: Span
    params: list[ParamSpec]
    when: A.Expr | None
    effect: list[A.Stmt]
    label: str | None = None
    secret: bool = False  # other players see that it happened, not its parameters


@dataclass(eq=False)
class StrategyRule:
    """One rule of a strategy: among the legal actions it names (all, if it names none), those for which
    `when` holds; the best by `best` ("max" or "min" of an expression), or any of them."""
    span: Span
    actions: list[tuple[str, Span]]
    when: A.Expr | None
    best: tuple[str, A.Expr] | None


@dataclass(eq=False)
class StrategySpec:
    """`strategies:`: a playing style as data, for the bot of the same name (interpreter/bots/strategy.py)."""
    name: str
    span: Span
    doc: str
    rules: list[StrategyRule]


@dataclass(eq=False)
class TensorBlock:
    """One block of a declared OpenSpiel tensor (`openspiel: observation` / `information_state`).

    `kind` is one_hot, cards, numbers, thermometer (`value` is its expression, of the seat p) or moves (the moves
    of `actions` p saw: each sets the position `bit` of slot `at`, slots being `width` numbers)."""
    span: Span
    kind: str
    value: A.Expr | None
    size: A.Expr
    name: str = ""
    each: tuple[str, A.Expr, Span] | None = None  # `for: NAME in EXPR`: (name, list, where the name is)
    actions: list[tuple[str, Span]] = field(default_factory=list)
    width: A.Expr | None = None
    at: A.Expr | None = None
    bit: A.Expr | None = None
    when: A.Expr | None = None


@dataclass(eq=False)
class OpenSpielSpec:
    """`openspiel:`: the ids and tensors of an existing OpenSpiel game, for the adapter's layout 'openspiel'."""
    span: Span
    game: str
    parameters: dict[str, Any]
    actions: dict[str, tuple[A.Expr, Span]]  # action -> its OpenSpiel id, an expression of its parameters
    num_actions: A.Expr | None
    card: A.Expr | None
    observation: list[TensorBlock]
    information_state: list[TensorBlock]
    actions_span: Span | None = None  # where `actions:` is written
    ties: str = "error"  # several legal actions with one id: a rule error, or "first", the lowest cardsmith id


@dataclass(eq=False)
class PhaseSpec:
    name: str
    span: Span
    actions: list[tuple[str, Span]]
    first: A.Expr | None
    round: bool
    next: str
    then: tuple[str, Span] | None
    start: list[A.Stmt]
    after: list[A.Stmt]
    end: list[A.Stmt]
    label: str = ""  # what the tables call it; "" is its name as words
    doc: str = ""


@dataclass(eq=False)
class ReturnsSpec:
    """`match: returns`: each player's result as a number, worked out once when the match ends."""
    span: Span  # the 'returns' entry, for problems with the whole
    value: A.Expr  # an expression of `p`, a number per player
    name: str = "returns"  # what the numbers are called in logs (chips, points)
    min: A.Expr | None = None  # bounds: fixed for the game (options, constants, num_players)
    max: A.Expr | None = None
    zero_sum: bool = False


@dataclass(eq=False)
class BoundsSpec:
    """`match: bounds`: what the rule file promises every match keeps, where analysis cannot find it. Each an
    expression fixed for the game (options, constants, num_players), checked as the match is played (R005)."""
    span: Span
    actions: A.Expr | None = None  # the most player actions of one match
    outcomes: A.Expr | None = None  # the most values one `pick` chooses among


@dataclass(eq=False)
class MatchSpec:
    span: Span
    start: list[A.Stmt]
    deal: list[A.Stmt]
    end_deal: list[A.Stmt]
    next_dealer: A.Expr | None
    over_when: A.Expr | None
    winners: A.Expr | None
    report: list[tuple[str, A.Expr]]
    max_deals: int | None
    returns: ReturnsSpec | None = None
    deal_span: Span | None = None  # where 'deal' is written
    bounds: BoundsSpec | None = None


@dataclass(eq=False)
class GameSpec:
    file: str
    name: str
    summary: str
    min_players: int
    max_players: int
    options: list[OptionSpec]
    constants: dict[str, tuple[Any, Span]]
    suits: list[str]
    ranks: list[str]
    properties: list[PropertySpec]
    pack: list[PackEntry]
    zones: list[ZoneSpec]
    variables: list[VarSpec]
    functions: list[FuncSpec]
    procedures: list[ProcSpec]
    actions: list[ActionSpec]
    phases: list[PhaseSpec]
    match: MatchSpec
    root_span: Span
    # Names declared in the file whose declaration had errors: the checker stays
    # quiet about them instead of reporting every use as unknown.
    broken: set[str] = field(default_factory=set)
    missing_sections: set[str] = field(default_factory=set)  # required sections not given
    malformed: set[str] = field(default_factory=set)  # sections of the wrong shape (names in them unknown)
    spans: dict[str, Span] = field(default_factory=dict)  # where each section (and deck key) is written
    suit_spans: dict[str, Span] = field(default_factory=dict)  # where each suit of 'deck: suits' is written
    rank_spans: dict[str, Span] = field(default_factory=dict)
    # The files the spec was merged from, the one named first (a variant) before the files it extends.
    files: list[str] = field(default_factory=list)
    # `players: teams:`, the team number of seat `p` at the start of the match and of every deal (None: each
    # seat is a team of its own, team p).
    teams: A.Expr | None = None
    constraints: list[ConstraintSpec] = field(default_factory=list)  # settings of the table the rules refuse
    strategies: list[StrategySpec] = field(default_factory=list)  # playing styles for bots
    openspiel: OpenSpielSpec | None = None  # an OpenSpiel game's layout, declared
