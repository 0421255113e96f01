"""`cardsmith explain` and the rulebook (interpreter/rulebook/, docs/rulebook.md): every bundled game's rulebook
builds in every format; what it says in words matches what the engine does; the text it quotes is the rule
file's own; rule-file text cannot become markup; bad arguments get one line; docs/games/ is current."""

from __future__ import annotations

import json
import re
import time
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl import ast as A
from cardsmith.dsl import parser
from cardsmith.dsl.diagnostics import Diagnostic, Span
from cardsmith.dsl.limits import DEFAULT_LIMITS
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.rulebook import build_rulebook, to_html, to_json, to_lines, to_markdown
from cardsmith.rulebook.pages import REGENERATE, pages
from cardsmith.rulebook.source import same
from cardsmith.rulebook.unparse import expr as unparse_expr
from cardsmith.rulebook.unparse import stmt as unparse_stmt
from cardsmith.table.terminal import plain
from conftest import BUNDLED_DIR, ROOT, cli, compiled

BUNDLED = sorted(BUNDLED_DIR.glob("*.yaml"))
MORE = sorted((ROOT / "tests" / "games").glob("*.yaml")) + [ROOT / "docs" / "examples" / "schwimmen-two-lives.yaml"]


def book(path: Path, **table: Any) -> Any:
    return build_rulebook(compiled(str(path)), **table)


# ---------------------------------------------------------------- every game, every format
@pytest.mark.parametrize("path", BUNDLED + MORE, ids=lambda p: p.stem)
def test_the_rulebook_builds_in_every_format(path: Path) -> None:
    doc = book(path)
    md, page, data = to_markdown(doc), to_html(doc), to_json(doc)
    spec = compiled(str(path)).spec
    assert md.startswith(f"# {spec.name}".replace("(", "(")) and "## How a match is played" in md
    for name in [ph.name for ph in spec.phases] + [a.name for a in spec.actions] + [z.name for z in spec.zones]:
        assert f"`{name}`" in md or name.replace("_", "\\_") in md or name.replace("_", " ") in md, name
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http" not in page.split("<body>")[1]
    assert "src=" not in page and "<link" not in page  # one page: nothing loaded from elsewhere
    assert json.loads(json.dumps(data)) == data
    assert to_lines(doc) and str(ROOT) not in md and str(ROOT) not in page


def _expressions(x: Any, out: list[Any]) -> None:
    """Every whole expression and statement a spec holds (not the parts of one)."""
    if isinstance(x, (A.Expr, A.Stmt)):
        out.append(x)
        if isinstance(x, A.If):
            for s in x.then + x.other:
                _expressions(s, out)
        elif isinstance(x, A.For):
            for s in x.body:
                _expressions(s, out)
    elif is_dataclass(x) and not isinstance(x, type):
        for f in fields(x):
            _expressions(getattr(x, f.name), out)
    elif isinstance(x, (list, tuple)):
        for y in x:
            _expressions(y, out)
    elif isinstance(x, dict):
        for y in x.values():
            _expressions(y, out)


@pytest.mark.parametrize("path", BUNDLED + MORE, ids=lambda p: p.stem)
def test_code_written_from_the_tree_reads_back_as_the_same_tree(path: Path) -> None:
    found: list[Any] = []
    _expressions(compiled(str(path)).spec, found)
    assert len(found) > 20
    for node in found:
        if isinstance(node, (A.If, A.For)):
            continue
        diags: list[Diagnostic] = []
        start = "expression" if isinstance(node, A.Expr) else "statement"
        written = unparse_expr(node) if isinstance(node, A.Expr) else unparse_stmt(node)
        back = parser.parse(written, start, lambda ln, c: Span("x", ln, c), diags, DEFAULT_LIMITS)
        if isinstance(node, A.Const) and isinstance(node.value, (int, float)) and node.value < 0:
            continue  # a negative number from YAML reads back as minus a number: the same value
        assert not diags and same(back, node), written


# ---------------------------------------------------------------- the words say what the engine does
def test_the_pack_table_is_the_pack_the_engine_builds_at_every_count() -> None:
    path = BUNDLED_DIR / "stichln.yaml"
    md = to_markdown(book(path))
    spec = compiled(str(path)).spec
    for n in range(spec.min_players, spec.max_players + 1):
        g = Game(compiled(str(path)), n)
        dealt = 14 if n == 7 else 15
        assert re.search(rf"^\| {n} \| {g.num_cards} \| .* \| {dealt} \|$", md, re.M), n


def test_a_pack_that_options_change_is_shown_for_each_of_their_values() -> None:
    path = BUNDLED_DIR / "chwech.yaml"
    md = to_markdown(book(path))
    for n, option, value in [(5, "five_pack", "no_twos_threes"), (5, "five_pack", "no_sevens_eights"),
                             (7, "seven_pack", "extra_twos_threes"), (7, "seven_pack", "five_hundred")]:
        g = Game(compiled(str(path)), n, {option: value})
        shown = f"| {n} | {option} = {value} | {g.num_cards} |".replace("_", "\\_")
        assert shown in md
    assert "| 4 | any | 36 |" in md and "Joker ×3" in md and "clubs, spades: 2–12, J–A; diamonds, hearts: 2–A" in md


def test_a_table_given_says_what_it_plays_with() -> None:
    md = to_markdown(book(BUNDLED_DIR / "thirty-one.yaml", players=3, options={"rule_set": "blitz"}))
    table = md.split("## This table", 1)[1].split("\n## ", 1)[0]
    assert "- 3 players." in table and "`exchange` = draw\\_discard" in table and "`remove_low` = no" in table
    assert "A pack of 52 cards: diamonds, hearts, spades, clubs: 2–A." in table


def test_secret_actions_say_what_the_engine_shows_the_others() -> None:
    path = BUNDLED_DIR / "hearts.yaml"
    md = to_markdown(book(path))
    g = Game(compiled(str(path)), 4)
    seed = next(k for k in range(50) if g.phases[State.initial(g, k).phase].name == "passing")  # not a 'hold' deal
    s = State.initial(g, seed)
    shown = g.public_action_string(s.legal_actions()[0])
    assert shown == "pass (hidden)" and f"the other players see only “{shown}”" in md


def test_who_acts_first_in_words_is_who_the_engine_gives_the_turn() -> None:
    path = BUNDLED_DIR / "stichln.yaml"
    md = to_markdown(book(path))
    section = md.split('<a id="phase-choose-minus"></a>', 1)[1]
    assert section.split("\n- ", 1)[1].startswith("When the phase begins, the player to the dealer's left is to act.")
    for n in (3, 5):
        g = Game(compiled(str(path)), n)
        s = State.initial(g, 11)
        assert g.phases[s.phase].name == "choose_minus" and s.current_player() == (s.dealer + 1) % n


def test_deals_and_the_end_of_the_match_in_words() -> None:
    md = to_markdown(book(BUNDLED_DIR / "hearts.yaml"))
    assert ("Deal 13 cards from the top of `stock` to each active player's `hand`, one card at a time, starting at "
            "the dealer's left and ending with the dealer.") in md
    assert "The match is one deal long: it is over when the first deal ends." in md
    assert "- The players with the highest `result(p)` (for each player `p`) win" in md
    kuhn = to_markdown(book(BUNDLED_DIR / "kuhn-poker.yaml"))
    assert "Each player's result (chips) is `if p == taker then put[left(p)] else -put[p]`" in kuhn
    assert "The results always add up to 0." in kuhn and "- Make P1 the dealer." in kuhn
    stichln = to_markdown(book(BUNDLED_DIR / "stichln.yaml"))
    assert "The match lasts as many deals as the table option `deals` says" in stichln
    assert "| `deals` | 1 to 50 | `=num_players`: 3 with 3 players; 4 with 4 players;" in stichln


# ---------------------------------------------------------------- what the rule file itself says
def test_expressions_and_comments_are_quoted_from_the_rule_file() -> None:
    path = BUNDLED_DIR / "hearts.yaml"
    md = to_markdown(book(path))
    source = path.read_text(encoding="utf-8")
    body = source.split("  may_play(p, c): |\n", 1)[1].split("\n  # The highest", 1)[0]
    written = "\n".join(line[4:] for line in body.splitlines())
    assert f"```\n{written}\n```" in md  # the helper rule as written, its lines kept
    receiver = md.split("### receiver(p)", 1)[1]
    assert receiver.lstrip().startswith("> Who gets the cards p passes.")
    assert "> one deal is the whole match" in md  # a comment at the end of a line
    assert md.count("DECISION: P3 deals") == 1  # each comment once
    # The file's opening comment lines, and a comment that only draws a line is left out.
    assert "> Hearts: four players avoid taking hearts" in md
    thirty_one = to_markdown(book(BUNDLED_DIR / "thirty-one.yaml"))
    assert "-----" not in thirty_one and "The rule set only chooses the defaults" in thirty_one


MINI = """\
# A <b>rule file</b> made to break pages: {first}
game: "{game}"
summary: "{summary}"
players: {{min: 2, max: 3}}
deck:
  suits: [diamonds, hearts]
  ranks: ['7', '8', A]
zones:
  stock: {{visible: nobody, label: "{label}", doc: "{doc}"}}    # {comment}
  hand: {{per_player: true, visible: owner, label: "hand # not a comment"}}
  table: {{}}
variables:
  points: {{type: int, per_player: true, doc: "{doc}"}}
actions:
  play:
    label: "{label} play"
    params: {{card: "hand[player]"}}
    effect:
      - move card to table
      - "log '{log} {{}}', card"
phases:
  playing:
    label: "{label} phase"
    doc: "{doc}"
    first: left(dealer)
    round: true
    actions: [play]
    end:
      - let best = max_by(table, c => c.rank_index)
      - points[played_by(best)] += 1
      - end deal
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto playing
  over_when: deal_number >= 2
  winners: all_max_by(players, p => points[p])
"""
HOSTILE = dict(first="<script>alert(1)</script>", game="<script>alert(2)</script> & Co",
               summary="<img src=x onerror=alert(3)> *bold* [x](javascript:alert(4)) | cell `tick`",
               label="<i>lab</i>|", doc="</code><script>alert(5)</script> \\x1b[31m red",
               comment="<script>alert(6)</script> | * [y](javascript:z)", log="<b>said</b>")


def hostile(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.yaml"
    path.write_text(MINI.format(**HOSTILE), encoding="utf-8")
    r = compile_file(path)
    assert r.ok, r.diagnostics
    return path


def test_rule_file_text_never_becomes_markup(tmp_path: Path) -> None:
    path = hostile(tmp_path)
    doc = build_rulebook(compile_file(path).game)  # type: ignore[arg-type]
    page = to_html(doc)
    assert "<script" not in page and "<img" not in page and "<i>" not in page and "<b>" not in page
    assert 'href="javascript' not in page and all(h.startswith('href="#') for h in re.findall(r'href="[^"]*', page))
    assert "&lt;script&gt;alert(2)&lt;/script&gt; &amp; Co" in page and "&lt;script&gt;alert(6)" in page
    assert "\x1b" not in page and "\\x1b[31m red" in page
    md = to_markdown(doc)
    # Markup characters from the file are escaped; the only tags are the anchors the page names its sections by.
    assert re.findall(r"(?<!\\)<", re.sub(r'<a id="[a-z0-9-]+"></a>', "", md)) == [] and "\x1b" not in md
    assert not re.search(r"(?<!\\)\]\(javascript", md)
    assert "\\<script\\>alert(2)\\</script\\> \\& Co" in md and "\\*bold\\*" in md
    # In a table a bar stays in its cell, in text and in code alike.
    rows = [ln for ln in md.splitlines() if ln.startswith("| `stock` |")]
    assert len(rows) == 1 and rows[0].count(" | ") == 3 and "\\<i\\>lab\\</i\\>\\|" in rows[0]
    # A `#` inside a quoted value is not a comment.
    assert md.count("not a comment") == 1 and "| hand \\# not a comment |" in md
    # The terminal table escapes each piece as it prints it (the lines keep the text as it is).
    assert all("\x1b" not in plain(line) for line in to_lines(doc))


# ---------------------------------------------------------------- the command
def test_explain_prints_markdown_or_writes_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["explain", "kuhn-poker"], capsys)
    assert (code, err) == (0, "") and out == (ROOT / "docs" / "games" / "kuhn-poker.md").read_text(encoding="utf-8")
    target = tmp_path / "kuhn.html"
    code, out, err = cli(["explain", "kuhn-poker", "--format", "html", "-o", str(target)], capsys)
    assert (code, out, err) == (0, "", "") and target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    code, out, err = cli(["explain", "chwech", "-n", "7", "--option", "seven_pack=five_hundred"], capsys)
    assert code == 0 and "- A pack of 63 cards: clubs, spades: 2–12, J–A; diamonds, hearts: 2–A; Joker." in out


@pytest.mark.parametrize("args, message", [
    (["explain", "nosuch"], "no rule file or bundled game named 'nosuch'"),
    (["explain", "hearts", "-n", "3"], "Hearts is for 4 players, not 3"),
    (["explain", "thirty-one", "--option", "lives=9"], "option 'lives' takes a whole number from 0 to 5"),
    (["explain", "thirty-one", "--option", "nope=1"], "unknown option 'nope'"),
    (["explain", "thirty-one", "--option", "lives"], "--option takes NAME=VALUE"),
    (["explain", "hearts", "--format", "pdf"], "invalid choice: 'pdf'"),
    (["explain", "hearts", "-n", "x"], "expected a whole number"),
    (["explain", "thirty-one", "-o", "rule_set=blitz"], "for the table option write --option rule_set=blitz"),
    (["explain", "hearts", "-o", "/nonexistent/folder/hearts.md"], "cannot write '/nonexistent/folder/hearts.md'"),
])
def test_bad_arguments_get_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(args, capsys)
    assert code in (1, 2) and out == "" and err.count("\n") == 1 and message in err, err


def test_a_rule_file_with_errors_gets_its_located_problems(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((BUNDLED_DIR / "kuhn-poker.yaml").read_text().replace("when: bettor == none", "when: betor == none"))
    code, out, err = cli(["explain", str(bad)], capsys)
    assert code == 1 and out == "" and f"{bad}:" in err and "unknown name 'betor'" in err and "Traceback" not in err


def test_a_rule_file_costly_to_set_up_gets_a_note_not_a_wait(capsys: pytest.CaptureFixture[str]) -> None:
    # 99,000 kinds of card with properties, at 63 player counts: the tables the rulebook sets up share one budget.
    path = ROOT / "tests" / "attacks" / "budget_properties_for_every_count.yaml"
    start = time.process_time()
    code, out, err = cli(["explain", str(path)], capsys)
    assert (code, err) == (0, "") and time.process_time() - start < 30
    assert out.count("Not worked out: setting the game up at every player count and setting the rulebook looks "
                     "at takes more than 2,000,000 units of work") == 1


# ---------------------------------------------------------------- docs/games
@pytest.mark.slow
def test_the_pages_in_docs_games_are_current() -> None:
    folder = ROOT / "docs" / "games"
    current = pages(lambda path: compiled(str(path)))
    stale = [name for name, content in current.items()
             if not (folder / name).exists() or (folder / name).read_text(encoding="utf-8") != content]
    extra = sorted(p.name for p in folder.glob("*.md") if p.name not in current)
    assert not stale and not extra, (f"docs/games/ is not what `cardsmith explain` writes now: {stale or extra}; "
                                     f"regenerate the pages with `{REGENERATE}`")


def test_the_excerpts_in_docs_rulebook_are_what_the_pages_say() -> None:
    text = (ROOT / "docs" / "rulebook.md").read_text(encoding="utf-8")
    excerpts = re.findall(r"<!-- rulebook: ([a-z0-9-]+) -->\n```markdown\n(.*?)\n```", text, re.S)
    assert len(excerpts) == 3
    for game, excerpt in excerpts:
        assert excerpt in (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8"), game


def test_the_rulebook_of_a_rule_text_matches_its_file(tmp_path: Path) -> None:
    # Text compiled from memory (no file to read again) still gets its expressions, as code from the tree.
    text = (BUNDLED_DIR / "stichln.yaml").read_text(encoding="utf-8")
    loaded = compile_text(text, "<rules>")
    assert loaded.game is not None
    md = to_markdown(build_rulebook(loaded.game, file_name="stichln.yaml"))
    assert "`(num_players >= 6 or card.suit != 'purple') and card.number <= top_number[num_players]`" in md
