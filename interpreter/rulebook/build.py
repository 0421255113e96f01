"""A rule file's rulebook: the document (model.py) built from a compiled game.

`build_rulebook(compiled)` reads the spec (dsl/spec.py) section by section, quotes the designer's
`summary`, labels, docs and comments, explains the language's constructs in words (words.py), and asks
the engine what the rules come to at each player count and option (facts.py). Given a table (`players`,
`options`), it also says what that table plays with. Nothing here names a game: every bundled game's page
in docs/games/ is this same builder applied to its file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..dsl import ast as A
from ..dsl.compiler import CompiledGame
from ..dsl.spec import GameSpec, OptionSpec
from ..dsl.table_checks import bounds_vary_with_players_only
from ..engine.game import Game
from . import facts, parts, rules, unparse
from .facts import option_text, players_text
from .model import (
    Block,
    Bullets,
    Document,
    Note,
    Paragraph,
    Runs,
    Section,
    Table,
    code,
    em,
    item,
    para,
    text,
)
from .source import Source
from .words import Words


def build_rulebook(compiled: CompiledGame, players: int | None = None, options: dict[str, Any] | None = None,
                   file_name: str | None = None) -> Document:
    """The rulebook of a compiled rule file. With `players` (and `options`, values as on the command line),
    it starts with what that table plays with; a table the rules cannot set up raises the engine's
    GameError (BadOption, SetupRefused), whose message is one line. `file_name` is how the page names the
    rule file (default: its file's name)."""
    spec = compiled.spec
    table = Game(compiled, players if players is not None else spec.min_players, options or {}) \
        if players is not None or options else None
    source = Source(compiled.sources, compiled.limits)
    words = Words(spec, source)
    name = file_name or Path(spec.file).name
    doc = Document(spec.name)
    if spec.summary:
        doc.blocks.append(para(" ".join(spec.summary.split())))
    header = source.header(spec.file)
    if header:
        doc.blocks.append(Note(parts.note_runs(" ".join(header))))
    doc.blocks.append(Paragraph([em("This rulebook is generated from the rule file "), code(name),
                                 em(" by "), code("cardsmith explain"), em(". Where it quotes the rule file "
                                                                         "(in code), the rule file decides.")]))
    tables = facts.Tables(compiled)
    if len(spec.files) > 1:
        bases: Runs = []
        for i, f in enumerate(spec.files[1:]):
            bases += ([text(", which extends ")] if i else []) + [code(Path(f).name)]
        doc.blocks.append(Paragraph([text("A variant: "), code(name), text(" extends ")] + bases
                                    + [text("; this rulebook is of the rules they make together.")]))
    pack = facts.pack_facts(compiled, tables)
    if table is not None:
        doc.sections.append(_this_table(table, pack))
    doc.sections.append(parts.reading(spec))
    doc.sections.append(_players(spec, words, source))
    doc.sections.append(_cards(compiled, words, source, pack))
    if spec.options:
        doc.sections.append(_options(compiled, tables, words, source))
    doc.sections.append(parts.zones(spec, words, source))
    if spec.variables:
        doc.sections.append(parts.variables(spec, words, source))
    doc.sections.append(rules.match(spec, words, source))
    doc.sections += parts.details(spec, words, source)
    return doc


# ---------------------------------------------------------------- this table
def _this_table(g: Game, pack: facts.PackFacts) -> Section:
    spec = g.spec
    s = Section("This table", "this-table")
    lines: list[list[Block]] = [item(para(f"{g.n} players."))]
    for o in spec.options:
        lines.append(item(Paragraph([code(o.name), text(f" = {option_text(g.options[o.name])}")]
                                    + ([text(f": {o.doc}")] if o.doc else []))))
    lines.append(item(para(f"A pack of {g.num_cards} cards: {facts.describe_cards(g)}.")))
    for label, value in _dealt(spec, g):
        lines.append(item(Paragraph(label + [text(f": {value}.")])))
    s.blocks.append(Bullets(lines))
    return s


def _dealt(spec: GameSpec, g: Game) -> list[tuple[Runs, str]]:
    """Cards the deal's own `deal` steps give, when their number is fixed for the game."""
    out: list[tuple[Runs, str]] = []
    for st in spec.match.deal:
        if not isinstance(st, A.Deal) or not facts.reads_only_fixed(st.count):
            continue
        v = facts.fixed(st.count, g.n, g.options, spec)
        if not facts.known(v) or type(v) is not int:
            continue
        z = next((z for z in spec.zones if z.name == st.dest.name), None)
        each = st.dest.index is None and z is not None and z.per_player
        out.append(([text("Cards dealt to each player's " if each else "Cards dealt to "),
                     code(st.dest.name if each else unparse.zone(st.dest))], str(v)))
    return out


# ---------------------------------------------------------------- players
def _players(spec: GameSpec, words: Words, source: Source) -> Section:
    s = Section("Players", "players")
    lo, hi = spec.min_players, spec.max_players
    count = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    if lo == 1 == hi:
        count = "1 player"
    s.blocks.append(para(f"{count}. Seats are numbered P0, P1, and so on; each seat's next (P1 after P0, and P0 "
                         "after the last) sits to its left, and play goes clockwise, to the left."))
    s.blocks += parts.notes(source, source.key_span("players"))
    if spec.teams is not None:
        quoted = words.quoted(spec.teams)
        s.blocks.append(Paragraph([text("Players play in partnerships. The team of seat "), code("p"),
                                   text(" is worked out when the match starts and again at the start of every "
                                        "deal: ")] + (quoted if isinstance(quoted, list) else [])))
        if not isinstance(quoted, list):
            s.blocks.append(quoted)
        s.blocks += parts.notes(source, source.key_span("players", "teams"))
        rows = _team_rows(spec)
        if rows:
            s.blocks.append(Table([[text("Players")], [text("Teams")]], rows))
    elif not parts.sets_teams(spec):
        s.blocks.append(para("Everyone plays for themselves."))
    else:
        s.blocks.append(para("Each player starts every deal as a team of their own; the rules below form sides "
                             "during a deal."))
    first: Runs = [text("P0 deals first")]
    if parts.reaches(spec.match.start, spec, A.Assign, "dealer"):
        first = [text("The first dealer is set before the first deal (see "), *rules.start_link(), text(")")]
    nxt: Runs = [text("then the deal passes to the next active player to the left (clockwise)")]
    if spec.match.next_dealer is not None:
        nxt = [text("then each next dealer is ")] + words.player(spec.match.next_dealer)
    s.blocks.append(Paragraph(first + [text("; ")] + nxt + [text(".")]))
    return s


def _team_rows(spec: GameSpec) -> list[list[Runs]]:
    assert spec.teams is not None
    rows: list[list[Runs]] = []
    for n in range(spec.min_players, spec.max_players + 1):
        defaults = {o.name: o.default for o in spec.options if not isinstance(o.default, A.Expr)}
        got = [facts.fixed(spec.teams, n, defaults, spec, {"p": p}) for p in range(n)]
        if not all(facts.known(t) and type(t) is int for t in got) or not facts.reads_only_fixed(spec.teams):
            return []
        teams: dict[int, list[str]] = {}
        for p, t in enumerate(got):
            teams.setdefault(t, []).append(f"P{p}")
        said = "; ".join(f"team {t}: {', '.join(ps)}" for t, ps in sorted(teams.items()))
        rows.append([[text(str(n))], [text(said)]])
    return rows


# ---------------------------------------------------------------- cards
def _cards(compiled: CompiledGame, words: Words, source: Source, pack: facts.PackFacts) -> Section:
    spec = compiled.spec
    s = Section("The cards", "cards")
    s.blocks.append(Paragraph([text(f"Suits: {', '.join(spec.suits)}.")]))
    s.blocks += parts.notes(source, source.key_span("deck", "suits"))
    s.blocks.append(Paragraph([text(f"Ranks, lowest first: {', '.join(spec.ranks)}.")]))
    s.blocks += parts.notes(source, source.key_span("deck", "ranks"))
    for p in spec.properties:
        s.blocks += parts.property_blocks(p, words, source)
    s.blocks += _pack(spec, pack, words, source)
    return s


def _pack(spec: GameSpec, pack: facts.PackFacts, words: Words, source: Source) -> list[Block]:
    out: list[Block] = []
    counts = list(range(spec.min_players, spec.max_players + 1))
    dealt_cols: list[Runs] = []
    if pack.rows and pack.rows[0].game is not None:
        dealt_cols = [label for label, _ in _dealt(spec, pack.rows[0].game)]
    if len(pack.rows) == 1 and pack.rows[0].players == counts:
        r = pack.rows[0]
        out.append(para(f"The pack has {r.size} cards: {r.cards}."))
        if r.game is not None:
            out += [Paragraph(label + [text(f": {value}.")]) for label, value in _dealt(spec, r.game)]
    elif pack.rows:
        lead = "The pack depends on the number of players" if not pack.options else \
            "The pack depends on the number of players and the table options"
        out.append(para(lead + ":"))
        header: list[Runs] = [[text("Players")]] + ([[text("Options")]] if pack.options else []) + [
            [text("Cards")], [text("Which cards")]] + dealt_cols
        rows: list[list[Runs]] = []
        for r in pack.rows:
            dealt = dict((tuple(label), value) for label, value in _dealt(spec, r.game)) if r.game else {}
            rows.append([[text(players_text(r.players))]] + ([[text(r.setting or "any")]] if pack.options else [])
                        + [[text(str(r.size))], [text(r.cards)]]
                        + [[text(dealt.get(tuple(label), "?"))] for label in dealt_cols])
        out.append(Table(header, rows))
    if pack.untried:
        out.append(Paragraph([text("The pack also depends on "), *_names(pack.untried),
                              text(" (shown here at the default value; the rule file's pack entries below say how).")]))
    for f in pack.failed:
        out.append(para(f"Not worked out: {f}."))
    written = [e for e in spec.pack if e.when is not None or e.where is not None or e.card is not None
               or e.suits is not None or e.ranks is not None or e.copies != 1]
    if written and (len(pack.rows) > 1 or any(e.where is not None or e.when is not None for e in written)):
        out.append(para("The rule file builds the pack from these entries, in order:"))
        out.append(Bullets([parts.pack_entry(e, words, source) for e in spec.pack]))
    return out


def _names(names: list[str]) -> Runs:
    out: Runs = []
    for i, n in enumerate(names):
        if i:
            out.append(text(", "))
        out.append(code(n))
    return out


# ---------------------------------------------------------------- options
def _options(compiled: CompiledGame, tables: facts.Tables, words: Words, source: Source) -> Section:
    spec = compiled.spec
    s = Section("Table options", "options")
    s.blocks += parts.notes(source, source.key_span("options"))
    s.blocks.append(Paragraph([text("The players agree on these before the match ("), code("--option NAME=VALUE"),
                               text(" on the command line, or in the lobby of the web table).")]))
    rows: list[list[Runs]] = []
    for o in spec.options:
        about: Runs = [text(o.doc)] if o.doc else []
        notes = source.comments(o.span)
        if notes:
            about += [text(" " if about else ""), em("Note: " + " ".join(notes))]
        rows.append([[code(o.name)], _allowed(tables, o), _default(tables, o), about])
    s.blocks.append(Table([[text("Option")], [text("Values")], [text("Default")], [text("What it does")]], rows))
    if spec.constraints:
        items = []
        for c in spec.constraints:
            cond = [code(c.text)] if c.text else [words.code(c.cond)]
            lead = "Refused when " if c.refuse else "Refused unless "
            items.append(item(Paragraph([text(lead)] + cond + [text(": “"), text(c.message), text("”")])))
        s.blocks.append(para("Some settings are refused, with the message shown:"))
        s.blocks.append(Bullets(items))
    return s


def _allowed(tables: facts.Tables, o: OptionSpec) -> Runs:
    if o.kind == "bool":
        return [text("yes or no")]
    if o.kind == "choice":
        return _names(o.values)
    if o.min_expr is None and o.max_expr is None:
        return [text(f"{o.min} to {o.max}")]
    written = [code(o.min_text or str(o.min)), text(" to "), code(o.max_text or str(o.max))]
    by = facts.option_ranges_by_count(tables, o) if bounds_vary_with_players_only(o) else []
    if by:
        written += [text(": " + "; ".join(f"{v} with {players_text(ns)} players" for ns, v in by))]
    return written


def _default(tables: facts.Tables, o: OptionSpec) -> Runs:
    if not isinstance(o.default, A.Expr):
        return [code(o.default) if o.kind == "choice" else text(option_text(o.default))]
    written: Runs = [code(o.default_text)]
    by = facts.option_defaults(tables, o)
    reads = facts.options_read([o.default], tables.compiled.spec)
    if by:
        values = "; ".join(f"{v} with {players_text(ns)} players" for ns, v in by) if len(by) > 1 else by[0][1]
        extra = " (with the options above at their defaults)" if reads else ""
        written.append(text(f": {values}{extra}"))
    return written
