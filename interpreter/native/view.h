// What one player sees of a state (engine/observation.py `observe`), as words: the native observation.
// Two states give a player equal words exactly when the Python backend gives them equal observations, so the
// words are a search's key for what a player knows now; `views.py` reads them back into the Python backend's
// observation, word for word.
//
// The words: phase, player to act (-1 at a chance node or the end), dealer, deal number, the players out and
// sitting out (a bit each), over, the winners (a bit each, when over), each player's team; then what is seen
// (`seen`), then 0, or 1 and the deal number and what is seen of the last deal as it ended (`Ended`).
#pragma once
#include "engine.h"

namespace cs {
enum See { SEE_EVERYONE, SEE_NOBODY, SEE_OWNER, SEE_TEAM, SEE_RULE };  // observation.py's plan

template <class R>
struct Viewer {
  const Engine<R>& eng;
  std::vector<i64>& out;

  bool sees(Ctx& x, int how, int owner, int rule, int p) const {
    switch (how) {
      case SEE_EVERYONE: return true;
      case SEE_NOBODY: return false;
      case SEE_OWNER: return p == owner;
      case SEE_TEAM: return x.s.team[p] == owner;
      default: {
        // a `visible` rule: a list of players (runtime.py _want_players), evaluated at the state seen
        List who = eng.r.list(x, rule, owner < 0 ? NONE_V : owner);
        bool in = false;
        for (int i = 0; i < who.n; i++) in |= at(who.a[i], eng.m.n) == p;
        return in;
      }
    }
  }
  // The zones (each its cards, bottom first, or minus one less its count when hidden) and the variables
  // (each 0 when hidden, else 1 and its value) that p sees (observation.py `_visible`).
  void seen(Ctx& x, int p) const {
    const State& s = x.s;
    const Meta& m = eng.m;
    for (int zi = 0; zi < (int)m.zsees.size(); zi++) {
      const Meta::Sees& z = m.zsees[zi];
      int n = s.zlen[zi];
      if (!sees(x, z.how, z.owner, z.rule, p)) { out.push_back(-1 - n); continue; }
      out.push_back(n);
      for (int i = 0; i < n; i++) out.push_back(s.z[zi][i]);
    }
    for (const Meta::VarSees& v : m.vsees) {
      if (!sees(x, v.how, v.owner, v.rule, p)) { out.push_back(0); continue; }
      out.push_back(1);
      switch (v.kind) {
        case 'i': out.push_back(s.v[at(v.slot, MAXV)]); break;
        case 'f': {
          double d = s.fv[at(v.slot, MAXFV)];
          i64 bits;
          std::memcpy(&bits, &d, sizeof bits);
          out.push_back(bits);
          break;
        }
        case 'l': {
          const List& l = s.lv[at(v.slot, MAXLV)];
          out.push_back(l.n);
          out.insert(out.end(), l.a, l.a + l.n);
          break;
        }
        default: {  // 'L'
          const Lists& ls = s.llv[at(v.slot, MAXLLV)];
          out.push_back(ls.n);
          for (int k = 0; k < ls.n; k++) {
            List l = ls[k];
            out.push_back(l.n);
            out.insert(out.end(), l.a, l.a + l.n);
          }
        }
      }
    }
  }
};

// False before the match's first step has run (its chance pending): that state's variables are unset
// (`none` to the Python backend, whose `visible` rules read them so), and the Python backend answers for it.
template <class R>
bool observe(PyState<R>& ps, int p, std::vector<i64>& out) {
  const Engine<R>& eng = *ps.eng;
  const Meta& m = eng.m;
  State& s = ps.s;  // the rules' `visible` are expressions: they read the state, never change it
  at(p, m.n);
  out.clear();
  if (ps.pending && ps.action < 0) return false;
  i64 outs = 0, sits = 0;
  // A seat both out and sitting out shows as sitting out only (observation.py's `active` and `sitting_out`
  // tell no more): equal words exactly where the Python backend's observations are equal.
  for (int q = 0; q < m.n; q++) { outs |= (i64)(s.out[q] && !s.sit[q]) << q; sits |= (i64)s.sit[q] << q; }
  out.insert(out.end(), {s.phase, s.terminal || ps.pending ? -1 : s.cur, s.dealer, s.deal_no, outs, sits,
                         s.terminal, s.terminal ? (i64)s.winners : 0});
  for (int q = 0; q < m.n; q++) out.push_back(s.team[q]);
  Viewer<R> v{eng, out};
  Ctx x{s, nullptr, m};
  v.seen(x, p);
  if (!ps.ended) { out.push_back(0); return true; }
  auto copy = std::make_unique<State>(*ps.ended);  // on the heap: a state of many list variables is megabytes
  State& then = *copy;
  Ctx y{then, nullptr, m};
  out.push_back(1);
  out.push_back(then.deal_no);
  v.seen(y, p);
  return true;
}
}  // namespace cs
