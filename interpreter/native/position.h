// A state's position as words, both ways (docs/design/native.md, "Position transfer"): what `position.py` writes
// from a Python backend's state, so that a native state can be put at any position the Python backend reaches
// (a scenario's stacked deal, variables set outside the history) and two positions compared whole.
//
// The words, in order (a block, then the chance and the deal as it ended):
//   the scalars (Meta::scalars, from position.py's SCALARS), over, the winners (a bit each), each player's
//   return (a double's bits), team, the players out and sitting out (a bit each);
//   each zone: its length, its cards bottom first, its undecided block (0: none);
//   each card: who last moved it (`played_by`);
//   each variable in the Python backend's order (Meta::vsees' kind and slot): i one word, f a double's bits,
//   l its length and items, L its number of lists and each list's length and items;
// then the seed of the next draw (how many 32-bit words, 0 for none; wide; the words), and 0, or 1 and the
// block of the deal as it ended. Only between steps: a state whose chance step is half drawn has no position.
// Reading checks every word against this game's state (cards, players, lengths, the native caps) and changes
// the state only once all of it has been read.
#pragma once
#include "engine.h"

namespace cs {
template <class R>
struct PositionWriter {
  const Meta& m;
  std::vector<i64>& out;

  void dbl(double d) {
    i64 bits;
    std::memcpy(&bits, &d, sizeof bits);
    out.push_back(bits);
  }
  void block(const State& s) {
    for (const Meta::Scalar& f : m.scalars) out.push_back(s.*f.field);
    out.push_back(s.terminal);
    out.push_back((i64)s.winners);
    for (int p = 0; p < m.n; p++) dbl(s.rets[p]);
    i64 outs = 0, sits = 0;
    for (int p = 0; p < m.n; p++) { out.push_back(s.team[p]); outs |= (i64)s.out[p] << p; sits |= (i64)s.sit[p] << p; }
    out.push_back(outs);
    out.push_back(sits);
    for (int zi = 0; zi < m.nz; zi++) {
      out.push_back(s.zlen[zi]);
      out.insert(out.end(), s.z[zi], s.z[zi] + s.zlen[zi]);
      out.push_back(s.unfixed[zi]);
    }
    out.insert(out.end(), s.by, s.by + m.nc);
    for (const Meta::VarSees& v : m.vsees) {
      switch (v.kind) {
        case 'i': out.push_back(s.v[at(v.slot, MAXV)]); break;
        case 'f': dbl(s.fv[at(v.slot, MAXFV)]); break;
        case 'l': {
          const List& l = s.lv[at(v.slot, MAXLV)];
          out.push_back(l.n);
          out.insert(out.end(), l.a, l.a + l.n);
          break;
        }
        default: {
          const Lists& ls = s.llv[at(v.slot, MAXLLV)];
          out.push_back(ls.n);
          for (int k = 0; k < ls.n; k++) {
            out.push_back(ls.off[k + 1] - ls.off[k]);
            out.insert(out.end(), ls.it + ls.off[k], ls.it + ls.off[k + 1]);
          }
        }
      }
    }
  }
};

// False where the state has no position: its chance step is half drawn.
template <class R>
bool write_position(const PyState<R>& ps, std::vector<i64>& out) {
  out.clear();
  if (ps.pending) return false;
  PositionWriter<R> w{ps.eng->m, out};
  w.block(ps.s);
  const PySeed& sd = ps.s.py;
  out.push_back(sd.n);
  out.push_back(sd.wide);
  out.insert(out.end(), sd.w, sd.w + sd.n);
  out.push_back(ps.ended != nullptr);
  if (ps.ended) w.block(*ps.ended);
  return true;
}

template <class R>
struct PositionReader {
  const Meta& m;
  const i64* w;
  int n, pos = 0;

  [[noreturn]] void bad(const std::string& what) const {
    throw RuleError("the position does not fit this game's native state: " + what);
  }
  i64 next() {
    if (pos >= n) bad("it ends early (" + std::to_string(n) + " words)");
    return w[pos++];
  }
  i64 in(i64 lo, i64 hi, const std::string& what) {  // a word from lo to hi - 1
    i64 x = next();
    if (x < lo || x >= hi) bad(what + " is " + std::to_string(x) + ", not " + std::to_string(lo) + " to " +
                               std::to_string(hi - 1));
    return x;
  }
  double dbl() {
    i64 bits = next();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  // A list's length: at most `cap` items (the native state's room), else a clear refusal.
  int length(int cap, const std::string& what) {
    i64 k = next();
    if (k < 0) bad(what + " has a negative length");
    if (k > cap) bad(what + " holds " + std::to_string(k) + " items; the native backend holds " +
                     std::to_string(cap));
    return (int)k;
  }
  void block(State& s) {
    for (const Meta::Scalar& f : m.scalars) {
      i64 hi = f.kind == 'p' ? (i64)m.phases.size() : f.kind == 'n' ? m.n : INT_MAX;
      s.*f.field = (int)in(0, hi, f.name);
    }
    s.terminal = in(0, 2, "over") != 0;
    s.winners = (uint64_t)in(0, (i64)1 << m.n, "the winners");
    for (int p = 0; p < m.n; p++) s.rets[p] = dbl();
    for (int p = 0; p < m.n; p++) s.team[p] = (int16_t)in(0, m.n, "a team");
    i64 outs = in(0, (i64)1 << m.n, "the players out"), sits = in(0, (i64)1 << m.n, "the players sitting out");
    for (int p = 0; p < m.n; p++) { s.out[p] = outs >> p & 1; s.sit[p] = sits >> p & 1; }
    std::vector<bool> placed(m.nc, false);
    int cards = 0;
    for (int zi = 0; zi < m.nz; zi++) {
      std::string zone = "zone " + std::to_string(zi);
      int k = length(MAXC, zone);
      s.zlen[zi] = (int16_t)k;
      for (int j = 0; j < k; j++) {
        int c = (int)in(0, m.nc, "a card of " + zone);
        if (placed[c]) bad("card " + std::to_string(c) + " is in two places");
        placed[c] = true;
        s.z[zi][j] = (int16_t)c;
        s.loc[c] = (int16_t)zi;
      }
      cards += k;
      int u = (int)in(0, k + 1, "the undecided cards of " + zone);
      if (u == 1) bad("the undecided block of " + zone + " is one card");
      s.unfixed[zi] = (int16_t)u;
    }
    if (cards != m.nc) bad("its zones hold " + std::to_string(cards) + " cards of " + std::to_string(m.nc));
    for (int c = 0; c < m.nc; c++) s.by[c] = (int16_t)in(0, m.n, "who moved a card");
    int vi = 0;
    for (const Meta::VarSees& v : m.vsees) {
      std::string var = "variable " + std::to_string(vi++);
      switch (v.kind) {
        case 'i': s.v[at(v.slot, MAXV)] = next(); break;
        case 'f': s.fv[at(v.slot, MAXFV)] = dbl(); break;
        case 'l': {
          List& l = s.lv[at(v.slot, MAXLV)];
          l.n = length(LCAP, var);
          for (int j = 0; j < l.n; j++) l.a[j] = next();
          break;
        }
        default: {
          Lists& ls = s.llv[at(v.slot, MAXLLV)];
          ls.n = 0;
          ls.off[0] = 0;
          int count = length(LLCAP, var);
          for (int k = 0; k < count; k++) {
            List l;
            l.n = length(LCAP, "a list of " + var);
            for (int j = 0; j < l.n; j++) l.a[j] = in(INT16_MIN, (i64)INT16_MAX + 1, "an item of " + var);
            if (ls.off[ls.n] + l.n > LLITEMS) bad(var + " holds more than " + std::to_string(LLITEMS) + " items");
            ls.push(l);
          }
        }
      }
    }
  }
};

// Put `ps` at the position of the words; a RuleError saying what does not fit leaves it as it was.
template <class R>
void read_position(PyState<R>& ps, const i64* words, int n) {
  const Meta& m = ps.eng->m;
  PositionReader<R> r{m, words, n};
  auto fresh = std::make_unique<State>();  // on the heap: a state of many list variables is megabytes
  std::memset(static_cast<void*>(fresh.get()), 0, sizeof(State));  // as init_state: every field zero
  r.block(*fresh);
  PySeed sd{};
  sd.n = (uint8_t)r.in(0, SEED_WORDS + 1, "the seed's words");
  sd.wide = r.in(0, 2, "the wide seed") != 0;
  for (int i = 0; i < sd.n; i++) sd.w[i] = (uint32_t)r.in(0, (i64)1 << 32, "a word of the seed");
  if (sd.n) {
    for (int zi = 0; zi < m.nz; zi++)
      if (fresh->unfixed[zi]) r.bad("a seeded state has undecided cards (zone " + std::to_string(zi) + ")");
  }
  fresh->py = sd;
  std::shared_ptr<const State> ended;
  if (r.in(0, 2, "the deal as it ended")) {
    auto then = std::make_shared<State>();
    std::memset(static_cast<void*>(then.get()), 0, sizeof(State));
    r.block(*then);
    ended = then;
  }
  if (r.pos != n) r.bad(std::to_string(n - r.pos) + " words more than it holds");
  ps.s = *fresh;
  ps.ended = std::move(ended);
  ps.base_ended.reset();
  ps.pending = false;
  ps.action = -1;
  ps.given.clear();
  ps.guessed.clear();
  ps.gat = ps.gstart = 0;
  ps.legal_ok = false;
}
}  // namespace cs
