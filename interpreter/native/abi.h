// The C ABI of a game compiled alone (the design chosen in docs/design/native.md): the per-game library holds
// the generated rules with the engine templates over them and exports one table of plain functions; the
// binding (loader.cc) is built once and loads any such library. No C++ exception crosses the boundary: every
// entry that runs rule code or allocates catches them all and reports failure with a one-line message in `err`
// (a rule failing, the step budget passed, memory exhausted).
#pragma once
#include <cstdio>
#include <new>

#include "position.h"
#include "view.h"

extern "C" {
struct CsApi {
  int version;
  void* (*game_new)(char* err, int cap);  // nullptr on failure, with the message in err
  int (*num_players)(void* g);
  // seed: |seed|'s 32-bit words, least significant first (words 0: no seed, chance nodes); wide: seed >= 2^128
  // nullptr on failure (the rules failing at the match's start), with the message in err
  void* (*state_new)(void* g, const uint32_t* seed, int words, int wide, char* err, int cap);
  void* (*state_clone)(void* s);  // nullptr when memory is exhausted
  void (*state_free)(void* s);
  // the legal actions, or the chance outcomes at a chance node: how many, or -1 with the message in err
  int (*legal)(void* s, int* out, int cap, char* err, int errcap);
  int (*apply)(void* s, int a, char* err, int cap);  // 0, or 1 with the message in err
  int (*is_chance)(void* s);
  int (*is_terminal)(void* s);
  int (*current_player)(void* s);
  void (*returns)(void* s, double* out);
  // random matches in the native loop: the moves made, or -1 with the message in err
  long long (*playouts)(void* g, long long games, uint64_t seed, double* sums, char* err, int cap);
  // the seed of the state's next draw: its words (as state_new's) into out[0..cap), how many, 0 if none
  int (*state_seed)(void* s, uint32_t* out, int cap, int* wide);
  // what player p sees (view.h): how many words (written into out[0..cap)), -1 with the message in err, or
  // -2 before the match's first step has run
  int (*observe)(void* s, int p, int64_t* out, int cap, char* err, int errcap);
  // the state's position (position.h) into out[0..cap): how many words, -1 with the message in err, or -2 while
  // its chance step is half drawn
  int (*position)(void* s, int64_t* out, int cap, char* err, int errcap);
  // put the state at the position of the words: 0, or 1 with what does not fit in err (the state unchanged)
  int (*set_position)(void* s, const int64_t* w, int n, char* err, int cap);
  // The resampler's primitives (resample/search.py), for a state that neither draws its own chance nor deals
  // lazily: a state before the match; one step of a history with its chance outcomes given (history.play_group):
  // 0 done, 1 stopped at a chance node (the outcomes ran out), -1 failed with the message in err, its shuffles
  // then in `noted(0)`; a fresh draw of a step from a 64-bit seed: how many outcomes (in `noted(1)`), or -1.
  void* (*blank_new)(void* g, char* err, int cap);
  int (*play)(void* s, int a, const int* outcomes, int n, char* err, int cap);
  int (*draw)(void* s, int a, uint64_t seed, char* err, int cap);
  // what this thread's last play noted (0: its shuffles, each start, size, cards; a deal's end -1, 0) or last
  // draw drew (1): how many, the first cap of them written into out
  int (*noted)(int which, int* out, int cap);
  int (*swap)(void* s, int c, int d, char* err, int cap);  // two cards trade places: 0, or -1 (err)
  int (*zone_cards)(void* s, int zi, int* out, int cap);  // a zone's cards bottom first: how many; -1: no zone
  int (*card_zone)(void* s, int c);  // the zone card c is in; -1: no card c
  int (*raw_cur)(void* s);  // the seat whose turn it is, whatever the state (State.cur)
  // the undecided blocks of a state that deals lazily, as (zone, cards) pairs (State.unfixed): how many ints
  int (*unfixed)(void* s, int* out, int cap);
  // From here the state draws its chance from the seed of these words (as state_new's), as State.reseed: a
  // resampled world draws its future afresh (ISMCTS's iterations, mc_search.h). 0, or -1 at a chance node.
  int (*reseed)(void* s, const uint32_t* seed, int words, int wide);
};
#define CS_ABI_VERSION 7
}

namespace cs {
// Run f; a C++ exception it throws becomes false and its one-line message in err (never an exception across the
// C boundary, never an abort).
template <class F>
inline bool guarded(char* err, int cap, F&& f) {
  try {
    f();
    return true;
  } catch (const std::bad_alloc&) {
    std::snprintf(err, cap, "%s", "out of memory");
  } catch (const std::exception& e) {
    std::snprintf(err, cap, "%s", e.what());
  } catch (...) {
    std::snprintf(err, cap, "%s", "an unknown failure");
  }
  return false;
}

// What the last play or draw of this thread noted (CsApi::noted).
inline std::vector<int>& noted_buffer(int which) {
  static thread_local std::vector<int> b[2];
  return b[which != 0];
}

template <class R>
const CsApi* make_api() {
  using G = Game<R>;
  using S = PyState<R>;
  static const CsApi api = {
      CS_ABI_VERSION,
      [](char* err, int cap) -> void* {
        G* g = nullptr;
        guarded(err, cap, [&] { g = new G(); });
        return g;
      },
      [](void* g) { return static_cast<G*>(g)->eng.m.n; },
      [](void* g, const uint32_t* seed, int words, int wide, char* err, int cap) -> void* {
        PySeed sd{};  // the binding gives at most SEED_WORDS words
        words = std::max(0, std::min(words, SEED_WORDS));
        std::copy(seed, seed + words, sd.w);
        sd.n = (uint8_t)words;
        sd.wide = wide != 0;
        S* s = nullptr;
        if (!guarded(err, cap, [&] {
              s = new S();
              init_state(*s, &static_cast<G*>(g)->eng, 0, sd);
            })) {
          delete s;
          return nullptr;
        }
        return s;
      },
      [](void* s) -> void* { return new (std::nothrow) S(*static_cast<S*>(s)); },
      [](void* s) { delete static_cast<S*>(s); },
      [](void* s, int* out, int cap, char* err, int errcap) {
        int size = -1;
        guarded(err, errcap, [&] {
          const auto& la = static_cast<S*>(s)->legal();
          int n = std::min<int>((int)la.size(), cap);
          std::copy(la.begin(), la.begin() + n, out);
          size = (int)la.size();
        });
        return size;
      },
      [](void* s, int a, char* err, int cap) {
        return guarded(err, cap, [&] { static_cast<S*>(s)->apply(a); }) ? 0 : 1;
      },
      [](void* s) { return (int)static_cast<S*>(s)->is_chance(); },
      [](void* s) { return (int)static_cast<S*>(s)->s.terminal; },
      [](void* s) { return static_cast<S*>(s)->current_player(); },
      [](void* s, double* out) {
        auto* st = static_cast<S*>(s);
        for (int p = 0; p < st->eng->m.n; p++) out[p] = st->s.terminal ? st->s.rets[p] : 0.0;
      },
      [](void* g, long long games, uint64_t seed, double* sums, char* err, int cap) {
        long long moves = -1;
        guarded(err, cap, [&] { moves = random_playouts(&static_cast<G*>(g)->eng, games, seed, sums); });
        return moves;
      },
      [](void* s, uint32_t* out, int cap, int* wide) {
        const PySeed& sd = static_cast<S*>(s)->s.py;
        std::copy(sd.w, sd.w + std::min<int>(sd.n, cap), out);
        *wide = sd.wide;
        return (int)sd.n;
      },
      [](void* s, int p, int64_t* out, int cap, char* err, int errcap) {
        int size = -1;
        guarded(err, errcap, [&] {
          static thread_local std::vector<i64> words;
          if (!observe(*static_cast<S*>(s), p, words)) { size = -2; return; }
          std::copy(words.begin(), words.begin() + std::min<size_t>(words.size(), (size_t)std::max(cap, 0)), out);
          size = (int)words.size();
        });
        return size;
      },
      [](void* s, int64_t* out, int cap, char* err, int errcap) {
        int size = -1;
        guarded(err, errcap, [&] {
          static thread_local std::vector<i64> words;
          if (!write_position(*static_cast<S*>(s), words)) { size = -2; return; }
          std::copy(words.begin(), words.begin() + std::min<size_t>(words.size(), (size_t)std::max(cap, 0)), out);
          size = (int)words.size();
        });
        return size;
      },
      [](void* s, const int64_t* w, int n, char* err, int cap) {
        return guarded(err, cap, [&] { read_position(*static_cast<S*>(s), w, n); }) ? 0 : 1;
      },
      [](void* g, char* err, int cap) -> void* {
        S* s = nullptr;
        if (!guarded(err, cap, [&] {
              s = new S();
              init_blank(*s, &static_cast<G*>(g)->eng, 0);
            })) {
          delete s;
          return nullptr;
        }
        return s;
      },
      [](void* s, int a, const int* outcomes, int n, char* err, int cap) {
        int r = -1;
        auto& tr = noted_buffer(0);
        tr.clear();
        guarded(err, cap, [&] {
          Explicit e;
          e.q = outcomes;
          e.n = std::max(n, 0);
          e.trace = &tr;
          r = static_cast<S*>(s)->play_explicit(a, e) ? 0 : 1;
        });
        return r;
      },
      [](void* s, int a, uint64_t seed, char* err, int cap) {
        int r = -1;
        auto& out = noted_buffer(1);
        guarded(err, cap, [&] {
          static_cast<S*>(s)->draw(a, narrow_seed(seed), out);
          r = (int)out.size();
        });
        return r;
      },
      [](int which, int* out, int cap) {
        const auto& v = noted_buffer(which == 1);
        std::copy(v.begin(), v.begin() + std::min<size_t>(v.size(), (size_t)std::max(cap, 0)), out);
        return (int)v.size();
      },
      [](void* s, int c, int d, char* err, int cap) {
        return guarded(err, cap, [&] { static_cast<S*>(s)->swap_places(c, d); }) ? 0 : -1;
      },
      [](void* s, int zi, int* out, int cap) {
        const State& st = static_cast<S*>(s)->s;
        if (zi < 0 || zi >= static_cast<S*>(s)->eng->m.nz) return -1;
        int n = st.zlen[zi];
        std::copy(st.z[zi], st.z[zi] + std::min(n, std::max(cap, 0)), out);
        return n;
      },
      [](void* s, int c) {
        const S& st = *static_cast<S*>(s);
        return c < 0 || c >= st.eng->m.nc ? -1 : (int)st.s.loc[c];
      },
      [](void* s) { return static_cast<S*>(s)->s.cur; },
      [](void* s, int* out, int cap) {
        const S& st = *static_cast<S*>(s);
        int n = 0;
        for (int zi = 0; zi < st.eng->m.nz; zi++)
          if (st.s.unfixed[zi]) {
            if (n + 2 <= cap) { out[n] = zi; out[n + 1] = st.s.unfixed[zi]; }
            n += 2;
          }
        return n;
      },
      [](void* s, const uint32_t* seed, int words, int wide) {
        S& st = *static_cast<S*>(s);
        if (st.pending) return -1;
        PySeed sd{};
        words = std::max(0, std::min(words, SEED_WORDS));
        std::copy(seed, seed + words, sd.w);
        sd.n = (uint8_t)words;
        sd.wide = wide != 0;
        st.s.py = sd;
        return 0;
      },
  };
  return &api;
}
}  // namespace cs

#define CS_EXPORT(R) \
  extern "C" __attribute__((visibility("default"))) const CsApi* cs_api() { return cs::make_api<R>(); }
