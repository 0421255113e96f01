"""How a match is played: the steps before the first deal and of each deal, the phases and their turn
order, the actions with their conditions and effects, the end of a deal and the end of the match.

Each construct is said in the words of docs/language.md, section 4 ("How a match runs"), in the order
the engine follows: after an action, its effect, then the phase's `after`, then a round's count and
`end`, then the turn moves (`next`), then `then`.
"""

from __future__ import annotations

from ..dsl import ast as A
from ..dsl import refs as R
from ..dsl import types as T
from ..dsl.spec import ActionSpec, GameSpec, ParamSpec, PhaseSpec
from . import parts, unparse
from .model import Block, Bullets, Paragraph, Runs, Section, Table, code, item, link, para, text
from .source import Source
from .words import Words, anchor, count_words, shown_name

_NEXT = {"clockwise": "the turn passes to the next active player clockwise (to the left)",
         "counterclockwise": "the turn passes to the next active player counterclockwise (to the right)",
         "same": "the same player acts again"}


def start_link() -> Runs:
    return [link("Before the first deal", "before-the-first-deal")]


def match(spec: GameSpec, words: Words, source: Source) -> Section:
    m = spec.match
    s = Section("How a match is played", "match")
    s.blocks += parts.notes(source, source.key_span("match"))
    if m.start:
        sub = Section("Before the first deal", "before-the-first-deal")
        sub.blocks += parts.notes(source, source.key_span("match", "start"))
        sub.blocks.append(words.steps(m.start))
        s.sections.append(sub)
    s.sections.append(_deal(spec, words, source))
    phases = Section("Phases", "phases")
    phases.blocks.append(para("A deal goes through these phases. In each, the player to act chooses one of the "
                              "phase's actions whose conditions hold."))
    phases.sections = [_phase(ph, spec, words, source) for ph in spec.phases]
    s.sections.append(phases)
    actions = Section("Actions", "actions")
    actions.blocks.append(para("What a player can do. An action with choices (a card, a player, a way to play it) "
                               "is one move for each choice its conditions allow."))
    actions.sections = [_action(a, spec, words, source) for a in spec.actions]
    s.sections.append(actions)
    s.sections.append(_end_deal(spec, words, source))
    s.sections.append(_end_match(spec, words, source))
    return s


def _deal(spec: GameSpec, words: Words, source: Source) -> Section:
    m = spec.match
    sub = Section("Each deal", "each-deal")
    reset = [v.name for v in spec.variables if v.scope == "deal"]
    lead: Runs = [text("At the start of every deal, every player still in the match takes part again")]
    if spec.teams is not None:
        lead.append(text(", the partnerships are set again"))
    if reset:
        lead.append(text(", and these start again at their first value: "))
        for i, name in enumerate(reset):
            lead += ([text(", ")] if i else []) + [code(name)]
    sub.blocks.append(Paragraph(lead + [text(". Then:")]))
    sub.blocks += parts.notes(source, source.key_span("match", "deal"))
    sub.blocks.append(words.steps(m.deal))
    return sub


def _phase(ph: PhaseSpec, spec: GameSpec, words: Words, source: Source) -> Section:
    title = shown_name(ph.name, ph.label)
    s = Section(title if title == ph.name else f"{title} ({ph.name})", anchor("phase", ph.name))
    if ph.doc:
        s.blocks.append(Paragraph(parts.note_runs(ph.doc)))
    s.blocks += parts.notes(source, ph.span)
    facts: list[list[Block]] = []
    if ph.first is not None:
        facts.append(item(Paragraph([text("When the phase begins, ")] + words.player(ph.first)
                                    + [text(" is to act.")])) + parts.notes(source, ph.first.span))
    else:
        facts.append(item(para("When the phase begins, the turn stays with the player who has it.")))
    if ph.start:
        facts.append(item(para("Each time the phase begins:"), words.steps(ph.start)))
    acts: Runs = [text("The actions: ")]
    for i, (name, _span) in enumerate(ph.actions):
        a = next((x for x in spec.actions if x.name == name), None)
        label = a.label or name if a else name
        acts += ([text(", ")] if i else []) + [link(label, anchor("action", name))]
        if label != name:
            acts += [text(" ("), code(name), text(")")]
    facts.append(item(Paragraph(acts + [text(".")])))
    if ph.after:
        facts.append(item(para("After each action, unless it went on to another phase or ended the deal:"),
                          words.steps(ph.after)))
    if ph.round:
        facts.append(item(para("This phase is a round: once as many actions have been taken in it as there are "
                               "active players (as the turn goes round, each acts once; a pass counts), these "
                               "steps follow:"), words.steps(ph.end)))
    facts.append(item(para(f"Unless a step went on to another phase or ended the deal, {_NEXT.get(ph.next, ph.next)}"
                           " after each action.")))
    if ph.then is not None:
        facts.append(item(Paragraph([text("Then the phase ")] + words.phase_link(ph.then[0])
                                    + [text(" begins, as if a step went on to it.")])))
    s.blocks.append(Bullets(facts))
    return s


def _param(p: ParamSpec, words: Words) -> Runs:
    """What a parameter's values are; for a list of cards, also the fixed list its values come from."""
    if p.ids is None:
        return _domain(p.domain, words)
    if p.ids is p.domain:
        return [text("a list of cards, one of "), words.code(p.ids)]
    return [text("a list of cards from "), words.code(p.domain), text(", each one of "), words.code(p.ids)]


# A parameter's values, by the type of its domain's items.
_VALUES: dict[T.Type, str] = {T.CARD: "a card", T.PLAYER: "a player", T.SUIT: "a suit", T.RANK: "a rank",
                              T.INT: "a number", T.STR: "a name", T.BOOL: "yes or no"}


def _domain(d: A.Expr, words: Words) -> Runs:
    """What a parameter's values are: 'a card of `hand[player]`', 'one of 'high', 'low''."""
    ty = T.elem(d.ty) if T.is_list(d.ty) else None
    if isinstance(d, A.ListLit) and all(isinstance(x, A.Const) for x in d.items):
        if all(isinstance(x, A.Const) and isinstance(x.value, bool) for x in d.items):
            return [text("yes or no")]
        out: Runs = [text("one of ")]
        for i, x in enumerate(d.items):
            out += ([text(", ")] if i else []) + [code(unparse.expr(x))]
        return out
    if isinstance(d, A.Name) and isinstance(d.ref, R.Builtin) and d.id in ("suits", "ranks", "players"):
        return [text({"suits": "a suit", "ranks": "a rank", "players": "a player"}[d.id])]
    kind = _VALUES.get(ty, "a value") if ty is not None else "a value"
    return [text(f"{kind} from "), words.code(d)]


def _action(a: ActionSpec, spec: GameSpec, words: Words, source: Source) -> Section:
    title = a.label or a.name
    s = Section(title if title == a.name else f"{title} ({a.name})", anchor("action", a.name))
    s.blocks += parts.notes(source, a.span)
    facts: list[list[Block]] = []
    where = [ph for ph in spec.phases if any(n == a.name for n, _ in ph.actions)]
    if where:
        runs: Runs = [text("Allowed in the phase" + ("s " if len(where) > 1 else " "))]
        for i, ph in enumerate(where):
            runs += ([text(", ")] if i else []) + words.phase_link(ph.name)
        facts.append(item(Paragraph(runs + [text(".")])))
    else:
        facts.append(item(para("No phase allows it.")))
    if a.params:
        choices = [item(Paragraph([code(p.name), text(": ")] + _param(p, words)))
                   for p in a.params]
        facts.append(item(para("The player chooses:"), Bullets(choices)))
    if a.secret:
        if a.params:
            facts.append(item(para(f"Secret: the other players see only “{a.label or a.name} (hidden)”, not what "
                                   "was chosen.")))
        else:
            facts.append(item(para("Marked secret, but it has no choices to hide: everyone sees it.")))
    if a.when is not None:
        parts_ = words.conjuncts(a.when)
        if len(parts_) == 1:
            facts.append(item(Paragraph([text("Allowed only when ")] + words.cond(a.when) + [text(".")])))
        else:
            facts.append(item(para("Allowed only when all of these hold:"),
                              Bullets([item(Paragraph(words.cond(c))) for c in parts_])))
        facts[-1] += parts.notes(source, a.when.span)
    if a.effect:
        facts.append(item(para("What it does:"), words.steps(a.effect)))
    else:
        facts.append(item(para("It changes nothing itself; the phase's steps after an action still follow.")))
    s.blocks.append(Bullets(facts))
    return s


def _end_deal(spec: GameSpec, words: Words, source: Source) -> Section:
    m = spec.match
    s = Section("When a deal ends", "end-of-deal")
    s.blocks.append(para("A deal ends when a step says so. Then, in this order:"))
    steps: list[list[Block]] = []
    if m.report:
        rows = [[[text(label)], [words.code(e)]] for label, e in m.report]
        steps.append(item(Paragraph([text("The designer's log ("), code("cardsmith run"),
                                     text(") shows, for each player "), code("p"), text(":")]),
                          Table([[text("Shown as")], [text("Value")]], rows)))
    if m.end_deal:
        steps.append(item(para("The deal is scored:"), words.steps(m.end_deal)))
    steps.append(item(Paragraph([text("The match may end (see "), link("The end of the match", "end-of-match"),
                                 text("); if not, the next deal starts.")])))
    s.blocks += parts.notes(source, source.key_span("match", "end_deal"))
    s.blocks.append(Bullets(steps))
    return s


def _over(e: A.Expr, words: Words) -> Runs:
    if isinstance(e, A.Const) and e.value is True:
        return [text("The match is one deal long: it is over when the first deal ends.")]
    if isinstance(e, A.Compare) and len(e.rest) == 1 and e.rest[0][0] == ">=" and isinstance(e.first, A.Name) \
            and e.first.id == "deal_number" and isinstance(e.first.ref, R.Builtin):
        n = e.rest[0][1]
        if isinstance(n, A.Const) and type(n.value) is int:
            return [text(f"The match is over when deal {n.value} ends ({count_words(n.value, 'deal')}).")]
        if isinstance(n, A.Name) and isinstance(n.ref, R.Option):
            return [text("The match lasts as many deals as the table option "), code(n.id),
                    text(" says: it is over when that deal ends.")]
    quoted = words.quoted(e)
    return [text("When a deal has been scored, the match is over if ")] + (
        quoted if isinstance(quoted, list) else [words.code(e)]) + [text(".")]


def _winners(e: A.Expr, words: Words) -> Runs:
    if isinstance(e, A.Call) and e.func in ("all_max_by", "all_min_by") and isinstance(e.ref, R.Library) \
            and len(e.args) == 2 and isinstance(e.args[1], A.Lambda):
        group, key = e.args
        assert isinstance(key, A.Lambda)
        best = "highest" if e.func == "all_max_by" else "lowest"
        who: Runs
        if isinstance(group, A.Name) and isinstance(group.ref, R.Builtin) and group.id == "players":
            who = [text("The players")]
        elif isinstance(group, A.Name) and isinstance(group.ref, R.Builtin) and group.id == "active_players":
            who = [text("Of the active players, those")]
        else:
            who = [text("Of "), words.code(group), text(", those")]
        return who + [text(f" with the {best} "), code(unparse.expr(key.body)), text(" (for each player "),
                      code(key.param), text(") win; several win together on a tie.")]
    quoted = words.quoted(e)
    return [text("The winners: ")] + (quoted if isinstance(quoted, list) else [words.code(e)]) + [
        text(" (a list of players; several share the win, none means nobody wins).")]


def _end_match(spec: GameSpec, words: Words, source: Source) -> Section:
    m = spec.match
    s = Section("The end of the match", "end-of-match")
    items: list[list[Block]] = []
    if m.over_when is not None:
        items.append(item(Paragraph(_over(m.over_when, words)), *parts.notes(source, m.over_when.span)))
    if m.max_deals is not None:
        items.append(item(para(f"It is over after {m.max_deals} deals in any case.")))
    if m.winners is not None:
        items.append(item(Paragraph(_winners(m.winners, words)), *parts.notes(source, m.winners.span)))
    r = m.returns
    if r is not None:
        quoted = words.quoted(r.value)
        runs: Runs = [text(f"Each player's result ({r.name}) is ")] + (
            quoted if isinstance(quoted, list) else [words.code(r.value)]) + [text(", for each player "), code("p")]
        if r.min is not None and r.max is not None:
            runs += [text(", from "), words.code(r.min), text(" to "), words.code(r.max)]
        runs.append(text(". The results always add up to 0." if r.zero_sum else "."))
        items.append(item(Paragraph(runs), *parts.notes(source, r.value.span)))
    else:
        items.append(item(para("Each winner's result is an equal share of 1 (with two winners, 1/2 each); "
                               "everyone else's is 0.")))
    s.blocks.append(Bullets(items))
    return s

