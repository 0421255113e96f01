// resample/descent.py natively (step 4 of resampling): the descent over exchanges of unseen cards and the
// forced-choice exchanges, as a Search whose two hooks are the Python Descent's, method for method, in the
// same order of draws (random(), randrange, choices, sample and shuffle of the caller's generator).
#pragma once
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "rs_search.h"

namespace rs {

constexpr int MAX_UNFORCE = 64, PROBES = 8, PREVIEW = 8;
constexpr double NOISE = 0.1;

using Gap = std::pair<int, int>;  // (1, choices left) for a refused action, (0, places differing), (2, 0) failed
using Exchange = std::vector<std::pair<int, int>>;

struct Descent : Search {
  using Search::Search;

  // descent.py _gap: how far step i, run on its current base, is from what the player saw; the state after it
  // and its shuffles into `t` and `shuffles`
  Gap gap(int i, St& t, std::vector<Shuffle>& shuffles) {
    Frame& f = fr(i);
    t = nullptr;
    shuffles.clear();
    if (f.action != NONE && info.known[i] != NONE && !pending(f.base) && !terminal(f.base)) {
      legal(f.base, la);
      if (!std::binary_search(la.begin(), la.end(), f.action)) return {1, (int)la.size()};
    }
    t = run_on(f.base, f, shuffles);
    if (!t || pending(t)) {
      // the exchanged cards changed what the step does: its chance is drawn afresh
      Out drawn = draw(f.base, f.action);
      if (drawn) {
        f.outcomes = drawn;
        t = run_on(f.base, f, shuffles);
      }
    }
    if (!t) {
      shuffles.clear();
      return {2, 0};
    }
    return {0, (pending(t) ? 1 : 0) + rd.distance(info.views[i], observe(t, p, rd))};
  }
  Gap gap(int i) {
    St t;
    std::vector<Shuffle> sh;
    return gap(i, t, sh);
  }

  std::vector<int> locs(const St& t) {
    std::vector<int> out(tb.nc);
    for (int c = 0; c < tb.nc; c++) out[c] = loc(t, c);
    return out;
  }

  // descent.py _focus: the cards step i is about (a mark per card)
  std::vector<char> focus_of(int i, const St& t) {
    Frame& f = fr(i);
    std::vector<char> out(tb.nc, 0);
    if (t) {
      std::vector<int> was = locs(f.base), now = locs(t);
      for (int c = 0; c < tb.nc; c++) if (was[c] != now[c]) out[c] = 1;
      if (!pending(t)) {
        Words w = observe(t, p, rd);
        std::vector<int> here = rd.cards_in(w), saw = info.view_cards.at(i), diff;
        std::set_symmetric_difference(saw.begin(), saw.end(), here.begin(), here.end(), std::back_inserter(diff));
        for (int c : diff) out.at(c) = 1;
      }
    }
    std::vector<int> players{info.who[i]};
    if (f.action != NONE)
      for (int k = tb.poff.at(f.action); k < tb.poff.at(f.action + 1); k += 2 + tb.params.at(k + 1))
        if (tb.params.at(k) == 3) players.push_back(tb.params.at(k + 2));
    for (int zi = 0; zi < tb.nz; zi++) {
      int owner = tb.zone_owner[zi];
      if (owner != NONE && std::find(players.begin(), players.end(), owner) != players.end())
        for (int c : zone_cards(f.base, zi)) out.at(c) = 1;
    }
    return out;
  }

  // descent.py _exchange: a random exchange among unseen cards of one shuffle, as pairs of cards to swap in turn
  Exchange exchange(const std::vector<int>& cards, const St& base, const std::vector<char>& focus) {
    std::vector<int> near;
    for (int c : cards) if (focus.at(c)) near.push_back(c);
    if (!near.empty() && rng.random() < 0.5) {
      int c = near[rng.below((uint32_t)near.size())];
      const std::vector<int>& from = near.size() > 1 && rng.random() < 0.5 ? near : cards;
      std::vector<int> others;
      for (int d : from) if (d != c) others.push_back(d);
      if (others.empty()) return {};
      return {{c, others[rng.below((uint32_t)others.size())]}};
    }
    double r = rng.random();
    if (r < 1.0 / 3) {
      std::vector<int> two = rng.sample(cards, 2);
      std::vector<int> xs, ys;
      for (int x : cards) if (loc(base, x) == loc(base, two[0])) xs.push_back(x);
      for (int y : cards) if (loc(base, y) == loc(base, two[1])) ys.push_back(y);
      Exchange out;
      for (size_t q = 0; q < xs.size() && q < ys.size(); q++) if (xs[q] != ys[q]) out.emplace_back(xs[q], ys[q]);
      return out;
    }
    std::vector<int> picked = rng.sample(cards, cards.size() > 2 && r < 2.0 / 3 ? 3 : 2);
    Exchange out;
    for (size_t q = 1; q < picked.size(); q++) out.emplace_back(picked[0], picked[q]);
    return out;
  }

  // descent.py _best: of PREVIEW random exchanges, the one that brings step i closest, each tried on a copy
  Exchange best(int i, const std::vector<int>& cards, const std::vector<char>& focus, const Exchange& first) {
    Frame& f = fr(i);
    St base = f.base;
    Out outcomes = f.outcomes;
    Exchange pick = first, pairs = first;
    bool have = false;
    Gap best_gap{0, 0};
    char err[512];
    for (int n = 0; n < PREVIEW; n++) {
      if (n) pairs = exchange(cards, base, focus);
      if (pairs.empty()) continue;
      St t = clone(base);
      for (auto [c, d] : pairs) t->api->swap(t->s, c, d, err, sizeof err);
      f.base = t;
      Gap g = gap(i);
      f.base = base;
      f.outcomes = outcomes;
      if (!have || g < best_gap) {
        pick = pairs;
        best_gap = g;
        have = true;
      }
    }
    return pick;
  }

  // descent.py _shift
  St shift(int i, const std::vector<char>& focus) {
    Frame& f = fr(i);
    St base = f.base;
    std::vector<int> near;  // (the dict `origins` in the order of its cards)
    std::map<int, Origin> origins;
    for (int c = 0; c < tb.nc; c++) {
      if (!focus[c]) continue;
      Origin o = origin(i, c, false);
      if (o != NOWHERE) { origins[c] = o; near.push_back(c); }
    }
    if (near.empty()) return nullptr;
    std::map<Origin, std::vector<int>> by;
    for (auto& [c, o] : origins)
      if (!by.count(o))
        for (int d : fr(o.first).shuffles.at(o.second).cards)
          if (origin(i, d, false) == o) by[o].push_back(d);
    rng.shuffle(near);
    int per = std::max(1, MAX_CHECKS / (int)near.size()), tries = 0;
    char err[512];
    std::vector<int> at = locs(base);
    for (int c : near) {
      Origin o = origins[c];
      std::vector<int> others;
      for (int d : by[o]) if (at[d] != at[c]) others.push_back(d);
      for (int d : rng.sample(others, std::min<size_t>(per, others.size()))) {
        if (work >= budget) return nullptr;
        St trial = clone(base);
        trial->api->swap(trial->s, c, d, err, sizeof err);
        Out outcomes = f.outcomes;
        f.base = trial;
        Gap g = gap(i);
        f.base = base;
        f.outcomes = outcomes;
        if (g != Gap{0, 0}) continue;
        auto saved = frames_up_to(i);
        if (swap_before(i, o, c, d)) {
          St t;
          g = gap(i, t, f.shuffles);
          if (g == Gap{0, 0}) return t;
          put_back(saved);
        }
        if (++tries >= MAX_SWAPS) return nullptr;
      }
    }
    return nullptr;
  }

  St probe(int i) override {
    Frame& f = fr(i);
    std::vector<std::pair<Origin, std::vector<int>>> earlier;
    for (int j = 0; j < i; j++)
      for (int k = 0; k < (int)fr(j).shuffles.size(); k++) {
        std::vector<int> unseen_cards;
        for (int c : fr(j).shuffles[k].cards) if (unseen(c, j, i, true)) unseen_cards.push_back(c);
        if (unseen_cards.size() > 1) earlier.emplace_back(Origin{j, k}, unseen_cards);
      }
    std::vector<Origin> last_of(tb.nc, NOWHERE);
    for (int j = 0; j < i; j++)
      for (int k = 0; k < (int)fr(j).shuffles.size(); k++)
        for (int c : fr(j).shuffles[k].cards) last_of.at(c) = {j, k};
    std::map<Origin, double> weights;
    for (size_t n = 0; n < earlier.size(); n++) {
      bool lasts = false;
      for (int c : earlier[n].second) lasts |= last_of.at(c) == earlier[n].first;
      weights[earlier[n].first] = std::pow(0.5, (double)(earlier.size() - n)) * (lasts ? 1.0 : 1.0 / 64);
    }
    St t0;
    Gap g = gap(i, t0, f.shuffles);
    std::vector<char> focus = focus_of(i, t0);
    if (g.first == 0) {
      if (St t = shift(i, focus)) return t;
      g = gap(i, t0, f.shuffles);
    }
    auto halve = [&](Origin key) { weights[key] = std::max(weights[key] / 2, 1e-3); };
    for (int round = 0; round < PROBES; round++) {
      if (work >= budget) return nullptr;
      auto pools = earlier;
      for (int k = 0; k < (int)f.shuffles.size(); k++)
        if (f.shuffles[k].cards.size() > 1) pools.emplace_back(Origin{i, k}, f.shuffles[k].cards);
      if (pools.empty()) return nullptr;
      std::vector<double> w;
      for (auto& [key, _] : pools) w.push_back(weights.emplace(key, 1.0).first->second);
      auto [key, cards] = pools[rng.weighted(w)];
      auto [j, k] = key;
      Exchange ex = exchange(cards, f.base, focus);
      if (PREVIEW && j < i) ex = best(i, cards, focus, ex);
      Frame& fj = fr(j);
      Out before = copy_of(fj.outcomes);
      bool swapped = !ex.empty();
      for (size_t q = 0; q < ex.size() && swapped; q++)
        swapped = swap_outcomes(*fj.outcomes, fj.shuffles.at(k), ex[q].first, ex[q].second);
      if (!swapped) {
        fj.outcomes = before;
        halve(key);
        continue;
      }
      // what to go back to if step i comes out further off: the frames' own lists (a mend may swap in them)
      std::vector<Saved> saved;
      for (int m = 0; m <= i; m++) saved.push_back({fr(m).base, fr(m).action, fr(m).shuffles, fr(m).outcomes});
      saved[j].outcomes = before;
      std::vector<Swap> swaps;
      for (auto [c, d] : ex) swaps.push_back({j, c, d});
      if (!replay(i, Changed{{j, before}}, swaps, true)) {
        halve(key);
        continue;
      }
      St t;
      Gap now = gap(i, t, f.shuffles);
      if (t && now.first == 0 && now.second > 0 && !pending(t)) {
        std::vector<Reader::Pair> pairs;
        if (rd.differing(info.views[i], observe(t, p, rd), pairs) && !pairs.empty() && mend(i, pairs))
          now = gap(i, t, f.shuffles);
      }
      if (t && now == Gap{0, 0}) return t;
      if (now == g) halve(key); else weights[key] = 1.0;
      if (now > g && !(now.first == 0 && g.first == 0 && rng.random() < NOISE)) {
        put_back(saved);
        continue;
      }
      g = now;
    }
    return nullptr;
  }

  bool unforce(int i, const std::vector<int>& cards) override {
    Frame& f = fr(i);
    int a = f.action;
    std::vector<int> moves, after, bcards;
    for (int round = 0; round < MAX_UNFORCE; round++) {
      if (work >= budget) return false;
      St base = f.base;
      legal(base, moves);
      if (std::binary_search(moves.begin(), moves.end(), a)) return true;
      std::set<int> forcing;
      for (int b : moves) {
        tb.cards_of(b, bcards);
        forcing.insert(bcards.begin(), bcards.end());
      }
      for (int c : cards) forcing.erase(c);
      std::vector<std::pair<int, Origin>> here;
      for (int x : forcing) {
        Origin o = origin(i, x, false);
        if (o != NOWHERE) here.emplace_back(x, o);
      }
      if (here.empty()) return false;
      auto [x, o] = here[rng.below((uint32_t)here.size())];
      std::vector<int> there;
      for (int c : cards) if (loc(base, c) != loc(base, x) && origin(i, c, false) == o) there.push_back(c);
      if (there.empty() || rng.random() < 0.5) {
        there.clear();
        for (int y : fr(o.first).shuffles.at(o.second).cards)
          if (!forcing.count(y) && loc(base, y) != loc(base, x) && origin(i, y, false) == o) there.push_back(y);
      }
      if (there.empty()) continue;
      int y = there[rng.below((uint32_t)there.size())];
      swapped(base, x, y, [&](const St& t) { legal(t, after); return 0; });
      if (!std::binary_search(after.begin(), after.end(), a) && after.size() >= moves.size()) continue;
      Frame& fj = fr(o.first);
      Out before = copy_of(fj.outcomes);
      if (swap_outcomes(*fj.outcomes, fj.shuffles.at(o.second), x, y))
        replay(i, Changed{{o.first, before}}, {{o.first, x, y}}, true);
    }
    return false;
  }
};
}  // namespace rs
