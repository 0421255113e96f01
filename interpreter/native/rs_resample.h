// resample/__init__.py `resample_with_work` natively: the constraint layer first, then the searches in turns as
// `schedule` gives them (the scouts, then whole shares; a way that got less than half as far cedes its turn),
// within the work bounds, the first search going on from the constraint layer's history. The bounds come
// from Python (its module's constants: one truth).
#pragma once
#include <time.h>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "rs_deals.h"

namespace rs {

struct Bounds {
  long long max_tries, max_work, restarts, more_restarts, per_step, scout, deals;
};

struct Resampled {
  std::vector<std::pair<int, std::vector<int>>> steps;  // the history found (empty: none)
  bool found = false, out_of_time = false;
  long long work = 0;
  int stuck = -1;  // the constraint layer's last card with no place in a deal
};

inline double monotonic() {  // Python's time.monotonic()
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// `until`: a time.monotonic() deadline, or a negative number for none
inline Resampled resample(const Tables& tb, const Info& info, PyMT& rng, const Bounds& b, double until,
                          const std::function<St()>& blank) {
  Resampled out;
  int p = info.p;
  long long steps = (long long)info.steps();
  auto share = [&]() {
    long long whole = b.max_work / b.restarts;
    return std::max(b.max_work / b.more_restarts, std::min(whole, b.per_step * steps));
  };
  Deals first(tb, info, p, rng, b.deals, blank());
  St found = first.run();
  out.work = first.work;
  out.stuck = first.stuck;
  auto take = [&](Search& s) {
    out.found = true;
    out.steps = s.history();
  };
  if (found) {
    take(first);
    return out;
  }
  long long reached[2] = {-1, -1};  // by kind: Search, Descent (-1: not yet)
  for (long long k = 0; k < b.max_tries; k++) {
    if (out.work >= b.max_work) break;
    if (until >= 0 && monotonic() >= until) {
      out.out_of_time = true;
      return out;
    }
    // schedule(k, reached, steps)
    int kind;  // 0 Search, 1 Descent
    long long budget;
    long long kk = k;
    if (b.scout && kk < 2) {
      kind = kk == 0 ? 1 : 0;
      budget = b.scout;
    } else {
      if (b.scout) kk -= 2;
      kind = kk % 2 ? 0 : 1;
      if (reached[0] >= 0 && reached[1] >= 0 && 2 * reached[kind] < reached[1 - kind]) kind = 1 - kind;
      budget = share();
    }
    std::unique_ptr<Search> s;
    budget = std::min(b.max_work - out.work, budget);
    if (kind == 1) s = std::make_unique<Descent>(tb, info, p, rng, budget, blank());
    else s = std::make_unique<Search>(tb, info, p, rng, budget, blank());
    if (k == 0) s->frames = std::move(first.frames);  // (the constraint layer found nothing: its history)
    found = s->run();
    out.work += s->work;
    reached[kind] = s->reached;
    if (found) {
      take(*s);
      return out;
    }
  }
  return out;
}
// carry.py carry: a state found by extending `hint` (the steps of a state found earlier for the player), within
// `carry_work` replayed steps after the hint's own replay (at most `max_seed`)
inline Resampled carry(const Tables& tb, const Info& info, PyMT& rng, const std::vector<Group>& hint,
                       long long carry_work, long long max_seed, St blank) {
  Resampled out;
  Search s(tb, info, info.p, rng, max_seed, std::move(blank));
  St whole = s.seed(hint);
  s.budget = s.work + carry_work;
  St found = whole;
  if (!whole && !s.frames.empty()) found = s.run();
  out.work = s.work;
  if (found) {  // (the frames hold the history found, the hint's steps where it fits whole)
    out.found = true;
    out.steps = s.history();
  }
  return out;
}
}  // namespace rs
