// resample/search.py natively (steps 2 and 3 of resampling and the backtracking; without the descent of
// step 4): the same history built from the same random numbers, with the same count of replayed steps. Each
// function is the Python method of the same name, in the same order of draws; where Python iterates lazily (a
// generator of choices or of swaps to try), the loop here stops where the Python consumer stops.
#pragma once
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "pymt.h"
#include "rs_info.h"

namespace rs {

constexpr int MAX_FILLS = 64, MAX_ROUNDS = 24, MAX_SWAPS = 8, MAX_CHECKS = 64;

struct Shuffle {  // (where its outcomes start among the step's, the cards it shuffled); start -1: a deal ended
  int start;
  std::vector<int> cards;
  bool ended() const { return start < 0; }
  bool has(int c) const { return std::find(cards.begin(), cards.end(), c) != cards.end(); }
};
using Origin = std::pair<int, int>;  // (step, shuffle)
constexpr Origin NOWHERE{-1, -1};

// search.py swap_outcomes: cards c and d swapped in the order a shuffle gave (its outcomes, then the card left)
inline bool swap_outcomes(std::vector<int>& outcomes, const Shuffle& sh, int c, int d) {
  int start = sh.start, n = (int)sh.cards.size();
  int end = std::min(start + n - 1, (int)outcomes.size());
  if (start > end) start = end;  // (Python's empty slice)
  std::vector<int> seq(outcomes.begin() + start, outcomes.begin() + end);
  if ((int)seq.size() == n - 1) {
    for (int x : sh.cards)
      if (std::find(seq.begin(), seq.end(), x) == seq.end()) { seq.push_back(x); break; }
  }
  auto ic = std::find(seq.begin(), seq.end(), c), jd = std::find(seq.begin(), seq.end(), d);
  if (ic != seq.end() && jd != seq.end()) std::iter_swap(ic, jd);
  else if (ic != seq.end()) *ic = d;
  else if (jd != seq.end()) *jd = c;
  else return false;
  std::copy(seq.begin(), seq.begin() + (end - start), outcomes.begin() + start);
  return true;
}

// search.py _choices as a state machine: the step's actions in random order, each with a fresh draw of its
// chance (made by _step), up to MAX_FILLS draws in all.
struct Choices {
  enum { FRESH, RUN, DONE } at = FRESH;
  std::vector<int> actions;
  size_t k = 0;
  int fills = 0;
};

// A step's outcomes as a Python list object: frames and the copies the search saves may hold the same one,
// and a swap in it is seen by all of them, as in Python (Descent's saved frames keep the lists themselves).
using Out = std::shared_ptr<std::vector<int>>;
inline Out copy_of(const Out& o) { return std::make_shared<std::vector<int>>(*o); }

struct Frame {
  St base;  // the state before the step (never changed: states are shared between frames and saved copies)
  int action = NONE;
  Out outcomes = std::make_shared<std::vector<int>>();
  std::vector<Shuffle> shuffles;
  Choices choices;
  bool drew = false, ran = false;
};

struct Search {
  const Tables& tb;
  const Info& info;
  int p;
  PyMT& rng;
  long long budget, work = 0;
  int last, reached = 0;
  std::vector<std::unique_ptr<Frame>> frames;
  Reader rd;
  St blank;
  std::vector<int> la;  // scratch: legal actions

  Search(const Tables& t, const Info& i, int player, PyMT& r, long long b, St start)
      : tb(t), info(i), p(player), rng(r), budget(b), last((int)i.steps() - 1), rd{t}, blank(std::move(start)) {}
  virtual ~Search() = default;
  // The descent's hooks (Descent, rs_descent.h): step i once more before it is given up, and a refused action
  // made legal by exchanging the cards that force another; backtracking alone has neither.
  virtual St probe(int) { return nullptr; }
  virtual bool unforce(int, const std::vector<int>&) { return false; }

  Frame& fr(int i) { return *frames.at(i); }

  // search.py run: the state found (its history is the frames'), or nullptr
  St run() {
    if (frames.empty()) push_frame(blank);
    reached = std::max(reached, (int)frames.size() - 1);
    while (!frames.empty() && work < budget) {
      int i = (int)frames.size() - 1;
      Frame& f = fr(i);
      int choice;
      St t;
      if (!next_choice(f, i, choice)) {
        // Before the step is given up, the descent once more from its last choice
        if (f.ran) t = probe(i);
        if (!t) {
          frames.pop_back();
          continue;
        }
      } else {
        f.action = choice;
        f.outcomes = std::make_shared<std::vector<int>>();
        f.ran = true;
        t = step(i);
        if (!t) continue;
      }
      if (i == last) return t;
      push_frame(t);
      reached = std::max(reached, i + 1);
    }
    return nullptr;
  }
  // search.py seed: the frames filled with a hint's steps while each fits what the player knows, and a frame
  // for the next step; the state after the last step if the whole hint fits, else nullptr (carry.py)
  St seed(const std::vector<Group>& hint) {
    St base = blank;
    for (size_t q = 0; q < hint.size(); q++) {
      int i = (int)q;
      const Group& g = hint[q];
      if (i > last || g.who != info.who[i] || work >= budget) break;
      if (g.action != NONE) {
        if (g.action < 0 || g.action >= tb.num_actions()) break;
        if ((info.known[i] != NONE && g.action != info.known[i]) ||
            (info.text[i] != NONE && tb.klass[g.action] != info.text[i]))
          break;
      }
      push_frame(base);
      Frame& f = *frames.back();
      f.action = g.action;
      f.outcomes = std::make_shared<std::vector<int>>(g.outcomes);
      f.ran = true;
      St t = run_on(base, f, f.shuffles);
      if (!t || !fits(t, i)) {
        frames.pop_back();
        break;
      }
      base = t;  // (backtracking into a step taken from the hint tries its other choices, as for any other)
    }
    if ((int)frames.size() > last) return base;
    if (!frames.empty()) push_frame(base);
    return nullptr;
  }
  void push_frame(St base) {
    frames.push_back(std::make_unique<Frame>());
    frames.back()->base = std::move(base);
  }

  bool next_choice(Frame& f, int i, int& out) {
    Choices& ch = f.choices;
    if (ch.at == Choices::DONE) return false;
    if (ch.at == Choices::FRESH) {
      ch.at = Choices::RUN;
      if (info.text[i] == NONE) {
        ch.actions = {info.known[i]};
      } else {
        if (pending(f.base) || terminal(f.base)) { ch.at = Choices::DONE; return false; }
        legal(f.base, la);
        for (int a : la) if (tb.klass.at(a) == info.text[i]) ch.actions.push_back(a);
        rng.shuffle(ch.actions);
      }
    } else {
      ch.fills += f.drew;  // after the yield of the action before
    }
    if (ch.k == ch.actions.size()) {
      if (ch.fills == 0 || ch.fills >= MAX_FILLS) { ch.at = Choices::DONE; return false; }
      ch.k = 0;
    }
    f.drew = false;
    out = ch.actions[ch.k++];
    return true;
  }

  // search.py _draw: the chance outcomes of one run of the step, from a seed of the random numbers
  Out draw(const St& base, int action) {
    uint64_t seed = rng.bits64();
    work += 1;
    char err[512];
    int n = base->api->draw(base->s, action, seed, err, sizeof err);
    if (n < 0) return nullptr;
    auto out = std::make_shared<std::vector<int>>(n);
    base->api->noted(1, out->data(), n);
    return out;
  }

  // search.py _run: step i on base; the state after it (nullptr if it failed) and the shuffles it made
  St run_on(const St& base, const Frame& f, std::vector<Shuffle>& shuffles) {
    work += 1;
    shuffles.clear();
    St t = clone(base);
    char err[512];
    int r = t->api->play(t->s, f.action, f.outcomes->data(), (int)f.outcomes->size(), err, sizeof err);
    if (r < 0) return nullptr;
    static thread_local std::vector<int> tr;
    tr.resize(t->api->noted(0, nullptr, 0));
    t->api->noted(0, tr.data(), (int)tr.size());
    for (size_t k = 0; k + 1 < tr.size();) {
      int start = tr[k], n = tr[k + 1];
      shuffles.push_back({start, std::vector<int>(tr.begin() + k + 2, tr.begin() + k + 2 + n)});
      k += 2 + n;
    }
    return t;
  }

  bool fits(const St& t, int i) { return !pending(t) && observe(t, p, rd) == info.views[i]; }

  virtual St step(int i) {
    Frame& f = fr(i);
    bool drawn = false;
    std::vector<int> cards;
    std::vector<Reader::Pair> pairs;
    for (int round = 0; round < MAX_ROUNDS; round++) {
      if (work >= budget || (info.who[i] != NONE && f.base->api->raw_cur(f.base->s) != info.who[i])) return nullptr;
      if (f.action != NONE && info.known[i] != NONE && !pending(f.base) && !terminal(f.base) &&
          !is_legal(f.base, f.action)) {
        tb.cards_of(f.action, cards);
        if (!legalize(i, cards) && !gather(i, cards) && !unforce(i, cards) && !supply(i)) return probe(i);
        continue;
      }
      if (!drawn) {
        Out out = draw(f.base, f.action);
        if (!out) return nullptr;
        drawn = true;
        f.outcomes = out;
        f.drew = !out->empty();
      }
      St t = run_on(f.base, f, f.shuffles);
      if (!t) return nullptr;
      if (fits(t, i)) return t;
      bool ok = !pending(t) && rd.differing(info.views[i], observe(t, p, rd), pairs);
      if (!ok || pairs.empty() || !mend(i, pairs)) return probe(i);
    }
    return probe(i);
  }

  bool unseen(int c, int j, int i, bool after) const {
    return !any_in(info.seen_at.at(c), j, i) && !any_in(info.acted_at.at(c), j + 1, after ? i + 1 : i);
  }
  // search.py _origin: (step, shuffle) card c last went through, if the player has not seen it since
  Origin origin(int i, int c, bool after, bool ended = false) {
    int top = after ? i : i - 1;
    for (int j = top; j >= 0; j--) {
      const auto& sh = fr(j).shuffles;
      int lastk = (int)sh.size() - 1;
      if (ended && j == i) {
        int e = -1;
        for (int k = 0; k < (int)sh.size(); k++) if (sh[k].ended()) e = k;
        if (e >= 0) lastk = e - 1;
      }
      for (int k = lastk; k >= 0; k--)
        if (sh[k].has(c)) return unseen(c, j, i, after) ? Origin{j, k} : NOWHERE;
    }
    return NOWHERE;
  }

  // The shuffle's cards in the order it gave them (its outcomes, then the card left over)
  static std::vector<int> order_of(const Frame& f, const Shuffle& sh) {
    int n = (int)sh.cards.size();
    const std::vector<int>& o = *f.outcomes;
    int end = std::min(sh.start + n - 1, (int)o.size()), start = std::min(sh.start, end);
    std::vector<int> seq(o.begin() + start, o.begin() + end);
    if ((int)seq.size() == n - 1)
      for (int x : sh.cards)
        if (std::find(seq.begin(), seq.end(), x) == seq.end()) { seq.push_back(x); break; }
    return seq;
  }
  static int index_of(const std::vector<int>& v, int x) {
    auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? -1 : (int)(it - v.begin());
  }

  using Changed = std::map<int, Out>;  // step -> its outcomes before, a copy (the smallest step first)
  struct Swap { int j, c, d; };

  virtual bool mend(int i, const std::vector<Reader::Pair>& pairs) {
    Changed changed;
    std::vector<Swap> swaps;
    std::map<Origin, std::vector<int>> where, first;
    for (const auto& pr : pairs) {
      int c = pr.want, d = pr.got;
      Origin o = origin(i, c, true, pr.ended);
      if (o == NOWHERE || o != origin(i, d, true, pr.ended)) return false;  // (as Python: no restore)
      auto [j, k] = o;
      Frame& f = fr(j);
      if (!where.count(o)) {
        where[o] = first[o] = order_of(f, f.shuffles.at(k));
      }
      std::vector<int>& seq = where[o];
      int at_d = index_of(first[o], d);
      if (at_d < 0 || index_of(seq, c) < 0) return false;
      int x = seq[at_d];
      if (x == c) continue;
      if (!changed.count(j)) changed[j] = copy_of(f.outcomes);
      if (!swap_outcomes(*f.outcomes, f.shuffles.at(k), c, x)) return false;
      std::swap(seq[index_of(seq, c)], seq[index_of(seq, x)]);
      swaps.push_back({j, c, x});
    }
    if (swaps.empty()) return false;
    return replay(i, changed, swaps, true);
  }

  bool restore(const Changed& changed) {
    for (auto& [j, old] : changed) fr(j).outcomes = old;
    return false;
  }

  // search.py _first_legal, fed one swap at a time: `offer` says whether the search of swaps ends here
  // (`result` then its answer), as the Python loop's return does.
  struct FirstLegal {
    Search& s;
    int i;
    bool charge;
    int tries = 0;
    bool result = false;
    bool offer(Origin o, int c, int d) {
      Frame& f = s.fr(i);
      bool ok = swapped(f.base, c, d, [&](const St& t) { return is_legal(t, f.action); });
      s.work += charge;
      if (!ok) return false;
      auto saved = s.frames_up_to(i);
      if (s.swap_before(i, o, c, d)) {
        if (is_legal(s.fr(i).base, s.fr(i).action)) { result = true; return true; }
        s.put_back(saved);
      }
      tries++;
      return tries >= MAX_SWAPS;
    }
  };

  struct Saved { St base; int action; std::vector<Shuffle> shuffles; Out outcomes; };
  std::vector<Saved> frames_up_to(int i) {  // (copies of the outcomes, as search.py's)
    std::vector<Saved> out;
    for (int m = 0; m <= i; m++) out.push_back({fr(m).base, fr(m).action, fr(m).shuffles, copy_of(fr(m).outcomes)});
    return out;
  }
  void put_back(std::vector<Saved>& saved) {
    for (size_t m = 0; m < saved.size(); m++) {
      Frame& f = fr((int)m);
      f.base = saved[m].base;
      f.action = saved[m].action;
      f.shuffles = std::move(saved[m].shuffles);
      f.outcomes = std::move(saved[m].outcomes);
    }
  }

  bool swap_before(int i, Origin o, int c, int d) {
    auto [j, k] = o;
    Frame& fj = fr(j);
    Out before = copy_of(fj.outcomes);
    if (swap_outcomes(*fj.outcomes, fj.shuffles.at(k), c, d) && replay(i, Changed{{j, before}}, {{j, c, d}}, false))
      return true;
    fj.outcomes = before;
    return false;
  }

  virtual bool legalize(int i, const std::vector<int>& cards) {
    FirstLegal fl{*this, i, false};
    for (int c : cards) {
      Origin o = origin(i, c, false);
      if (o == NOWHERE) continue;
      std::vector<int> others;
      for (int d : fr(o.first).shuffles.at(o.second).cards)
        if (d != c && origin(i, d, false) == o) others.push_back(d);
      rng.shuffle(others);
      for (int d : others)
        if (fl.offer(o, c, d)) return fl.result;
    }
    return false;
  }

  std::vector<int> zone_cards(const St& t, int zi) {
    std::vector<int> out(64);
    int n = t->api->zone_cards(t->s, zi, out.data(), (int)out.size());
    if (n > (int)out.size()) {
      out.resize(n);
      n = t->api->zone_cards(t->s, zi, out.data(), n);
    }
    out.resize(std::max(n, 0));
    return out;
  }
  int loc(const St& t, int c) { return t->api->card_zone(t->s, c); }

  bool supply(int i) {
    int actor = info.who[i];
    if (actor == NONE) return false;
    St t = fr(i).base;
    std::vector<int> own_added;
    for (int zi = 0; zi < tb.nz; zi++) if (tb.zone_owner[zi] == actor) own_added.push_back(zi);
    std::vector<int> own = py_set_order(own_added);
    auto owned = [&](int zi) { return std::find(own.begin(), own.end(), zi) != own.end(); };
    std::vector<Origin> keys;  // the dict `mine`, in its order
    std::map<Origin, std::vector<int>> mine;
    for (int zi : own)
      for (int c : zone_cards(t, zi)) {
        Origin o = origin(i, c, false);
        if (o == NOWHERE) continue;
        if (!mine.count(o)) keys.push_back(o);
        mine[o].push_back(c);
      }
    if (keys.empty()) return false;
    std::vector<std::pair<int, Origin>> theirs;
    for (Origin o : keys)
      for (int d : fr(o.first).shuffles.at(o.second).cards)
        if (!owned(loc(t, d)) && origin(i, d, false) == o) theirs.emplace_back(d, o);
    rng.shuffle(theirs);
    FirstLegal fl{*this, i, false};
    for (size_t q = 0; q < theirs.size() && q < (size_t)MAX_CHECKS; q++) {
      auto [d, o] = theirs[q];
      std::vector<int> cs = mine[o];
      rng.shuffle(cs);
      bool ok = swapped(fr(i).base, cs[0], d, [&](const St& u) { return is_legal(u, fr(i).action); });
      work += 1;
      if (!ok) continue;
      for (int c : cs)
        if (fl.offer(o, c, d)) return fl.result;
    }
    return false;
  }

  bool gather(int i, const std::vector<int>& cards) {
    Frame& f = fr(i);
    int actor = info.who[i];
    std::vector<int> distinct(cards);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (actor == NONE || distinct.size() < 2 || !tb.listy.at(f.action)) return false;
    std::vector<int> own;
    for (int zi = 0; zi < tb.nz; zi++) if (tb.zone_owner[zi] == actor) own.push_back(zi);
    if (own.empty()) return false;
    St t = clone(f.base);
    int target = own[0], most = -1;
    for (int zi : own) {
      int k = 0;
      for (int c : cards) k += loc(t, c) == zi;
      if (k > most) { most = k; target = zi; }
    }
    Changed changed;
    std::vector<Swap> swaps;
    char err[512];
    for (int c : cards) {
      if (loc(t, c) == target) continue;
      Origin o = origin(i, c, false);
      if (o == NOWHERE) return restore(changed);
      std::vector<int> pool;
      for (int d : zone_cards(t, target))
        if (std::find(cards.begin(), cards.end(), d) == cards.end() && origin(i, d, false) == o) pool.push_back(d);
      if (pool.empty()) return restore(changed);
      int d = pool[rng.below((uint32_t)pool.size())];
      auto [j, k] = o;
      Frame& fj = fr(j);
      if (!changed.count(j)) changed[j] = copy_of(fj.outcomes);
      if (!swap_outcomes(*fj.outcomes, fj.shuffles.at(k), c, d)) return restore(changed);
      if (t->api->swap(t->s, c, d, err, sizeof err)) return restore(changed);
      swaps.push_back({j, c, d});
    }
    if (swaps.empty() || !is_legal(t, f.action)) return restore(changed);
    return replay(i, changed, swaps, false);
  }

  bool replay(int i, const Changed& changed, const std::vector<Swap>& swaps, bool then) {
    int j = changed.begin()->first;
    St base = fr(j).base;
    std::vector<std::pair<St, std::vector<Shuffle>>> done;
    std::vector<int> actions;
    for (int m = j; m <= i; m++) actions.push_back(fr(m).action);
    auto undo = [&]() {
      for (int m = j; m <= i; m++) fr(m).action = actions[m - j];
      return restore(changed);
    };
    for (int m = j; m < i + (then ? 1 : 0); m++) {
      Frame& f = fr(m);
      if (info.known[m] == NONE && f.action != NONE) {
        std::vector<std::pair<int, int>> before;
        for (const Swap& s : swaps) if (s.j < m) before.emplace_back(s.c, s.d);
        int a = renamed(base, m, before);
        if (a == NONE) return undo();
        f.action = a;
      }
      if (m == i) break;
      std::vector<Shuffle> sh;
      St t = run_on(base, f, sh);
      if (!t || !fits(t, m)) return undo();
      done.emplace_back(t, std::move(sh));
      base = t;
    }
    for (size_t q = 0; q < done.size(); q++) {
      fr(j + (int)q).shuffles = std::move(done[q].second);
      fr(j + (int)q + 1).base = done[q].first;
    }
    return true;
  }

  // The values of action a's parameters (cards of a list parameter sorted with `sorted_lists`), each parameter
  // as its kind, its count and its values.
  std::vector<int> values(int a, bool sorted_lists) const {
    std::vector<int> v(tb.params.begin() + tb.poff.at(a), tb.params.begin() + tb.poff.at(a + 1));
    if (sorted_lists)
      for (size_t k = 0; k < v.size(); k += 2 + v[k + 1])
        if (v[k] == 2) std::sort(v.begin() + k + 2, v.begin() + k + 2 + v[k + 1]);
    return v;
  }
  int renamed(const St& base, int m, const std::vector<std::pair<int, int>>& swaps) {
    int a = fr(m).action;
    std::vector<int> vals = values(a, false), now = vals;
    for (auto [c, d] : swaps)
      for (size_t k = 0; k < now.size(); k += 2 + now[k + 1])
        if (now[k] == 1 || now[k] == 2)
          for (int q = 0; q < now[k + 1]; q++) {
            int& x = now[k + 2 + q];
            x = x == c ? d : x == d ? c : x;
          }
    if (now == vals) return a;
    if (pending(base) || terminal(base)) return NONE;
    for (size_t k = 0; k < now.size(); k += 2 + now[k + 1])
      if (now[k] == 2) std::sort(now.begin() + k + 2, now.begin() + k + 2 + now[k + 1]);
    std::vector<int> la2;
    legal(base, la2);
    for (int b : la2)
      if (tb.kind.at(b) == tb.kind.at(a) && values(b, true) == now) return b;
    return NONE;
  }

  // The history found: each step's action (NONE for the match's start) and outcomes.
  std::vector<std::pair<int, std::vector<int>>> history() const {
    std::vector<std::pair<int, std::vector<int>>> out;
    for (const auto& f : frames) out.emplace_back(f->action, *f->outcomes);
    return out;
  }
};
}  // namespace rs
