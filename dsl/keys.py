"""Which keys each place of a rule file or a scenario file has: one table for the readers and the JSON Schema.

A *place* is a mapping the files are made of (the rule file itself, an option, a zone, an `if` step, a
scenario, an `expect` step...). For each place the table gives its keys in order, which are required,
the kind of value each holds and a one-line description (the words of docs/language.md and
docs/scenarios.md). The readers (`reader.Reader.keys`, the scenario runner) refuse a key that is not
here, and `json_schema` builds the editors' schema from the same table, so the two cannot disagree
about which keys exist. The order of the keys is the order the readers' hints list them in.

Only the shape is here: what a value must mean (a name that exists, a type the checker infers) is the
checker's business, and a value's finer rules that the schema can say too (exactly one of two keys, a
flag that needs a key) are written on the place so that the schema says them as the reader does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from .spec import MAX_PLAYERS, VAR_TYPES


@dataclass(frozen=True)
class Kind:
    """A value that is not a mapping of known keys; `json_schema` knows each kind by its name."""
    name: str
    words: tuple[str, ...] = ()  # the fixed words of the language it may be (an enum)
    low: int | None = None  # bounds of a whole number
    high: int | None = None


@dataclass(frozen=True)
class Entries:
    """A mapping of the file's own names to values: options, zones, functions (`names`: what a key must be)."""
    of: Value
    names: str = "name"  # "name": a name of the language; "signature": name(param, ...); "any": any text


@dataclass(frozen=True)
class ListOf:
    of: Value


@dataclass(frozen=True)
class Either:
    """One of several shapes: `players: 4` or `players: {min: 2, max: 4}`."""
    options: tuple[Value, ...]


@dataclass(frozen=True)
class Key:
    name: str
    value: Value
    doc: str
    required: bool = False


@dataclass(frozen=True)
class Place:
    name: str  # the schema's name for it
    doc: str
    keys: tuple[Key, ...]
    # Finer rules the reader applies, said by the schema too:
    exactly_one: tuple[str, ...] = ()  # exactly one of these keys is written (S017, S031)
    not_both: tuple[str, ...] = ()  # these two keys are not both true (S030) or not both written (S032)
    flag_needs: tuple[str, str] | None = None  # (flag, key): the flag true needs the key, the key the flag
    word_needs: tuple[tuple[str, str, tuple[str, ...]], ...] = ()  # (key, word, keys): key: word needs the keys
    key_pattern: tuple[str, str] | None = None  # (regex, doc): further keys named like this (a scenario's P1)
    other_keys: str = ""  # further keys of the file's own names are allowed (zones in `expect`): what they are
    one_key: bool = False  # the mapping has exactly one key (a scenario step)

    @property
    def names(self) -> list[str]:
        return [k.name for k in self.keys]

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys if k.required)

    def key(self, name: str) -> Key:
        return next(k for k in self.keys if k.name == name)


Value: TypeAlias = "Kind | Place | Entries | ListOf | Either"

# ---------------------------------------------------------------- kinds of value
TEXT = Kind("text")
LINE = Kind("line")  # one printable line
LABEL = Kind("label")  # what the tables show: one printable line of 1 to 40 characters
NAME = Kind("name")  # letters, digits and _, not starting with a digit
EXPR = Kind("expr")  # an expression: text, or a number or true/false written as YAML
STEPS = Kind("steps")  # statements: one, or a list of statements, `if` steps and `for` steps
BOOL = Kind("bool")
NAMES = Kind("names")  # a list of names (numbers and true/false are read as the text they print)
VISIBILITY = Kind("visibility", ("everyone", "owner", "nobody"))
SHOW = Kind("show")  # true, false, or a condition on the table's options
ANY = Kind("any")
SCALAR = Kind("scalar")  # a number, text or true/false
BOUND = Kind("bound")  # a whole number, or an expression worked out when the game is set up
INITIAL = Kind("initial")  # an expression, `none` (YAML null) or [] (an empty list)
ACTION_NAMES = Kind("action_names")
ACTION_OR_LIST = Kind("action_or_list")

PRESENTATION = (
    Key("label", LABEL, "the name the tables show: one printable line of 1 to 40 characters (S010); two zones, or two "
        "variables, may not be shown under one name (S033)"),
    Key("doc", TEXT, "a sentence of help: shown when the pointer rests on the name, and listed by rules help"),
    Key("show", SHOW, "false keeps it off the table (default true); a condition on the table's options, in quotes, "
        "shows it only at the tables it matters at; it never hides anything: use 'visible' for that"),
)
VISIBLE_DOC = ("who sees it: everyone (default), owner (per-player only, S020), nobody, or an expression giving a "
               "list of players, in which 'owner' is its player")

# ---------------------------------------------------------------- a rule file
PLAYERS = Place("players", "how many players (1 <= min <= max <= 64), and their partnerships", (
    Key("min", Kind("whole", low=1, high=MAX_PLAYERS), "the fewest players", required=True),
    Key("max", Kind("whole", low=1, high=MAX_PLAYERS), "the most players", required=True),
    Key("teams", EXPR, "fixed partnerships: an expression of the seat p giving its team number, from 0 to "
        "num_players - 1 (without it, each seat is a team of its own)"),
))
OPTION = Place("option", "a table option the players agree on (--option NAME=VALUE)", (
    Key("type", Kind("words", ("int", "bool", "choice")), "int, bool or choice", required=True),
    Key("default", SCALAR, "the value when not given: a value, or '=expression' computed when the game is set up",
        required=True),
    Key("min", BOUND, "for int: the lowest value allowed; a whole number, or '=expression' worked out when the game "
        "is set up"),
    Key("max", BOUND, "for int: the highest value allowed; a whole number, or '=expression' worked out when the game "
        "is set up"),
    Key("values", NAMES, "for choice: the list of allowed names"),
    Key("doc", TEXT, "one line shown by 'cardsmith list'"),
), word_needs=(("type", "int", ("min", "max")), ("type", "choice", ("values",))))  # S014, S016
CONSTRAINT = Place("constraint", "a setting of the table the rules refuse, with the designer's message", (
    Key("refuse", EXPR, "a condition on the options and num_players: the setting is refused when it holds"),
    Key("require", EXPR, "a condition on the options and num_players: the setting is refused when it does not hold"),
    Key("message", LINE, "what the table is told when the setting is refused: one line of text", required=True),
), exactly_one=("refuse", "require"))
PROPERTY = Place("property", "a card property given by a table of ranks or of suits", (
    Key("by_rank", Kind("scalar_table"), "{rank: value, ...}: numbers, text or true/false; without 'default' it "
        "lists every rank the pack can hold (C038)"),
    Key("by_suit", Kind("scalar_table"), "{suit: value, ...}: numbers, text or true/false; without 'default' it "
        "lists every suit the pack can hold (C038)"),
    Key("default", SCALAR, "the value of the ranks or suits the table does not list"),
), exactly_one=("by_rank", "by_suit"))
PACK_ENTRY = Place("pack_entry", "an entry of the pack: these cards are in play", (
    Key("suits", NAMES, "a subset of the suits (default: all)"),
    Key("ranks", NAMES, "a subset of the ranks (default: all)"),
    Key("copies", Kind("whole", low=0, high=64), "how many of each card, 0 to 64 (default 1)"),
    Key("when", EXPR, "the entry counts only if this is true (options, num_players, constants, players, suits, "
        "ranks)"),
    Key("where", EXPR, "an expression of card: keep only the cards for which it is true"),
    Key("card", LINE, "instead of suits x ranks, one special card with this name (e.g. a joker); it has no suit"),
))
DECK = Place("deck", "suits, ranks, card properties, which cards make the pack", (
    Key("suits", NAMES, "the suits, in order: a card's suit_index is the position of its suit", required=True),
    Key("ranks", NAMES, "the ranks, lowest first: a card's rank_index is the position of its rank", required=True),
    Key("properties", Entries(Either((EXPR, PROPERTY))), "attributes of your own, read as c.NAME: a table by_rank or "
        "by_suit, an expression of rank, suit, rank_index and suit_index, or a plain number"),
    Key("pack", ListOf(PACK_ENTRY), "which cards are in play: the cards of all its entries, in order (without it, "
        "every suit x every rank, once)"),
))
ZONE = Place("zone", "a place where cards lie: the stock, each player's hand, a trick", (
    Key("per_player", BOOL, "true: one zone per player, written hand[p] (default false: one shared zone)"),
    Key("visible", VISIBILITY, VISIBLE_DOC),
    *PRESENTATION,
))
VARIABLE = Place("variable", "something the game remembers: a score, lives, who leads", (
    Key("type", Kind("words", tuple(VAR_TYPES)), "int, number, bool, player, card, suit, rank, text, the lists "
        "cards, players, numbers, or card_lists (a list of lists of cards: melds on the table)", required=True),
    Key("per_player", BOOL, "true: one value per player, written lives[p]"),
    Key("per_team", BOOL, "true: one value per team, written score[team[p]]"),
    Key("initial", INITIAL, "an expression for the starting value; for a per-player variable it is computed for "
        "each player, with owner = that player"),
    Key("scope", Kind("words", ("match", "deal")), "match (default): set once at the start of the match; deal: set "
        "again at the start of every deal"),
    Key("visible", VISIBILITY, VISIBLE_DOC),
    *PRESENTATION,
), not_both=("per_player", "per_team"))
IF_STEP = Place("if_step", "an 'if' step: the 'then' steps when the condition holds, else the 'else' steps", (
    Key("if", EXPR, "the condition", required=True),
    Key("then", STEPS, "the steps run when the condition is true", required=True),
    Key("else", STEPS, "the steps run when it is false"),
))
FOR_STEP = Place("for_step", "a 'for' step: the 'do' steps once for each item of a list", (
    Key("for", Kind("for_head"), "NAME in EXPRESSION", required=True),
    Key("do", STEPS, "the steps run for each item", required=True),
))
PARAM = Place("param", "a parameter whose value is several cards at once (a meld, a pair): its values now, and "
              "the fixed list that numbers them", (
                  Key("from", EXPR, "the lists of cards it may take now, each one of 'ids' (default: all of 'ids')"),
                  Key("ids", EXPR, "every list of cards it can ever take, fixed for the game (options, pack, "
                      "constants, num_players, suits, ranks): a value's action id is its position here",
                      required=True),
              ))
ACTION = Place("action", "what a player can do on their turn", (
    Key("params", Entries(Either((EXPR, PARAM))), "a map name: domain; each domain is an expression giving a "
        "list, or {from: ..., ids: ...} for a parameter over lists of cards"),
    Key("when", EXPR, "a condition; the action (with these parameter values) is legal only when it is true"),
    Key("effect", STEPS, "the statements run when the action is taken"),
    Key("label", TEXT, "the text shown for the action (default: its name)"),
    Key("secret", BOOL, "true: the other players are told that the action happened, not its parameters"),
))
PHASE = Place("phase", "which actions the player to act may take, and what happens around each action", (
    Key("actions", ACTION_NAMES, "the actions allowed in this phase", required=True),
    Key("first", EXPR, "the player to act when the phase is entered (default: the turn stays where it is)"),
    Key("round", BOOL, "true: every active player acts once, then 'end' runs (requires 'end', S026)"),
    Key("next", Kind("words", ("clockwise", "counterclockwise", "same")), "how the turn moves after an action: "
        "clockwise (default: the next active player to the left), counterclockwise, or same"),
    Key("then", NAME, "a phase to enter after each action (after the turn has moved), as if by goto"),
    Key("start", STEPS, "statements run each time the phase is entered"),
    Key("after", STEPS, "statements run after each action's effect"),
    Key("end", STEPS, "for a round phase: statements run when every active player has acted; they must goto or "
        "end deal (only a round phase has 'end', S027)"),
    *PRESENTATION[:2],
), flag_needs=("round", "end"))
RETURNS = Place("returns", "each player's result as a number, worked out when the match ends", (
    Key("value", EXPR, "an expression of the seat p: that player's result, a number", required=True),
    Key("name", NAME, "what the numbers are called in logs (chips, points); default returns"),
    Key("min", EXPR, "the lowest result any player can get: a number, or an expression fixed for the game"),
    Key("max", EXPR, "the highest result any player can get: a number, or an expression fixed for the game"),
    Key("zero_sum", BOOL, "yes if the results always add up to 0; default no"),
))
BOUNDS = Place("bounds", "bounds the rule file promises for every match, checked as it is played (R005): OpenSpiel's "
               "game length and chance outcomes", (
    Key("actions", EXPR, "the most player actions one match can take: a whole number, or an expression fixed for "
        "the game"),
    Key("outcomes", EXPR, "the most values one 'pick' chooses among: a whole number, or an expression fixed for "
        "the game"),
))
MATCH = Place("match", "how deals begin and end, when the match is over, who wins", (
    Key("start", STEPS, "statements run once, before the first deal (may set dealer; no goto or end deal, C033)"),
    Key("deal", STEPS, "statements that set up a deal; they must end with goto a phase (or end deal)",
        required=True),
    Key("end_deal", STEPS, "statements run when a deal ends (scoring); no goto or end deal (C033)"),
    Key("next_dealer", EXPR, "the next deal's dealer (default: the next active player to the dealer's left)"),
    Key("over_when", EXPR, "checked after each deal's end_deal: true ends the match", required=True),
    Key("winners", EXPR, "the list of winning players when the match is over ([] is no winner)", required=True),
    Key("report", Entries(EXPR, names="any"), "label: expression lines computed for every seat p at the end of each "
        "deal and shown by 'cardsmith run'"),
    Key("max_deals", Kind("whole"), "the match ends after this many deals even if over_when is false"),
    Key("returns", Either((EXPR, RETURNS)), "each player's result as a number (chips won, a score); without it, "
        "each of k winners gets 1/k and the others 0"),
    Key("bounds", BOUNDS, "bounds every match keeps, which the analysis of the rules cannot find: the most player "
        "actions of a match, the most values of a pick (checked as it is played, R005)"),
))
STRATEGY_RULE = Place("strategy_rule", "a rule of a strategy, tried in order each time the bot is to act", (
    Key("action", ACTION_OR_LIST, "the action it is about, or a list of them; without it, every action"),
    Key("when", EXPR, "a condition: only the legal actions for which it holds"),
    Key("max", EXPR, "a number: the action with the highest value; ties are drawn at random"),
    Key("min", EXPR, "a number: the action with the lowest value; ties are drawn at random"),
), not_both=("max", "min"))
STRATEGY = Place("strategy", "a playing style written as data: a bot of its name", (
    Key("doc", TEXT, "what the style does, shown by 'cardsmith bots'"),
    Key("prefer", ListOf(STRATEGY_RULE), "the rules, tried in order: the first left with a legal action decides",
        required=True),
))

TENSOR_BLOCK = Place("tensor_block", "one block of an OpenSpiel tensor: a few numbers worked out from what the "
                     "seat p may see", (
    Key("one_hot", EXPR, "a number, player or card: 1 at its position (a card at its OpenSpiel id) and 0 elsewhere; "
        "none: all 0"),
    Key("cards", EXPR, "a card or a list of cards: 1 at the OpenSpiel id of each"),
    Key("numbers", EXPR, "a number or a list of numbers, written as they are"),
    Key("thermometer", EXPR, "a number n: 1 in the first n positions, 0 after"),
    Key("moves", ACTION_NAMES, "the moves of these actions p saw, oldest first: each sets a 1 in its slot"),
    Key("size", EXPR, "how many numbers the block holds (for moves: how many slots); fixed for the game",
        required=True),
    Key("for", Kind("for_head"), "NAME in EXPRESSION: the block once for each item of a list fixed for the game"),
    Key("width", EXPR, "moves: the numbers in one slot (default 1); fixed for the game"),
    Key("at", EXPR, "moves: the slot of a move (default index, the move's number among those listed)"),
    Key("bit", EXPR, "moves: the position set within the slot, a number or a card (default id, the move's "
        "OpenSpiel action id)"),
    Key("when", EXPR, "moves: a condition; only the moves for which it holds are written"),
    Key("name", NAME, "the block's name in OpenSpiel's observer dictionary (default: its kind and number)"),
), exactly_one=("one_hot", "cards", "numbers", "thermometer", "moves"))
OPENSPIEL = Place("openspiel", "how the game's actions and tensors map to an existing OpenSpiel game's "
                  "(the layout 'openspiel' of the OpenSpiel adapter)", (
    Key("game", NAME, "the OpenSpiel game's short name (kuhn_poker, hearts)", required=True),
    Key("parameters", ANY, "the OpenSpiel game's parameters this layout matches (a mapping), for tests and readers"),
    Key("actions", Entries(EXPR), "each action's OpenSpiel id: an expression of its parameters, fixed for the game",
        required=True),
    Key("num_actions", EXPR, "OpenSpiel's num_distinct_actions: every id is below it; fixed for the game",
        required=True),
    Key("card", EXPR, "a card's OpenSpiel id, an expression of the card c fixed for the game (default: its position "
        "in the pack)"),
    Key("ties", Kind("words", ("error", "first")), "several legal actions with one OpenSpiel id: error (default), "
        "or first, the one with the lowest cardsmith id (copies of a card in two packs)"),
    Key("observation", ListOf(TENSOR_BLOCK), "the observation tensor: its blocks, in order"),
    Key("information_state", ListOf(TENSOR_BLOCK), "the information state tensor: its blocks, in order"),
))

# The sections whose entries a variant changes by name, adds under `new:` and drops under `remove:`.
_NAMED = (
    Key("options", Entries(OPTION), "table options the players agree on (--option NAME=VALUE)"),
    Key("constants", Entries(ANY), "fixed numbers, texts, lists and tables"),
    Key("zones", Entries(Either((Kind("null"), ZONE))), "the places cards can be: stock, hands, tricks; the first "
        "holds the pack at the start"),
    Key("variables", Entries(VARIABLE), "what the game remembers: scores, lives, who leads"),
    Key("define", Entries(EXPR, names="signature"), "functions: named expressions, keyed name(param, ...)"),
    Key("procedures", Entries(STEPS, names="signature"), "named lists of statements, keyed name(param, ...), run "
        "with do NAME(...)"),
    Key("actions", Entries(Either((Kind("null"), ACTION))), "what a player can do on their turn"),
    Key("phases", Entries(PHASE), "which actions are allowed when, and how the turn moves"),
    Key("strategies", Entries(STRATEGY), "playing styles as data, for bots"),
)
NAMED_SECTIONS = [k.name for k in _NAMED]
NEW = Place("new", "a variant's new entries, by section: each must not be in the base (X005)",
            tuple(Key(k.name, k.value, f"new {k.name}: {k.doc}") for k in _NAMED))
REMOVE = Place("remove", "a variant drops entries of the base, by section: a list of their names",
               tuple(Key(k.name, Kind("names_or_one"), f"the names of the {k.name} to drop") for k in _NAMED))

_named = {k.name: k for k in _NAMED}
RULE_FILE = Place("rule_file", "a cardsmith rule file: a card game (docs/language.md)", (
    Key("game", TEXT, "the game's name", required=True),
    Key("summary", TEXT, "one paragraph for listings"),
    Key("players", Either((Kind("whole", low=1, high=MAX_PLAYERS), PLAYERS)), "how many players (players: 4, or "
        "{min: 2, max: 8}), and their partnerships (teams)", required=True),
    _named["options"],
    _named["constants"],
    Key("deck", DECK, "suits, ranks, card properties, which cards make the pack", required=True),
    Key("zones", _named["zones"].value, _named["zones"].doc, required=True),
    _named["variables"],
    _named["define"],
    _named["procedures"],
    Key("actions", _named["actions"].value, _named["actions"].doc, required=True),
    Key("phases", _named["phases"].value, _named["phases"].doc, required=True),
    Key("match", MATCH, "how a deal starts and ends, when the match is over, who wins", required=True),
    Key("extends", TEXT, "makes this file a variant of another rule file: a bundled game's name, or a path ending in "
        ".yaml relative to this file"),
    Key("new", NEW, "a variant's new entries: new: {options: {...}, actions: {...}}"),
    Key("remove", REMOVE, "entries a variant drops: remove: {actions: [knock], phases: [close]}"),
    Key("constraints", ListOf(CONSTRAINT), "settings of the table the rules refuse, each with its message"),
    _named["strategies"],
    Key("openspiel", OPENSPIEL, "how actions and tensors map to an existing OpenSpiel game's (research.md)"),
))
# The sections every rule file has (a variant, with `extends:`, may leave them to its base).
REQUIRED_SECTIONS = RULE_FILE.required
SECTIONS = RULE_FILE.names

# ---------------------------------------------------------------- a scenario file
PLAYER = Kind("player")  # P1 (or 1)
PLAYER_PATTERN = r"^P[0-9]+$"
DEAL = Place("deal_setup", "fix a deal: zones (hand[0], centre) get exactly the cards listed, variables their "
             "values", (
                 Key("rest", TEXT, "the zone that gets the cards the deal put in the named zones but that are not "
                     "listed (default: the first zone)"),
                 Key("dealer", PLAYER, "the dealer (P1)"),
                 Key("current", PLAYER, "the player to act (P2)"),
             ), other_keys="a zone (hand[0]: [A of clubs, ...]) or a variable (lives: [3, 2], lives[1]: 2, closer: P1)")
EXPECT = Place("expect", "checks: the first that does not hold fails the scenario", (
    Key("phase", TEXT, "the current phase's name"),
    Key("current", Kind("current"), "the player to act (nobody when the match is over)"),
    Key("dealer", Kind("player_name"), "the dealer, P1"),
    Key("deal", Kind("whole"), "the deal number (1 for the first deal)"),
    Key("terminal", BOOL, "whether the match is over"),
    Key("winners", Kind("players"), "the winners, in any order (only once the match is over)"),
    Key("returns", Kind("returns_expected"), "each player's result, once the match is over: a map {P0: 2, P1: -2} or "
        "a list in seat order"),
    Key("out", Kind("players"), "the players eliminated so far, by seat"),
    Key("legal", Kind("texts"), "exactly these legal actions, in any order"),
    Key("legal_includes", Kind("texts"), "these actions are legal (others may be too)"),
    Key("legal_excludes", Kind("texts"), "these actions are not legal"),
    Key("announced", Kind("texts"), "these log messages were announced since the scenario began"),
    Key("eval", Entries(ANY, names="any"), "a map expression: value; each expression is evaluated on the current "
        "state"),
), other_keys="a zone (its cards, or how many) or a variable (its value; per player a list, or one with [i])")
ACTION_TEXT = Kind("action_text")
ILLEGAL = Place("illegal", "an action that must be refused: P1: ACTION", (),
                key_pattern=(PLAYER_PATTERN, "the action, as 'cardsmith run' prints it"), one_key=True)
STEP = Place("scenario_step", "one step: P1: ACTION, illegal: {P1: ACTION}, expect: {...}, random: N", (
    Key("illegal", ILLEGAL, "the action must be refused: not the player's turn, not legal now, or the match is over"),
    Key("expect", EXPECT, "checks"),
    Key("random", Kind("random"), "N legal actions chosen at random (seeded), or 'end': until the match ends"),
), key_pattern=(PLAYER_PATTERN, "it must be this player's turn and the action (as 'cardsmith run' prints it) "
                "must be legal; it is taken"), one_key=True)
SCENARIO = Place("scenario", "a scenario: a match started, actions taken, checks", (
    Key("name", Kind("scenario_name"), "shown in the results", required=True),
    Key("players", Kind("whole", low=1, high=MAX_PLAYERS), "number of players (default: the game's minimum)"),
    Key("options", Kind("option_values"), "table options, a map name: value (default: the defaults)"),
    Key("seed", Kind("whole", low=0), "the seed for the shuffles, the rule file's picks and random steps (default 0)"),
    Key("dealer", PLAYER, "the first dealer, P2 (or 2); it overrides the rule file's own choice"),
    Key("set", DEAL, "fix zones and variables in the first deal"),
    Key("deals", ListOf(DEAL), "a list of such maps, for the following deals in turn"),
    Key("steps", ListOf(STEP), "the list of steps"),
))
SCENARIO_FILE = Place("scenario_file", "a cardsmith scenario file: tests of a rule file (docs/scenarios.md)", (
    Key("game", TEXT, "the rule file: a path ending in .yaml, relative to this file, or a bundled game's name",
        required=True),
    Key("scenarios", ListOf(SCENARIO), "the list of scenarios", required=True),
))


def places(root: Place) -> list[Place]:
    """Every place reachable from `root`, each once, in the order first met."""
    out: dict[str, Place] = {}

    def walk(v: Value) -> None:
        if isinstance(v, Place):
            if v.name in out:
                return
            out[v.name] = v
            for k in v.keys:
                walk(k.value)
        elif isinstance(v, (Entries, ListOf)):
            walk(v.of)
        elif isinstance(v, Either):
            for o in v.options:
                walk(o)
        elif v == STEPS:  # statements hold `if` and `for` steps, which hold statements
            walk(IF_STEP)
            walk(FOR_STEP)

    walk(root)
    return list(out.values())


__all__ = ["NAMED_SECTIONS", "REQUIRED_SECTIONS", "RULE_FILE", "SCENARIO_FILE", "SECTIONS", "Either", "Entries",
           "Key", "Kind", "ListOf", "Place", "Value", "places"]
