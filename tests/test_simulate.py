"""`cardsmith simulate` and `cardsmith compare` (interpreter/sim/, interpreter/cli/simulate.py).

Small simulations with random bots, so the whole file takes seconds: the statistics on hand-made rows with
values worked out by hand, determinism across worker counts, the files written, the errors, Ctrl-C, and
`compare` finding a real difference (and none between a game and a copy of itself).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import signal
import subprocess
import sys
import time
from array import array
from itertools import accumulate
from pathlib import Path

import pytest
from cardsmith.dsl.limits import Limits
from cardsmith.sim import heuristics, report, stats, terminal
from cardsmith.sim.runner import Config, Counts, Outcome, Row, chunks, match_seed
from cardsmith.sim.summary import Meta, summarize
from conftest import TESTS, cli

GAMES = TESTS / "games"




# ---------------------------------------------------------------- statistics, by hand
def test_wilson_interval_values() -> None:
    # 5 of 10: centre 0.5, half-width 1.96/1.384 · sqrt(0.025 + 0.0096) = 0.2634 (the textbook values).
    lo, hi = stats.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    # 0 of 10: the interval still has width, 0 to z²/(n + z²) = 3.8415/13.8415.
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert stats.wilson(0, 0) == (0.0, 1.0)
    lo, hi = stats.wilson(10, 10)
    assert hi == 1.0 and round(lo, 4) == 0.7225


def test_two_proportion_and_welch() -> None:
    # 50/100 against 70/100: pooled 0.6, se = sqrt(0.24 · 0.02) = 0.069282, z = 2.8868, p = 0.00389.
    z, p = stats.two_proportion(50, 100, 70, 100)
    assert round(z, 4) == 2.8868 and round(p, 5) == 0.00389
    assert stats.two_proportion(30, 100, 30, 100) == (0.0, 1.0)
    assert stats.two_proportion(0, 100, 0, 100) == (0.0, 1.0)
    z, p = stats.welch([1, 2, 3, 4], [1, 2, 3, 4])
    assert (z, p) == (0.0, 1.0)


def test_describe_and_histogram() -> None:
    d = stats.describe([1, 2, 3, 4, 10])
    assert d == {"n": 5, "mean": 4.0, "sd": round(math.sqrt(12.5), 6), "median": 3, "min": 1, "max": 10}
    assert stats.histogram([3, 4, 4, 6]) == {"start": 3, "width": 1, "counts": [1, 2, 0, 1]}
    # 0..99 in at most 20 bins: width 5.
    h = stats.histogram(list(range(100)))
    assert h["width"] == 5 and h["counts"] == [5] * 20


def _row(i: int, winners: tuple[int, ...], actions: int, deals: int, first: int = 0,
         scores: list[tuple[float, ...]] | None = None) -> Row:
    n = 2
    rets = tuple(1 / len(winners) if p in winners else 0.0 for p in range(n))
    flat = array("d", [v for deal in scores for v in deal]) if scores is not None else None
    return Row(i, match_seed(7, i), actions, deals, winners, rets, first, 2 * actions, 1,
               {"points": flat} if flat is not None else None)


def _summary(rows: list[Row], rotate: bool = False, counts: Counts | None = None) -> dict:
    cfg = Config("x.yaml", 2, {}, Limits(), ("first", "random"), rotate, 7)
    c = counts if counts is not None else Counts([3, 0], [3, 0], [3])
    out = Outcome(rows, c, ["play", "raise"], ["main"])
    meta = Meta("x.yaml", "X", ("P0", "P1"), {}, "returns", cfg, len(rows), (("points", "plain"),))
    return summarize(out, meta)


def test_summary_of_known_rows() -> None:
    rows = [
        _row(0, (0,), 10, 1, scores=[(5, 1)]),
        _row(1, (1,), 20, 2, first=1, scores=[(5, 1), (0, 9)]),
        _row(2, (0, 1), 30, 3, scores=[(1, 1), (1, 1), (1, 1)]),  # a shared win: 1/2 each
        _row(3, (), 40, 4, scores=[(0, 0), (2, 0), (0, 3), (0, 0)]),  # no winner
    ]
    s = _summary(rows, rotate=True)
    # P0: 1 + 1/2 of 4 matches, P1: 1 + 1/2.
    assert [x["wins"] for x in s["seats"]] == [1.5, 1.5]
    assert [x["share"] for x in s["seats"]] == [0.375, 0.375]
    lo, hi = stats.wilson(1.5, 4)
    assert s["seats"][0]["ci95"] == [round(lo, 6), round(hi, 6)]
    assert s["fairness"] == {"value": 1.0, "seat_gap": 0.0}
    assert s["draws"]["shared"] == 1 and s["draws"]["no_winner"] == 1 and s["draws"]["share"] == 0.5
    # The first mover: P0 in matches 0, 2, 3 (credit 1, 1/2, 0), P1 in match 1 (credit 1): 2.5 of 4.
    assert s["first_mover"]["times"] == [3, 1] and s["first_mover"]["wins"] == 2.5
    assert s["first_mover"]["advantage"] == 0.125
    # Rotated bots: 'first' sits at seat 0 in matches 0 and 2, at seat 1 in 1 and 3.
    # first: 1 (m0) + 1 (m1, seat 1 won) + 1/2 (m2) + 0 = 2.5 of 4 seats held.
    by_bot = {b["bot"]: b for b in s["bots_table"]}
    assert by_bot["first"]["wins"] == 2.5 and by_bot["first"]["seats_held"] == 4
    assert by_bot["random"]["wins"] == 0.5
    assert s["length"]["actions"]["mean"] == 25 and s["length"]["actions"]["median"] == 25
    assert s["length"]["deals"]["histogram"] == {"start": 1, "width": 1, "counts": [1, 1, 1, 1]}
    assert s["decisions"] == {"total": 100, "branching": 2.0, "forced_share": 0.04}
    assert s["returns"][0]["mean"] == 0.375
    # The dead action and the warning.
    assert s["actions"][1] == {"name": "raise", "legal_at": 0, "taken": 0, "taken_share": 0.0,
                               "taken_when_legal": 0.0}
    assert s["warnings"] == ["action 'raise' was never taken (never legal): possibly a dead rule"]


def test_score_heuristics_by_hand() -> None:
    # Running totals of P0/P1 by deal: (3, 0), (3, 5), (7, 6): the lead goes P0, P1, P0.
    series = heuristics.standings([3, 0, 0, 5, 4, 1], 2, "total")
    assert series == [(3, 0), (3, 5), (7, 6)]
    assert heuristics.lead_changes(series) == 2
    # The winner P0: deficit 0 after deal 1, (5 - 3) / (5 - 3) = 1 after deal 2: drama 1/2.
    assert heuristics.drama(series, 0) == 0.5
    assert heuristics.settled_at(series, 0) == 3
    assert heuristics.settled_at(series, 1) is None
    assert heuristics.lead_changes([(1, 1), (2, 1), (2, 2), (2, 3)]) == 1  # ties name no leader


def test_score_section_reads_the_order_from_the_winners() -> None:
    # Points against: the winner holds the lowest total every time.
    rows = [_row(i, (i % 2,), 10, 2, scores=[(0, 0), (1.0, 4.0)] if i % 2 == 0 else [(0, 0), (4.0, 1.0)])
            for i in range(6)]
    sc = _summary(rows)["score"]
    assert sc["available"] and sc["label"] == "points" and sc["order"] == "lower is better"
    assert sc["winner_leads_at_end"]["share"] == 1.0
    assert sc["spread"]["mean"] == 3.0 and sc["margin"]["mean"] == 3.0
    assert sc["mean_by_deal"][1] == {"deal": 2, "matches": 6, "mean": [2.5, 2.5]}
    # Without a score in the rows, the section says why.
    bare = _summary([_row(0, (0,), 3, 1)])["score"]
    assert not bare["available"] and "numbers" in bare["reason"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("fancy", [False, True])
def test_summary_escapes_names_from_the_rule_file(fancy: bool) -> None:
    # A player's name is the rule file's: a terminal escape in it is shown, not sent, and rich's markup in
    # it is text.
    if fancy:
        pytest.importorskip("rich")
    s = _summary([_row(0, (0,), 10, 1, scores=[(5, 1)])])
    s["seats"][0]["name"] = "[bold]P\x1b[31m"
    buf = _Terminal()
    terminal.print_summary(s, fancy=fancy, file=buf)
    text = buf.getvalue()
    assert "P\x1b[31m" not in text and "P\\x1b[31m" in text
    assert "[bold]P" in text
    assert ("┃" in text) == fancy  # rich's tables, or plain columns


def test_match_seeds_and_chunks() -> None:
    assert match_seed(1, 0) != match_seed(1, 1) != match_seed(2, 0)
    assert match_seed(1, 5) == match_seed(1, 5) < 2**63
    # Every match once, in order; the largest tasks first, the last ones small.
    for games, workers in ((2000, 2), (10, 4), (1, 8), (100_000, 3)):
        tasks = chunks(games, workers)
        assert [start for start, _ in tasks] == [0, *list(accumulate(n for _, n in tasks))][:-1]
        assert sum(n for _, n in tasks) == games
        sizes = [n for _, n in tasks]
        assert sizes == sorted(sizes, reverse=True)
    sizes = [n for _, n in chunks(2000, 2)]
    assert sizes[0] == 250 and sizes[-2] == 15 and len(sizes) < 40


# ---------------------------------------------------------------- the command
def _simulate(tmp: Path, capsys: pytest.CaptureFixture[str], workers: int, *extra: str) -> tuple[int, str, str]:
    return cli(["simulate", "schwimmen", "-n", "3", "--games", "40", "--seed", "11", "--workers", str(workers),
                "--out", str(tmp), "--no-progress", *extra], capsys)


@pytest.mark.slow
def test_same_seed_same_bytes_whatever_the_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code1, out1, _ = _simulate(tmp_path / "one", capsys, 1)
    code2, out2, _ = _simulate(tmp_path / "two", capsys, 2)
    assert code1 == code2 == 0
    for name in ("summary.json", "matches.csv"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
    assert out1.splitlines()[:-1] == out2.splitlines()[:-1]  # the last line names the folder


def test_files_hold_every_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _simulate(tmp_path, capsys, 2)
    assert code == 0, err
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["matches"] == 40 and not s["interrupted"] and s["seed"] == 11
    assert "per second" not in json.dumps(s) and "matches/s" in err  # the rate is on the terminal only
    with (tmp_path / "matches.csv").open() as f:
        table = list(csv.DictReader(f))
    assert len(table) == 40
    assert list(table[0]) == ["match", "seed", "actions", "deals", "first_player", "winners", "returns_0",
                              "returns_1", "returns_2", "bot_0", "bot_1", "bot_2", "score_0", "score_1", "score_2"]
    assert [int(r["match"]) for r in table] == list(range(40))
    assert sum(int(r["actions"]) for r in table) == s["decisions"]["total"]
    wins = [0.0, 0.0, 0.0]
    for r in table:
        ws = [int(w) for w in r["winners"].split()]
        for w in ws:
            wins[w] += 1 / len(ws)
    assert [round(w, 6) for w in wins] == [x["wins"] for x in s["seats"]]
    assert s["score"]["available"] and s["score"]["label"] == "hand"
    assert "win share by seat" in out and "heuristics from the score" in out
    # A match replays exactly with `cardsmith run` and the seed of its row.
    row = table[5]
    code, out, _ = cli(["run", "schwimmen", "-n", "3", "--seed", row["seed"], "--json"], capsys)
    rec = json.loads(out)
    assert (rec["actions"], rec["deals"], rec["winners"]) == (int(row["actions"]), int(row["deals"]),
                                                              [int(w) for w in row["winners"].split()])


def test_report_html_embeds_the_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    code, _, _ = _simulate(tmp_path, capsys, 1)
    assert code == 0
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count('src="data:image/png;base64,') >= 4
    assert "http://" not in page and "https://" not in page  # nothing to fetch: one self-contained file


def test_report_without_matplotlib(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report.plots, "available", lambda: False)
    code, _, err = _simulate(tmp_path, capsys, 1)
    assert code == 0 and "matplotlib is not installed" in err
    page = (tmp_path / "report.html").read_text()
    assert "data:image/png" not in page and "matplotlib is not installed" in page
    assert (tmp_path / "summary.json").exists() and (tmp_path / "matches.csv").exists()


def test_no_files_without_out(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli(["simulate", "kuhn-poker", "--games", "30", "--seed", "1", "--workers", "1"], capsys)
    assert code == 0 and list(tmp_path.iterdir()) == []
    assert "unavailable: the rule file's report lines show cards or players" in out


def test_dead_action_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "dead.yaml"
    variant.write_text("extends: kuhn-poker\ngame: Kuhn poker with a dead raise\n"
                       "new:\n  actions:\n    raise:\n      when: bettor != none and bettor == none\n"
                       "      effect:\n        - put[player] += 2\n"
                       "phases:\n  betting: {actions: [check, bet, call, fold, raise]}\n")
    code, out, _ = cli(["simulate", str(variant), "--games", "30", "--seed", "1", "--workers", "1"], capsys)
    assert code == 0
    assert "action 'raise' was never taken (never legal): possibly a dead rule" in out


def test_a_rule_error_is_reported_as_run_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "boom.yaml"
    variant.write_text("extends: kuhn-poker\nactions:\n  bet:\n    effect:\n"
                       "      - put[player] += 1 // (put[player] - 1)\n      - bettor = player\n")
    code, out, err = cli(["simulate", str(variant), "--games", "50", "--seed", "1", "--workers", "2"], capsys)
    assert code == 1 and "Traceback" not in err
    assert "rule error: division by zero" in err and "designer's view" in err
    assert "to replay it: cardsmith run" in err and "--seed " in err


@pytest.mark.parametrize("argv", [
    ["simulate", "schwimmen", "--games", "0"],
    ["simulate", "schwimmen", "--games", "ten"],
    ["simulate", "schwimmen", "--workers", "0"],
    ["simulate", "schwimmen", "--bots", "nosuchbot"],
    ["simulate", "schwimmen", "--bots", "ismcts(iterations=0)"],
    ["simulate", "schwimmen", "--bots", "greedy(by=lives)"],  # found with the game, before any match
    ["simulate", "schwimmen", "--bots", "ismcts(rollout=calm)"],
    ["simulate", "schwimmen", "-n", "2", "--bots", "random, first, random"],
    ["simulate", "stichln", "-n", "4", "--score", "pionts"],
    ["simulate", "kuhn-poker", "--score", "card"],
    ["simulate", "schwimmen", "--score-as", "sum"],
    ["simulate", "schwimmen", "--seed", "-1"],
    ["compare", "kuhn-poker"],
    ["compare", "kuhn-poker", "--variant", "novalue"],
])
def test_bad_arguments_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(argv, capsys)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardsmith: error: "), err
    assert "Traceback" not in err and out == ""


def test_score_typo_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = cli(["simulate", "stichln", "-n", "4", "--score", "pionts"], capsys)
    assert "did you mean 'points'?" in err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers in /proc (Linux)")
def test_ctrl_c_reports_the_matches_done(tmp_path: Path) -> None:
    # The terminal's Ctrl-C: SIGINT to the whole process group, workers included.
    cmd = [sys.executable, "-m", "cardsmith.cli.main", "simulate", "kuhn-poker", "--games", "50000000",
           "--seed", "3", "--workers", "2", "--out", str(tmp_path)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children = Path(f"/proc/{p.pid}/task/{p.pid}/children")

    def worker_cpu() -> int:
        """Clock ticks the workers have run: they are playing matches, whatever the machine's load."""
        ticks = 0
        for pid in children.read_text().split():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return ticks

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (len(children.read_text().split()) < 2 or worker_cpu() < 100):
        time.sleep(0.1)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (out, err)
    assert "Traceback" not in err + out
    assert "interrupted: these figures are from the" in out
    s = json.loads((tmp_path / "summary.json").read_text())
    assert s["interrupted"] and 0 < s["matches"] < 50_000_000


# ---------------------------------------------------------------- compare
@pytest.mark.slow
def test_compare_finds_a_real_difference_and_none_with_a_copy(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["compare", "kuhn-poker", str(GAMES / "kuhn-dealer-first.yaml"),
                          str(GAMES / "kuhn-copy.yaml"), "--games", "1000", "--seed", "5", "--workers", "2",
                          "--out", str(tmp_path)], capsys)
    assert code == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    moved, same = doc["comparisons"]
    # With the dealer opening, P0 no longer bets first: its win share falls by about eleven points.
    assert moved["seats"][0]["significant"] and moved["seats"][0]["difference"] < -0.05
    assert moved["seats"][0]["p"] < 0.001
    assert not any(t["significant"] for t in same["seats"])
    assert same["seats"][0]["difference"] == 0.0 and same["seats"][0]["p"] == 1.0
    assert "no significant difference" in out and ", significant" in out
    assert (tmp_path / "config-2" / "summary.json").exists()


def test_compare_option_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["compare", "stichln", "-n", "3", "--variant", "deals=1", "--games", "20", "--seed", "2",
                          "--workers", "1", "--no-score"], capsys)
    assert code == 0, err
    assert "stichln deals=1 (Stichln) against the baseline" in out
    assert "mean deals per match" in out


def test_strategies_of_the_rule_file_are_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A simulation pits Schwimmen's "steady" player against its "hasty" one, without any Python.
    code, out, _ = cli(["simulate", "schwimmen", "-n", "2", "--games", "60", "--bots", "steady, hasty", "--rotate",
                        "--seed", "3", "--workers", "1", "--no-progress", "--plain", "--out", str(tmp_path)], capsys)
    assert code == 0
    shares = {b["bot"]: b["share"] for b in json.loads((tmp_path / "summary.json").read_text())["bots_table"]}
    assert shares["steady"] > 0.8 and shares["hasty"] < 0.2
    code, _, err = cli(["simulate", "schwimmen", "--games", "5", "--bots", "stedy", "--no-progress"], capsys)
    assert code == 2
    assert "no bot named 'stedy'; the bots are first, greedy, ismcts, random; the rule file's strategies: hasty, " \
           "steady" in err


@pytest.mark.slow
@pytest.mark.cluster
def test_ray_gives_the_same_bytes_as_the_local_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    code1, _, _ = _simulate(tmp_path / "local", capsys, 2)
    # In a process of its own: Ray's local instance (its processes, signal handlers and shutdown) must not
    # outlive the run in the test process.
    ray = subprocess.run([sys.executable, "-m", "cardsmith", "simulate", "schwimmen", "-n", "3", "--games", "40",
                          "--seed", "11", "--ray", "local", "--out", str(tmp_path / "ray"), "--no-progress"],
                         capture_output=True, text=True, timeout=600)
    assert code1 == 0 and ray.returncode == 0, ray.stderr
    assert "with Ray at local" in ray.stderr
    for name in ("summary.json", "matches.csv"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes(), name


@pytest.mark.cluster
def test_ray_that_cannot_be_reached_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    code, _, err = cli(["simulate", "schwimmen", "--games", "5", "--no-progress", "--ray", "127.0.0.1:1"], capsys)
    assert code == 1
    assert err.startswith("cardsmith: error: --ray 127.0.0.1:1: cannot reach a Ray cluster") and err.count("\n") == 1
