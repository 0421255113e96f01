"""Text from a rule file, made safe to print as one line of a terminal.

Names, action texts and `log` messages come from the rule file, which may be a stranger's. A newline or
a terminal escape in them could forge lines of the match record (a fake "winner" line) or recolour the
terminal, so every line the CLI prints from them shows control characters escaped instead.
"""

from __future__ import annotations


def one_line(text: str) -> str:
    """`text` with control and format characters (newlines, escapes, bidi marks) shown as `\\n`, `\\x1b`, ..."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
