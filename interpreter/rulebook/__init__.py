"""Rulebooks generated from rule files (`cardsmith explain`, docs/rulebook.md).

`build_rulebook(compiled)` turns a compiled rule file into a document (model.py); `to_markdown`,
`to_html`, `to_lines` and `to_json` show it. The package reads only the engine core and `cardsmith.dsl`:
the tables and the command line use it, never the other way round.
"""

from __future__ import annotations

from .build import build_rulebook
from .html import to_html
from .lines import to_lines
from .markdown import to_markdown
from .model import Document, to_json

__all__ = ["Document", "build_rulebook", "to_html", "to_json", "to_lines", "to_markdown"]
