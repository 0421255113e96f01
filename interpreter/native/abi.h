// The C ABI of a game compiled alone (the design chosen in docs/design/native.md): the per-game library holds
// the generated rules with the engine templates over them and exports one table of plain functions; the
// binding (loader.cc) is built once and loads any such library. No C++ exception crosses the boundary.
#pragma once
#include <cstdio>

#include "runtime.h"

extern "C" {
struct CsApi {
  int version;
  void* (*game_new)();
  int (*num_players)(void* g);
  // seed: |seed|'s 32-bit words, least significant first (words 0: no seed, chance nodes); wide: seed >= 2^128
  void* (*state_new)(void* g, const uint32_t* seed, int words, int wide);
  void* (*state_clone)(void* s);
  void (*state_free)(void* s);
  int (*legal)(void* s, int* out, int cap);  // the legal actions, or the chance outcomes at a chance node
  int (*apply)(void* s, int a, char* err, int cap);  // 0, or 1 with the message in err
  int (*is_chance)(void* s);
  int (*is_terminal)(void* s);
  int (*current_player)(void* s);
  void (*returns)(void* s, double* out);
  long long (*playouts)(void* g, long long games, uint64_t seed, double* sums);
  // the seed of the state's next draw: its words (as state_new's) into out[0..cap), how many, 0 if none
  int (*state_seed)(void* s, uint32_t* out, int cap, int* wide);
};
#define CS_ABI_VERSION 2
}

namespace cs {
template <class R>
const CsApi* make_api() {
  using G = Game<R>;
  using S = PyState<R>;
  static const CsApi api = {
      CS_ABI_VERSION,
      []() -> void* { return new G(); },
      [](void* g) { return static_cast<G*>(g)->eng.m.n; },
      [](void* g, const uint32_t* seed, int words, int wide) -> void* {
        PySeed sd{};  // the binding gives at most SEED_WORDS words
        words = std::max(0, std::min(words, SEED_WORDS));
        std::copy(seed, seed + words, sd.w);
        sd.n = (uint8_t)words;
        sd.wide = wide != 0;
        auto* s = new S();
        init_state(*s, &static_cast<G*>(g)->eng, 0, sd);
        return s;
      },
      [](void* s) -> void* { return new S(*static_cast<S*>(s)); },
      [](void* s) { delete static_cast<S*>(s); },
      [](void* s, int* out, int cap) {
        const auto& la = static_cast<S*>(s)->legal();
        int n = std::min<int>((int)la.size(), cap);
        std::copy(la.begin(), la.begin() + n, out);
        return (int)la.size();
      },
      [](void* s, int a, char* err, int cap) {
        try {
          static_cast<S*>(s)->apply(a);
          return 0;
        } catch (const std::exception& e) {
          std::snprintf(err, cap, "%s", e.what());
          return 1;
        }
      },
      [](void* s) { return (int)static_cast<S*>(s)->is_chance(); },
      [](void* s) { return (int)static_cast<S*>(s)->s.terminal; },
      [](void* s) { return static_cast<S*>(s)->current_player(); },
      [](void* s, double* out) {
        auto* st = static_cast<S*>(s);
        for (int p = 0; p < st->eng->m.n; p++) out[p] = st->s.terminal ? st->s.rets[p] : 0.0;
      },
      [](void* g, long long games, uint64_t seed, double* sums) {
        return random_playouts(&static_cast<G*>(g)->eng, games, seed, sums);
      },
      [](void* s, uint32_t* out, int cap, int* wide) {
        const PySeed& sd = static_cast<S*>(s)->s.py;
        std::copy(sd.w, sd.w + std::min<int>(sd.n, cap), out);
        *wide = sd.wide;
        return (int)sd.n;
      },
  };
  return &api;
}
}  // namespace cs

#define CS_EXPORT(R) \
  extern "C" __attribute__((visibility("default"))) const CsApi* cs_api() { return cs::make_api<R>(); }
