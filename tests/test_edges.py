"""Illegal input at the edges: each a one-line error and a non-zero exit status, nothing half-written.

Bad command lines, unknown or out-of-range options, unreadable files, bad scenario files, bad input
to `cardsmith play`, and illegal action ids through the Python API. Every command line is run twice:
in-process through `cardsmith.cli.main.main` (exit status and output), and in a process of its own with a
timeout (no Python traceback, no hang): forked from the tests' zygote (tests/forkserver.py), and one
command line of each command also in a fresh `python -m cardsmith`, so that start-up is tested too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from cardsmith.dsl.limits import FLAGS
from cardsmith.engine.errors import BadOption, GameError, IllegalAction
from cardsmith.engine.game import Game
from conftest import GAMES_DIR, cli, compiled
from forkserver import fresh_cli, run_cli

TIMEOUT = 20.0




def sub(argv: list[str], cwd: Path, stdin: bytes | None = None, timeout: float = TIMEOUT,
        fresh: bool = False) -> tuple[int, str, str]:
    """Run the CLI in a process of its own (forked from the tests' zygote, or with `fresh` a new interpreter);
    a hang fails the test."""
    run = fresh_cli if fresh else run_cli
    try:
        p = run(argv, cwd=cwd, input=stdin if stdin is not None else b"", timeout=timeout,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    except subprocess.TimeoutExpired:
        pytest.fail(f"'cardsmith {' '.join(argv)}' did not finish within {timeout} s (a hang)")
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def error_lines(text: str) -> list[str]:
    """Lines that report an error: `cardsmith: error: ...`, `FILE:LINE:COL: error: ...`, `... rule error: ...`."""
    return [ln for ln in text.splitlines() if "error:" in ln]


# ---------------------------------------------------------------- files for the cases
@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "not-utf8.yaml").write_bytes(b"game: \xff\xfe caf\xe9\n")
    (tmp_path / "empty.yaml").write_text("")
    (tmp_path / "comment.yaml").write_text("# only a comment\n")
    (tmp_path / "long-game.scenarios.yaml").write_text(f"game: {'x' * 300}\nscenarios: []\n")
    (tmp_path / "nul-extends.yaml").write_text('extends: "a\\0b.yaml"\n')
    (tmp_path / "long-extends.yaml").write_text(f"extends: {'x' * 300}.yaml\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.yaml").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


# argv, and whether the command could hang if the argument were accepted (then: subprocess only)
LIMIT_FLAGS = list(FLAGS.values())
BAD_COMMAND_LINES: list[tuple[str, list[str]]] = [
    ("no command", []),
    ("unknown command", ["nope"]),
    ("run without a game", ["run"]),
    ("unknown flag", ["run", "schwimmen", "--fast"]),
    ("validate takes no --players", ["validate", "schwimmen", "--players", "3"]),
    ("--option without =", ["run", "schwimmen", "--option", "lives"]),
    ("--option with an empty name", ["run", "thirty-one", "-o", "=blitz"]),
    ("unknown option", ["run", "schwimmen", "-o", "nope=1"]),
    ("unknown option, another game", ["run", "stichln", "-o", "deal=3"]),
    ("option below its range", ["run", "stichln", "-o", "deals=0"]),
    ("option above its range", ["run", "stichln", "-o", "deals=51"]),
    ("option not a number", ["run", "stichln", "-o", "deals=abc"]),
    ("option with a decimal", ["run", "stichln", "-o", "deals=2.5"]),
    ("option empty", ["run", "stichln", "-o", "deals="]),
    ("choice not in the list", ["run", "thirty-one", "-o", "rule_set=nope"]),
    ("choice in the wrong case", ["run", "thirty-one", "-o", "rule_set=BLITZ"]),
    ("bool option not yes/no", ["run", "thirty-one", "-o", "remove_low=maybe"]),
    ("--players too many", ["run", "schwimmen", "--players", "99"]),
    ("--players too few", ["run", "stichln", "--players", "2"]),
    ("--players 0", ["run", "schwimmen", "--players", "0"]),
    ("--players negative", ["run", "schwimmen", "--players", "-2"]),
    ("--players not a number", ["run", "schwimmen", "--players", "abc"]),
    ("--players a decimal", ["run", "schwimmen", "--players", "2.5"]),
    ("--players huge", ["run", "schwimmen", "--players", "9" * 30]),
    ("--seed not a number", ["run", "schwimmen", "--seed", "abc"]),
    ("--seed a decimal", ["run", "schwimmen", "--seed", "1.5"]),
    ("--bot unknown", ["run", "schwimmen", "--bot", "smart"]),
    ("missing file", ["run", "missing.yaml"]),
    ("unknown bundled game", ["run", "nogame"]),
    ("a name too long for the system", ["run", "x" * 300]),
    ("a .yaml name too long for the system", ["run", "x" * 300 + ".yaml"]),
    ("validate: a name too long", ["validate", "x" * 300]),
    ("test: a name too long", ["test", "x" * 300 + ".yaml"]),
    ("list: a name too long", ["list", "x" * 300]),
    ("a directory", ["run", "folder"]),
    ("a directory named .yaml", ["run", "folder.yaml"]),
    ("a non-UTF-8 file", ["run", "not-utf8.yaml"]),
    ("an empty file", ["run", "empty.yaml"]),
    ("a file of comments only", ["run", "comment.yaml"]),
    ("validate: missing file", ["validate", "missing.yaml"]),
    ("validate: a directory", ["validate", "folder.yaml"]),
    ("validate: non-UTF-8", ["validate", "not-utf8.yaml"]),
    ("validate: empty", ["validate", "empty.yaml"]),
    ("validate: unknown game", ["validate", "nogame"]),
    ("list: missing file", ["list", "missing.yaml"]),
    ("list: non-UTF-8", ["list", "not-utf8.yaml"]),
    ("list: unknown game", ["list", "nogame"]),
    ("test: missing file", ["test", "missing.yaml"]),
    ("test: a directory", ["test", "folder.yaml"]),
    ("test: non-UTF-8", ["test", "not-utf8.yaml"]),
    ("test: empty", ["test", "empty.yaml"]),
    ("test: a scenario file whose game is named too long", ["test", "long-game.scenarios.yaml"]),
    ("validate: extends a name with a NUL byte", ["validate", "nul-extends.yaml"]),
    ("validate: extends a name too long", ["validate", "long-extends.yaml"]),
    ("bench: unknown option", ["bench", "schwimmen", "-o", "x=1", "--seconds", "0.1"]),
    ("bench: --seconds not a number", ["bench", "schwimmen", "--seconds", "abc"]),
    ("bench: --seconds negative", ["bench", "schwimmen", "--seconds", "-1"]),
    ("play: --seat too large", ["play", "schwimmen", "--seat", "5"]),
    ("play: --seat negative", ["play", "schwimmen", "--seat", "-1"]),
    ("play: --seat not a number", ["play", "schwimmen", "--seat", "abc"]),
    ("play: unknown option", ["play", "schwimmen", "-o", "x=1"]),
] + [(f"{flag} 0", ["run", "schwimmen", flag, "0"]) for flag in LIMIT_FLAGS] + [
    (f"{flag} text", ["run", "schwimmen", flag, "many"]) for flag in LIMIT_FLAGS] + [
    (f"{flag} negative", ["validate", "schwimmen", flag, "-5"]) for flag in LIMIT_FLAGS]
# Accepted, these would make the command run forever: subprocess only.
HANGING_COMMAND_LINES = [
    ("bench: --seconds nan", ["bench", "schwimmen", "--seconds", "nan"]),
    ("bench: --seconds inf", ["bench", "schwimmen", "--seconds", "inf"]),
]


def _check_bad(argv: list[str], code: int, out: str, err: str) -> None:
    shown = f"'cardsmith {' '.join(argv)}'\nstdout:\n{out[-1500:]}\nstderr:\n{err[-1500:]}"
    assert code != 0, f"exit status 0 for illegal input: {shown}"
    assert "Traceback" not in out + err, f"a traceback: {shown}"
    errs = error_lines(out + err)
    assert len(errs) == 1, f"expected exactly one error line, got {len(errs)}: {shown}"
    if argv and argv[0] in ("run", "bench", "play"):
        # These commands print a log on stdout: a refused command line prints nothing there. (`test`
        # reports a broken scenario file among its results, on stdout; `validate` and `list` too.)
        assert out == "", f"something was written to stdout for a refused command: {shown}"
        assert errs[0] in err, f"the error is not on stderr: {shown}"


@pytest.mark.parametrize("argv", [c[1] for c in BAD_COMMAND_LINES], ids=[c[0] for c in BAD_COMMAND_LINES])
def test_bad_command_line_in_process(argv: list[str], files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(argv, capsys)
    _check_bad(argv, code, out, err)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [c[1] for c in BAD_COMMAND_LINES + HANGING_COMMAND_LINES],
                         ids=[c[0] for c in BAD_COMMAND_LINES + HANGING_COMMAND_LINES])
def test_bad_command_line_subprocess(argv: list[str], files: Path) -> None:
    code, out, err = sub(argv, files, timeout=8.0)
    _check_bad(argv, code, out, err)


# The first bad command line of each command (and of none), in a fresh interpreter: what the cases above
# check, with the command's own start-up (its imports, in a new process) included.
def _first_of_each_command(cases: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    first: dict[str, tuple[str, list[str]]] = {}
    for name, argv in cases:
        first.setdefault(argv[0] if argv else "", (name, argv))
    return list(first.values())


FRESH_COMMAND_LINES = _first_of_each_command(BAD_COMMAND_LINES + HANGING_COMMAND_LINES)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [c[1] for c in FRESH_COMMAND_LINES], ids=[c[0] for c in FRESH_COMMAND_LINES])
def test_bad_command_line_in_a_fresh_interpreter(argv: list[str], files: Path) -> None:
    code, out, err = sub(argv, files, timeout=8.0, fresh=True)
    _check_bad(argv, code, out, err)


def test_good_command_lines_still_work(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same flags with legal values are accepted (so the cases above fail for the right reason)."""
    for argv in (["run", "stichln", "-o", "deals=1", "--players", "3", "--seed", "1"],
                 ["run", "thirty-one", "-o", "rule_set=blitz", "-o", "remove_low=yes", "--seed", "2"],
                 ["run", "schwimmen", "--max-actions", "100000", "--seed", "3", "--bot", "first"],
                 ["validate", "schwimmen", "--max-yaml-depth", "64"]):
        code, out, err = cli(argv, capsys)
        assert code == 0, (argv, out, err)
        assert err == ""


# ---------------------------------------------------------------- scenario files
SCENARIO_CASES: list[tuple[str, str]] = [
    ("a card named twice in two zones", """
    set:
      hand[0]: [A of clubs, A of spades, A of hearts]
      hand[1]: [A of clubs, 8 of hearts, 9 of hearts]  # <- HERE
"""),
    ("a card named twice in one zone", """
    set:
      hand[0]: [A of clubs, K of clubs, A of clubs]  # <- HERE
"""),
    ("a card the pack lacks (misspelt)", """
    set:
      hand[0]: [A of club, K of clubs, Q of clubs]  # <- HERE
"""),
    ("a card the pack lacks (Schwimmen has no 2s)", """
    set:
      hand[0]: [2 of clubs, K of clubs, Q of clubs]  # <- HERE
"""),
    ("an unknown zone in set", """
    set:
      hnd[0]: [A of clubs]  # <- HERE
"""),
    ("a zone of a player who does not exist", """
    set:
      hand[7]: [A of clubs]  # <- HERE
"""),
    ("an unknown variable in set", """
    set:
      livs: [1, 2]  # <- HERE
"""),
    ("a per-player variable of a player who does not exist", """
    set:
      lives[9]: 1  # <- HERE
"""),
    ("a per-player variable with too few values", """
    set:
      lives: [1]  # <- HERE
"""),
    ("a number variable given text", """
    set:
      passes: many  # <- HERE
"""),
    ("a player variable given a seat that does not exist", """
    set:
      closer: P9  # <- HERE
"""),
    ("set is not a map", """
    set: [1, 2]  # <- HERE
"""),
    ("a zone given one card instead of a list", """
    set:
      centre: A of clubs  # <- HERE
"""),
    ("rest names an unknown zone", """
    set:
      rest: nowhere  # <- HERE
"""),
    ("an unknown step", """
    steps:
      - play: keep hand  # <- HERE
"""),
    ("a step that is not a map", """
    steps:
      - keep hand  # <- HERE
"""),
    ("an unknown expect key", """
    steps:
      - expect: {leeder: P1}  # <- HERE
"""),
    ("expect winners given as numbers and names", """
    steps:
      - expect: {winners: [1, P0]}  # <- HERE
"""),
    ("expect legal given a number", """
    steps:
      - expect: {legal: 5}  # <- HERE
"""),
    ("an eval expression reaching Python", """
    steps:
      - expect: {eval: {"__import__('os')": 1}}  # <- HERE
"""),
    ("an eval expression reaching the generated code", """
    steps:
      - expect: {eval: {"s.dealer": 0}}  # <- HERE
"""),
    ("an unknown scenario key", """
    step: []  # <- HERE
"""),
    ("players not a number", """
    players: two  # <- HERE
"""),
    ("players out of range", """
    players: 99  # <- HERE
"""),
    ("seed not a number", """
    seed: abc  # <- HERE
"""),
    ("options as a list", """
    options: [1, 2]  # <- HERE
"""),
    ("an unknown option", """
    options: {nope: 1}  # <- HERE
"""),
    ("dealer out of range", """
    dealer: P7  # <- HERE
"""),
    ("random not a number", """
    steps:
      - random: abc  # <- HERE
"""),
    ("random negative", """
    steps:
      - random: -3  # <- HERE
"""),
    ("an action that is not legal", """
    steps:
      - P0: knock  # <- HERE
"""),
    ("an action the game does not have", """
    steps:
      - P0: fly away  # <- HERE
"""),
    ("illegal: an action the game does not have", """
    steps:
      - illegal: {P0: fly away}  # <- HERE
"""),
    ("a player who does not exist acts", """
    steps:
      - P7: keep hand  # <- HERE
"""),
]


def scenario_file(tmp_path: Path, body: str) -> tuple[Path, int]:
    body = body.lstrip("\n")
    frame = "".join(f"    {k}: {v}\n" for k, v in (("players", 2), ("dealer", "P0"))
                    if not re.search(rf"^    {k}:", body, re.M))
    text = "game: schwimmen\nscenarios:\n  - name: edge\n" + frame + body
    path = tmp_path / "edge.scenarios.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.rstrip().endswith("# <- HERE"))
    return path, line


def _check_scenario_failure(path: Path, line: int, code: int, out: str, err: str) -> None:
    shown = f"{path.read_text()}\nstdout:\n{out[-1500:]}\nstderr:\n{err[-1500:]}"
    assert "Traceback" not in out + err, f"a traceback:\n{shown}"
    assert code == 1, f"exit status {code} for a bad scenario:\n{shown}"
    fails = [ln for ln in out.splitlines() if ln.startswith("FAIL  ")]
    assert len(fails) == 1, f"expected one FAIL line:\n{shown}"
    m = re.match(r"FAIL  (.+?):(\d+):(\d+): edge: (.*)$", fails[0])
    assert m, f"the failure is not located as FILE:LINE:COL:\n{shown}"
    assert int(m.group(2)) == line, f"the failure points at line {m.group(2)}, not at line {line}:\n{shown}"
    assert not re.search(r"\b(ValueError|TypeError|KeyError|AttributeError|IndexError)\b", m.group(4)), \
        f"a Python exception leaks into the message:\n{shown}"
    assert "0 passed, 1 failed" in out


@pytest.mark.slow
@pytest.mark.parametrize("body", [c[1] for c in SCENARIO_CASES], ids=[c[0] for c in SCENARIO_CASES])
def test_bad_scenario(body: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, line = scenario_file(tmp_path, body)
    code, out, err = sub(["test", str(path)], tmp_path)
    _check_scenario_failure(path, line, code, out, err)
    code, out, err = cli(["test", str(path)], capsys)
    _check_scenario_failure(path, line, code, out, err)


def test_a_good_scenario_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The frame used above is a passing scenario when nothing is wrong in it."""
    path, _ = scenario_file(tmp_path, """
    set:
      hand[0]: [A of clubs, K of clubs, Q of clubs]  # <- HERE
    steps:
      - expect: {current: P0, lives: [3, 3]}
      - P0: keep hand
      - random: 3
""")
    code, out, err = cli(["test", str(path)], capsys)
    assert code == 0 and "1 passed, 0 failed" in out, out + err


# ---------------------------------------------------------------- cardsmith play with bad input
def _play(files: Path, stdin: bytes) -> tuple[int, str, str]:
    return sub(["play", "schwimmen", "--seed", "1"], files, stdin=stdin)


@pytest.mark.slow
def test_play_recovers_from_bad_lines(files: Path) -> None:
    """Moves are numbered from 1: 0, a number past the last, and anything else get one line each."""
    code, out, err = _play(files, b"abc\n99\n-1\n\n1.5\n 3 \n0 0\n0\nq\n")
    assert "Traceback" not in out + err, err
    assert code == 0, err
    assert out.count("type 1 to 2 for a move, ? for help, q to leave") == 8, out
    assert err == ""


@pytest.mark.slow
def test_play_eof_exits_cleanly(files: Path) -> None:
    for stdin in (b"", b"abc\n", b"0\n"):
        code, out, err = _play(files, stdin)
        assert "Traceback" not in out + err, err
        assert code == 0 and err == "", (stdin, code, err)


@pytest.mark.slow
def test_play_to_the_end(files: Path) -> None:
    code, out, err = _play(files, b"1\n" * 400)
    assert code == 0 and "The match is over" in out and err == "", (out[-500:], err)


@pytest.mark.slow
@pytest.mark.parametrize("line", ["\u00b2", "\u2460", "\u0967" * 5000, "1" * 5000, "\xff\xfe", "\x00", "\x1b[2J"],
                         ids=["superscript two", "circled one", "5000 devanagari digits", "5000 digits",
                              "invalid UTF-8", "NUL", "escape sequence"])
def test_play_odd_input(line: str, files: Path) -> None:
    data = line.encode("latin-1") if line == "\xff\xfe" else line.encode("utf-8")
    code, out, err = _play(files, data + b"\nq\n")
    assert "Traceback" not in out + err, f"input {line[:20]!r} crashed play:\n{err[-2000:]}"
    assert code == 0, (code, err)
    assert "type 1 to 2 for a move, ? for help, q to leave" in out


# ---------------------------------------------------------------- the Python API
@pytest.fixture
def schwimmen() -> Game:
    return Game(compiled(str(GAMES_DIR / "schwimmen.yaml")), 2)


def _action(g: Game, text: str) -> int:
    return next(a for a in range(g.num_distinct_actions) if g.action_to_string(None, a) == text)


def test_api_refuses_illegal_action_ids(schwimmen: Game) -> None:
    g = schwimmen
    s = g.new_initial_state(seed=1)
    assert s.legal_actions() == [_action(g, "keep hand"), _action(g, "reject hand")]
    before = str(s)
    knock = _action(g, "knock")  # legal in the phase 'close' only
    swap = next(a for a in range(g.num_distinct_actions) if g.action_to_string(None, a).startswith("swap "))
    for a in (-1, -(10**9), g.num_distinct_actions, g.num_distinct_actions + 1, 10**12, knock, swap):
        with pytest.raises(IllegalAction):
            s.apply_action(a)
        assert str(s) == before, f"action {a}: the state changed although the action was refused"
        assert s.legal_actions() == [_action(g, "keep hand"), _action(g, "reject hand")]
    s.apply_action(_action(g, "keep hand"))  # the state still works


def test_api_refuses_actions_once_over_and_bad_chance_outcomes(schwimmen: Game) -> None:
    s = schwimmen.new_initial_state(seed=2)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(IllegalAction):
        s.apply_action(0)
    c = schwimmen.new_initial_state()  # no seed: the shuffle is a chance node
    assert c.is_chance_node()
    outcomes = [o for o, _ in c.chance_outcomes()]
    for a in (-1, max(outcomes) + 1, 10**9):
        with pytest.raises(IllegalAction):
            c.apply_action(a)
    c.apply_action(outcomes[0])


@pytest.mark.parametrize("players, options", [
    (99, {}), (0, {}), (-1, {}), (2, {"deals": 3}),
], ids=["too many players", "no players", "negative players", "an option the game lacks"])
def test_api_refuses_bad_set_up(players: int, options: dict, schwimmen: Game) -> None:
    with pytest.raises(BadOption):
        Game(schwimmen.compiled, players, options)


@pytest.mark.parametrize("value", [0, 51, "abc", "", True, 2.5, None, [3]],
                         ids=["below", "above", "text", "empty", "a bool", "a decimal", "none", "a list"])
def test_api_refuses_bad_option_values(value: object) -> None:
    with pytest.raises(BadOption):
        Game(compiled(str(GAMES_DIR / "stichln.yaml")), 3, {"deals": value})


# ---------------------------------------------------------------- nothing half-written
DIV = """\
game: Div
players: 2
deck:
  suits: [a]
  ranks: ['1', '2']
zones:
  stock: {}
variables:
  x: {type: number}
actions:
  go: {}
phases:
  a:
    actions: [go]
    after:
      - x = 1 / (deal_number - 2)
      - end deal
match:
  deal: [goto a]
  over_when: deal_number >= 3
  winners: players
"""
SETUP_FAILS = DIV.replace("  deal: [goto a]", "  start:\n    - x = 1 / 0\n  deal: [goto a]")
STUCK = DIV.replace("  go: {}", "  go: {when: deal_number < 2}")


@pytest.mark.parametrize("source, argv", [
    (DIV, []), (SETUP_FAILS, []), (STUCK, []), (None, ["--max-actions", "5"]),
], ids=["division by zero in deal 2", "fails while starting", "no legal action in deal 2", "too many actions"])
def test_run_json_on_a_failing_game(source: str | None, argv: list[str], tmp_path: Path) -> None:
    if source is not None:
        (tmp_path / "g.yaml").write_text(source, encoding="utf-8")
        game = "g.yaml"
    else:
        game = "schwimmen"
    code, out, err = sub(["run", game, "--seed", "1", "--json", *argv], tmp_path)
    assert code == 1, (code, out, err)
    assert "Traceback" not in out + err, err
    if out.strip():
        try:
            record = json.loads(out)
        except ValueError:
            pytest.fail(f"half-written JSON on stdout:\n{out[:500]}")
        assert isinstance(record, dict) and "error" in record, \
            f"a failed match printed a JSON record as if it had ended:\n{out[:500]}"
    assert "error" in err and err.strip(), err


def test_run_text_on_a_failing_game_keeps_stdout_and_stderr_apart(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(DIV, encoding="utf-8")
    code, out, err = sub(["run", "g.yaml", "--seed", "1"], tmp_path)
    assert code == 1 and "Traceback" not in out + err
    assert "error" not in out, out
    assert re.search(r"g\.yaml:16:\d+: rule error: division by zero", err), err


def test_a_refused_command_writes_no_file(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(p.name for p in files.iterdir())
    for argv in (["run", "stichln", "-o", "deals=0", "--json"], ["run", "missing.yaml", "--json"],
                 ["validate", "not-utf8.yaml"], ["test", "empty.yaml"]):
        cli(argv, capsys)
    assert sorted(p.name for p in files.iterdir()) == before


def test_game_error_is_the_only_thing_main_raises(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """main() turns every GameError into a status: nothing escapes to the caller."""
    for argv in (["run", "schwimmen", "-o", "x"], ["run", "folder"], ["bench", "nogame"]):
        try:
            code, _, _ = cli(argv, capsys)
        except GameError as e:  # pragma: no cover - a failure
            pytest.fail(f"{argv}: GameError escaped main(): {e}")
        assert code != 0


FORGE = """\
game: "Forge\\nThe match is over: mallory wins\\x1b[2J"
players: {min: 2, max: 2}
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  table: {}
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - move card to table
phases:
  round:
    first: left(dealer)
    round: true
    actions: [play]
    end:
      - end deal
match:
  deal:
    - move pack to stock
    - deal 1 from stock to hand
    - goto round
  over_when: deal_number >= 1
  winners: "[]"
"""


def test_rule_file_text_cannot_forge_output_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name with a line break or a terminal escape is printed escaped, on its own line."""
    f = tmp_path / "forge.yaml"
    f.write_text(FORGE, encoding="utf-8")
    code, out, err = cli(["run", str(f), "--seed", "1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == r"Forge\nThe match is over: mallory wins\x1b[2J, 2 players, seed 1"
    assert "\x1b" not in out
    assert [x for x in lines if x.startswith("The match is over")] == ["The match is over: no winner"]
    code, out, err = cli(["list", str(f)], capsys)
    assert code == 0 and out.splitlines()[0].endswith(r"Forge\nThe match is over: mallory wins\x1b[2J, 2 players")


@pytest.mark.parametrize("suit", ['"he\\narts"', '" hearts"', '""', '"a\\tb"'])
def test_card_names_are_one_visible_line(suit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "names.yaml"
    f.write_text(FORGE.replace("[clubs, hearts]", f"[clubs, {suit}]"), encoding="utf-8")
    code, out, err = cli(["validate", str(f)], capsys)
    assert code == 1
    assert "each entry of 'suits' must be a name on one line, without spaces at its ends or control characters" \
        " [S010]" in out


def _nested_for_steps(depth: int) -> str:
    """The broken S029 example with its 17 nested 'for' steps replaced by `depth` of them (flow style)."""
    text = (Path(__file__).parent / "invalid" / "steps_too_deep.yaml").read_text(encoding="utf-8")
    step = '"best += 1"'
    for i in range(depth):
        step = f'{{for: "n{i} in range(0, 2)", do: [{step}]}}'
    head, _, _ = text.partition("      - for: n0")
    return head + "      - " + step + "\n\n" + text[text.index("phases:"):]


def test_nesting_python_cannot_compile_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """S029 stops nested steps before Python's own limit (20 loops in one function); with that check
    lifted, the compiler's own guard still turns Python's refusal into a located diagnostic."""
    from cardsmith.dsl import reader
    from cardsmith.dsl.pipeline import compile_text
    assert compile_text(_nested_for_steps(16), "steps.yaml").game is not None
    assert [d.code for d in compile_text(_nested_for_steps(17), "steps.yaml").diagnostics] == ["S029"]
    monkeypatch.setattr(reader, "MAX_STEP_DEPTH", 40)
    loaded = compile_text(_nested_for_steps(24), "steps.yaml")
    assert loaded.game is None
    [d] = loaded.diagnostics
    assert d.code == "S029" and "nested too deeply to compile" in d.message, d.message
    assert d.span.file == "steps.yaml" and d.span.line > 1, d.span
