// The turn engine over the runtime (runtime.h): `Engine<R>` runs the generated rules R through the turn
// flow and chance; `PyState` is the OpenSpiel-shaped state the bindings wrap; and the native loops (random
// playouts) run here, never crossing into Python per action.
#pragma once

#include "runtime.h"

namespace cs {

// ------------------------------------------------------------------ the engine
// R provides: int block(Ctx&, int fid, const i64* args); i64 value(Ctx&, int fid); double ret(Ctx&, int p);
// void legal(Ctx&, int action, std::vector<int>& out); int run(Ctx&, int action, int k);
// int action_of(int id, int& k); List list(Ctx&, int fid, i64 owner) (a `visible` rule, the winners).
template <class R>
struct Engine {
  const R& r;
  Meta m;
  explicit Engine(const R& rules) : r(rules), m(rules.meta()) {}

  void transfer(Ctx& x, int code) {
    State& s = x.s;
    int hops = 0;
    while (code != NONE_CODE && !s.terminal) {
      if (code == STOP) return;
      x.b.tick();  // a phase entry or a new deal is work, as in flow.py's transfer
      if (++hops > 10000) fail("a goto loop");
      if (code >= 0) {
        s.phase = code;
        s.turns = 0;
        const auto& ph = m.phases[at(code, (int)m.phases.size())];
        if (ph.first >= 0) s.cur = at(r.value(x, ph.first), m.n);
        code = ph.start >= 0 ? r.block(x, ph.start, nullptr) : NONE_CODE;
        if (code == NONE_CODE && (s.out[s.cur] || s.sit[s.cur])) s.cur = next_active(s, m.n, s.cur);
      } else {
        code = end_deal(x);
      }
    }
  }
  int seat_teams(Ctx& x) {  // flow.py seat_teams: each seat its own team without `players: teams`
    State& s = x.s;
    if (m.teams < 0) {
      for (int p = 0; p < m.n; p++) s.team[p] = (int16_t)p;
      return NONE_CODE;
    }
    s.actor = s.dealer;
    return r.block(x, m.teams, nullptr);
  }
  int start_deal(Ctx& x) {
    State& s = x.s;
    s.deal_no++;
    for (int p = 0; p < m.n; p++) s.sit[p] = false;
    if (seat_teams(x) == STOP) return STOP;
    if (r.block(x, m.init_deal, nullptr) == STOP) return STOP;
    s.actor = s.dealer;
    int code = r.block(x, m.match_deal, nullptr);
    if (code == NONE_CODE) fail("'match: deal' must end with 'goto' a phase");
    return code;
  }
  int end_deal(Ctx& x) {
    State& s = x.s;
    s.actor = s.dealer;
    if (r.block(x, m.match_end_deal, nullptr) == STOP) return STOP;
    bool over = (m.over_when >= 0 && r.value(x, m.over_when)) || (m.max_deals > 0 && s.deal_no >= m.max_deals);
    if (over) {
      s.winners = 0;
      if (m.winners >= 0) {  // as flow.py: sorted(set(winners)), each a player (runtime.py _want_players)
        List w = r.list(x, m.winners, NONE_V);
        for (int i = 0; i < w.n; i++) s.winners |= (uint64_t)1 << at(w.a[i], m.n);
      }
      for (int p = 0; p < m.n; p++) s.rets[p] = r.ret(x, p);
      s.terminal = true;
      return NONE_CODE;
    }
    if (x.d) fix_seen(x);
    if (x.stop) return STOP;
    if (x.ended) *x.ended = std::make_shared<const State>(s);  // what the players see of the deal as it ended
    if (x.e && x.e->trace) x.e->trace->insert(x.e->trace->end(), {ENDED_MARK, 0});  // (flow.py: "ended")
    s.dealer = m.next_dealer >= 0 ? at(r.value(x, m.next_dealer), m.n) : next_in_match(s, m.n, s.dealer);
    return start_deal(x);
  }
  void fix_seen(Ctx& x) {  // chance.py fix_seen: the zones a player sees or a query reads are decided
    for (int zi : m.fix_zones) if (x.s.unfixed[zi]) decide_upto(x, zi, x.s.zlen[zi]);
  }
  void start_match(Ctx& x) {
    State& s = x.s;
    if (r.block(x, m.init_match, nullptr) == STOP) return;
    s.actor = s.dealer;
    if (seat_teams(x) == STOP) return;
    if (r.block(x, m.match_start, nullptr) == STOP) return;
    transfer(x, start_deal(x));
  }
  void take_action(Ctx& x, int a) {
    State& s = x.s;
    int k;
    int act = r.action_of(a, k);
    s.actor = s.cur;
    s.moves++;
    int code = r.run(x, act, k);
    const auto& ph = m.phases[s.phase];
    if (code == NONE_CODE && ph.after >= 0) code = r.block(x, ph.after, nullptr);
    if (code == NONE_CODE) {
      if (ph.round) {
        s.turns++;
        if (s.turns >= n_active(s, m.n)) {
          code = r.block(x, ph.end, nullptr);
          if (code == STOP) return;
          if (code == NONE_CODE) fail("round phase ended without goto");
        }
      }
      if (code == NONE_CODE) {
        if (ph.next == 1) s.cur = next_active(s, m.n, s.cur);
        else if (ph.next == 2) s.cur = prev_active(s, m.n, s.cur);
        if (ph.then != NONE_CODE) code = ph.then;
      }
    }
    if (code != NONE_CODE) transfer(x, code);
  }
  void legal(State& s, std::vector<int>& out) {
    out.clear();
    s.actor = s.cur;
    Ctx x{s, nullptr, m};
    for (int a : m.phases[s.phase].actions) r.legal(x, a, out);
    std::sort(out.begin(), out.end());
  }
};

// A state with its pending chance (as State.pending: the state before the step, the outcomes given so far,
// and the guessed nodes still to give).
template <class R>
struct Game {
  R rules;
  Engine<R> eng;
  template <class... A>
  explicit Game(A&&... a) : rules(std::forward<A>(a)...), eng(rules) {}
};

template <class R>
struct PyState {
  Engine<R>* eng;
  State s;
  bool pending = false;
  State base;
  int action = -1;  // the step's action, -1 for the match's start
  std::vector<std::pair<int, int>> given;
  std::vector<Guess> guessed;
  size_t gat = 0, gstart = 0;
  std::vector<int> legal_cache;
  bool legal_ok = false;
  std::shared_ptr<const State> ended, base_ended;  // the last deal as it ended (observation.py Ended), and base's

  PyState() = default;
  // A copy (clone, the search's hot path): `base` is read only while chance is pending, so a state between
  // steps is copied without it.
  PyState(const PyState& o)
      : eng(o.eng), s(o.s), pending(o.pending), action(o.action), given(o.given), guessed(o.guessed),
        gat(o.gat), gstart(o.gstart), legal_cache(o.legal_cache), legal_ok(o.legal_ok), ended(o.ended) {
    if (pending) { base = o.base; base_ended = o.base_ended; }
  }
  PyState& operator=(const PyState&) = delete;

  // One step's draws, kept between steps so that its lists keep their room (a step never runs another's).
  static Draws& draws() {
    static thread_local Draws d;
    return d;
  }

  void run_step(Draws& d) {  // one run from `base` (which s is now) with `given`
    d.reset();
    for (auto& [k, o] : given) d.given[k].push_back(o);
    Ctx x{s, &d, eng->m};
    x.ended = &ended;
    try {
      if (action < 0) eng->start_match(x); else eng->take_action(x, action);
      if (!x.stop) eng->fix_seen(x);
    } catch (RuleError&) {
      if (d.guessed.empty()) throw;
    }
    if (!d.guessed.empty()) {
      s = base;
      ended = base_ended;
      guessed = d.guessed;
      gat = 0;
      gstart = given.size();
      pending = true;
      return;
    }
    for (int zi = 0; zi < MAXZ; zi++) {  // outcomes the run did not take fix the zone's next positions
      for (size_t i = d.used[zi]; i < d.given[zi].size(); i++) {
        int k = s.unfixed[zi], c = d.given[zi][i];
        for (int j = 0; j < k; j++) if (s.z[zi][j] == c) { std::swap(s.z[zi][k - 1], s.z[zi][j]); shrink(s, zi, k - 1); break; }
      }
    }
    pending = false;
    given.clear();
    guessed.clear();
  }
  void step(int a) {
    legal_ok = false;
    if (s.rng || s.py) {
      Ctx x{s, nullptr, eng->m};
      x.ended = &ended;
      if (a < 0) eng->start_match(x); else eng->take_action(x, a);
      return;
    }
    base = s;
    base_ended = ended;
    action = a;
    given.clear();
    run_step(draws());
  }
  void outcomes(std::vector<int>& out) const {
    out.clear();
    if (gat >= guessed.size()) return;  // a resampler's state stopped at a chance node (play_explicit)
    const Guess& g = guessed[gat];
    if (g.key == PICK) { for (int i = 0; i < g.n; i++) out.push_back(i); return; }
    Mask m = g.opts;
    for (size_t i = 0; i < gat; i++) if (guessed[i].key == g.key) m.set(guessed[i].card);
    for (size_t i = gstart; i < given.size(); i++) if (given[i].first == g.key) m.reset(given[i].second);
    for (int c = 0; c < MAXC; c++) if (m[c]) out.push_back(c);
  }
  void apply_chance(int o) {
    legal_ok = false;
    given.emplace_back(guessed[gat].key, o);
    if (++gat < guessed.size()) return;
    // s is base already: the run that guessed put it back, and nothing changes a state whose chance is pending
    run_step(draws());
  }
  // history.play_group on a state that neither draws its own chance nor deals lazily (the resampler's
  // replays): the step with its outcomes given. False if they ran out: the state is then as before the step,
  // at a chance node (`pending`, with no node to list: nothing asks a resampler's state for its outcomes).
  // A RuleError if the action is not legal here or the rules fail (the state is then not to be used).
  bool play_explicit(int a, Explicit& e) {
    if (a >= 0) {
      if (s.terminal || pending) fail("the history goes on after the match ended or at a chance node");
      const auto& la = legal();
      if (!std::binary_search(la.begin(), la.end(), a)) fail("illegal action");
    }
    legal_ok = false;
    base = s;
    base_ended = ended;
    Ctx x{s, nullptr, eng->m};
    x.ended = &ended;
    x.e = &e;
    try {
      if (a < 0) eng->start_match(x); else eng->take_action(x, a);
    } catch (NeedChance&) {
      s = base;
      ended = base_ended;
      pending = true;
      action = a;
      given.clear();
      guessed.clear();
      gat = gstart = 0;
      return false;
    }
    if (e.pos < e.n) fail("more chance outcomes than the step uses");
    return true;
  }
  // The resampler's fresh draw of a step (resample/search.py `_draw`): a copy of this state drawing its chance
  // from `seed` as a seeded Python state does, the step run on it, and what it drew as explicit outcomes
  // (history.explicit) into `out`. A RuleError as play_explicit's.
  void draw(int a, const PySeed& seed, std::vector<int>& out) const {
    out.clear();
    auto held = std::make_unique<PyState>(*this);  // on the heap: a state of many list variables is megabytes
    PyState& t = *held;
    if (a >= 0) {
      if (t.s.terminal || t.pending) fail("the history goes on after the match ended or at a chance node");
      const auto& la = t.legal();
      if (!std::binary_search(la.begin(), la.end(), a)) fail("illegal action");
    }
    t.s.py = seed;
    Explicit e;
    e.drawn = &out;
    Ctx x{t.s, nullptr, eng->m};
    x.ended = &t.ended;
    x.e = &e;
    if (a < 0) eng->start_match(x); else eng->take_action(x, a);
  }
  // resample/search.py swap_places: cards c and d trade places, outside a step.
  void swap_places(int c, int d) {
    int nc = eng->m.nc;
    at(c, nc);
    at(d, nc);
    int zc = s.loc[c], zd = s.loc[d];
    int ic = index_in(zc, c), jd = index_in(zd, d);
    s.z[zc][ic] = (int16_t)d;
    s.z[zd][jd] = (int16_t)c;
    std::swap(s.loc[c], s.loc[d]);
    std::swap(s.by[c], s.by[d]);
    legal_ok = false;
  }
  int index_in(int zi, int c) const {
    for (int i = 0; i < s.zlen[zi]; i++) if (s.z[zi][i] == c) return i;
    fail("card not in its zone");
  }
  bool is_chance() const { return pending; }
  int current_player() const { return s.terminal ? -4 : pending ? -1 : s.cur; }
  const std::vector<int>& legal() {
    if (!legal_ok) {
      if (pending) outcomes(legal_cache); else eng->legal(s, legal_cache);
      legal_ok = true;
    }
    return legal_cache;
  }
  void apply(int a) {
    if (s.terminal) fail("the match is over");
    if (pending) { apply_chance(a); return; }
    const auto& la = legal();
    if (!std::binary_search(la.begin(), la.end(), a)) fail("illegal action");
    step(a);
  }
};

// A state before the match starts (State.blank); init_state also runs the match's first step.
template <class R>
inline void init_blank(PyState<R>& ps, Engine<R>* eng, uint64_t seed, const PySeed& py = PySeed{}) {
  ps.eng = eng;
  State& s = ps.s;
  std::memset(static_cast<void*>(&s), 0, sizeof s);  // every field zero (a List is n = 0)
  const Meta& m = eng->m;
  for (int c = 0; c < m.nc; c++) { s.z[0][c] = (int16_t)c; s.loc[c] = 0; }
  s.zlen[0] = (int16_t)m.nc;
  s.rng = seed;
  s.py = py;
}
template <class R>
inline void init_state(PyState<R>& ps, Engine<R>* eng, uint64_t seed, const PySeed& py = PySeed{}) {
  init_blank(ps, eng, seed, py);
  ps.step(-1);
}

// Random playouts in the native loop: states drawing their own chance, uniform random moves. Its matches are
// its own (its moves are), so its chance is the fast splitmix64 and lazy dealing, not Python's generator,
// which reseeds a Mersenne Twister for every shuffle and pick (~1,250 dependent steps each: a game that picks
// at every turn plays several times slower with it).
template <class R>
inline long long random_playouts(Engine<R>* eng, long long games, uint64_t seed, double* ret_sum) {
  auto held = std::make_unique<PyState<R>>();  // on the heap: a state of many list variables is megabytes
  PyState<R>& ps = *held;
  long long moves = 0;
  uint64_t r = seed ? seed : 1;
  std::vector<int> la;
  for (long long g = 0; g < games; g++) {
    init_state(ps, eng, ++r * 0x9E3779B97F4A7C15ULL | 1);
    while (!ps.s.terminal) {
      eng->legal(ps.s, la);
      int a = la[uniform(ps.s, (int)la.size())];
      Ctx x{ps.s, nullptr, eng->m};
      eng->take_action(x, a);
      moves++;
    }
    for (int p = 0; p < eng->m.n; p++) ret_sum[p] += ps.s.rets[p];
  }
  return moves;
}
}  // namespace cs
