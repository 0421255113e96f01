"""The contract between the generated module and the runtime that runs it (like `jinja2.runtime.exported`).

The compiler (`dsl/codegen/`) writes a Python module; a `Game` (`interpreter/engine/game.py`) execs it
in a namespace it fills, then reads back the functions the module defined. Both sides name those things
through this module only, so no name or prefix is spelled twice:

* the functions the compiler generates: one builder per kind (`legal(action)`, `phase_start(i)`, ...) or a
  constant for a single function (`MATCH_START`);
* what the runtime puts in the namespace before the module runs: the `EXPORTS` (safe builtins, library
  and engine helpers, the budget's helpers, the game's fixed values and card tables) and the per-game
  tables, named by builders (`zone(name)`, `action_radix(action)`, ...) and listed by `tables(spec)`.

`tests/test_abi.py` checks that every global the generated module of every bundled and test game reads is
exported or defined by the module itself, that a `Game` puts nothing else in the namespace, and that the
engine reads the namespace only through these names.
"""

from __future__ import annotations

from . import ast as A
from .library import RUNTIME_HELPERS
from .spec import GameSpec

# What a compiled block returns for `end deal`; a phase index (>= 0) means `goto`, None falls through.
END_DEAL = -1
# A memo key or result with more items than this is computed but not remembered (engine/budget.py).
MEMO_ITEM_MAX = 2_000

# ------------------------------------------------------------ what the compiler generates
# Set-up (evaluated without a state, `s=None`).
def option_default(option: str) -> str:
    return f"optdef_{option}"


def option_bound(option: str, key: str) -> str:
    """An int option's bound worked out for the player count; key "min" or "max"."""
    return f"opt{key}_{option}"


def constraint(i: int) -> str:
    return f"constraint_{i}"


def param_bound(uid: int, key: str) -> str:
    """A number parameter's `range(a, b)` bound; key "lo" or "hi". `ParamInfo.bounds` holds the two names."""
    return f"pb_{uid}_{key}"


def param_ids(uid: int) -> str:
    """The `ids` of a parameter over lists of cards, every value it can take. `ParamInfo.ids` holds the name."""
    return f"pids_{uid}"


def property_fn(name: str) -> str:
    """A card property given by an expression, `(l_rank, l_suit, l_rank_index, l_suit_index)`."""
    return f"prop_{name}"


def pack_when(i: int) -> str:
    return f"pack_when_{i}"


def pack_where(i: int) -> str:
    return f"pack_where_{i}"


# Reading the state.
def shown(kind: str, name: str) -> str:
    """The function of a zone's or variable's `show` expression (kind: "zone" or "var")."""
    return f"show_{kind}_{name}"


def zone_visible(zone: str) -> str:
    return f"vis_zone_{zone}"


def var_visible(var: str) -> str:
    return f"vis_var_{var}"


def initial(var: str) -> str:
    return f"init_{var}"


TEAMS_OF = "teams_of"


def function(name: str) -> str:
    """A `define:` function as the rules call it (memoized ones look up `memo(name)` first)."""
    return f"fn_{name}"


def function_body(name: str) -> str:
    """The computing body of a memoized function."""
    return f"fi_{name}"


def memo(name: str) -> str:
    return f"M_{name}"


def memo_keyed(name: str) -> str:
    """A memoized function's lookup: the key, the memo, the body on a miss. `function(name)` calls it, and is
    rebound to it, or to `function_body(name)` if the memo is seldom met, after `MEMO_TRIAL` calls."""
    return f"fk_{name}"


def memo_trial(name: str) -> str:
    """A memoized function's calls (counted until the `MEMO_TRIAL`th) and misses."""
    return f"MT_{name}"


# Calls of a memoized function after which the engine decides whether its memo is worth keeping
# (engine/budget.py `_judge`).
MEMO_TRIAL = 1_024


def procedure(name: str) -> str:
    return f"pr_{name}"


# Actions: `legal(a)(s, out)` appends the ids of `a` that are legal, `run(a)(s, k)` decodes the id `k`
# (relative to the action's offset) and runs the effect.
def legal(action: str) -> str:
    return f"legal_{action}"


def run(action: str) -> str:
    return f"run_{action}"


# Phases, by name: `phase_first` (an expression, when given), the blocks `start`, `after`, `end`, and the
# legal ids of all the phase's actions; a `goto` returns the phase's number, named `phase_number`, and
# `end deal` returns END_DEAL, named END_DEAL_NAME (the generated module defines both).
def phase_first(phase: str) -> str:
    return f"first_{phase}"


def phase_start(phase: str) -> str:
    return f"start_{phase}"


def phase_after(phase: str) -> str:
    return f"after_{phase}"


def phase_end(phase: str) -> str:
    return f"end_{phase}"


def phase_legal(phase: str) -> str:
    return f"actions_{phase}"


def phase_number(phase: str) -> str:
    return f"PHASE_{phase}"


END_DEAL_NAME = "END_DEAL"


MATCH_START = "match_start"
MATCH_DEAL = "match_deal"
MATCH_END_DEAL = "match_end_deal"
MATCH_NEXT_DEALER = "match_next_dealer"
MATCH_OVER_WHEN = "match_over_when"
MATCH_WINNERS = "match_winners"
MATCH_RETURNS = "match_returns"


def report(k: int) -> str:
    return f"report_{k}"


def returns_bound(key: str) -> str:
    """The bound of `match: returns`; key "min" or "max"."""
    return f"returns_{key}"


def match_bound(key: str) -> str:
    """A bound of `match: bounds`; key "actions" or "outcomes"."""
    return f"bound_{key}"


# Strategies: rule `i` of strategy `name`, for one action it is about, as a function of the state and that
# action's parameters (in order): `when` a condition, `best` the number its `max`/`min` ranks by.
def strategy_when(name: str, i: int, action: str) -> str:
    return f"strategy_{name}_{i}_when_{action}"


def strategy_best(name: str, i: int, action: str) -> str:
    return f"strategy_{name}_{i}_best_{action}"


# `openspiel:` (dsl/schema_openspiel.py): an action's OpenSpiel id as a function of its parameters; the number of
# ids; a card's id; part `part` of block `k` of a tensor ("observation" or "information_state"): its `size`,
# `width`, `value` and `each` (of the state and the seat p), or a moves block's `at`, `bit` and `when` for
# one action it lists (of the state, p, the move's index and id, then that action's parameters).
OPENSPIEL_NUM_ACTIONS = "openspiel_num_actions"
OPENSPIEL_CARD = "openspiel_card"


def openspiel_action(action: str) -> str:
    return f"openspiel_action_{action}"


def openspiel_block(tensor: str, k: int, part: str) -> str:
    return f"openspiel_{tensor}_{k}_{part}"


def openspiel_move(tensor: str, k: int, part: str, action: str) -> str:
    """Part `part` ("at", "bit" or "when") of moves block `k` of a tensor, for one action it lists."""
    return f"openspiel_{tensor}_{k}_{part}_{action}"


# ------------------------------------------------------------ what the runtime provides
# The only Python builtins the generated module may use (the namespace's `__builtins__`).
BUILTINS = ("len", "list", "range", "divmod", "sorted", "set", "min", "max", "sum", "any", "all", "abs", "int",
            "zip", "isinstance", "tuple", "dict", "type", "KeyError", "TypeError", "IndexError")
# The library's implementations (dsl/library.py).
LIBRARY = tuple(RUNTIME_HELPERS)
# The helpers that read a state or check a value, for expressions, actions and the module's functions.
STATE_HELPERS = ("_next_active", "_active", "_is_active", "_team", "_teammates", "_teams", "_want_player",
                 "_want_players", "_seat", "_card", "_cards_id", "_fz", "_fz_top")
# The helpers that carry out statements: each statement's node names those its code calls (`HELPERS`).
STEP_HELPERS = tuple(dict.fromkeys(h for k in A.kinds(A.Stmt) for h in k.HELPERS if h not in STATE_HELPERS))
# The helpers that meet chance wherever the state stands (a statement's `CHANCE`: a pick, a shuffle).
CHANCE_HELPERS = tuple(h for k in A.kinds(A.Stmt) if k.CHANCE for h in k.HELPERS)
# Every helper that changes or reads a state: interpreter/engine/runtime.py defines each by this name, and
# its `HELPERS` are these.
ENGINE_HELPERS = STATE_HELPERS + STEP_HELPERS
# The step budget's helpers, bound to one game's counter (interpreter/engine/budget.py helpers).
BUDGET_HELPERS = ("_it", "_itd", "_itl", "_remember", "_judge", "MEMOS", "_S", "_over")
# Values fixed by the game at its player count: the count, the card count (0 until the pack is built), the
# memo's "no entry" marker, the players, suits and ranks (with their positions), the pack, and the phases'
# names in order (the `phase` built-in reads its own).
GAME_VALUES = ("N", "NC", "MISS", "QM", "PLAYERS", "SUITS", "RANKS", "SUIT_POS", "RANK_POS", "PACK",
               "PHASE_NAMES")
# A card is an index into these tables; `card.suit` reads `card_table("suit")`.
CARD_FIELDS = ("suit", "rank", "rank_index", "suit_index", "name")


def card_table(field: str) -> str:
    return f"C_{field.upper()}"


EXPORTS = frozenset(BUILTINS + LIBRARY + ENGINE_HELPERS + BUDGET_HELPERS + GAME_VALUES
                    + tuple(card_table(f) for f in CARD_FIELDS))


# Per-game tables, by the rule file's names.
def const(name: str) -> str:
    return f"K_{name}"


def option(name: str) -> str:
    return f"O_{name}"


def zone(name: str) -> str:
    """The slot of a zone (of seat 0, for a per-player zone: seat p is `zone(name) + p`)."""
    return f"Z_{name}"


def var(name: str) -> str:
    """The slot of a variable (of seat or team 0, for a per-player or per-team one)."""
    return f"V_{name}"


def property_table(name: str) -> str:
    """A card property's value per card."""
    return f"P_{name}"


def card_class(i: int) -> str:
    """Per card, its class among the cards alike in the i-th set of attributes memo keys are projected on
    (`projection.class_tables(spec)`)."""
    return f"CK_{i}"


# The action-id encoding (interpreter/engine/codec.py builds them; the generated legal and run functions
# encode and decode inline through them): the action's first id, and per parameter its radix, stride,
# lowest value (numbers; 0 otherwise), value -> digit (texts; lists of cards, as tuples) and digit -> value (texts;
# lists of cards).
def action_offset(action: str) -> str:
    return f"OFF_{action}"


def action_radix(action: str) -> str:
    return f"RADIX_{action}"


def action_stride(action: str) -> str:
    return f"STRIDE_{action}"


def action_low(action: str) -> str:
    return f"LO_{action}"


def action_digit(action: str) -> str:
    return f"VAL_{action}"


def action_values(action: str) -> str:
    return f"VALS_{action}"


ACTION_TABLES = (action_offset, action_radix, action_stride, action_low, action_digit, action_values)


def tables(spec: GameSpec) -> frozenset[str]:
    """The per-game tables the runtime puts in the namespace of `spec`'s module."""
    names = [const(k) for k in spec.constants] + [option(o.name) for o in spec.options]
    names += [zone(z.name) for z in spec.zones] + [var(v.name) for v in spec.variables]
    names += [property_table(p.name) for p in spec.properties]
    names += [t(a.name) for a in spec.actions for t in ACTION_TABLES]
    from .projection import class_tables  # (an analysis of the spec, which needs more than this module)
    names += [card_class(i) for i in range(len(class_tables(spec)))]
    return frozenset(names)


def exported(spec: GameSpec) -> frozenset[str]:
    """Every name the runtime provides to `spec`'s module: the generated code may read these and its own."""
    return EXPORTS | tables(spec)
