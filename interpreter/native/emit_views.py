"""The C++ of what each player sees (lower_views.py): the plan in the game's `Meta`, and the `Rules::list`
that runs a `visible` rule or `match: winners` (view.h and engine.h call it)."""

from __future__ import annotations

from typing import Any


def meta_lines(views: dict[str, Any]) -> list[str]:
    out = [f"    m.winners = {views.get('winners', -1)};"]
    zs = ", ".join(f"{{{how}, {owner}, {fid}}}" for how, owner, fid in views.get("zones", []))
    out.append(f"    m.zsees = {{{zs}}};")
    vs = ", ".join(f"{{{how}, {owner}, {fid}, '{k}', {slot}}}" for how, owner, fid, k, slot in views.get("vars", []))
    out.append(f"    m.vsees = {{{vs}}};")
    return out


def list_dispatch(funcs: list[Any], views: dict[str, Any]) -> list[str]:
    """`Rules::list(x, fid, owner)`: the rule of a zone or variable (of its owner), or the winners."""
    fids = sorted({fid for _, _, fid in views.get("zones", []) if fid >= 0} |
                  {v[2] for v in views.get("vars", []) if v[2] >= 0})
    cases = [f"    case {fi}: return f{fi}(x, owner);" for fi in fids]
    w = views.get("winners", -1)
    if w >= 0 and w not in fids:
        cases.append(f"    case {w}: return f{w}(x);")
    return ["  List list(Ctx& x, int fid, i64 owner) const {", "    (void)owner;", "    switch (fid) {", *cases,
            "    }", "    fail(\"no such list\");", "  }"]
