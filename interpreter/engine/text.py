"""Text from a rule or scenario file, made safe to print as one line of a terminal.

Names, action texts, `log` messages and scenario names come from files that may be a stranger's. A
newline or a terminal escape in them could forge lines of the output (a fake "winner" line, a fake
"ok") or recolour the terminal, and a bidi mark could reorder what a line seems to say, so every line
the CLI prints from them shows control and format characters escaped instead (`\\x1b`, `\\u202e`).
Diagnostics escape themselves (`dsl.diagnostics.render`); everything else goes through `say`.
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..dsl.diagnostics import shown


def one_line(text: str) -> str:
    """`text` with control and format characters (newlines, escapes, bidi marks) shown as `\\n`, `\\x1b`, ..."""
    return shown(text)


def say(*lines: str, file: TextIO | None = None) -> None:
    """Print each argument as one escaped line (to stdout unless `file` is given)."""
    out = file if file is not None else sys.stdout
    for line in lines:
        print(shown(line), file=out)
