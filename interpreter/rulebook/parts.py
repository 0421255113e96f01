"""The rulebook's descriptive sections: how to read it, the places cards lie, what the game keeps, card
properties and pack entries, and the details (helper rules, procedures, strategies for bots)."""

from __future__ import annotations

from ..dsl import ast as A
from ..dsl import types as T
from ..dsl.diagnostics import Span
from ..dsl.spec import GameSpec, PackEntry, PropertySpec, StrategyRule
from . import unparse
from .facts import option_text
from .model import Block, Bullets, Code, Note, Paragraph, Runs, Section, Table, code, em, item, para, text
from .source import Source
from .words import Words, anchor, note_text, shown_name

_TYPES: dict[T.Type, str] = {T.INT: "a whole number", T.NUM: "a number", T.BOOL: "true or false", T.PLAYER: "a player",
          T.CARD: "a card", T.SUIT: "a suit", T.RANK: "a rank", T.STR: "a text"}
_LISTS: dict[T.Type, str] = {T.CARD: "a list of cards", T.PLAYER: "a list of players", T.NUM: "a list of numbers"}
_EMPTY: dict[T.Type, str] = {T.INT: "0", T.NUM: "0", T.BOOL: "false"}


def note_runs(s: str) -> Runs:
    return note_text(s)


def notes(source: Source, span: Span | None, above: bool = True) -> list[Block]:
    found = source.comments(span, above)
    return [Note(note_runs(" ".join(found)))] if found else []


def all_steps(stmts: list[A.Stmt]) -> list[A.Stmt]:
    """Every statement, those inside `if` and `for` steps too."""
    return list(A.statements(stmts))


def every_step(spec: GameSpec) -> list[A.Stmt]:
    m = spec.match
    lists = [m.start, m.deal, m.end_deal] + [a.effect for a in spec.actions] + [p.body for p in spec.procedures] \
        + [x for ph in spec.phases for x in (ph.start, ph.after, ph.end)]
    return [s for stmts in lists for s in all_steps(stmts)]


def reaches(stmts: list[A.Stmt], spec: GameSpec, found: type, name: str) -> bool:
    """True if these steps, or the procedures they run, hold a `found` statement (an assignment to `name`)."""
    procs = {p.name: p for p in spec.procedures}
    seen: set[str] = set()
    stack = [stmts]
    while stack:
        for s in all_steps(stack.pop()):
            if isinstance(s, found) and (not isinstance(s, A.Assign) or s.name == name):
                return True
            if isinstance(s, A.Do) and s.proc in procs and s.proc not in seen:
                seen.add(s.proc)
                stack.append(procs[s.proc].body)
    return False


def sets_teams(spec: GameSpec) -> bool:
    return any(isinstance(s, A.Assign) and s.name == "team" and s.index is not None for s in every_step(spec))


def type_words(ty: T.Type) -> str:
    if T.card_lists(ty):
        return "a list of lists of cards"
    if T.is_list(ty):
        return _LISTS.get(ty.item, "a list")
    return _TYPES.get(ty) or (ty.name if isinstance(ty, T.Prim) else ty.show())


def seen_by(vis: str | A.Expr, per_player: bool, zone: bool, words: Words) -> Runs:
    """Who may see a zone's cards or a variable's value (docs/language.md, section 11)."""
    if vis == "everyone":
        return [text("everyone")]
    if vis == "owner":
        return [text("each player sees only their own")]
    if vis == "nobody":
        return [text("nobody (only how many cards)" if zone else "nobody; the rules read it")]
    assert isinstance(vis, A.Expr)
    runs: Runs = [text("the players in "), words.code(vis)]
    if per_player:
        runs.append(text(", where "))
        runs += [code("owner"), text(" is the player it belongs to")]
    return runs + [text(", as it is at each moment")]


def _about(doc: str, found: list[str]) -> Runs:
    runs = note_runs(doc) if doc else []
    if found:
        runs += ([text(" ")] if runs else []) + [em("Note: " + " ".join(found))]
    return runs


def _shown(label: str, name: str, show: bool | A.Expr, words: Words) -> Runs:
    if show is False:
        return [text("not shown at the tables (bookkeeping)")]
    runs: Runs = [text(shown_name(name, label))]
    if isinstance(show, A.Expr):
        runs += [text(", only at tables where "), words.code(show)]
    return runs


# ---------------------------------------------------------------- reading
def reading(spec: GameSpec) -> Section:
    s = Section("How to read this rulebook", "reading")
    s.blocks.append(Bullets([
        item(Paragraph([text("Words in code, such as "), code(spec.zones[0].name if spec.zones else "hand"),
                        text(", are the rule file's own names and expressions, in its own language. The "
                             "tables show places and values under the names given beside them.")])),
        item(Paragraph([code("player"), text(" is the player taking an action; in the steps after an action "
                                            "and at the end of a round, the player who has just acted; in the "
                                            "match's own steps (a deal, its end), the dealer. "), code("current"),
                        text(" is the player whose turn it is.")])),
        item(Paragraph([text("A place or value kept for each player is written with the player: "), code("hand[p]"),
                        text(" is player "), code("p"), text("'s own.")])),
        item(para("The active players are those still in the match who do not sit out the current deal.")),
        item(para("A place holds its cards from bottom to top: cards are moved onto the top unless a step says "
                  "the bottom, and dealt from the top.")),
    ]))
    return s


# ---------------------------------------------------------------- zones and variables
def zones(spec: GameSpec, words: Words, source: Source) -> Section:
    s = Section("Where the cards lie", "zones")
    s.blocks += notes(source, source.key_span("zones"))
    if spec.zones:
        s.blocks.append(Paragraph([text("When the match starts, every card is in "), code(spec.zones[0].name),
                                   text(" (the first place the rule file lists).")]))
    rows: list[list[Runs]] = []
    for z in spec.zones:
        name: Runs = [code(z.name)] + ([text(", one for each player")] if z.per_player else [])
        rows.append([name, _shown(z.label, z.name, z.show, words), seen_by(z.visible, z.per_player, True, words),
                     _about(z.doc, source.comments(z.span))])
    s.blocks.append(Table([[text("Place")], [text("Shown as")], [text("Who sees its cards")], [text("About it")]],
                          rows))
    return s


def variables(spec: GameSpec, words: Words, source: Source) -> Section:
    s = Section("What the game keeps track of", "variables")
    s.blocks += notes(source, source.key_span("variables"))
    rows: list[list[Runs]] = []
    for v in spec.variables:
        name: Runs = [code(v.name)]
        if v.per_player:
            name.append(text(", for each player"))
        elif v.per_team:
            name.append(text(", for each team"))
        if v.initial is not None:
            start: Runs = [words.code(v.initial)]
        else:
            start = [text("an empty list" if T.is_list(v.ty) else _EMPTY.get(v.ty, "none (no value)"))]
        start.append(text(", again at the start of every deal" if v.scope == "deal" else ", when the match starts"))
        rows.append([name, _shown(v.label, v.name, v.show, words), [text(type_words(v.ty))], start,
                     seen_by(v.visible, v.per_player or v.per_team, False, words),
                     _about(v.doc, source.comments(v.span))])
    s.blocks.append(Table([[text("Name")], [text("Shown as")], [text("Holds")], [text("Starts at")],
                           [text("Who sees it")], [text("About it")]], rows))
    return s


# ---------------------------------------------------------------- the deck
def property_blocks(p: PropertySpec, words: Words, source: Source) -> list[Block]:
    out: list[Block] = []
    lead: Runs = [text("Each card has the property "), code(p.name), text(": ")]
    if p.by in ("rank", "suit"):
        out.append(Paragraph(lead + [text(f"by its {p.by}")] + (
            [text(f" ({option_text(p.default)} for any {p.by} not listed)")] if p.default is not None else [])
            + [text(".")]))
        out += notes(source, p.span)
        out.append(Table([[text(p.by.capitalize())], [text(p.name)]],
                         [[[text(k)], [text(option_text(v))]] for k, v in p.table.items()]))
    elif p.by == "const":
        out.append(Paragraph(lead + [text(f"{option_text(p.default)} for every card.")]))
        out += notes(source, p.span)
    else:
        assert p.expr is not None
        quoted = words.quoted(p.expr)
        read = {n.id for n in A.walk(p.expr) if isinstance(n, A.Name)}
        said = [(k, w) for k, w in (("rank_index", "its rank's place among the ranks, the lowest 0"),
                                    ("suit_index", "its suit's place among the suits, the first 0")) if k in read]
        why: Runs = []
        for k, w in said:
            why += [text("; " if why else ", where "), code(k), text(f" is {w}")]
        out.append(Paragraph(lead + (quoted if isinstance(quoted, list) else [text("worked out as below")])
                             + why + [text(".")]))
        out += notes(source, p.span)
        if not isinstance(quoted, list):
            out.append(quoted)
    return out


def pack_entry(e: PackEntry, words: Words, source: Source) -> list[Block]:
    if e.card is not None:
        runs: Runs = [text("The special card "), code(e.card), text(" (no suit)")]
    else:
        runs = [text("Cards of "), text("every suit" if e.suits is None else "the suits " + ", ".join(e.suits)),
                text(" and "), text("every rank" if e.ranks is None else "the ranks " + ", ".join(e.ranks))]
    if e.copies != 1:
        runs.append(text(f", {e.copies} copies of each"))
    if e.when is not None:
        runs += [text(", if "), words.code(e.when)]
    if e.where is not None:
        runs += [text(", keeping only the cards for which "), words.code(e.where)]
    return [Paragraph(runs + [text(".")])] + notes(source, e.span)


# ---------------------------------------------------------------- details
def details(spec: GameSpec, words: Words, source: Source) -> list[Section]:
    out: list[Section] = []
    if spec.functions:
        s = Section("Helper rules", "define")
        s.blocks += notes(source, source.key_span("define"))
        s.blocks.append(para("The rule file's own functions, as written. Each works out a value from what it is "
                             "given and what it reads; none changes anything."))
        for f in spec.functions:
            sub = Section(f"{f.name}({', '.join(f.params)})", anchor("define", f.name))
            sub.blocks += notes(source, f.span)
            if f.body is not None:
                sub.blocks.append(Code(source.text(f.body) or unparse.expr(f.body)))
            s.sections.append(sub)
        out.append(s)
    if spec.procedures:
        s = Section("Procedures", "procedures")
        s.blocks += notes(source, source.key_span("procedures"))
        s.blocks.append(Paragraph([text("Named lists of steps, run by "), code("do NAME(...)"), text(". A step that "
                                   "goes on to another phase or ends the deal also stops the steps that ran the "
                                   "procedure.")]))
        for p in spec.procedures:
            sub = Section(f"{p.name}({', '.join(p.params)})", anchor("procedure", p.name))
            sub.blocks += notes(source, p.span)
            sub.blocks.append(words.steps(p.body) if p.body else para("It does nothing."))
            s.sections.append(sub)
        out.append(s)
    if spec.strategies:
        s = Section("Strategies for bots", "strategies", main=False)
        s.blocks += notes(source, source.key_span("strategies"))
        s.blocks.append(Paragraph([text("Playing styles a bot can follow ("), code("--bots NAME"), text("). Each "
                                   "tries its rules in order and takes the first that leaves a legal action; a bot "
                                   "sees only what its seat may see.")]))
        for st in spec.strategies:
            sub = Section(st.name, anchor("strategy", st.name), main=False)
            if st.doc:
                sub.blocks.append(Paragraph(note_runs(st.doc)))
            sub.blocks += notes(source, st.span)
            sub.blocks.append(Bullets([_prefer(r, words) for r in st.rules]))
            s.sections.append(sub)
        out.append(s)
    return out


def _prefer(r: StrategyRule, words: Words) -> list[Block]:
    runs: Runs = [text("Any action")] if not r.actions else [text("Take ")]
    for i, (name, _span) in enumerate(r.actions):
        runs += ([text(" or ")] if i else []) + [code(name)]
    if r.when is not None:
        runs += [text(" when "), words.code(r.when)]
    if r.best is not None:
        way, e = r.best
        runs += [text(f", the one with the {'highest' if way == 'max' else 'lowest'} "), words.code(e)]
    return item(Paragraph(runs + [text(".")]))

