# ruff: noqa: E701, E702
"""The reference Hearts that benchmarks/hearts.py measures games/hearts.yaml against.

Copied unchanged (apart from this docstring and the ruff directive above, which keeps its compact
one-line style out of the lint) from shared/bench/pyhearts.py, the plain hand-written pure-Python
Hearts the project shares as its benchmark reference. tests/test_benchmarks.py checks that it plays
as pyspiel's "hearts" does.

Tiny pure-Python Hearts using OpenSpiel's action ids and default rules
(pass_cards, no_pts_on_first_trick, must_break_hearts, qs_breaks_hearts; no JD,
no any-club lead, no avoid-all-tricks bonus). card = rank*4 + suit, suits CDHS."""
QS, TWO_C = 10 * 4 + 3, 0
class Hearts:
    def __init__(self):
        self.phase = "passdir"; self.hist = []; self.holder = [None] * 52
        self.dealt = 0; self.passed = [[], [], [], []]; self.cur = -1
        self.trick = []; self.tricks = []; self.played = 0; self.broken = False
        self.points = [0, 0, 0, 0]
    def current_player(self):  # -1 chance, -4 terminal (OpenSpiel ids)
        return -4 if self.phase == "over" else (-1 if self.phase in ("passdir", "deal") else self.cur)
    def hand(self, p): return [c for c in range(52) if self.holder[c] == p]
    def legal_actions(self):
        ph = self.phase
        if ph == "passdir": return [0, 1, 2, 3]
        if ph == "deal": return [c for c in range(52) if self.holder[c] is None]
        if ph == "pass": return self.hand(self.cur)
        if ph != "play": return []
        h = self.hand(self.cur)
        if self.trick:
            f = [c for c in h if c % 4 == self.trick[0][1] % 4]
            if f: return f
        if self.played == 0: return [TWO_C]
        if self.played < 4:
            f = [c for c in h if c != QS and c % 4 != 2]
            if f: return f
        if not self.trick and not self.broken:
            f = [c for c in h if c % 4 != 2]
            if f: return f
        return h
    def apply(self, a):
        self.hist.append(a); ph = self.phase
        if ph == "passdir":
            self.dir = a; self.phase = "deal"
        elif ph == "deal":
            self.holder[a] = self.dealt % 4; self.dealt += 1
            if self.dealt == 52:
                if self.dir == 0: self._start_play()
                else: self.phase, self.cur = "pass", 0
        elif ph == "pass":
            self.passed[self.cur].append(a); self.holder[a] = None
            if len(self.passed[self.cur]) == 3: self.cur += 1
            if self.cur == 4:
                for p in range(4):
                    for c in self.passed[p]: self.holder[c] = (p + self.dir) % 4
                self._start_play()
        else:
            self.holder[a] = -1; self.trick.append((self.cur, a)); self.played += 1
            if a % 4 == 2 or a == QS: self.broken = True
            if len(self.trick) < 4:
                self.cur = (self.cur + 1) % 4
            else:
                led = self.trick[0][1] % 4
                w = max((pc for pc in self.trick if pc[1] % 4 == led), key=lambda pc: pc[1])[0]
                pts = sum(1 if c % 4 == 2 else 13 if c == QS else 0 for _, c in self.trick)
                self.points[w] += pts; self.tricks.append((self.trick, w, pts))
                self.trick = []; self.cur = w
                if self.played == 52: self._score()
    def _start_play(self):
        self.phase = "play"; self.cur = self.holder[TWO_C]
    def _score(self):
        self.phase = "over"
        takers = {w for _, w, pts in self.tricks if pts}
        if len(takers) == 1:
            s = takers.pop(); self.points = [p + (-26 if i == s else 26) for i, p in enumerate(self.points)]
    def returns(self):
        return [26.0 - p for p in self.points] if self.phase == "over" else [0.0] * 4
