// CPython's `random.Random` as the resampler draws from it (the binding's, not a game's): its Mersenne Twister
// taken over from a Python generator's `getstate()` and handed back for `setstate()`, and the draws
// resample/ makes of it, word for word as CPython 3.8+ makes them (Modules/_randommodule.c, Lib/random.py):
// getrandbits, randrange (`_randbelow_with_getrandbits`) and shuffle. So a native search draws exactly the
// numbers the Python one draws, and the Python generator goes on from where the native search left it.
// (pyrandom.h is a game's seeded chance: a fresh generator per draw, each word twisted as it is drawn.)
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace rs {

struct PyMT {
  static constexpr int N = 624, M = 397;
  uint32_t mt[N];
  int index = N;

  // getstate()[1]: the N words and the index (N: the next draw twists the whole array first)
  template <class Seq>
  void set(const Seq& words) {
    for (int i = 0; i < N; i++) mt[i] = (uint32_t)words[i];
    index = (int)words[N];
    if (index < 0 || index > N) index = N;
  }
  void twist() {
    auto step = [this](int kk, int next, int far) {
      uint32_t y = (mt[kk] & 0x80000000U) | (mt[next] & 0x7fffffffU);
      mt[kk] = mt[far] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    };
    int kk = 0;
    for (; kk < N - M; kk++) step(kk, kk + 1, kk + M);
    for (; kk < N - 1; kk++) step(kk, kk + 1, kk + M - N);
    step(N - 1, 0, M - 1);
    index = 0;
  }
  uint32_t next() {  // genrand_uint32
    if (index >= N) twist();
    uint32_t y = mt[index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
  }
  uint32_t bits(int k) { return next() >> (32 - k); }  // getrandbits(k), 0 < k <= 32
  uint64_t bits64() {  // getrandbits(64): the first word is the low one
    uint64_t lo = next();
    return lo | (uint64_t)next() << 32;
  }
  uint32_t below(uint32_t n) {  // randrange(n), n >= 1
    int k = 0;
    while (k < 32 && (n >> k)) k++;
    uint32_t r = bits(k);
    while (r >= n) r = bits(k);
    return r;
  }
  double random() {  // random(): 53 bits from two words
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  // random.choices(range(len(weights)), weights)[0]: the cumulative weights as itertools.accumulate adds them,
  // then bisect_right of random() * total in all but the last
  int weighted(const std::vector<double>& weights) {
    std::vector<double> cum;
    double acc = 0.0;
    for (double w : weights) cum.push_back(acc += w);
    if (cum.empty() || !(cum.back() > 0.0)) throw std::invalid_argument("Total of weights must be greater than zero");
    double x = random() * cum.back();
    size_t lo = 0, hi = cum.size() - 1;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (x < cum[mid]) hi = mid; else lo = mid + 1;
    }
    return (int)lo;
  }
  // random.sample(population, k): a pool for a small population, else draws rejected while already taken
  template <class T>
  std::vector<T> sample(const std::vector<T>& population, size_t k) {
    size_t n = population.size();
    if (k > n) throw std::invalid_argument("Sample larger than population or is negative");
    std::vector<T> out(k);
    size_t setsize = 21;
    if (k > 5) setsize += (size_t)std::pow(4.0, std::ceil(std::log((double)(k * 3)) / std::log(4.0)));
    if (n <= setsize) {
      std::vector<T> pool(population);
      for (size_t i = 0; i < k; i++) {
        size_t j = below((uint32_t)(n - i));
        out[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      std::vector<char> taken(n, 0);
      for (size_t i = 0; i < k; i++) {
        size_t j = below((uint32_t)n);
        while (taken[j]) j = below((uint32_t)n);
        taken[j] = 1;
        out[i] = population[j];
      }
    }
    return out;
  }
  template <class T>
  void shuffle(std::vector<T>& x) {  // random.shuffle
    for (size_t i = x.size(); i-- > 1;) std::swap(x[i], x[below((uint32_t)(i + 1))]);
  }
};

// The iteration order of a CPython set of small non-negative ints added in the order given (set_add_entry,
// set_table_resize and set_insert_clean of Objects/setobject.c, hash(i) == i): where the Python resampler
// iterates such a set, the native one goes the same way.
inline std::vector<int> py_set_order(const std::vector<int>& added) {
  constexpr size_t LINEAR_PROBES = 9, PERTURB_SHIFT = 5;
  std::vector<long> table(8, -1);
  size_t used = 0;
  auto insert_clean = [&](std::vector<long>& t, long key) {
    size_t mask = t.size() - 1, perturb = (size_t)key, i = (size_t)key & mask;
    while (true) {
      if (t[i] < 0) { t[i] = key; return; }
      if (i + LINEAR_PROBES <= mask)
        for (size_t j = 1; j <= LINEAR_PROBES; j++)
          if (t[i + j] < 0) { t[i + j] = key; return; }
      perturb >>= PERTURB_SHIFT;
      i = (i * 5 + 1 + perturb) & mask;
    }
  };
  for (int key : added) {
    size_t mask = table.size() - 1, perturb = (size_t)key, i = (size_t)key & mask;
    bool found = false, placed = false;
    while (!found && !placed) {
      size_t probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
      size_t e = i;
      for (size_t j = 0; j <= probes; j++, e++) {
        if (table[e] < 0) { table[e] = key; placed = true; break; }
        if (table[e] == key) { found = true; break; }
      }
      if (found || placed) break;
      perturb >>= PERTURB_SHIFT;
      i = (i * 5 + 1 + perturb) & mask;
    }
    if (found) continue;
    used++;
    if (used * 5 >= mask * 3) {  // (no deletions: fill == used)
      size_t minused = used > 50000 ? used * 2 : used * 4, size = 8;
      while (size <= minused) size <<= 1;
      std::vector<long> bigger(size, -1);
      for (long k : table) if (k >= 0) insert_clean(bigger, k);
      table.swap(bigger);
    }
  }
  std::vector<int> out;
  for (long k : table) if (k >= 0) out.push_back((int)k);
  return out;
}
}  // namespace rs
