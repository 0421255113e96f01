"""Scenario files: a fixed deal, a list of actions, and what must follow.

A scenario file names a rule file and lists scenarios. Each scenario may fix
the player count, options, first dealer and seed, set the cards of any zones
and the values of any variables right after a deal's own steps have run
(`set`, or `deals` for several deals), then walks through `steps`:

    - P1: swap 9 of hearts, A of clubs     # P1 must be to act; the action by its text
    - illegal: {P2: knock}                 # this must be refused
    - expect: {current: P2, lives: [3, 2, 3], eval: {"hand_value(hand[0])": 31}}
    - random: 20                           # random legal actions (seeded); or: end

Problems in a scenario file are reported like rule-file problems; a failed
expectation says what was expected and what the state holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..dsl import types as T
from ..dsl.compiler import compile_probe_typed
from ..dsl.diagnostics import Diagnostic, RuleFileError, Span
from ..dsl.files import quoted
from ..dsl.keys import EXPECT, SCENARIO
from ..dsl.library import _short
from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.pipeline import compile_file, compile_named
from ..dsl.yaml_loader import YList, YMap, YNode, YScalar, plain
from ..engine.budget import deep_count
from ..engine.errors import AmbiguousAction, GameError, IllegalAction, describe_failure
from ..engine.game import Game
from ..engine.setup import BadSetup, Setup
from ..engine.state import State
from .deal import PLAYER as _PLAYER
from .deal import DealValues, _closest
from .reading import Scenario, ScenarioFile, read

# read, Scenario and ScenarioFile are reading.py's; given here too, the module scenario tools import from.
__all__ = ["Scenario", "ScenarioFailure", "ScenarioFile", "ScenarioResult", "read", "run_file", "run_one",
           "run_scenarios"]

# Texts of legal actions compared with a step's text for a "did you mean": enough for any real game.
CLOSE_MATCH_CANDIDATES = 2_000



def _listed(want: Any) -> Any:
    """An expected list written as one value: `winners: P1` means `winners: [P1]`. Only where the check takes a
    list and a single value could never match (YAML's null, a map or a list are left as written)."""
    return [want] if want is not None and not isinstance(want, (list, dict)) else want


def _none_meant(want: Any, got: Any, ty: T.Type) -> Any:
    """YAML reads `none` as the text 'none', where the rules' `none` is no value: in the expectation of a value
    that is not text (a player, a card, a number; also inside a list) it means no value, as in the rules
    (YAML's `null` does too). A text value keeps `none` as text: `_mismatch` says what to write."""
    if ty in T.TEXTUAL:
        return want
    if want == "none" and got is None:
        return None
    inner = ty.item if T.is_list(ty) else ty.key if T.is_map(ty) else ty
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [_none_meant(w, x, inner) for w, x in zip(want, got)]
    return want


def _mismatch(what: str, want: Any, got: Any, shown: str) -> str:
    """`what: expected W, got G`; where `none` was written for a value the rules left unset (a text value,
    where `none` stays text), what to write instead."""
    if want == "none" and got is None:
        return f"{what}: expected the text 'none', got no value; write null to expect no value (YAML reads none " \
               "as text)"
    if isinstance(want, list) and isinstance(got, list) and any(w == "none" and x is None for w, x in zip(want, got)):
        return f"{what}: expected {want!r}, got {shown}; write null for no value (YAML reads none as text)"
    return f"{what}: expected {want!r}, got {shown}"


def _comma_hint(node: YNode) -> str:
    """A `{P1: swap give A, take B}` map: YAML ended the action's text at the comma and read the rest as a
    key of its own, without a value. Say so, with the fix."""
    if not isinstance(node, YMap) or len(node.items) < 2:
        return ""
    (first, (_k, value)), *rest = node.items.items()
    if not all(isinstance(v, YScalar) and v.value is None for _, (_, v) in rest):
        return ""
    if not isinstance(value, YScalar) or not isinstance(value.value, str):
        return ""
    whole = ", ".join([value.value] + [k for k, _ in rest])
    return (f"; in {{...}} a comma ends the text, so YAML read {quoted(value.value)} and then "
            f"{quoted(rest[0][0])} as another key: quote the action, {first}: \"{whole}\"")


class ScenarioFailure(AssertionError):
    def __init__(self, span: Span, scenario: str, message: str):
        super().__init__(f"{span}: scenario '{scenario}' failed: {message}")
        self.span = span
        self.scenario = scenario
        self.message = message


@dataclass
class ScenarioResult:
    name: str
    span: Span
    ok: bool
    message: str = ""
    # Where the scenario may mean otherwise than when it was written (a key whose meaning changed), and how.
    notes: list[tuple[Span, str]] = field(default_factory=list)


class _Runner:
    KEYS = SCENARIO.names

    def __init__(self, sf: ScenarioFile, sc: Scenario, compiled: Any):
        self.sf = sf
        self.sc = sc
        self.compiled = compiled
        self.game: Game
        self.state: State
        self.rng = random.Random(0)
        self.announced: list[str] = []
        self.values: DealValues

    def notes(self) -> list[tuple[Span, str]]:
        values = getattr(self, "values", None)
        return list(values.notes) if values is not None else []

    def fail(self, node: YNode | None, msg: str) -> ScenarioFailure:
        return ScenarioFailure(node.span if node is not None else self.sc.span, self.sc.name, msg)

    def run(self) -> None:
        m = self.sc.node
        for k, (ks, _) in m.items.items():
            if k not in self.KEYS:
                close = _closest(k, self.KEYS)
                raise self.fail(ks, f"unknown key '{k}'" + (f"; did you mean '{close[0]}'?" if close else ""))
        spec = self.compiled.spec
        players = plain(m.get("players")) if m.get("players") is not None else spec.min_players
        if not isinstance(players, int) or isinstance(players, bool):
            raise self.fail(m.get("players"), f"'players' must be a whole number, not {self._shown(m.get('players'))}")
        options = self._options(m.get("options"))
        seed = plain(m.get("seed"))
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise self.fail(m.get("seed"), f"'seed' must be a whole number of 0 or more, not "
                            f"{self._shown(m.get('seed'))}")
        deals = self._deal_maps(m.get("set"), m.get("deals"))
        try:
            self.game = Game(self.compiled, players, options)
        except GameError as e:
            where = m.get("options") if "option" in str(e) and m.get("options") is not None else m.get("players")
            raise self.fail(where, str(e)) from None
        self.values = DealValues(self.game, self.fail)
        dealer = m.get("dealer")
        self.deal_nodes = deals
        setup = Setup(dealer=self.values.player(dealer) if dealer is not None else None,
                      deals=[self.values.deal_of(d) for d in deals])
        self.rng = random.Random(seed if isinstance(seed, int) else 0)
        try:
            self.state = State.initial(self.game, seed if isinstance(seed, int) else 0, log=True, setup=setup)
        except BadSetup as e:
            raise self.setup_failure(e) from None
        self.started()
        steps = m.get("steps")
        if steps is not None and not isinstance(steps, YList):
            raise self.fail(steps, "'steps' must be a list")
        for step in steps.items if isinstance(steps, YList) else []:
            try:
                self.step(step)
            except BadSetup as e:  # a later deal's setup, met by this step
                raise self.setup_failure(e) from None

    @staticmethod
    def _shown(node: YNode | None) -> str:
        """A value for a message: a single value as written, a list or map only by its kind."""
        if isinstance(node, YScalar):
            return repr(node.value)
        return "a list" if isinstance(node, YList) else "a map"

    def _options(self, node: YNode | None) -> dict[str, Any]:
        if node is None:
            return {}
        if not isinstance(node, YMap):
            raise self.fail(node, "'options' must map option names to values")
        out: dict[str, Any] = {}
        for key, (_, vn) in node.items.items():
            if not isinstance(vn, YScalar):
                raise self.fail(vn, f"option '{key}' takes one value, not {self._shown(vn)}")
            out[key] = vn.value
        return out

    def _deal_maps(self, first: YNode | None, more: YNode | None) -> list[YMap]:
        """`set` and the maps of `deals`, in deal order, each checked to be a map before the match starts."""
        maps: list[YMap] = []
        if first is not None:
            if not isinstance(first, YMap):
                raise self.fail(first, "'set' must map zones and variables to values")
            maps.append(first)
        if more is not None:
            if not isinstance(more, YList):
                raise self.fail(more, "'deals' must be a list of maps like 'set', one for each deal in turn")
            for item in more.items:
                if not isinstance(item, YMap):
                    raise self.fail(item, "each item of 'deals' maps zones and variables to values, like 'set'")
                maps.append(item)
        return maps

    def started(self) -> None:
        """The match has started at the scenario's position (its setup dealt): a runner that follows the match
        on another backend too starts there (scenario/lockstep.py)."""

    def apply(self, a: int) -> None:
        """Every action of the scenario, legal or to be refused, is applied here."""
        self.state.apply_action(a)

    def setup_failure(self, e: BadSetup) -> ScenarioFailure:
        """A deal the setup could not give, at its map (at the zone's key, if it names one)."""
        node: YNode | None = self.deal_nodes[e.deal - 1] if 0 < e.deal <= len(self.deal_nodes) else None
        if isinstance(node, YMap) and e.zone is not None and e.zone in node.items:
            node = node.items[e.zone][0]
        return self.fail(node, str(e))

    def player(self, node: YNode) -> int:
        return self.values.player(node)

    def zone_index(self, name: str) -> int | None:
        return self.values.zone_index(name)

    # ------------------------------------------------------------ steps
    def step(self, node: YNode) -> None:
        if not isinstance(node, YMap) or len(node.items) != 1:
            raise self.fail(node, "each step is one of  P<n>: action,  illegal: {P<n>: action},  "
                            "expect: {...},  random: N" + _comma_hint(node))
        key, (ks, vn) = next(iter(node.items.items()))
        if _PLAYER.match(key):
            self.act(ks, vn, must_be_legal=True)
        elif key == "illegal":
            if not isinstance(vn, YMap) or len(vn.items) != 1:
                raise self.fail(vn, "'illegal' takes one  P<n>: action" + _comma_hint(vn))
            k2, (ks2, vn2) = next(iter(vn.items.items()))
            self.act(ks2, vn2, must_be_legal=False)
        elif key == "expect":
            self.expect(vn)
        elif key == "random":
            self.random(vn)
        else:
            raise self.fail(ks, f"unknown step '{key}'")
        self.collect_log()

    def collect_log(self) -> None:
        log = self.state.log or []
        for ev in log:
            if ev[0] == "announce":
                self.announced.append(ev[1])
        if self.state.log is not None:
            self.state.log.clear()

    def find_action(self, vn: YNode, text: str) -> int | None:
        """The action printed as `text` now (State.action_from_string): when actions of different phases print
        alike, the one legal now, else one the current phase offers; None if no action prints so. Two legal
        actions printing alike fail the step: the text cannot say which is meant.

        The text is parsed per action (Game.actions_from_string): the id space is never walked."""
        try:
            return self.state.action_from_string(text)
        except AmbiguousAction as e:
            raise self.fail(vn, str(e)) from None

    def action_text(self, vn: YNode) -> str:
        v = vn.value if isinstance(vn, YScalar) else None
        if v is None or isinstance(v, (bool, float)) or not isinstance(vn, YScalar):
            raise self.fail(vn, "an action is written as the text 'cardsmith run' prints for it (quote it if "
                            f"YAML would read it otherwise), not {self._shown(vn)}")
        return str(v)

    def act(self, ks: YScalar, vn: YNode, must_be_legal: bool) -> None:
        s = self.state
        p = self.player(ks)
        text = self.action_text(vn)
        q = quoted(text)
        if s.is_terminal():
            if must_be_legal:
                raise self.fail(ks, f"the game is over; P{p} cannot {q}")
            return
        a = self.find_action(vn, text)
        g = self.game
        if must_be_legal:
            if s.current_player() != p:
                raise self.fail(ks, f"it is {g.player_name(s.current_player())}'s turn, not P{p}'s "
                                f"(phase '{g.phases[s.phase].name}')")
            legal = s.legal_actions()
            if a is None or a not in legal:
                names = [g.action_to_string(p, x) for x in legal[:CLOSE_MATCH_CANDIDATES]]
                close = _closest(text, names)
                raise self.fail(vn, f"{q} is not legal for P{p} now" +
                                (f"; did you mean '{close[0]}'?" if close else "") +
                                f"; legal: {', '.join(names[:12])}{' ...' if len(legal) > 12 else ''}")
            self.apply(a)
        else:
            if a is None:
                # A typo would pass silently as "refused": the text must name an action of the game.
                raise self.fail(vn, f"{q} is not an action of this game, so this step tests nothing "
                                "(write the action as it would be printed, e.g. by 'cardsmith run')")
            if s.current_player() != p:
                return  # out of turn: refused
            try:
                self.apply(a)
            except IllegalAction:
                return
            raise self.fail(vn, f"{q} by P{p} was accepted, but should have been refused")

    def random(self, vn: YNode) -> None:
        v = plain(vn)
        count = 10**9 if v == "end" else v
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise self.fail(vn, "'random' takes a number of actions (0 or more) or 'end'")
        s = self.state
        for _ in range(count):
            if s.is_terminal():
                break
            la = s.legal_actions()
            if not la:
                raise self.fail(vn, f"no legal action in phase '{self.game.phases[s.phase].name}'")
            self.apply(la[self.rng.randrange(len(la))])
        if v == "end" and not s.is_terminal():
            raise self.fail(vn, "the game did not end")

    def expect(self, vn: YNode) -> None:
        if not isinstance(vn, YMap):
            raise self.fail(vn, "'expect' takes a mapping of checks")
        s, g = self.state, self.game
        for key, (ks, node) in vn.items.items():
            want = plain(node)
            if key == "phase":
                self.same(node, "phase", g.phases[s.phase].name, want)
            elif key == "current":
                got = s.current_player()
                self.same(node, "current player", g.player_name(got) if got >= 0 else "nobody", want)
            elif key == "dealer":
                self.same(node, "dealer", g.player_name(s.dealer), want)
            elif key == "deal":
                self.same(node, "deal number", s.deal_no, want)
            elif key == "terminal":
                self.same(node, "game over", s.is_terminal(), want)
            elif key == "winners":
                want = _listed(want)
                self.same(node, "winners", sorted(g.player_name(p) for p in s.winners) if s.terminal else None,
                          sorted(str(x) for x in want) if isinstance(want, list) else want)
            elif key == "returns":
                self.expect_returns(node)
            elif key == "out":
                self.same(node, "players out", [g.player_name(p) for p in range(g.n) if s.out[p]], _listed(want))
            elif key in ("legal", "legal_includes", "legal_excludes"):
                names = [g.action_to_string(s.cur, a) for a in s.legal_actions()]
                # One action text for a list of one; true/false or a number would be compared as text and
                # a misspelt 'legal_excludes' passes, so only text is taken on its own.
                want = [want] if isinstance(want, str) else want
                if not isinstance(want, list):
                    raise self.fail(node, f"'{key}' takes a list of action texts (or one text)")
                want_l = [str(x) for x in want]
                if key == "legal" and sorted(names) != sorted(want_l):
                    raise self.fail(node, f"legal actions: expected {sorted(want_l)}, got {sorted(names)}")
                if key == "legal_includes":
                    missing = [x for x in want_l if x not in names]
                    if missing:
                        raise self.fail(node, f"{missing} not legal; legal: {names}")
                if key == "legal_excludes":
                    extra = [x for x in want_l if x in names]
                    if extra:
                        raise self.fail(node, f"{extra} should not be legal")
            elif key == "announced":
                self.collect_log()
                for text in want if isinstance(want, list) else [want]:
                    if str(text) not in self.announced:
                        raise self.fail(node, f"no announcement '{text}'; announced: {self.announced[-12:]}")
            elif key == "eval":
                self.evals(node)
            elif self.zone_index(key) is not None:
                cards = [g.card_names[c] for c in s.z[self.zone_index(key) or 0]]
                if isinstance(want, int) and not isinstance(want, bool):
                    self.same(node, f"number of cards in {key}", len(cards), want)
                elif want is None or isinstance(want, (list, str)):  # one card's name: a zone of that card
                    want = [want] if isinstance(want, str) else want
                    self.same(node, f"cards in {key}", sorted(cards), sorted(str(x) for x in want or []))
                else:
                    raise self.fail(node, f"'{key}' expects a number of cards or a list of cards, not {want!r}")
            else:
                self.expect_var(ks, key, node)

    def expect_returns(self, node: YNode) -> None:
        """`returns: {P0: 2, P1: -2}` (the players listed) or `returns: [2, -2]` (every player, in seat order),
        compared with a tolerance for decimals; only once the match is over."""
        s, g = self.state, self.game
        if not s.is_terminal():
            raise self.fail(node, "returns: the match is not over yet (the returns are known at its end)")
        got = s.returns()
        shown = ", ".join(f"{g.player_name(p)} {_num(v)}" for p, v in enumerate(got))
        if isinstance(node, YMap):
            pairs = [(self.player(ks), vn) for _, (ks, vn) in node.items.items()]
        elif isinstance(node, YList):
            if len(node.items) != g.n:
                raise self.fail(node, f"returns: a list holds one number per player ({g.n}), not "
                                f"{len(node.items)}; or write a map, like {{P0: 2}}")
            pairs = list(enumerate(node.items))
        else:
            raise self.fail(node, "'returns' takes a map of players to numbers ({P0: 2, P1: -2}) or a list of "
                            "numbers in seat order")
        for p, vn in pairs:
            want = plain(vn)
            if type(want) is not int and type(want) is not float:
                raise self.fail(vn, f"returns: expected a number for {g.player_name(p)}, not {want!r}")
            if not abs(got[p] - want) <= 1e-9 * max(1.0, abs(want)):
                raise self.fail(vn, f"{g.returns_name} of {g.player_name(p)}: expected {_num(want)}, got "
                                f"{_num(got[p])} ({g.returns_name}: {shown})")

    def same(self, node: YNode, what: str, got: Any, want: Any, ty: T.Type | None = None) -> None:
        if got != want and ty is not None:
            want = _none_meant(want, got, ty)
        if got != want:
            raise self.fail(node, _mismatch(what, want, got, repr(got)))

    def shown(self, value: Any, ty: T.Type) -> Any:
        g = self.game
        if value is None:
            return None
        if ty == T.PLAYER:
            return g.player_name(value)
        if ty == T.CARD:
            return g.card_names[value]
        if ty == T.ListOf(T.PLAYER):
            return [g.player_name(p) for p in value]
        if ty == T.ListOf(T.CARD):
            return [g.card_names[c] for c in value]
        if ty == T.ListOf(T.ListOf(T.CARD)):  # card_lists
            return [[g.card_names[c] for c in xs] for xs in value]
        return value

    def expect_var(self, ks: YScalar, key: str, node: YNode) -> None:
        g, s = self.game, self.state
        want = plain(node)
        if key in g.var_names:
            vi = g.var_names.index(key)
            ty = g.var_specs[vi][0].ty
            self.same(node, key, self.shown(s.v[vi], ty), _listed(want) if T.is_list(ty) else want, ty)
            return
        per = [i for i, (v, _) in enumerate(g.var_specs) if v.name == key]
        if not per:
            names = [v.name for v, _ in g.var_specs] + list(dict.fromkeys(n.split("[")[0] for n in g.zone_names))
            names += EXPECT.names
            close = _closest(key, names)
            raise self.fail(ks, f"cannot check '{key}': no such zone, variable or check" +
                            (f"; did you mean '{close[0]}'?" if close else ""))
        ty = g.var_specs[per[0]][0].ty
        got = [self.shown(s.v[i], ty) for i in per] if len(per) > 1 or g.var_specs[per[0]][1] is not None \
            else self.shown(s.v[per[0]], ty)
        self.same(node, key, got, want, T.ListOf(ty) if isinstance(got, list) and not T.is_list(ty) else ty)

    def evals(self, node: YNode) -> None:
        if not isinstance(node, YMap):
            raise self.fail(node, "'eval' maps expressions to their expected values")
        g, s = self.game, self.state
        for text, (ks, vn) in node.items.items():
            diags: list[Diagnostic] = []
            typed = compile_probe_typed(self.compiled, text, ks.span_at, diags)
            if typed is None:
                msg = "; ".join(d.message for d in diags) or "cannot compile"
                raise self.fail(ks, f"expression '{text}': {msg}")
            code, ty = typed
            fn = eval(code, g.ns)  # our own compiled code, checked against the game
            g.steps[0] = g.step_limit  # a probe is charged like a move
            try:
                got = fn(s)
            except Exception as e:
                message, detail = describe_failure(e)
                raise self.fail(ks, f"expression '{text}' failed: {message}" + (f" ({detail})" if detail else "")) \
                    from None
            want = plain(vn)
            if T.is_list(ty):
                want = _listed(want)
            try:
                got_shown = self.by_type(got, ty)
                if got_shown != want and (isinstance(want, str) or (isinstance(want, list) and want and isinstance(
                        want[0], str))):
                    # Seats written as plain numbers ([0, 2, 3]) are ints to the checker.
                    got_shown = self._guess_show(got, want)
                if isinstance(got_shown, float) and isinstance(want, (int, float)):
                    ok = abs(got_shown - want) < 1e-9
                else:
                    ok = got_shown == want
            except RecursionError:  # a value the rules nested thousands deep
                got_shown, ok = got, False
            if not ok and _none_meant(want, got_shown, ty) == got_shown:
                ok = True
            if not ok:
                # The value may be huge or nested without end: shown short.
                shown = repr(got_shown) if deep_count(got_shown, 200) <= 200 else _short(got_shown, 200)
                raise self.fail(vn, _mismatch(f"'{text}'", want, got_shown, shown))

    def by_type(self, value: Any, ty: T.Type) -> Any:
        """Players and cards by name (P1, 'A of clubs'), also inside lists."""
        g = self.game
        if value is None:
            return None
        if ty == T.PLAYER and isinstance(value, int):
            return g.player_name(value)
        if ty == T.CARD and isinstance(value, int):
            return g.card_names[value]
        if T.is_list(ty) and isinstance(value, list):
            return [self.by_type(x, ty.item) for x in value]
        return value

    def _guess_show(self, got: Any, want: Any) -> Any:
        """Show player/card values by name when the expectation is written as names."""
        g = self.game
        sample = want[0] if isinstance(want, list) else want
        if isinstance(sample, str) and _PLAYER.match(sample):
            return [g.player_name(p) for p in got] if isinstance(got, list) else (
                g.player_name(got) if isinstance(got, int) else got)
        if isinstance(sample, str) and " of " in sample:
            return [g.card_names[c] for c in got] if isinstance(got, list) else (
                g.card_names[got] if isinstance(got, int) else got)
        return got


def _num(v: float) -> str:
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def run_file(path: str, only: str | None = None, limits: Limits = DEFAULT_LIMITS) -> list[ScenarioResult]:
    return run_scenarios(read(path, limits), only, limits)


def run_scenarios(sf: ScenarioFile, only: str | None = None,
                  limits: Limits = DEFAULT_LIMITS) -> list[ScenarioResult]:
    """Compile the rule file a read scenario file names and run its scenarios (only those named `only`),
    within `limits`."""
    if sf.bundled:
        loaded = compile_file(sf.rules, limits)
    else:  # a path the scenario file names: the policy for named paths applies (dsl/files.py)
        assert sf.game_span is not None
        loaded = compile_named(sf.path, sf.game, sf.game_span, "T002", "T004", limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, {sf.path: sf.source, **loaded.sources})
    results = []
    for sc in sf.scenarios:
        if only is not None and sc.name != only:
            continue
        results.append(run_one(sf, sc, loaded.game))
    return results


def run_one(sf: ScenarioFile, sc: Scenario, compiled: Any, runner: _Runner | None = None) -> ScenarioResult:
    """One scenario, on `runner` if given (a runner of another kind, made for this scenario)."""
    runner = runner or _Runner(sf, sc, compiled)
    try:
        runner.run()
    except ScenarioFailure as f:
        return ScenarioResult(sc.name, f.span, False, f.message, runner.notes())
    except GameError as e:
        return ScenarioResult(sc.name, sc.span, False, str(e), runner.notes())
    return ScenarioResult(sc.name, sc.span, True, notes=runner.notes())
