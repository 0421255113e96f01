// The runtime the generated rules run on: the flat state, zones, lazy chance (as the Python engine's
// chance.py: a step runs, guesses the cards it needs, and the guesses are the next chance nodes) and the
// step budget (`Budget`). The turn flow and the OpenSpiel-shaped interface over it are engine.h. No logs, no
// observations; every index into the state is checked (`at`), and a bad one is a RuleError, not memory;
// every move is bounded by the step budget.
#pragma once
#include <algorithm>
#include <bitset>
#include <cstdint>
#include <cmath>
#include <climits>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pyrandom.h"

#ifndef MAXZ
#define MAXZ 32
#endif
#ifndef MAXC
#define MAXC 64
#endif
#ifndef MAXV
#define MAXV 16
#endif
#ifndef MAXLV
#define MAXLV 1
#endif
#ifndef MAXFV
#define MAXFV 1
#endif
#ifndef MAXLLV
#define MAXLLV 1
#endif
#ifndef MAXP
#define MAXP 10  // the players (a game's library defines its own count: emit_cpp.py)
#endif
// A list holds a zone's cards, or 64 values of any other kind.
#define LCAP (MAXC > 64 ? MAXC : 64)

namespace cs {
using i64 = int64_t;
constexpr i64 NONE_V = -(1LL << 62);
// STOP: a pick met without its outcome; the step unwinds by returning it (no C++ exception: it is frequent)
constexpr int NONE_CODE = -2, END_DEAL = -1, STOP = -3, PICK = MAXZ;

struct RuleError : std::runtime_error { using std::runtime_error::runtime_error; };
[[noreturn]] inline void fail(const char* m) { throw RuleError(m); }
inline int at(i64 i, int n) { if (i < 0 || i >= n) fail("index out of range"); return (int)i; }

// The step budget of one move (docs/design/native.md): every loop iteration of rule code, every call of a
// `define` function or procedure, every item a library walk or generator visits takes at least one unit; past
// `left` the move stops with the Python backend's words (`over`). Rule files are untrusted: without it nested
// walks could run for hours inside one move.
[[noreturn]] __attribute__((cold, noinline)) inline void over_budget(const char* m) { throw RuleError(m); }
// The stack: rule code may nest deep (a hundred procedures, each in loops over lists of a thousand cards), and
// a C++ stack overflow is a crash, not an error. Every call that calls, loop, library walk and `let` checks
// that the stack left is above this thread's floor: its lowest address and STACK_RESERVE, room for what runs
// below one check (a function's frame and a leaf's, each at most build.py's FRAME_LIMIT: the compiler refuses
// more; the runtime's helpers; the unwinder of the error).
constexpr uintptr_t STACK_RESERVE = 1 << 20;
[[noreturn]] __attribute__((cold, noinline)) inline void too_deep() {
  throw RuleError("rule code nests too deep for the native stack");
}
__attribute__((noinline)) inline uintptr_t find_stack_floor() {
  char here = 0;
  uintptr_t at = reinterpret_cast<uintptr_t>(&here);
  void* low = nullptr;
  size_t size = 0;
#if defined(__GLIBC__) || defined(__linux__)
  pthread_attr_t a;
  if (pthread_getattr_np(pthread_self(), &a) == 0) {
    if (pthread_attr_getstack(&a, &low, &size) != 0) low = nullptr;
    pthread_attr_destroy(&a);
  }
#endif
  uintptr_t lo = reinterpret_cast<uintptr_t>(low);
  // Unknown (no such call here): rule code may take 1 MB below its first check, the reserve below that.
  if (low == nullptr || lo >= at) return at > 2 * STACK_RESERVE ? at - STACK_RESERVE : 0;
  return lo + STACK_RESERVE;
}
inline uintptr_t stack_floor() {
  static thread_local uintptr_t floor = find_stack_floor();
  return floor;
}

struct Budget {
  // `long long`, not i64 (`long`): a type no value of rule code has, so a charge in a loop does not make the
  // compiler reload the lists and variables it reads (strict aliasing).
  long long left;
  const char* over;
  uintptr_t floor = stack_floor();
  void deep() const {
    char here;
    if (__builtin_expect(reinterpret_cast<uintptr_t>(&here) < floor, 0)) too_deep();
  }
  void charge(long long k) { deep(); if (__builtin_expect((left -= k) < 0, 0)) over_budget(over); }
  void tick() { deep(); if (__builtin_expect(--left < 0, 0)) over_budget(over); }
};

}  // namespace cs

#include "lists.h"

namespace cs {

// The fixed-size part of a state, copied as one block (a trivial copy: memcpy).
struct Flat {
  int16_t zlen[MAXZ];
  int16_t unfixed[MAXZ];  // the undecided block of a shuffled zone: its bottom k cards (0: none)
  int16_t z[MAXZ][MAXC];
  int16_t loc[MAXC], by[MAXC];
  i64 v[MAXV];
  double fv[MAXFV];  // variables of numbers with decimals
  int16_t team[MAXP];
  bool out[MAXP], sit[MAXP];  // eliminated; sitting out this deal
  int cur, actor, phase, turns, dealer, moves, deal_no;
  bool terminal;
  uint64_t winners;  // the players `match: winners` names when the match ends (a bit each), as State.winners
  double rets[MAXP];
  // A state with either draws its own chance, else it stops at chance nodes. rng: the native playout loop's
  // (splitmix64, lazy dealing); py: a seeded state's, drawn exactly as the Python backend's (pyrandom.h).
  uint64_t rng;
  PySeed py;
};

// A state: the block, and the list variables, each copied as far as it holds items. (A copy member by member
// copied the zones' int16 arrays an element at a time: a quarter of a chance loop's time in a fishing game.)
struct State : Flat {
  List lv[MAXLV];  // list variables
  Lists llv[MAXLLV];  // variables of lists of lists
  State() = default;
  State(const State& o) : Flat(o) { lists_of(o); }
  State& operator=(const State& o) {
    if (this != &o) {
      Flat::operator=(o);
      lists_of(o);
    }
    return *this;
  }
  void lists_of(const State& o) {
    for (int i = 0; i < MAXLV; i++) lv[i] = o.lv[i];
    for (int i = 0; i < MAXLLV; i++) llv[i] = o.llv[i];
  }
};

// One run of a step: the outcomes given per key (a zone, or PICK), how many it used, and its guesses.
using Mask = std::bitset<MAXC>;  // a set of cards
struct Guess { int key; Mask opts; int n; int card; };
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
  int init_match = -1, init_deal = -1, teams = -1, next_dealer = -1, max_deals = 0;
  std::vector<int> fix_zones;  // decided at the end of a lazy step (chance.py fix_seen)
  long long budget = LLONG_MAX;  // units of work in one move: the Python backend's `Limits.steps`
  std::string over = "the rules did too much work in one move";
  struct Phase { int first, start, after, end, then; bool round; int next; std::vector<int> actions; };
  std::vector<Phase> phases;
  int match_start, match_deal, match_end_deal, over_when;
  int winners = -1;  // `match: winners`, a list of players (-1: none)
  // What each player sees (observation.py's plan, lower_views.py): how (EVERYONE, NOBODY, OWNER, TEAM, RULE),
  // the slot's owner (-1: none) and the RULE's function; a variable's kind (i, f, l, L) and native slot too.
  struct Sees { int how, owner, rule; };
  struct VarSees { int how, owner, rule; char kind; int slot; };
  std::vector<Sees> zsees;
  std::vector<VarSees> vsees;
  // The whole-number fields of a position (position.h), in position.py's order: the field, what it holds (p a
  // phase, n a player, c a count) and its name for a refusal.
  struct Scalar { int Flat::*field; char kind; const char* name; };
  std::vector<Scalar> scalars;
};

// A step run with its chance given explicitly (history.play_group on a state that neither draws its own nor
// deals lazily: the resampler's replays): a shuffle takes its zone's new order from `q`, top down, the last card
// forced, and a pick its index, as chance.py's eager mode; the shuffles are noted in `trace` as the Python
// replay's are. Or a seeded run that notes what its draws were as such outcomes (`drawn`: the resampler's
// fresh draw of a step).
struct NeedChance {};  // the outcomes given ran out: the step stops at a chance node (no error of the rules)
struct Explicit {
  const int* q = nullptr;
  int n = 0, pos = 0;
  std::vector<int>* trace = nullptr;  // a shuffle of 2+ cards: where its outcomes start, its size, its cards
  std::vector<int>* drawn = nullptr;  //   (bottom first, as before it); a deal's end: ENDED_MARK, 0
};
constexpr int ENDED_MARK = -1;

// ------------------------------------------------------------------ zones
struct Ctx {  // what rule code reads: the state, the running step's draws, the game
  State& s;
  Draws* d;
  const Meta& m;
  bool stop = false;  // a pick is waiting for its outcome: every block returns STOP
  Budget b{m.budget, m.over.c_str()};  // a Ctx is made per move, legal query and run of a step: a full budget
  // Where a deal that ends (the match going on) leaves its copy, as observation.py's `Ended`; none in the
  // native playout loop, which shows nobody anything.
  std::shared_ptr<const State>* ended = nullptr;
  Explicit* e = nullptr;  // explicit chance, or a seeded run's record of its draws
};

// How many numbers range(a, b) holds, as a charge (a walk over it takes them one at a time: emit_cpp `loop`).
inline long long span(i64 a, i64 b) {
  return b > a ? (long long)std::min<uint64_t>((uint64_t)b - (uint64_t)a, LLONG_MAX / 4) : 0;
}
// A library walk over a list (sort, reverse, unique, `in`...): a unit per item, charged before it runs. Only
// ever an argument of the call that walks (the reference is to the caller's value, alive until the call ends).
template <class L> inline const L& walked(Ctx& x, const L& xs) { x.b.charge(xs.size()); return xs; }
// A list built by the library (range): a unit per item.
template <class L> inline L built(Ctx& x, L l) { x.b.charge(l.size()); return l; }

inline int zi_of(const Ctx& x, i64 zi) { return at(zi, x.m.nz); }
inline void shrink(State& s, int zi, int k) { s.unfixed[zi] = (int16_t)(k >= 2 ? k : 0); }

inline Mask mask_of(const State& s, int zi, int k) {
  Mask m;
  for (int i = 0; i < k; i++) m.set(s.z[zi][i]);
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
inline View zone_top_view(Ctx& x, i64 zi_, i64 n) {  // the zone, its top n cards decided (runtime._fz_top)
  int zi = zi_of(x, zi_);
  if (x.s.unfixed[zi] && n > 0) decide_upto(x, zi, (int)std::min<i64>(n, x.s.zlen[zi]));
  return View{x.s.z[zi], x.s.zlen[zi]};
}
inline List zone_top(Ctx& x, i64 zi, i64 n) { return top_of(zone_top_view(x, zi, n), n); }
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
inline void prepend(State& s, int dest, int c) {  // under the zone's cards (its undecided block is decided)
  int n = s.zlen[dest];
  if (n >= MAXC) fail("zone full");
  std::memmove(s.z[dest] + 1, s.z[dest], sizeof(int16_t) * n);
  s.z[dest][0] = (int16_t)c;
  s.zlen[dest]++;
  s.loc[c] = (int16_t)dest;
  s.by[c] = (int16_t)s.actor;
}
inline void before_bottom(Ctx& x, int dest) {  // chance.py before_bottom
  if (x.s.unfixed[dest]) decide_upto(x, dest, x.s.zlen[dest]);
}

inline void move1(Ctx& x, i64 c_, i64 dest_, bool bottom = false) {
  State& s = x.s;
  int c = at(c_, x.m.nc), dest = zi_of(x, dest_);
  if (bottom) before_bottom(x, dest);
  int src = s.loc[c];
  int16_t* zs = s.z[src];
  int n = s.zlen[src], i = 0;
  while (i < n && zs[i] != c) i++;
  if (i == n) fail("card not in its zone");
  if (s.unfixed[src] && i < s.unfixed[src]) shrink(s, src, s.unfixed[src] - 1);
  std::memmove(zs + i, zs + i + 1, sizeof(int16_t) * (n - i - 1));
  s.zlen[src]--;
  if (bottom) prepend(s, dest, c); else append(s, dest, c);
}
template <class L> inline void move_list(Ctx& x, const L& cards_, i64 dest, bool bottom = false) {
  List cards = unique(cards_);  // runtime._move: each card once
  if (bottom) {  // to the bottom one by one, last first: the list keeps its order there
    for (int i = cards.n - 1; i >= 0; i--) move1(x, cards.a[i], dest, true);
  } else {
    for (int i = 0; i < cards.n; i++) move1(x, cards.a[i], dest);
  }
}
inline void move_zone(Ctx& x, i64 src_, i64 dest_, bool bottom = false) {  // runtime._move of a whole zone
  State& s = x.s;
  int src = zi_of(x, src_), dest = zi_of(x, dest_);
  if (src == dest) return;
  if (bottom) before_bottom(x, dest);
  int k = s.unfixed[src];
  if (k && !bottom && s.zlen[dest]) { decide_upto(x, src, s.zlen[src]); k = 0; }  // the block would sit above
  int n = s.zlen[src], m = s.zlen[dest];
  if (n + m > MAXC) fail("zone full");
  if (bottom) {
    std::memmove(s.z[dest] + n, s.z[dest], sizeof(int16_t) * m);
    std::memcpy(s.z[dest], s.z[src], sizeof(int16_t) * n);
  } else {
    std::memcpy(s.z[dest] + m, s.z[src], sizeof(int16_t) * n);
  }
  s.zlen[dest] = (int16_t)(n + m);
  for (int i = 0; i < n; i++) { int c = s.z[src][i]; s.loc[c] = (int16_t)dest; s.by[c] = (int16_t)s.actor; }
  s.zlen[src] = 0;
  s.unfixed[src] = 0;
  if (k) s.unfixed[dest] = (int16_t)k;  // the undecided block moves with the cards: the bottom k of dest
}
inline void move_pack(Ctx& x, i64 dest_, bool bottom = false) {  // runtime._move of the whole pack
  State& s = x.s;
  int dest = zi_of(x, dest_);
  if (bottom) before_bottom(x, dest);
  int16_t kept[MAXC];
  int nk = s.zlen[dest], k = s.unfixed[dest];
  std::memcpy(kept, s.z[dest], sizeof(int16_t) * nk);
  for (int zi = 0; zi < x.m.nz; zi++) { s.zlen[zi] = 0; s.unfixed[zi] = 0; }
  if (!bottom) for (int i = 0; i < nk; i++) append(s, dest, kept[i]);  // kept cards, then the rest
  for (int c = 0; c < x.m.nc; c++) if (s.loc[c] != dest) append(s, dest, c);
  if (bottom) for (int i = 0; i < nk; i++) append(s, dest, kept[i]);  // the rest, then the kept cards
  for (int c = 0; c < x.m.nc; c++) { s.loc[c] = (int16_t)dest; s.by[c] = (int16_t)s.actor; }
  s.unfixed[dest] = (int16_t)k;  // the destination's undecided block stays where it is
}
// chance.py shuffle without a seed, eagerly: each position from the top down takes the next outcome, which
// must be one of the cards at or below it.
inline void shuffle_explicit(Ctx& x, int zi) {
  Explicit& e = *x.e;
  int16_t* z = x.s.z[zi];
  int n = x.s.zlen[zi];
  if (e.trace && n > 1) {
    e.trace->insert(e.trace->end(), {e.pos, n});
    e.trace->insert(e.trace->end(), z, z + n);
  }
  for (int i = n - 1; i > 0; i--) {
    if (e.pos >= e.n) throw NeedChance{};
    int c = e.q[e.pos], j = 0;
    while (j <= i && z[j] != c) j++;
    if (j > i) fail("a chance outcome that is not possible here (a card of the shuffled zone)");
    e.pos++;
    std::swap(z[i], z[j]);
  }
}
inline void shuffle(Ctx& x, i64 zi_) {
  int zi = zi_of(x, zi_);
  if (x.s.py) {  // eagerly, as a seeded Python state (chance.py shuffle): the same seed, the same order
    py_shuffle<MAXC>(x.s.py, x.s.z[zi], x.s.zlen[zi]);
    x.s.unfixed[zi] = 0;
    if (x.e && x.e->drawn)  // history.explicit: the new order from the top down, all but the last card
      for (int i = x.s.zlen[zi] - 1; i >= 1; i--) x.e->drawn->push_back(x.s.z[zi][i]);
    return;
  }
  if (x.e) { shuffle_explicit(x, zi); return; }
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
inline int next_active(const State& s, int n, int p);
inline void deal_each(Ctx& x, i64 n, i64 src_, i64 base) {  // runtime._deal_each: to every active player
  State& s = x.s;
  int src = zi_of(x, src_);
  int order[MAXP], k = 0, p = s.dealer;
  for (int i = 0; i < x.m.n; i++) {
    p = next_active(s, x.m.n, p);
    bool seen = false;
    for (int j = 0; j < k; j++) seen |= order[j] == p;
    if (seen) break;
    order[k++] = p;
  }
  i64 total = n * k;
  if (total <= 0) return;
  if (total > s.zlen[src]) fail("cannot deal that many cards");
  if (s.unfixed[src]) decide_upto(x, src, (int)total);
  int16_t popped[MAXC];
  for (int i = 0; i < total; i++) popped[i] = s.z[src][s.zlen[src] - 1 - i];
  s.zlen[src] -= (int16_t)total;
  for (int j = 0; j < k; j++)  // from the dealer's left, every k-th card off the top
    for (int i = j; i < total; i += k) append(s, zi_of(x, base + order[j]), popped[i]);
}
// A pick from more values than the rule file's `bounds: outcomes` (chance.py pick: R005, which the Python
// backend words when asked).
inline int pick_bounded(int n, long long bound) {
  if (n > 0 && n > bound) fail("a pick from more values than the rule file's bounds declare");
  return n;
}
// pick: the index of one of n values (chance.py pick)
inline int pick_index(Ctx& x, int n) {
  if (n == 0) fail("'pick' from an empty list");
  State& s = x.s;
  if (s.rng) return uniform(s, n);
  if (s.py) {
    int i = py_pick(s.py, n);
    if (x.e && x.e->drawn) x.e->drawn->push_back(i);
    return i;
  }
  if (x.e) {
    Explicit& e = *x.e;
    if (e.pos >= e.n) throw NeedChance{};
    int i = e.q[e.pos];
    if (i < 0 || i >= n) fail("a chance outcome that is not possible here (a pick)");
    e.pos++;
    return i;
  }
  Draws* d = x.d;
  auto& g = d->given[PICK];
  if (d->used[PICK] < (int)g.size()) {
    int i = g[d->used[PICK]++];
    if (i < 0 || i >= n) fail("chance outcome out of range");
    return i;
  }
  if (d->picks_open) d->guessed.push_back({PICK, Mask(), n, -1});
  x.stop = true;
  return 0;
}

inline i64 check_digit(i64 d, i64 radix) { if (d < 0 || d >= radix) fail("a parameter value outside its range"); return d; }
inline int next_active(const State& s, int n, int p) {
  for (int k = 1; k <= n; k++) { int q = (p + k) % n; if (!s.out[q] && !s.sit[q]) return q; }
  return p;
}
inline int prev_active(const State& s, int n, int p) {
  for (int k = 1; k <= n; k++) { int q = ((p - k) % n + n) % n; if (!s.out[q] && !s.sit[q]) return q; }
  return p;
}
inline int next_in_match(const State& s, int n, int p) {
  for (int k = 1; k <= n; k++) { int q = (p + k) % n; if (!s.out[q]) return q; }
  return p;
}
inline int n_active(const State& s, int n) { int k = 0; for (int p = 0; p < n; p++) k += !(s.out[p] || s.sit[p]); return k; }
inline List active_list(const Ctx& x) { List l; for (int p = 0; p < x.m.n; p++) if (!(x.s.out[p] || x.s.sit[p])) l.push(p); return l; }
inline List teams_list(const Ctx& x) {  // the team numbers now, smallest first
  List l;
  for (int t = 0; t < x.m.n; t++) for (int p = 0; p < x.m.n; p++) if (x.s.team[p] == t) { l.push(t); break; }
  return l;
}
inline List teammates(const Ctx& x, i64 p_) {
  int p = at(p_, x.m.n);
  List l;
  for (int q = 0; q < x.m.n; q++) if (q != p && x.s.team[q] == x.s.team[p]) l.push(q);
  return l;
}
}  // namespace cs
