"""`cardsmith play`, the terminal table, as a player meets it (docs/play.md).

Most tests pipe lines into the command (stdin and stdout are not terminals, so the table is plain text)
and read what it printed; the tmux test at the end runs it on a real terminal of fixed size, where rich
draws it, and sends keys as a person would.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cardsmith.cli.main import main
from cardsmith.table.record import open_record, read_record, steps
from cardsmith.table.view import SUIT_SYMBOLS, TableView
from conftest import ROOT, game_for
from forkserver import run_cli

TIMEOUT = 60.0
SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
CARD = re.compile(r"(\S+?)([♣♦♥♠])")
NOT_A_MOVE = "for a move, ? for help, q to leave"


def play(args: list[str], stdin: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    """`cardsmith play ARGS` with STDIN piped in, in a process of its own (forked from the tests' zygote,
    tests/forkserver.py; the tests below that start `python -m cardsmith play` themselves keep a fresh one)."""
    p = run_cli(["play", *args], cwd=cwd, input=stdin.encode(), timeout=TIMEOUT,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def hand_lines(out: str) -> list[str]:
    return [ln.split("Your hand:", 1)[1].strip() for ln in out.splitlines() if "Your hand:" in ln]


def assert_sorted_hands(out: str, game: str, players: int) -> int:
    """Every hand shown with suit symbols is in the deck's suit order, and by rank within a suit."""
    g = game_for(str(ROOT / "games" / f"{game}.yaml"), players)
    suits, ranks = [str(s) for s in g.spec.suits], [str(r) for r in g.spec.ranks]
    seen = 0
    for line in hand_lines(out):
        cards = CARD.findall(line)
        if not cards:
            continue
        keys = [(suits.index(SYMBOL_SUIT[s]), ranks.index(r)) for r, s in cards]
        assert keys == sorted(keys), line
        seen += 1
    return seen


def assert_no_internals(out: str) -> None:
    """The frictions of the old debugger dump are gone."""
    for internal in ("out_now", "out now", "dealer_choice", "dealer choice", "lives_left", "lives left", " = []",
                     "closer", "phase ", "hand[", "[0] ", "card(s)", "Traceback"):
        assert internal not in out, internal


# ---------------------------------------------------------------- whole matches, piped
def test_schwimmen_to_the_end() -> None:
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "3"], "1\n" * 400)
    assert (code, err) == (0, ""), err
    assert_no_internals(out)
    assert assert_sorted_hands(out, "schwimmen", 3) > 5
    # The first table shows only the player's own cards: every card on it is in the hand.
    first = out.split("Your turn", 1)[0]
    hand = set(CARD.findall(hand_lines(first)[0]))
    assert set(CARD.findall(first)) == hand and len(hand) == 3
    # A swap says which card goes where; the others' swaps too.
    assert re.search(r"^ +\d+  swap: give \S+[♣♦♥♠], take \S+[♣♦♥♠]", out, re.M), out[:3000]
    assert re.search(r"^  P[12]: swap: give \S+[♣♦♥♠], take \S+[♣♦♥♠]$", out, re.M)
    assert re.search(r"^  \* P\d knocks$", out, re.M)
    # The end-of-deal summary: who lost a life, who is out.
    assert "  ── End of deal 1 ──\n    lives: P0 3 → 2\n" in out
    assert re.search(r"^    lives: (P\d \d → \d(, )?)+$", out, re.M)
    assert re.search(r"^  ✖ (P\d is|You are) out of the match$", out, re.M)
    assert re.search(r"^══ The match is over: P\d wins ══$", out, re.M)
    assert out.rstrip().endswith("wins ══")


def test_schwimmen_end_of_deal_shows_every_hand(tmp_path: Path) -> None:
    """The end-of-deal summary turns up what the rules show when a deal ends: each player's hand with suit
    symbols, sorted as the view sorts it, and each player's lives and hand values then; the cards are the
    ones each player held as the deal ended."""
    path = tmp_path / "m.json"
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "3", "--save", str(path)], "1\n" * 400)
    assert (code, err) == (0, ""), err
    assert ("  ── End of deal 1 ──\n    lives: P0 3 → 2\n              hand       lives  hand value\n"
            "    P0 (you)  8♠ 10♠ Q♣  2      18\n    P1        9♥ J♥ J♠   3      19\n"
            "    P2        K♠ J♣ A♣   3      21\n"
            "    centre K♣ 9♣ A♦  ·  knocked P1  ·  passes in a row 0\n") in out
    # docs/play.md shows this summary as it is.
    assert out.split("  ── End of deal 1 ──\n", 1)[1].split("\n\n", 1)[0] in (ROOT / "docs" / "play.md").read_text(
        encoding="utf-8")
    rec = read_record(path)
    g = open_record(rec)
    tv = TableView(g)
    blocks = {int(m.group(1)): m.group(2) for m in re.finditer(r"── End of deal (\d+) ──\n(.*?)\n\n", out, re.S)}
    ends: dict[int, dict[str, Any]] = {}
    for st in steps(rec, g):
        de = tv.view(st, 0)["deal_end"]
        if de is not None:
            ends[de["deal"]] = de
    assert len(ends) >= 3 and set(ends) <= set(blocks)
    for deal, de in ends.items():
        for z in de["zones"]:
            if z["name"] == "hand" and z["count"]:
                cards = " ".join(c["rank"] + SUIT_SYMBOLS[c["suit"]] for c in z["cards"])
                lives = next(x["value"] for x in de["variables"] if x["name"] == "lives" and x["owner"] == z["owner"])
                points = next(x["value"] for x in de["variables"]
                              if x["name"] == "hand_points" and x["owner"] == z["owner"])
                who = re.escape(f"P{z['owner']}") + (r" \(you\)" if z["owner"] == 0 else "")
                assert re.search(rf"^    {who} +{re.escape(cards)} +{lives} +{points:g}$", blocks[deal], re.M), \
                    (deal, cards)
    assert assert_sorted_hands(out, "schwimmen", 3) > 5


def test_stichln_to_the_end() -> None:
    """A trick game whose suits have no symbols: the hand grouped by suit, the secret choice hidden, the
    scores of the deal."""
    code, out, err = play(["stichln", "-n", "3", "--seed", "4", "-o", "deals=1"], "1\n" * 100)
    assert (code, err) == (0, ""), err
    assert_no_internals(out)
    assert "Your hand: brown: 0 1 4 6 7  yellow: 1 2 4 6 8  blue: 1 7  green: 3 5 8" in out
    assert "  P1: declare (hidden)" in out
    assert "  * P2 wins the trick" in out
    assert "  ── End of deal 1 ──\n    score: P0 0 → 5, P1 0 → -16, P2 0 → 11\n" in out
    # The table as the deal ended shows what every seat saw (the cards taken as minus points, the tricks won
    # as counts) and nothing hidden: no hand, no secret declaration, nothing face down.
    assert ("    score: P0 0 → 5, P1 0 → -16, P2 0 → 11\n              minus       won       score\n"
            "    P0 (you)  0 of brown  12 cards  5\n    P1        3 of brown  15 cards  -16\n"
            "    P2        2 of brown  15 cards  11\n    leads P1\n") in out
    summary = out.split("── End of deal 1 ──", 1)[1].split("\n\n", 1)[0]
    assert "hand" not in summary and "declared" not in summary and "face down" not in summary
    assert "══ The match is over: P2 wins ══" in out


def test_hearts_hand_sorted_with_symbols() -> None:
    code, out, err = play(["hearts", "-n", "4", "--seed", "4"], "1\n" * 3 + "q\n")
    assert (code, err) == (0, ""), err
    assert "Your hand: 4♣ 8♣ 3♦ 6♦ K♦ 3♥ 5♥ J♥ A♥ 4♠ 9♠ J♠ A♠" in out
    assert assert_sorted_hands(out, "hearts", 4) == 4
    assert "  * pass direction: left" in out and "\n  1  pass 4♣     5  pass K♦     9  pass A♥    13  pass A♠\n" in out


def test_kuhn_poker_to_the_end() -> None:
    """The showdown shows both cards (the rules put them face up), the bets made, and the result in chips."""
    code, out, err = play(["kuhn-poker", "--seed", "4"], "1\n" * 10)
    assert (code, err) == (0, ""), err
    assert_no_internals(out)
    assert "Your hand: K♠" in out and "  You: check\n  P1: bet\n" in out
    assert "  ── End of deal 1 ──\n    in the pot: P0 1 → 2, P1 1 → 2\n" in out
    final = out.rsplit("== Kuhn poker", 1)[1]
    assert "    P0 (you)  -     K♠     2\n    P1        -     J♠     2\n" in final
    # The other's card shows only at the showdown: in the end-of-deal summary and the last table.
    before, showdown = out.split("  ── End of deal 1 ──\n", 1)
    assert "J♠" not in before
    assert "    P1        J♠     2\n" in showdown.split("== Kuhn poker", 1)[0]
    assert out.rstrip().endswith("══ The match is over: P0 wins ══\n  chips: P0 2, P1 -2")


# ---------------------------------------------------------------- help, bad input, leaving
def test_help_shows_the_summary_and_every_option() -> None:
    code, out, err = play(["thirty-one", "-n", "2", "--seed", "1", "-o", "lives=2", "-o", "exchange=draw_discard"],
                          "?\nq\n")
    assert (code, err) == (0, ""), err
    g = game_for(str(ROOT / "games" / "thirty-one.yaml"), 2)
    assert g.spec.summary.strip() in out
    for o in g.spec.options:
        assert re.search(rf"^  {o.name} = \S+  {re.escape(o.doc)}$", out, re.M), o.name
    assert "  lives = 2  lives each player starts with" in out
    assert "  exchange = draw_discard  " in out and "  dealer_swap = yes  " in out
    assert "  h [N]     history" in out and "  s [FILE]  save" in out
    # What the table shows, by the names it shows them under, with the rule file's help for each.
    assert "At the table:\n" in out and "  knocked  the others have one more turn each\n" in out
    assert "  dealer's choice  the dealer may give up the dealt hand for three new cards\n" in out
    # Above them, the rules as `cardsmith explain` writes them (its sections, without the strategies for bots).
    rules = out.split("The rules (as cardsmith explain writes them)\n", 1)[1].split("\nThirty-One\n", 1)[0]
    for heading in ("Players", "The cards", "Table options", "Where the cards lie", "What the game keeps track of",
                    "How a match is played", "dealer's choice (dealer_choice)", "lay down (lay_down)",
                    "The end of the match", "Helper rules", "Procedures"):
        assert f"\n{heading}\n" in rules, heading
    assert "- Deal 3 cards from the top of `stock` to each active player's `hand`, one card at a time" in rules


def test_resume_knows_a_person_from_a_bot_by_the_record(tmp_path: Path) -> None:
    """A person may call themselves `random`: the record says who was a bot, and resume seats you there."""
    path = tmp_path / "m.json"
    code, out, err = play(["schwimmen", "-n", "2", "--seed", "3", "--save", str(path)], "q\n")
    assert (code, err) == (0, "")
    data = json.loads(path.read_text())
    assert data["seats"] == ["you", "random"] and data["bots"] == [False, True]
    data["seats"] = ["random", "random"]
    path.write_text(json.dumps(data))
    code, out, err = play(["--resume", str(path)], "q\n")
    assert (code, err) == (0, ""), err
    assert "Schwimmen: you are P0 (seat 0), against random." in out


def test_bad_input_gets_one_line_and_the_prompt_again() -> None:
    bad = ["abc", "0", "3", "-1", "", "1.5", "h 9999", "s", "\x1b[2J"]
    code, out, err = play(["schwimmen", "--seed", "1"], "\n".join(bad) + "\nq\n")
    assert (code, err) == (0, ""), err
    answers = out.split("Your turn", 1)[1].split("\n", 3)[3].split("> ")[1:]
    assert len(answers) == len(bad) + 1
    for line, answer in zip(bad, answers):
        assert answer.count("\n") == 1, (line, answer)  # one line, then the prompt again
    assert answers[0] == "'abc' is not a move: type 1 to 2 " + NOT_A_MOVE + "\n"
    assert answers[4] == "nothing typed: type 1 to 2 " + NOT_A_MOVE + "\n"
    assert answers[6] == "history: give a move number from 0 to 0\n"
    assert answers[7].startswith("say where: s FILE")
    assert answers[8] == "'\\x1b[2J' is not a move: type 1 to 2 " + NOT_A_MOVE + "\n"


@pytest.mark.parametrize("stdin", ["", "q\n", "abc\n"], ids=["eof", "quit", "eof-after-bad-line"])
def test_leaving_is_clean(stdin: str) -> None:
    code, out, err = play(["schwimmen", "--seed", "1"], stdin)
    assert (code, err) == (0, "")
    assert "Traceback" not in out
    assert out.rstrip().endswith("You left the table (the match was not saved: s FILE saves it).")


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    # A test run started as a background job of a shell without job control has SIGINT ignored, and the
    # game would inherit that (Python then installs no KeyboardInterrupt): give it the default back.
    p = subprocess.Popen([sys.executable, "-m", "cardsmith", "play", "schwimmen", "--seed", "1", "--save",
                          str(tmp_path / "m.json")], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdin is not None and p.stdout is not None
    deadline = time.monotonic() + TIMEOUT
    seen = b""
    while b"Your turn" not in seen and time.monotonic() < deadline:
        seen += p.stdout.read1(4096)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    p.wait(timeout=TIMEOUT)  # the interrupt alone ends it: stdin stays open until then
    out, err = p.communicate(timeout=TIMEOUT)
    assert p.returncode == 130 and err == b"", err
    assert b"Traceback" not in out
    assert b"saved to " in out and read_record(tmp_path / "m.json").decisions == 0


# ---------------------------------------------------------------- history
def test_history_by_commands() -> None:
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "3"], "2\nh\np\np\nn\n9\nq\nh 0\n\nq\n")
    assert (code, err) == (0, ""), err
    titles = re.findall(r"^== History: (.*?)  ·", out, re.M)
    assert titles == ["after move 3 of 4", "after move 2 of 4", "after move 1 of 4", "after move 2 of 4",
                      "after move 4 of 4", "the start of the match"]
    # Each moment shows what happened in it, then the table as it was.
    assert "history>   You: reject hand\n\n== History: after move 1 of 4" in out
    assert out.count("p earlier, n later, a number to jump, q (or an empty line) back") == 6


def test_history_shows_the_end_of_deal_summary() -> None:
    """The moment that ended a deal shows its summary in the history too, hands and all."""
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "3"], "1\n1\n1\nh\np\np\np\nq\nq\n")
    assert (code, err) == (0, ""), err
    assert ("history>   You: swap: give A♦, take 8♠\n  ── End of deal 1 ──\n    lives: P0 3 → 2\n"
            "              hand       lives  hand value\n    P0 (you)  8♠ 10♠ Q♣  2      18\n"
            "    P1        9♥ J♥ J♠   3      19\n") in out


# ---------------------------------------------------------------- saving and resuming
@pytest.mark.slow
def test_save_then_resume_is_the_same_match(tmp_path: Path) -> None:
    """A match saved after three moves and resumed plays on as the same match played without the break: the
    same moves by the bots, the same deals, the same end."""
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "8", "--save", str(whole)], "1\n2\n1\n" + "1\n" * 400)
    assert (code, err) == (0, "") and "The match is over" in out
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "8", "--save", str(part)], "1\n2\n1\nq\n")
    assert (code, err) == (0, "")
    assert out.rstrip().endswith(f"saved to {part}; resume with: cardsmith play --resume {part}")
    early = read_record(part)
    assert early.result is None and early.seats == ["you", "random", "random"] and early.source == "schwimmen"
    assert early.decisions > 3  # the bots' moves up to the prompt are in it
    code, resumed, err = play(["--resume", str(part)], "1\n" * 400)
    assert (code, err) == (0, ""), err
    assert f"Resumed after {early.decisions} moves" in resumed and "The match is over" in resumed
    a, b = read_record(whole), read_record(part)
    assert b.history[:len(early.history)] == early.history
    assert a.history == b.history and a.result == b.result and a.result is not None
    assert json.loads(part.read_text())["result"] == b.result


def test_save_command_and_resume_of_a_finished_match(tmp_path: Path) -> None:
    """`s FILE` saves now and keeps the match in FILE from then on; a resumed match goes on saving there."""
    code, out, err = play(["kuhn-poker", "--seed", "4"], f"s {tmp_path / 'k.json'}\nq\n")
    assert (code, err) == (0, "")
    assert out.count(f"saved to {tmp_path / 'k.json'}; resume with: cardsmith play --resume ") == 2
    assert read_record(tmp_path / "k.json").decisions == 0
    code, out, err = play(["--resume", str(tmp_path / "k.json")], "1\n1\n")
    assert (code, err) == (0, "") and out.rstrip().endswith("chips: P0 2, P1 -2")
    assert read_record(tmp_path / "k.json").result == {"winners": [0], "returns": [2.0, -2.0]}
    code, out, err = play(["--resume", str(tmp_path / "k.json")], "")
    assert (code, err) == (0, "") and out.rstrip().endswith("chips: P0 2, P1 -2")
    assert "Resumed after 3 moves" in out


def test_resume_of_a_bad_file_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{}")
    code, out, err = play(["--resume", str(tmp_path / "x.json")], "")
    assert code == 1 and out == "" and len(err.splitlines()) == 1 and err.startswith("cardsmith: error: ")
    code, out, err = play([], "")
    assert code == 2 and err == "cardsmith: error: play needs a game (or --resume FILE)\n"


def test_a_bot_the_game_cannot_take_is_one_error_line() -> None:
    # Parsing alone cannot tell that Schwimmen reports no `lives`; the game can, before the table opens.
    code, out, err = play(["schwimmen", "--players", "2", "--bots", "greedy(by=lives)"], "")
    assert (code, out) == (2, "")
    assert err == "cardsmith: error: argument --bots: greedy: by must name a number the rule file reports for " \
                  "each player: returns, hand; not 'lives'\n"


# ---------------------------------------------------------------- on a real terminal
def _pane(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True,
                          check=True).stdout


def _wait_for(session: str, text: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = _pane(session)
        if text in screen:
            return screen
        time.sleep(0.1)
    pytest.fail(f"{text!r} did not appear on the terminal:\n{_pane(session)}")


def _doc_screen() -> list[str]:
    """The screen docs/play.md shows: the text block after its `<!-- play: ... -->` marker."""
    text = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    block = text.split("<!-- play: ", 1)[1].split("```text\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_tmux_as_a_player(tmp_path: Path) -> None:
    """A 100x40 terminal: the table fits with its frame, the hand is sorted with suit symbols, a move is
    chosen by its number, the arrow keys step through the history, and ? shows the rules."""
    session = f"cardsmith-play-{os.getpid()}"
    # rich takes COLUMNS over the terminal's size, and a test runner may have set it: the terminal decides here.
    cmd = f"env -u COLUMNS -u LINES {sys.executable} -m cardsmith play schwimmen -n 3 --seed 3; sleep 60"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "40", "-c", str(ROOT),
                    "-e", "LANG=C.UTF-8", cmd], check=True)
    try:
        screen = _wait_for(session, "2  reject hand")
        lines = screen.splitlines()
        assert all(len(ln) <= 100 for ln in lines)
        top = next(i for i, ln in enumerate(lines) if ln.startswith("╭─ Schwimmen  ·  deal 1"))
        bottom = next(i for i, ln in enumerate(lines) if ln.startswith("╰"))
        assert all(ln.startswith("│") and ln.rstrip().endswith("│") for ln in lines[top + 1:bottom])
        assert "│ Your hand: A♦ 10♠ Q♣" in screen and "│ ▶ P0 (you)" in screen
        assert "  1  keep hand" in screen and "  2  reject hand" in screen
        coloured = subprocess.run(["tmux", "capture-pane", "-p", "-e", "-t", session], capture_output=True,
                                  text=True, check=True).stdout
        assert re.search(r"\x1b\[31mA♦", coloured), "a diamond is not red"
        subprocess.run(["tmux", "send-keys", "-t", session, "2", "Enter"], check=True)
        _wait_for(session, "swap: give J♣, take Q♣")
        screen = _wait_for(session, "take Q♣\n>")  # the prompt drawn too
        assert "You: reject hand" in screen and "│ Your hand: J♠ J♣ K♣" in screen
        # docs/play.md shows this screen as it is.
        doc = _doc_screen()
        assert screen.rstrip("\n").splitlines()[-len(doc):] == doc
        subprocess.run(["tmux", "send-keys", "-t", session, "h", "Enter"], check=True)
        screen = _wait_for(session, "History: after move 3 of 4")
        subprocess.run(["tmux", "send-keys", "-t", session, "Left"], check=True)
        screen = _wait_for(session, "History: after move 2 of 4")
        assert "History: after move 3 of 4" not in screen  # the history has the screen to itself
        subprocess.run(["tmux", "send-keys", "-t", session, "Right"], check=True)
        _wait_for(session, "History: after move 3 of 4")
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        _wait_for(session, "╭─ Schwimmen  ·  deal 1  ·  dealer P0  ·  swap or pass")
        subprocess.run(["tmux", "send-keys", "-t", session, "?", "Enter"], check=True)
        screen = _wait_for(session, "q         leave the table")
        assert "A commerce game with lives" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, "q", "Enter"], check=True)
        _wait_for(session, "You left the table")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


class _Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_without_rich_a_terminal_gets_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)  # `import rich` raises ImportError
    out = _Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n"))
    assert main(["play", "kuhn-poker", "--seed", "4"]) == 0
    text = out.getvalue()
    assert "== Kuhn poker  ·  deal 1  ·  dealer P1  ·  betting ==" in text and "╭" not in text
    assert "Your hand: K♠" in text and text.rstrip().endswith("chips: P0 2, P1 -2")


def test_resume_at_another_seat(tmp_path: Path) -> None:
    """`--seat` takes over another seat of a saved match; the seat left empty gets a random bot."""
    path = tmp_path / "m.json"
    code, out, err = play(["schwimmen", "-n", "3", "--seed", "3", "--save", str(path)], "q\n")
    assert (code, err) == (0, "")
    code, out, err = play(["--resume", str(path), "--seat", "1"], "q\n")
    assert (code, err) == (0, ""), err
    assert "Schwimmen: you are P1 (seat 1), against random, random." in out
    assert "you (seat 0) is not here: a random bot plays that seat" in out
    assert "▶ P1 (you)" in out


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_tmux_look_back_after_the_end() -> None:
    """On a terminal the finished match stays at the table: the history still browses it, q leaves."""
    session = f"cardsmith-end-{os.getpid()}"
    cmd = f"env -u COLUMNS -u LINES {sys.executable} -m cardsmith play kuhn-poker --seed 4; echo EXIT=$?; sleep 60"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "40", "-c", str(ROOT),
                    "-e", "LANG=C.UTF-8", cmd], check=True)

    def keys(*k: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", session, *k], check=True)

    try:
        _wait_for(session, "2  bet")
        keys("1", "Enter")
        _wait_for(session, "2  fold")
        keys("1", "Enter")
        screen = _wait_for(session, "h history, s FILE save, q leave >")
        assert "══ The match is over: P0 wins ══\n  chips: P0 2, P1 -2" in screen
        assert "│   P1        -     J♠     2" in screen  # the showdown: the other's card face up
        keys("h", "Enter")
        _wait_for(session, "History: after move 2 of 3")
        keys("Left")
        screen = _wait_for(session, "History: after move 1 of 3")
        assert "J♠" not in screen  # before the showdown the other's card is hidden, in the history too
        keys("q")
        _wait_for(session, "chips: P0 2, P1 -2\nh history")
        keys("q", "Enter")
        _wait_for(session, "EXIT=0")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
