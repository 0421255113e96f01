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

import difflib
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dsl.compiler import compile_probe_typed
from dsl.diagnostics import Diagnostic, RuleFileError, Span
from dsl.pipeline import compile_file, read_source
from dsl.yaml_loader import YList, YMap, YNode, YScalar, load, plain

from .bundled import exists, resolve
from .engine import State
from .errors import GameError, IllegalAction
from .instance import GameInstance

_TARGET = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?$")
_PLAYER = re.compile(r"^P(\d+)$")


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


@dataclass
class Scenario:
    name: str
    span: Span
    node: YMap
    file: str


@dataclass
class ScenarioFile:
    path: str
    source: str
    rules: Path
    scenarios: list[Scenario] = field(default_factory=list)


def read(path: str) -> ScenarioFile:
    """Load a scenario file; RuleFileError lists every structural problem."""
    diags: list[Diagnostic] = []
    source = read_source(Path(path), diags, Span(path, 1, 1))
    if source is None:  # a file that cannot be read is a bad argument: one line, like a missing rule file
        d = diags[0]
        raise GameError(d.message + (f"; {d.hint}" if d.hint else ""))
    root = load(path, source, diags)
    if root is None:
        raise RuleFileError(diags, {path: source})
    if not isinstance(root, YMap) or "game" not in root.items or "scenarios" not in root.items:
        raise RuleFileError([Diagnostic("T001", root.span, "a scenario file needs 'game' and 'scenarios'")],
                            {path: source})
    game_node = root.get("game")
    assert game_node is not None
    gname = str(plain(game_node))
    candidate = Path(path).parent / gname
    try:
        rules = candidate if candidate.suffix in (".yaml", ".yml") and exists(candidate) else resolve(gname)
    except GameError as e:
        raise RuleFileError([Diagnostic("T002", game_node.span, str(e))], {path: source}) from None
    sf = ScenarioFile(path, source, rules)
    lst = root.get("scenarios")
    if not isinstance(lst, YList):
        raise RuleFileError([Diagnostic("T001", root.span, "'scenarios' must be a list")], {path: source})
    for item in lst.items:
        if not isinstance(item, YMap) or "name" not in item.items:
            diags.append(Diagnostic("T003", item.span, "each scenario needs a 'name'"))
            continue
        sf.scenarios.append(Scenario(str(plain(item.get("name"))), item.span, item, path))
    if diags:
        raise RuleFileError(diags, {path: source})
    return sf


class _Runner:
    KEYS = ["name", "players", "options", "seed", "dealer", "set", "deals", "steps"]

    def __init__(self, sf: ScenarioFile, sc: Scenario, compiled: Any):
        self.sf = sf
        self.sc = sc
        self.compiled = compiled
        self.game: GameInstance
        self.state: State
        self.rng = random.Random(0)
        self.announced: list[str] = []

    def fail(self, node: YNode | None, msg: str) -> ScenarioFailure:
        return ScenarioFailure(node.span if node is not None else self.sc.span, self.sc.name, msg)

    def run(self) -> None:
        m = self.sc.node
        for k, (ks, _) in m.items.items():
            if k not in self.KEYS:
                close = difflib.get_close_matches(k, self.KEYS, n=1)
                raise self.fail(ks, f"unknown key '{k}'" + (f"; did you mean '{close[0]}'?" if close else ""))
        spec = self.compiled.spec
        players = plain(m.get("players")) if m.get("players") is not None else spec.min_players
        if not isinstance(players, int) or isinstance(players, bool):
            raise self.fail(m.get("players"), f"'players' must be a whole number, not {players!r}")
        options = plain(m.get("options")) if m.get("options") is not None else {}
        if not isinstance(options, dict):
            raise self.fail(m.get("options"), "'options' must map option names to values")
        seed = plain(m.get("seed"))
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise self.fail(m.get("seed"), f"'seed' must be a whole number of 0 or more, not {seed!r}")
        try:
            self.game = GameInstance(self.compiled, players, {str(k): v for k, v in options.items()})
        except GameError as e:
            where = m.get("options") if "option" in str(e) and m.get("options") is not None else m.get("players")
            raise self.fail(where, str(e)) from None
        dealer = m.get("dealer")
        if dealer is not None:
            self.game.first_dealer = self.player(dealer)
        deals: list[YNode] = []
        if m.get("set") is not None:
            deals.append(m.get("set"))  # type: ignore[arg-type]
        dl = m.get("deals")
        if isinstance(dl, YList):
            deals.extend(dl.items)
        pending = list(deals)

        def hook(s: State) -> None:
            if pending:
                self.apply_set(s, pending.pop(0))
        self.game.deal_hook = hook
        self.rng = random.Random(seed if isinstance(seed, int) else 0)
        self.state = State.initial(self.game, seed if isinstance(seed, int) else 0, log=True)
        steps = m.get("steps")
        if steps is not None and not isinstance(steps, YList):
            raise self.fail(steps, "'steps' must be a list")
        for step in steps.items if isinstance(steps, YList) else []:
            self.step(step)

    # ------------------------------------------------------------ fixing a deal
    def card(self, node: YNode, text: str) -> int:
        try:
            return self.game.card_id(text)
        except KeyError:
            close = difflib.get_close_matches(text, self.game.card_names, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else " (cards are named like 'A of clubs')"
            raise self.fail(node, f"the pack has no card '{text}'{hint}") from None

    def player(self, node: YNode) -> int:
        v = plain(node)
        m = _PLAYER.match(str(v)) if not isinstance(v, int) else None
        p = v if isinstance(v, int) else int(m.group(1)) if m else -1
        if not 0 <= p < self.game.n:
            raise self.fail(node, f"'{v}' is not a player of this game (P0 to P{self.game.n - 1})")
        return p

    def zone_index(self, name: str) -> int | None:
        g = self.game
        if name in g.zone_names:
            return g.zone_names.index(name)
        return None

    def apply_set(self, s: State, node: YNode) -> None:
        if not isinstance(node, YMap):
            raise self.fail(node, "'set' must map zones and variables to values")
        g = self.game
        placed: dict[int, YNode] = {}
        rest_zone = 0
        for key, (ks, vn) in node.items.items():
            zi = self.zone_index(key)
            if zi is not None:
                if not isinstance(vn, YList):
                    raise self.fail(vn, f"zone '{key}' must be given a list of cards")
                cards = []
                for item in vn.items:
                    c = self.card(item, str(plain(item)))
                    if c in placed:
                        raise self.fail(item, f"card '{g.card_names[c]}' is placed twice (first at line "
                                        f"{placed[c].span.line})")
                    placed[c] = item
                    cards.append(c)
                s.z[zi] = []
                for c in cards:
                    s.loc[c] = zi
                    s.by[c] = s.dealer
                s.z[zi] = cards
                continue
            if key == "rest":
                rz = self.zone_index(str(plain(vn)))
                if rz is None:
                    raise self.fail(vn, f"unknown zone '{plain(vn)}'")
                rest_zone = rz
                continue
            self.set_var(s, ks, key, vn)
        # Every card not placed goes to the 'rest' zone (the first zone by default),
        # removed from wherever the deal put it.
        named = {self.zone_index(k) for k in node.items if self.zone_index(k) is not None}
        for zi in range(len(s.z)):
            if zi not in named:
                s.z[zi] = [c for c in s.z[zi] if c not in placed]
        leftovers = [c for c in range(g.num_cards) if c not in placed and s.loc[c] in named]
        for c in sorted(leftovers):
            s.z[rest_zone].append(c)
            s.loc[c] = rest_zone
        s.legal = None

    def set_var(self, s: State, ks: YScalar, key: str, vn: YNode) -> None:
        g = self.game
        m = _TARGET.match(key)
        base = m.group(1) if m else key
        if m is None or not any(v.name == base for v, _ in g.var_specs) and base not in ("dealer", "current"):
            names = [v.name for v, _ in g.var_specs] + list(dict.fromkeys(n.split("[")[0] for n in g.zone_names))
            close = difflib.get_close_matches(base, names, n=1)
            raise self.fail(ks, f"'{key}' is neither a zone nor a variable" +
                            (f"; did you mean '{close[0]}'?" if close else ""))
        if base in ("dealer", "current"):
            setattr(s, "dealer" if base == "dealer" else "cur", self.player(vn))
            return
        value = plain(vn)
        if m.group(2) is not None:
            if key not in g.var_names:
                raise self.fail(ks, f"'{key}': there is no player {m.group(2)} in a game of {g.n}")
            s.v[g.var_names.index(key)] = self.convert(vn, value, key)
            return
        per = [i for i, (v, _) in enumerate(g.var_specs) if v.name == base]
        if len(per) > 1:
            if not isinstance(value, list) or len(value) != len(per):
                raise self.fail(vn, f"'{base}' is per player: give a list of {len(per)} values")
            for i, x in zip(per, value):
                s.v[i] = self.convert(vn, x, base)
        else:
            s.v[per[0]] = self.convert(vn, value, base)

    def convert(self, node: YNode, value: Any, name: str) -> Any:
        g = self.game
        v = next(v for v, _ in g.var_specs if v.name == name.split("[")[0])
        ty = v.ty
        if value is None:
            return None
        if ty in ("int", "num") and (not isinstance(value, (int, float)) or isinstance(value, bool)):
            raise self.fail(node, f"'{name}' holds a number, not {value!r}")
        if ty == "bool" and not isinstance(value, bool):
            raise self.fail(node, f"'{name}' holds true or false, not {value!r}")
        if ty == "player":
            return self.player(YScalar(node.span, value))
        if ty == "card":
            return self.card(node, str(value))
        if isinstance(ty, tuple) and ty[1] == "card":
            return [self.card(node, str(x)) for x in value]
        if isinstance(ty, tuple) and ty[1] == "player":
            return [self.player(YScalar(node.span, x)) for x in value]
        return value

    # ------------------------------------------------------------ steps
    def step(self, node: YNode) -> None:
        if not isinstance(node, YMap) or len(node.items) != 1:
            raise self.fail(node, "each step is one of  P<n>: action,  illegal: {P<n>: action},  "
                            "expect: {...},  random: N")
        key, (ks, vn) = next(iter(node.items.items()))
        if _PLAYER.match(key):
            self.act(ks, vn, must_be_legal=True)
        elif key == "illegal":
            if not isinstance(vn, YMap) or len(vn.items) != 1:
                raise self.fail(vn, "'illegal' takes one  P<n>: action")
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

    def find_action(self, text: str) -> int | None:
        """The action printed as `text`: a legal one if any, else any action of the game."""
        g = self.game
        legal = set(self.state.legal_actions()) if not self.state.is_terminal() else set()
        found = None
        for a in range(g.num_distinct_actions):
            if g.action_to_string(None, a) == text:
                if a in legal:
                    return a
                if found is None:
                    found = a
        return found

    def act(self, ks: YScalar, vn: YNode, must_be_legal: bool) -> None:
        s = self.state
        p = self.player(ks)
        text = str(plain(vn))
        if s.is_terminal():
            if must_be_legal:
                raise self.fail(ks, f"the game is over; P{p} cannot '{text}'")
            return
        a = self.find_action(text)
        g = self.game
        if must_be_legal:
            if s.current_player() != p:
                raise self.fail(ks, f"it is {g.player_name(s.current_player())}'s turn, not P{p}'s "
                                f"(phase '{g.phases[s.phase].name}')")
            legal = s.legal_actions()
            if a is None or a not in legal:
                names = [g.action_to_string(p, x) for x in legal]
                close = difflib.get_close_matches(text, names, n=1)
                raise self.fail(vn, f"'{text}' is not legal for P{p} now" +
                                (f"; did you mean '{close[0]}'?" if close else "") +
                                f"; legal: {', '.join(names[:12])}{' ...' if len(names) > 12 else ''}")
            s.apply_action(a)
        else:
            if a is None:
                # A typo would pass silently as "refused": the text must name an action of the game.
                raise self.fail(vn, f"'{text}' is not an action of this game, so this step tests nothing "
                                "(write the action as it would be printed, e.g. by 'cardsmith run')")
            if s.current_player() != p:
                return  # out of turn: refused
            try:
                s.apply_action(a)
            except IllegalAction:
                return
            raise self.fail(vn, f"'{text}' by P{p} was accepted, but should have been refused")

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
            s.apply_action(la[self.rng.randrange(len(la))])
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
                self.same(node, "winners", sorted(g.player_name(p) for p in s.winners) if s.terminal else None,
                          sorted(str(x) for x in want) if isinstance(want, list) else want)
            elif key == "out":
                self.same(node, "players out", [g.player_name(p) for p in range(g.n) if s.out[p]], want)
            elif key in ("legal", "legal_includes", "legal_excludes"):
                names = [g.action_to_string(s.cur, a) for a in s.legal_actions()]
                if not isinstance(want, list):
                    raise self.fail(node, f"'{key}' takes a list of action texts")
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
                elif want is None or isinstance(want, list):
                    self.same(node, f"cards in {key}", sorted(cards), sorted(str(x) for x in want or []))
                else:
                    raise self.fail(node, f"'{key}' expects a number of cards or a list of cards, not {want!r}")
            else:
                self.expect_var(ks, key, node)

    def same(self, node: YNode, what: str, got: Any, want: Any) -> None:
        if got != want:
            raise self.fail(node, f"{what}: expected {want!r}, got {got!r}")

    def shown(self, value: Any, ty: Any) -> Any:
        g = self.game
        if value is None:
            return None
        if ty == "player":
            return g.player_name(value)
        if ty == "card":
            return g.card_names[value]
        if isinstance(ty, tuple) and ty[1] == "player":
            return [g.player_name(p) for p in value]
        if isinstance(ty, tuple) and ty[1] == "card":
            return [g.card_names[c] for c in value]
        return value

    def expect_var(self, ks: YScalar, key: str, node: YNode) -> None:
        g, s = self.game, self.state
        want = plain(node)
        if key in g.var_names:
            vi = g.var_names.index(key)
            self.same(node, key, self.shown(s.v[vi], g.var_specs[vi][0].ty), want)
            return
        per = [i for i, (v, _) in enumerate(g.var_specs) if v.name == key]
        if not per:
            names = [v.name for v, _ in g.var_specs] + list(dict.fromkeys(n.split("[")[0] for n in g.zone_names))
            names += ["phase", "current", "dealer", "deal", "terminal", "winners", "out", "legal",
                      "legal_includes", "legal_excludes", "announced", "eval"]
            close = difflib.get_close_matches(key, names, n=1)
            raise self.fail(ks, f"cannot check '{key}': no such zone, variable or check" +
                            (f"; did you mean '{close[0]}'?" if close else ""))
        ty = g.var_specs[per[0]][0].ty
        got = [self.shown(s.v[i], ty) for i in per] if len(per) > 1 or g.var_specs[per[0]][1] is not None \
            else self.shown(s.v[per[0]], ty)
        self.same(node, key, got, want)

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
            try:
                got = fn(s)
            except Exception as e:
                raise self.fail(ks, f"expression '{text}' failed: {e}") from None
            want = plain(vn)
            got_shown = self.by_type(got, ty)
            if got_shown != want and (isinstance(want, str) or (isinstance(want, list) and want and isinstance(
                    want[0], str))):
                # Seats written as plain numbers ([0, 2, 3]) are ints to the checker.
                got_shown = self._guess_show(got, want)
            if isinstance(got_shown, float) and isinstance(want, (int, float)):
                ok = abs(got_shown - want) < 1e-9
            else:
                ok = got_shown == want
            if not ok:
                raise self.fail(vn, f"'{text}': expected {want!r}, got {got_shown!r}")

    def by_type(self, value: Any, ty: Any) -> Any:
        """Players and cards by name (P1, 'A of clubs'), also inside lists."""
        g = self.game
        if value is None:
            return None
        if ty == "player" and isinstance(value, int):
            return g.player_name(value)
        if ty == "card" and isinstance(value, int):
            return g.card_names[value]
        if isinstance(ty, tuple) and ty[0] == "list" and isinstance(value, list):
            return [self.by_type(x, ty[1]) for x in value]
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


def run_file(path: str, only: str | None = None) -> list[ScenarioResult]:
    sf = read(path)
    loaded = compile_file(sf.rules)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    results = []
    for sc in sf.scenarios:
        if only is not None and sc.name != only:
            continue
        results.append(run_one(sf, sc, loaded.game))
    return results


def run_one(sf: ScenarioFile, sc: Scenario, compiled: Any) -> ScenarioResult:
    try:
        _Runner(sf, sc, compiled).run()
    except ScenarioFailure as f:
        return ScenarioResult(sc.name, f.span, False, f.message)
    except GameError as e:
        return ScenarioResult(sc.name, sc.span, False, str(e))
    return ScenarioResult(sc.name, sc.span, True)
