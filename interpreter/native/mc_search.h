// ISMCTS's decision natively (bots/ismcts.py `IsmctsBot`, docs/design/native.md "Stage C"): the worlds drawn by
// the native resampler (rs_resample.h) and made native states, and the iterations (select, expand, a playout,
// backpropagate) run on them, with the bot's own generator (pymt.h). For a seeded state and a random or first
// rollout it is `IsmctsBot._search`'s loop step for step (the last decision's worlds carried first): the
// same worlds, the same random numbers in the same order, the same tree, the same float arithmetic, so the
// same statistics at the root and the same generator after. Whatever it cannot do as the Python bot does (a
// rule failing, the action limit) makes it give up before it answers, and the Python bot decides instead,
// from the generator as it was.
#pragma once
#include <time.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pyrandom.h"
#include "rs_resample.h"

namespace rs {

inline double cpu_time() {  // Python's time.process_time()
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// random.Random(seed) for a seed below 2^64, as the bot's resampler seeds its generator (resample.py _start).
inline PyMT seeded(uint64_t seed) {
  cs::PyRandom r(cs::narrow_seed(seed));  // init_by_array, its array not yet twisted
  PyMT mt;
  std::copy(r.mt, r.mt + PyMT::N, mt.mt);
  mt.index = PyMT::N;  // (CPython twists the whole array at the first draw)
  return mt;
}

// The bot's settings (IsmctsBot's fields) for one decision.
struct Plan {
  long long iterations = 200;
  double deadline = -1.0;  // time.process_time() past which it stops (`seconds`), negative for none
  double stop_at = -1.0;  // time.monotonic() past which it stops (`wall_cap`), negative for none
  double c = 0.7;
  long long worlds = 0;  // a fixed number of worlds, 0 for the default rule (`_wants_world`)
  int rollout = 0;  // 0 random, 1 first
  bool scaled = false;  // returns scaled by the game's bounds (lo, span), else by those seen
  double lo = 0.0, span = 1.0;
  long long failed_work = 0;  // the work a failed resample counts (ismcts.py MAX_WORK)
  long long limit = -1;  // the action limit (Game.action_limit), -1 for none
  long long carry = 32;  // worlds to carry from the hints at most (`carry`)
  long long carry_work = 0, max_seed = 0;  // carry.py CARRY_WORK and MAX_SEED
  std::vector<uint8_t> secret;  // per action id: whether another seat sees it only by its public text
};

// Given up: the Python bot decides (with the generator as it was).
struct Fallback : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Child {
  int action;
  long long visits = 0;
  double total = 0.0;
  long long avail = 0;
};
using Node = std::vector<Child>;  // in the order the Python dict is filled

struct World {
  St s;
  long long moves;  // the player actions its history took (State.moves)
  std::vector<Group> steps;  // the history found, as a hint gives it (history.groups)
  uint64_t reseed;  // the seed its future chance is drawn from
};
// A world of the last decision to carry forward: its steps, or none for a hint of another game (which the
// Python bot's carry refuses at once, after drawing its seed).
struct Hint {
  bool fits;
  std::vector<Group> steps;
};

struct Decision {
  std::vector<Child> root;  // the root's children (empty: no world)
  long long worlds = 0, failed = 0, fresh = 0, iterations = 0;
  long long failed_work = -1;  // the last failed resample's work, or -1
  int failed_stuck = -1;  // and the card it had no place for, or -1
  bool timed_out = false;
  std::vector<World> made;  // every world, in the order drawn
};

struct Ismcts {
  const Tables& tb;
  const Info& info;
  const Plan& plan;
  const Bounds& bounds;
  PyMT& mt;  // the bot's generator
  std::function<St()> blank;
  std::unordered_map<std::string, int> index;  // a node's key -> its place in nodes
  std::vector<Node> nodes;
  int root = -1;
  double seen_lo = INFINITY, seen_hi = -INFINITY;  // returns seen (no bounds)
  Reader rd{tb};
  std::vector<int> la, fresh;
  std::vector<std::vector<i64>> seen;  // per seat: the actions since the root as it saw them
  std::string key;

  Ismcts(const Tables& t, const Info& i, const Plan& p, const Bounds& b, PyMT& g, std::function<St()> bl)
      : tb(t), info(i), plan(p), bounds(b), mt(g), blank(std::move(bl)), seen((size_t)t.n) {}

  void check(int r, const char* err) {
    if (r) throw Fallback(err);
  }
  void legal_here(const St& s) {  // the legal actions or chance outcomes, as NState::legal
    if (la.size() < 128) la.resize(128);
    char err[512];
    int n = s->api->legal(s->s, la.data(), (int)la.size(), err, sizeof err);
    if (n > (int)la.size()) {
      la.resize(n);
      n = s->api->legal(s->s, la.data(), n, err, sizeof err);
    }
    if (n <= 0) throw Fallback(n < 0 ? err : "no legal action");
    la.resize(n);
  }
  void apply(const St& s, int a) {
    char err[512];
    check(s->api->apply(s->s, a, err, sizeof err), err);
  }
  long long step(const St& s, int a, long long& moves) {  // a player's action, the action limit as flow.py's
    if (plan.limit >= 0 && moves + 1 > plan.limit) throw Fallback("the action limit");
    apply(s, a);
    return ++moves;
  }
  void draw_chance(const St& s) {  // ismcts.py _draw_chance
    legal_here(s);
    apply(s, la[mt.below((uint32_t)la.size())]);
  }

  // resample/__init__.py _finish for a seeded state: the history found played on a blank state, then its chance
  // drawn from a seed of the resample's generator
  // (each step with the seat that took it, as the Python world's history records it)
  World world_of(const std::vector<std::pair<int, std::vector<int>>>& found, PyMT& r) {
    St s = blank();
    long long moves = 0;
    char err[512];
    std::vector<Group> steps;
    for (auto& [a, outcomes] : found) {
      int who = a < 0 ? NONE : s->api->current_player(s->s);
      int done = s->api->play(s->s, a, outcomes.data(), (int)outcomes.size(), err, sizeof err);
      if (done != 0) throw Fallback(done < 0 ? err : "a resampled history stopped at a chance node");
      if (a >= 0) moves++;
      steps.push_back({who, a < 0 ? NONE : a, outcomes});
    }
    uint64_t seed = r.bits64();
    cs::PySeed sd = cs::narrow_seed(seed);
    if (s->api->reseed(s->s, sd.w, sd.n, sd.wide)) throw Fallback("a resampled world at a chance node");
    return World{s, moves, std::move(steps), seed};
  }

  // The node of `who`'s information in s (ismcts.py: (who, seen[who], observation_string(who))): the words of
  // its observation, cards by name, which the string renders one to one.
  int find(const St& s, int who, bool make, bool& made) {
    Words w = observe(s, who, rd);
    const auto& sn = seen[(size_t)who];
    key.clear();
    auto put = [this](i64 x) { key.append(reinterpret_cast<const char*>(&x), sizeof x); };
    put(who);
    put((i64)sn.size());
    for (i64 x : sn) put(x);
    for (i64 x : w) put(x);
    made = false;
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    if (!make) return -1;
    made = true;
    index.emplace(key, (int)nodes.size());
    nodes.emplace_back();
    return (int)nodes.size() - 1;
  }

  int ucb(const Node& node) {  // ismcts.py _ucb, its ties within 1e-12
    double best = -INFINITY;
    fresh.clear();
    for (int a : la) {
      const Child& ch = *child(node, a);
      double v = ch.total / (double)ch.visits + plan.c * std::sqrt(std::log((double)ch.avail) / (double)ch.visits);
      if (v > best + 1e-12) {
        best = v;
        fresh.assign(1, a);
      } else if (v > best - 1e-12) {
        fresh.push_back(a);
      }
    }
    return fresh.size() > 1 ? fresh[mt.below((uint32_t)fresh.size())] : fresh[0];
  }
  static const Child* child(const Node& node, int a) {
    for (const Child& ch : node) if (ch.action == a) return &ch;
    return nullptr;
  }
  static int child_at(const Node& node, int a) {
    for (size_t i = 0; i < node.size(); i++) if (node[i].action == a) return (int)i;
    return -1;
  }

  // ismcts.py _iterate on a copy of world w: the steps it played
  long long iterate(const World& w) {
    St s = clone(w.s);
    long long moves = w.moves, start = moves;
    struct Took { int node, at, who; };
    std::vector<Took> path;
    for (auto& q : seen) q.clear();
    bool expanded = false;
    while (!terminal(s)) {
      if (pending(s)) {
        draw_chance(s);
        continue;
      }
      int who = s->api->current_player(s->s);
      if (who < 0 || who >= tb.n) throw Fallback("no player to act");
      bool made;
      int id = find(s, who, !expanded, made);
      if (root < 0) root = id;
      if (id < 0) break;  // a second new node: the rest is the playout's
      if (made) expanded = true;
      legal_here(s);
      Node& node = nodes[(size_t)id];
      for (int a : la) {
        int k = child_at(node, a);
        if (k < 0) {
          node.push_back(Child{a});
          k = (int)node.size() - 1;
        }
        node[(size_t)k].avail++;
      }
      fresh.clear();
      for (int a : la) if (child(node, a)->visits == 0) fresh.push_back(a);
      int a = fresh.empty() ? ucb(node) : fresh[mt.below((uint32_t)fresh.size())];
      path.push_back({id, child_at(node, a), who});
      if (a < 0 || a >= (int)plan.secret.size()) throw Fallback("an action with no id");
      bool secret = plan.secret[(size_t)a] != 0;
      i64 pub = -1 - (i64)tb.klass.at((size_t)a);  // its public text's class, apart from every action id
      for (int q = 0; q < tb.n; q++) seen[(size_t)q].push_back(secret && q != who ? pub : (i64)a);
      step(s, a, moves);
    }
    while (!terminal(s)) {  // _play_out
      if (pending(s)) {
        draw_chance(s);
        continue;
      }
      legal_here(s);
      step(s, plan.rollout == 1 ? la[0] : la[mt.below((uint32_t)la.size())], moves);
    }
    std::vector<double> rets((size_t)tb.n);
    s->api->returns(s->s, rets.data());
    scale(rets);
    for (const Took& t : path) {
      Child& ch = nodes[(size_t)t.node][(size_t)t.at];
      ch.visits++;
      ch.total += rets[(size_t)t.who];
    }
    return moves - start + 1;
  }
  void scale(std::vector<double>& rets) {  // ismcts.py _scaled
    if (plan.scaled) {
      for (double& r : rets) r = (r - plan.lo) / plan.span;
      return;
    }
    for (double r : rets) seen_lo = std::min(seen_lo, r);
    for (double r : rets) seen_hi = std::max(seen_hi, r);
    double span = seen_hi - seen_lo;
    for (double& r : rets) r = span > 0 ? (r - seen_lo) / span : 0.5;
  }

  bool wants_world(long long count, long long drawn, long long played) const {  // ismcts.py _wants_world
    if (count == 0) return true;
    if (plan.worlds) return count < plan.worlds;
    return drawn <= played;
  }

  // IsmctsBot._search's loop, carrying worlds from `hints` (the last decision's) first
  Decision run(const std::vector<Hint>& hints) {
    Decision out;
    std::vector<World>& worlds = out.made;
    std::vector<size_t> carried;  // the worlds carried, by their place in `worlds`
    long long it = 0, failed = 0, drawn = 0, played = 0, tries = 0;
    long long nh = (long long)hints.size();
    while (true) {
      if (plan.stop_at >= 0 && it > 0 && monotonic() >= plan.stop_at) break;
      if (plan.deadline < 0) {
        if (it >= plan.iterations) break;
      } else if (it > 0 && cpu_time() >= plan.deadline) {
        break;
      }
      const World* w;
      if (nh && (long long)carried.size() < plan.carry && tries < 2 * plan.carry) {
        // each hint in turn, then again the worlds carried so far (ismcts.py `_search`)
        const std::vector<Group>* steps = nullptr;
        bool fits = true;
        if (tries < nh) {
          fits = hints[(size_t)tries].fits;
          steps = &hints[(size_t)tries].steps;
        } else if (!carried.empty()) {
          steps = &worlds[carried[(size_t)((tries - nh) % (long long)carried.size())]].steps;
        }
        tries++;
        if (!steps) continue;
        PyMT r = seeded(mt.bits64());
        if (!fits) continue;  // (another game's: no work, no world)
        Resampled found = carry(tb, info, r, *steps, plan.carry_work, plan.max_seed, blank());
        drawn += found.work;
        if (!found.found) continue;
        worlds.push_back(world_of(found.steps, r));
        carried.push_back(worlds.size() - 1);
        w = &worlds.back();
      } else if (wants_world((long long)worlds.size() + failed, drawn, played)) {
        PyMT r = seeded(mt.bits64());
        Resampled found = resample(tb, info, r, bounds, plan.stop_at, blank);
        if (found.out_of_time) {
          out.timed_out = true;
          break;
        }
        if (!found.found) {
          failed++;
          out.failed_work = found.work;
          out.failed_stuck = found.stuck;
          drawn += plan.failed_work;
          continue;
        }
        worlds.push_back(world_of(found.steps, r));
        drawn += found.work;
        out.fresh++;
        w = &worlds.back();
      } else if (worlds.empty()) {
        break;
      } else {
        w = &worlds[(size_t)(it % (long long)worlds.size())];
      }
      played += iterate(*w);
      it++;
    }
    out.worlds = (long long)worlds.size();
    out.failed = failed;
    out.iterations = it;
    if (root >= 0) out.root = nodes[(size_t)root];
    return out;
  }
};
}  // namespace rs
