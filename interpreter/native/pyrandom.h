// Seeded chance drawn exactly as the Python backend draws it, so that a seed deals the same match on both
// backends. A seeded Python state makes `random.Random(seed)` for each shuffle and pick, draws from it, and
// replaces its seed with a number drawn from that generator (engine/chance.py, engine/seeds.py). So this is
// CPython's generator, word for word: MT19937 seeded by init_by_array from the seed's 32-bit words
// (Modules/_randommodule.c), `random()`, `getrandbits`, `randrange` (Lib/random.py), and the seed passed on.
// Reseeding keys a whole MT state, ~1,250 steps each waiting on the one before, per shuffle or pick, as in
// Python: it is most of a seeded draw's cost.
#pragma once
#include <algorithm>
#include <cstdint>

namespace cs {

// The seed of a state's next draw, by value (a State is copied with memcpy). Python seeds are ints: its
// generator takes |seed|'s words, and the chain passes on 64 bits, or 128 bits plus the wide bit for seeds
// of 2^128 and more (seeds.py WIDE), so after the first draw every seed fits 5 words.
constexpr int SEED_WORDS = 8;  // the widest seed taken at the start: below 2^256
struct PySeed {
  uint32_t w[SEED_WORDS];  // |seed|, least significant word first
  uint8_t n;  // the words of the generator's key (a zero seed is one zero word); 0: no seed
  bool wide;  // seed >= 2^128: passes on 128 bits and the wide bit
  explicit operator bool() const { return n > 0; }
};

// A seed below 2^64 (the prototypes' binding, bind.h). CPython keys the generator with its significant words only.
inline PySeed narrow_seed(uint64_t v) {
  PySeed s{};
  s.w[0] = (uint32_t)v;
  s.w[1] = (uint32_t)(v >> 32);
  s.n = s.w[1] ? 2 : 1;
  return s;
}

// CPython's Mersenne Twister (the reference MT19937 with init_by_array) and the draws random.py makes of it.
struct PyRandom {
  static constexpr int N = 624, M = 397;
  uint32_t mt[N];
  int mti;

  explicit PyRandom(const PySeed& s) { init_by_array(s.w, s.n); }

  struct Base {  // init_genrand(19650218), where every init_by_array starts: worked out once
    uint32_t mt[N];
    Base() {
      mt[0] = 19650218U;
      for (int i = 1; i < N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    }
  };
  // The reference's loops, with the word before kept in a register (each step waits on the one before: this
  // chain of ~1,250 multiplies is most of a draw's cost).
  void init_by_array(const uint32_t* key, int len) {
    static const Base base;
    std::copy(base.mt, base.mt + N, mt);
    int i = 1, j = 0;
    uint32_t prev = mt[0];
    for (int k = std::max(N, len); k; k--) {
      prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
      i++;
      j++;
      if (i >= N) { mt[0] = prev; i = 1; }
      if (j >= len) j = 0;
    }
    for (int k = N - 1; k; k--) {
      prev = mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
      i++;
      if (i >= N) { mt[0] = prev; i = 1; }
    }
    mt[0] = 0x80000000U;  // assures a non-zero initial array
    mti = 0;
  }
  // genrand_uint32. The reference twists all 624 words when it runs out; here each word is twisted when it is
  // drawn, the same words in the same order (word kk reads words kk + 1 and kk + M - N or kk + M, which are
  // not yet twisted, or were, as in the reference): a shuffle or pick draws ~110 of them, then is reseeded.
  uint32_t next() {
    int kk = mti;
    uint32_t y = (mt[kk] & 0x80000000U) | (mt[kk + 1 < N ? kk + 1 : 0] & 0x7fffffffU);
    mt[kk] = mt[kk < N - M ? kk + M : kk + M - N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    mti = kk + 1 < N ? kk + 1 : 0;
    y = mt[kk];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
  }
  double random() {  // 53 bits from two words
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  uint32_t getrandbits(int k) {  // 0 < k <= 32: one word's top k bits
    return next() >> (32 - k);
  }
  void getrandbits_words(uint32_t* out, int words) {  // getrandbits(32 * words), least significant word first
    for (int i = 0; i < words; i++) out[i] = next();
  }
  // randrange(n) for n >= 1: _randbelow_with_getrandbits, k = n.bit_length(), rejecting r >= n
  uint32_t below(uint32_t n) {
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    uint32_t r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
  }
  // seeds.py passed_on: getrandbits(64), or WIDE | getrandbits(128) (its words least significant first)
  PySeed passed_on(bool wide) {
    PySeed s{};
    getrandbits_words(s.w, wide ? 4 : 2);
    if (wide) {
      s.w[4] = 1;  // 2^128
      s.n = 5;
    } else {
      s.n = s.w[1] ? 2 : 1;
    }
    s.wide = wide;
    return s;
  }
};

// chance.py pick: the index of one of n >= 1 values, and the seed passed on.
inline int py_pick(PySeed& seed, int n) {
  PyRandom r(seed);
  int i = (int)r.below((uint32_t)n);
  seed = r.passed_on(seed.wide);
  return i;
}

// chance.py shuffle of the n <= CAP cards a[0..n), bottom first: a key per card from random(), then a stable
// sort by key (ties, which need two equal 53-bit draws, keep their order). random() is the 53-bit integer
// a * 2^26 + b over 2^53, exact in a double, so sorting the integers with the card's place in the low bits
// (as many as a place of CAP takes: 53 + 11 bits fill a word, so up to 2,048 cards) is that stable sort, on
// plain words. Zones of 0 or 1 card draw a new seed all the same.
constexpr int place_bits(int cap) { return cap <= 1 ? 0 : 1 + place_bits((cap + 1) / 2); }

template <int CAP, class Card>
inline void py_shuffle(PySeed& seed, Card* a, int n) {
  constexpr int B = place_bits(CAP);
  static_assert(53 + B <= 64, "a card's place and its 53-bit key share one word");
  PyRandom r(seed);
  uint64_t ks[CAP];
  Card was[CAP];
  for (int i = 0; i < n; i++) {
    uint64_t hi = r.next() >> 5, lo = r.next() >> 6;
    ks[i] = ((hi << 26 | lo) << B) | (uint64_t)i;
    was[i] = a[i];
  }
  std::sort(ks, ks + n);
  for (int i = 0; i < n; i++) a[i] = was[ks[i] & ((uint64_t(1) << B) - 1)];
  seed = r.passed_on(seed.wide);
}
}  // namespace cs
