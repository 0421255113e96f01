// The runtime both prototype back ends share: the flat state, zones, lazy chance (as the Python engine's
// chance.py: a step runs, guesses the cards it needs, and the guesses are the next chance nodes), the turn
// flow (flow.py) and the OpenSpiel-shaped interface. `Engine<R>` is instantiated with design (a)'s generated
// rules (gen_*.cc) or design (b)'s program interpreter (engine_b.cc). Prototype: no step budget, no logs,
// no observations; every index into the state is checked (`at`), and a bad one is a RuleError, not memory.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#ifndef MAXZ
#define MAXZ 32
#endif
#ifndef MAXC
#define MAXC 64
#endif
#ifndef MAXV
#define MAXV 16
#endif
#define MAXP 10
#define LCAP 64
static_assert(MAXC <= 64, "card sets are 64-bit masks");

namespace cs {
using i64 = int64_t;
constexpr i64 NONE_V = -(1LL << 62);
// STOP: a pick met without its outcome; the step unwinds by returning it (no C++ exception: it is frequent)
constexpr int NONE_CODE = -2, END_DEAL = -1, STOP = -3, PICK = MAXZ;

struct RuleError : std::runtime_error { using std::runtime_error::runtime_error; };
[[noreturn]] inline void fail(const char* m) { throw RuleError(m); }
inline int at(i64 i, int n) { if (i < 0 || i >= n) fail("index out of range"); return (int)i; }

// A list of small ints (cards, players, interned texts), by value.
struct List {
  int n = 0;
  int16_t a[LCAP];
  void push(i64 x) { if (n >= LCAP) fail("list too long"); a[n++] = (int16_t)x; }
  i64 operator[](i64 i) const { return a[at(i, n)]; }
  int size() const { return n; }
};

struct State {
  int16_t zlen[MAXZ];
  int16_t unfixed[MAXZ];  // the undecided block of a shuffled zone: its bottom k cards (0: none)
  int16_t z[MAXZ][MAXC];
  int16_t loc[MAXC], by[MAXC];
  i64 v[MAXV];
  int cur, actor, phase, turns, dealer, moves;
  bool terminal;
  double rets[MAXP];
  uint64_t rng;  // 0: chance nodes; else a seeded state drawing its own chance
};

// One run of a step: the outcomes given per key (a zone, or PICK), how many it used, and its guesses.
struct Guess { int key; uint64_t opts; int n; int card; };
struct Draws {
  std::vector<int> given[MAXZ + 1];
  int used[MAXZ + 1];
  std::vector<Guess> guessed;
  bool picks_open = true;
  void reset() { for (auto& g : given) g.clear(); std::memset(used, 0, sizeof used); guessed.clear(); picks_open = true; }
};

inline uint64_t next_rng(State& s) {  // splitmix64
  uint64_t z = (s.rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
inline int uniform(State& s, int n) { return (int)((next_rng(s) >> 11) % (uint64_t)n); }

struct Meta {
  int n = 0, nc = 0, nz = 0, nv = 0, num_actions = 0;
  std::vector<std::pair<int, i64>> match_init, deal_init;
  struct Phase { int first, start, after, end, then; bool round; int next; std::vector<int> actions; };
  std::vector<Phase> phases;
  int match_start, match_deal, match_end_deal, over_when;
};

// ------------------------------------------------------------------ zones
struct Ctx {  // what rule code reads: the state, the running step's draws, the game
  State& s;
  Draws* d;
  const Meta& m;
  bool stop = false;  // a pick is waiting for its outcome: every block returns STOP
};

inline int zi_of(const Ctx& x, i64 zi) { return at(zi, x.m.nz); }
inline void shrink(State& s, int zi, int k) { s.unfixed[zi] = (int16_t)(k >= 2 ? k : 0); }

inline uint64_t mask_of(const State& s, int zi, int k) {
  uint64_t m = 0;
  for (int i = 0; i < k; i++) m |= 1ULL << s.z[zi][i];
  return m;
}

// Decide the top n cards of zone zi, top down: each the next given outcome, else (seeded) a random one,
// else a guess, the card there now (chance.py fix_upto).
inline void decide_upto(Ctx& x, int zi, int n) {
  State& s = x.s;
  int k = s.unfixed[zi];
  int len = s.zlen[zi];
  int low = std::max(len - n, 1);
  if (k == 0 || low >= k) return;
  Draws* d = x.d;
  while (k > low) {
    int j = -1;
    if (s.rng) {
      j = uniform(s, k);
    } else {
      if (!d) fail("an undecided zone read outside a step");
      auto& g = d->given[zi];
      while (j < 0 && d->used[zi] < (int)g.size()) {
        int c = g[d->used[zi]++];
        for (int i = 0; i < k; i++) if (s.z[zi][i] == c) { j = i; break; }
      }
      if (j < 0) {
        j = k - 1;
        d->guessed.push_back({zi, mask_of(s, zi, k), 0, s.z[zi][k - 1]});
        d->picks_open = false;
      }
    }
    std::swap(s.z[zi][k - 1], s.z[zi][j]);
    k--;
  }
  shrink(s, zi, k);
}

struct View {  // a zone's cards, read in place; indexing is checked
  const int16_t* a;
  int n;
  i64 operator[](i64 i) const { return a[at(i, n)]; }
  int size() const { return n; }
};
inline View zone(Ctx& x, i64 zi_) {
  int zi = zi_of(x, zi_);
  if (x.s.unfixed[zi]) decide_upto(x, zi, x.s.zlen[zi]);  // its order is read
  return View{x.s.z[zi], x.s.zlen[zi]};
}
inline i64 zone_len(Ctx& x, i64 zi) { return x.s.zlen[zi_of(x, zi)]; }
inline i64 zone_last(Ctx& x, i64 zi_) {
  int zi = zi_of(x, zi_);
  if (x.s.unfixed[zi]) decide_upto(x, zi, 1);
  if (x.s.zlen[zi] == 0) fail("last() of an empty list");
  return x.s.z[zi][x.s.zlen[zi] - 1];
}
inline List zone_list(Ctx& x, i64 zi) {  // a zone's cards in order, as a list
  View v = zone(x, zi);
  List l;
  for (int i = 0; i < v.n; i++) l.push(v.a[i]);
  return l;
}
inline List zone_list_any(Ctx& x, i64 zi_) {  // the cards of a zone whose order is not read (pick)
  int zi = zi_of(x, zi_);
  List l;
  for (int i = 0; i < x.s.zlen[zi]; i++) l.push(x.s.z[zi][i]);
  return l;
}

inline void append(State& s, int dest, int c) {
  if (s.zlen[dest] >= MAXC) fail("zone full");
  s.z[dest][s.zlen[dest]++] = (int16_t)c;
  s.loc[c] = (int16_t)dest;
  s.by[c] = (int16_t)s.actor;
}

inline void move1(Ctx& x, i64 c_, i64 dest_) {
  State& s = x.s;
  int c = at(c_, x.m.nc), dest = zi_of(x, dest_);
  int src = s.loc[c];
  int16_t* zs = s.z[src];
  int n = s.zlen[src], i = 0;
  while (i < n && zs[i] != c) i++;
  if (i == n) fail("card not in its zone");
  if (s.unfixed[src] && i < s.unfixed[src]) shrink(s, src, s.unfixed[src] - 1);
  std::memmove(zs + i, zs + i + 1, sizeof(int16_t) * (n - i - 1));
  s.zlen[src]--;
  append(s, dest, c);
}
template <class L> inline void move_list(Ctx& x, const L& cards, i64 dest) {
  for (int i = 0; i < cards.size(); i++) move1(x, cards[i], dest);
}
inline void move_zone(Ctx& x, i64 src_, i64 dest_) {
  State& s = x.s;
  int src = zi_of(x, src_), dest = zi_of(x, dest_);
  if (src == dest) return;
  if (s.unfixed[src]) fail("prototype: moving an undecided zone");
  for (int i = 0; i < s.zlen[src]; i++) append(s, dest, s.z[src][i]);
  s.zlen[src] = 0;
}
inline void move_pack(Ctx& x, i64 dest_) {  // runtime._move of the whole pack: kept cards, then the rest
  State& s = x.s;
  int dest = zi_of(x, dest_);
  int16_t kept[MAXC];
  int nk = s.zlen[dest];
  std::memcpy(kept, s.z[dest], sizeof(int16_t) * nk);
  for (int zi = 0; zi < x.m.nz; zi++) { s.zlen[zi] = 0; s.unfixed[zi] = 0; }
  for (int i = 0; i < nk; i++) append(s, dest, kept[i]);
  for (int c = 0; c < x.m.nc; c++) if (s.loc[c] != dest) append(s, dest, c);
  for (int c = 0; c < x.m.nc; c++) { s.loc[c] = (int16_t)dest; s.by[c] = (int16_t)s.actor; }
}
inline void shuffle(Ctx& x, i64 zi_) {
  int zi = zi_of(x, zi_);
  x.s.unfixed[zi] = (int16_t)(x.s.zlen[zi] > 1 ? x.s.zlen[zi] : 0);
}
inline int take_top(Ctx& x, int src) {
  State& s = x.s;
  if (s.zlen[src] == 0) fail("cannot deal from an empty zone");
  if (s.unfixed[src] && s.zlen[src] <= s.unfixed[src]) decide_upto(x, src, 1);
  return s.z[src][--s.zlen[src]];
}
inline void deal(Ctx& x, i64 n, i64 src_, i64 dest_) {
  int src = zi_of(x, src_), dest = zi_of(x, dest_);
  for (i64 i = 0; i < n; i++) append(x.s, dest, take_top(x, src));
}
inline void deal_each(Ctx& x, i64 n, i64 src_, i64 base) {
  State& s = x.s;
  int src = zi_of(x, src_), k = x.m.n;
  i64 total = n * k;
  if (total <= 0) return;
  if (total > s.zlen[src]) fail("cannot deal that many cards");
  if (s.unfixed[src]) decide_upto(x, src, (int)total);
  int16_t popped[MAXC];
  for (int i = 0; i < total; i++) popped[i] = s.z[src][s.zlen[src] - 1 - i];
  s.zlen[src] -= (int16_t)total;
  int p = s.dealer;
  for (int j = 0; j < k; j++) {
    p = (p + 1) % k;  // from the dealer's left
    for (int i = j; i < total; i += k) append(s, zi_of(x, base + p), popped[i]);
  }
}
// pick: the index of one of n values (chance.py pick)
inline int pick_index(Ctx& x, int n) {
  if (n == 0) fail("'pick' from an empty list");
  State& s = x.s;
  if (s.rng) return uniform(s, n);
  Draws* d = x.d;
  auto& g = d->given[PICK];
  if (d->used[PICK] < (int)g.size()) {
    int i = g[d->used[PICK]++];
    if (i < 0 || i >= n) fail("chance outcome out of range");
    return i;
  }
  if (d->picks_open) d->guessed.push_back({PICK, 0, n, -1});
  x.stop = true;
  return 0;
}

// List helpers
inline List range_list(i64 a, i64 b) {
  List l;
  if (b - a > LCAP) fail("range too long");
  for (i64 i = a; i < b; i++) l.push(i);
  return l;
}
template <class L> inline List sorted(const L& xs) {
  List l;
  for (int i = 0; i < xs.size(); i++) l.push(xs[i]);
  std::sort(l.a, l.a + l.n);
  return l;
}
template <class L> inline List to_list(const L& xs) {
  List l;
  for (int i = 0; i < xs.size(); i++) l.push(xs[i]);
  return l;
}
template <class L> inline i64 first_of(const L& xs) { if (!xs.size()) fail("first() of an empty list"); return xs[0]; }
template <class L> inline i64 last_of(const L& xs) { if (!xs.size()) fail("last() of an empty list"); return xs[xs.size() - 1]; }
template <class L> inline bool contains(const L& xs, i64 v) {
  for (int i = 0; i < xs.size(); i++) if (xs[i] == v) return true;
  return false;
}
inline i64 floordiv(i64 a, i64 b) { if (!b) fail("division by zero"); i64 q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }
inline i64 pymod(i64 a, i64 b) { if (!b) fail("modulo by zero"); i64 r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }
inline double truediv(double a, double b) { if (b == 0) fail("division by zero"); return a / b; }

// ------------------------------------------------------------------ the engine
// R provides: int block(Ctx&, int fid, const i64* args); i64 value(Ctx&, int fid); double ret(Ctx&, int p);
// void legal(Ctx&, int action, std::vector<int>& out); int run(Ctx&, int action, int k);
// int action_of(int id, int& k).
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
      if (++hops > 10000) fail("a goto loop");
      if (code >= 0) {
        s.phase = code;
        s.turns = 0;
        const auto& ph = m.phases[at(code, (int)m.phases.size())];
        if (ph.first >= 0) s.cur = (int)r.value(x, ph.first);
        code = ph.start >= 0 ? r.block(x, ph.start, nullptr) : NONE_CODE;
      } else {
        code = end_deal(x);
      }
    }
  }
  int start_deal(Ctx& x) {
    State& s = x.s;
    for (auto& [i, v] : m.deal_init) s.v[i] = v;
    s.actor = s.dealer;
    int code = r.block(x, m.match_deal, nullptr);
    if (code == NONE_CODE) fail("'match: deal' must end with 'goto' a phase");
    return code;
  }
  int end_deal(Ctx& x) {
    State& s = x.s;
    s.actor = s.dealer;
    if (r.block(x, m.match_end_deal, nullptr) == STOP) return STOP;
    bool over = m.over_when >= 0 && r.value(x, m.over_when);
    if (!over) fail("prototype: one deal per match only");
    for (int p = 0; p < m.n; p++) s.rets[p] = r.ret(x, p);
    s.terminal = true;
    return NONE_CODE;
  }
  void start_match(Ctx& x) {
    State& s = x.s;
    for (auto& [i, v] : m.match_init) s.v[i] = v;
    s.actor = s.dealer;
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
        if (s.turns >= m.n) {
          code = r.block(x, ph.end, nullptr);
          if (code == STOP) return;
          if (code == NONE_CODE) fail("round phase ended without goto");
        }
      }
      if (code == NONE_CODE) {
        if (ph.next == 1) s.cur = (s.cur + 1) % m.n;
        else if (ph.next == 2) s.cur = (s.cur + m.n - 1) % m.n;
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

  void run_step(Draws& d) {  // one run from `base` (which s is now) with `given`
    d.reset();
    for (auto& [k, o] : given) d.given[k].push_back(o);
    Ctx x{s, &d, eng->m};
    try {
      if (action < 0) eng->start_match(x); else eng->take_action(x, action);
    } catch (RuleError&) {
      if (d.guessed.empty()) throw;
    }
    if (!d.guessed.empty()) {
      s = base;
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
    if (s.rng) {
      Ctx x{s, nullptr, eng->m};
      if (a < 0) eng->start_match(x); else eng->take_action(x, a);
      return;
    }
    base = s;
    action = a;
    given.clear();
    Draws d;
    run_step(d);
  }
  void outcomes(std::vector<int>& out) const {
    out.clear();
    const Guess& g = guessed[gat];
    if (g.key == PICK) { for (int i = 0; i < g.n; i++) out.push_back(i); return; }
    uint64_t m = g.opts;
    for (size_t i = 0; i < gat; i++) if (guessed[i].key == g.key) m |= 1ULL << guessed[i].card;
    for (size_t i = gstart; i < given.size(); i++) if (given[i].first == g.key) m &= ~(1ULL << given[i].second);
    for (int c = 0; c < 64; c++) if (m >> c & 1) out.push_back(c);
  }
  void apply_chance(int o) {
    legal_ok = false;
    given.emplace_back(guessed[gat].key, o);
    if (++gat < guessed.size()) return;
    s = base;
    Draws d;
    run_step(d);
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

template <class R>
inline void init_state(PyState<R>& ps, Engine<R>* eng, uint64_t seed) {
  ps.eng = eng;
  State& s = ps.s;
  std::memset(&s, 0, sizeof s);
  const Meta& m = eng->m;
  for (int c = 0; c < m.nc; c++) { s.z[0][c] = (int16_t)c; s.loc[c] = 0; }
  s.zlen[0] = (int16_t)m.nc;
  s.rng = seed;
  ps.step(-1);
}

// Random playouts in the native loop: seeded states (each draws its own chance), uniform random moves.
template <class R>
inline long long random_playouts(Engine<R>* eng, long long games, uint64_t seed, double* ret_sum) {
  PyState<R> ps;
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
