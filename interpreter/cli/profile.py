"""`cardsmith bench --profile`: where the time of random playouts goes, by rule-file line.

A statistical profiler: a CPU-time timer (ITIMER_PROF) interrupts the playouts every millisecond and
looks at the running Python stack. The innermost frame of the game's generated module says which
line of generated code is running, and the compiler's line map (`CompiledGame.line_map`) says which
rule-file line that code comes from. A sample with no generated frame on the stack is the engine's own
work, such as stepping, copying and listing legal actions. Samples are cheap enough not to distort what
they measure, and no code is instrumented. On a platform without ITIMER_PROF (Windows) the command
says so.
"""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import Span, clipped
from ..engine.text import one_line

INTERVAL = 0.001  # seconds of CPU time between samples
TOP = 15  # rule-file lines shown


class Sampler:
    def __init__(self, game: CompiledGame):
        self.game = game
        self.lines: Counter[int | None] = Counter()  # generated line (None: between lines) -> samples
        self.engine: Counter[str] = Counter()  # engine function -> samples (no generated frame running)
        self.total = 0

    def _sample(self, _sig: int, frame: FrameType | None) -> None:
        self.total += 1
        f = frame
        filename = self.game.filename
        while f is not None:
            if f.f_code.co_filename == filename:
                # Python 3.11 knows no line for a few instructions (a frame just entered): its function's line.
                line = f.f_lineno
                self.lines[line if line is not None else f.f_code.co_firstlineno] += 1
                return
            f = f.f_back
        if frame is not None:
            code = frame.f_code
            self.engine[f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"] += 1

    def run(self, work: Callable[[], Any]) -> None:
        if not hasattr(signal, "setitimer") or not hasattr(signal, "ITIMER_PROF"):
            raise OSError("--profile needs a CPU-time timer (signal.ITIMER_PROF), which this system lacks")
        old = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)
        try:
            work()
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0, 0)
            signal.signal(signal.SIGPROF, old)

    def by_rule_line(self) -> Counter[Span]:
        """Samples per rule-file line (the span of the nearest mapped generated line at or above)."""
        out: Counter[Span] = Counter()
        line_map = self.game.line_map
        for line, n in self.lines.items():
            if line is None:  # Python 3.11 has no line for some instructions (a loop's jump back)
                continue
            span = next((line_map[k] for k in range(line, 0, -1) if k in line_map), None)
            if span is not None:
                out[Span(span.file, span.line, 1)] += n
        return out

    def report(self) -> list[str]:
        if not self.total:
            return ["profile: no samples (the playouts were too short)"]
        rows = self.by_rule_line().most_common(TOP)
        in_rules = sum(self.lines.values())
        out = [f"profile: {self.total:,} samples, {100 * in_rules / self.total:.0f}% in the rule file's code, "
               f"{100 * (self.total - in_rules) / self.total:.0f}% in the engine"]
        for span, n in rows:
            out.append(f"  {100 * n / self.total:5.1f}%  {self._place(span)}")
        for name, n in self.engine.most_common(5):
            out.append(f"  {100 * n / self.total:5.1f}%  engine: {name}")
        return out

    def _place(self, span: Span) -> str:
        lines = self.game.sources.get(span.file, "").splitlines()
        text = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
        return f"{one_line(span.file.rsplit('/', 1)[-1])}:{span.line}: {clipped(one_line(text), 80)}"
