// resample/constraints.py natively (the constraint layer): per-card facts on the positions of a shuffle, and
// the shuffles dealt again under all of them (`assign`, rs_match.h), as a Descent whose hooks are the Python
// Deals' (`_step`, `_probe`, `_legalize`, `_mend`), method for method, in the same order of draws.
#pragma once
#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "rs_descent.h"
#include "rs_match.h"

namespace rs {

struct Fact {
  int step;  // the step it was learned at
  Origin key;  // the shuffle
  int card;
  std::vector<int> places;  // positions of the shuffle, sorted
  bool keep;  // the card takes one of them (else none)
};

inline void sorted_set(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

struct Deals : Descent {
  using Descent::Descent;
  std::vector<Fact> facts;
  std::set<int> learned;  // the steps whose exclusions (`learn`) are among the facts
  int stuck = -1;  // the last card no deal had a place for (NoDeal)

  St step(int i) override {
    // facts learned at step i or later came from another choice there: forgotten when it is tried anew
    std::vector<Fact> kept;
    for (auto& x : facts) if (x.step < i) kept.push_back(std::move(x));
    facts.swap(kept);
    learned.erase(learned.lower_bound(i), learned.end());
    return Descent::step(i);
  }

  St probe(int i) override {
    Frame& f = fr(i);
    if (f.ran) {
      St t = run_on(f.base, f, f.shuffles);
      if (t && !pending(t) && !fits(t, i)) {
        std::vector<std::vector<i64>> all;
        for (int zi = 0; zi < tb.nz; zi++) {
          std::vector<i64> cards;
          for (int c : zone_cards(t, zi)) cards.push_back(tb.canon.at(c));
          all.push_back(cards);
        }
        std::vector<Reader::Pair> pairs;
        rd.card_pairs(info.views[i], observe(t, p, rd), all, pairs);
        if (!pairs.empty() && mend(i, pairs)) {
          t = run_on(f.base, f, f.shuffles);
          if (t && fits(t, i)) return t;
        }
      }
    }
    return Descent::probe(i);
  }

  // constraints.py _seq: the cards of shuffle o in the order it gave them; false if it is not all drawn yet
  bool seq_of(Origin o, std::vector<int>& seq) {
    const Frame& f = fr(o.first);
    const Shuffle& sh = f.shuffles.at(o.second);
    int n = (int)sh.cards.size();
    const std::vector<int>& out = *f.outcomes;
    int end = std::min(sh.start + n - 1, (int)out.size()), start = std::min(sh.start, end);
    seq.assign(out.begin() + start, out.begin() + end);
    if ((int)seq.size() != n - 1) return false;
    for (int x : sh.cards)
      if (std::find(seq.begin(), seq.end(), x) == seq.end()) { seq.push_back(x); break; }
    return true;
  }

  // constraints.py _origins: the shuffle each card last went through before step i (or within it, `after`),
  // for the cards the player has not seen since (NOWHERE for the others)
  std::vector<Origin> origins(int i, bool after, bool ended = false) {
    std::vector<Origin> last(tb.nc, NOWHERE);
    int top = after ? i : i - 1;
    for (int j = 0; j <= top; j++) {
      const auto& sh = fr(j).shuffles;
      int n = (int)sh.size();
      if (ended && j == i) {
        int e = -1;
        for (int k = 0; k < n; k++) if (sh[k].ended()) e = k;
        if (e >= 0) n = e;
      }
      for (int k = 0; k < n; k++)
        for (int c : sh[k].cards) last.at(c) = {j, k};
    }
    for (int c = 0; c < tb.nc; c++)
      if (last[c] != NOWHERE && !unseen(c, last[c].first, i, after)) last[c] = NOWHERE;
    return last;
  }

  // constraints.py _held: the cards the seat holds before step i, unseen since their shuffle, by it (in order)
  std::vector<std::pair<Origin, std::vector<int>>> held(int i, int seat, const std::vector<Origin>& orig) {
    std::vector<std::pair<Origin, std::vector<int>>> out;
    for (int zi = 0; zi < tb.nz; zi++) {
      if (tb.zone_owner[zi] != seat) continue;
      for (int c : zone_cards(fr(i).base, zi)) {
        Origin o = orig.at(c);
        if (o == NOWHERE) continue;
        auto it = std::find_if(out.begin(), out.end(), [&](auto& e) { return e.first == o; });
        if (it == out.end()) out.push_back({o, {c}});
        else it->second.push_back(c);
      }
    }
    return out;
  }
  static int index_in(const std::vector<int>& seq, int c) {
    return (int)(std::find(seq.begin(), seq.end(), c) - seq.begin());
  }

  // constraints.py _learn: the cards another seat's public action at step i excludes from its zones, and from
  // the zones of each seat it names
  void learn(int i) {
    Frame& f = fr(i);
    int seat = info.who[i], a = f.action;
    if (seat == NONE || a == NONE || info.known[i] == NONE || pending(f.base)) return;
    std::vector<int> named;
    for (int k = tb.poff.at(a); k < tb.poff.at(a + 1); k += 2 + tb.params.at(k + 1))
      if (tb.params.at(k) == 3) named.push_back(tb.params.at(k + 2));
    std::vector<Origin> orig = origins(i, false);
    std::vector<int> used;
    tb.cards_of(a, used);
    std::set<int> who(named.begin(), named.end());  // (each adds facts and work whatever the order)
    who.insert(seat);
    who.erase(p);
    for (int w : who) {
      auto h = held(i, w, orig);
      if (w == seat) exclude(i, w, h, orig, used, [&](const St& t) { return is_legal(t, a); });
      if (std::find(named.begin(), named.end(), w) != named.end())
        exclude(i, w, h, orig, used, [&](const St& t) { return same(t, i); });
    }
  }

  // constraints.py _same: step i, run on base, leaves the player seeing what it saw but for which cards
  bool same(const St& base, int i) {
    std::vector<Shuffle> sh;
    St t = run_on(base, fr(i), sh);
    if (!t || pending(t)) return false;
    Words got = observe(t, p, rd);
    std::vector<Reader::Pair> pairs;
    return got == info.views[i] || rd.differing(info.views[i], got, pairs);
  }

  template <class Fits>
  void exclude(int i, int who, const std::vector<std::pair<Origin, std::vector<int>>>& h,
               const std::vector<Origin>& orig, const std::vector<int>& used, Fits&& fits_it) {
    St base = fr(i).base;
    std::vector<int> seq;
    auto is_used = [&](int c) { return std::find(used.begin(), used.end(), c) != used.end(); };
    for (const auto& [o, cards] : h) {
      std::vector<int> spare;
      for (int x : cards) if (!is_used(x)) spare.push_back(x);
      if (!seq_of(o, seq) || spare.empty()) continue;
      std::vector<int> places;
      for (int x : cards) places.push_back(index_in(seq, x));
      sorted_set(places);
      for (int y : seq) {
        int zy = loc(base, y);
        if ((zy >= 0 && zy < tb.nz && tb.zone_owner[zy] == who) || is_used(y) || orig.at(y) != o) continue;
        bool any = false;
        for (int x : spare)
          if ((any = swapped(base, y, x, fits_it))) break;
        if (!any) facts.push_back({i, o, y, places, false});
      }
    }
  }

  bool legalize(int i, const std::vector<int>& cards) override {
    Frame& f = fr(i);
    int seat = info.who[i], a = f.action;
    St base = f.base;
    if (seat == NONE) return false;
    std::vector<Origin> orig = origins(i, false);
    auto h = held(i, seat, orig);
    auto held_at = [&](Origin o) -> std::vector<int> {
      for (auto& [key, cs] : h) if (key == o) return cs;
      return {};
    };
    std::set<Origin> touched;
    bool enough = false;
    std::vector<int> seq;
    for (int c : cards) {
      Origin o = orig.at(c);
      if (o == NOWHERE || !seq_of(o, seq)) continue;
      std::set<int> good;
      for (int d : held_at(o)) {
        if (d == c) continue;
        if (swapped(base, c, d, [&](const St& t) { return is_legal(t, a); })) good.insert(index_in(seq, d));
      }
      enough = enough || !good.empty();
      int zc = loc(base, c);
      if (good.empty() && !(zc >= 0 && zc < tb.nz && tb.zone_owner[zc] == seat))
        for (int d : held_at(o)) good.insert(index_in(seq, d));
      if (!good.empty()) {
        facts.push_back({i, o, c, std::vector<int>(good.begin(), good.end()), true});
        touched.insert(o);
      }
    }
    if (!enough) {
      // a suit to follow: the cards of the choices left are held where the action's must not be
      std::set<int> forcing;
      std::vector<int> moves, bc;
      legal(base, moves);
      for (int b : moves) {
        tb.cards_of(b, bc);
        forcing.insert(bc.begin(), bc.end());
      }
      for (int c : cards) forcing.erase(c);
      for (auto& [o, mine] : h) {
        if (!seq_of(o, seq)) continue;
        std::vector<int> places;
        for (int x : mine) places.push_back(index_in(seq, x));
        sorted_set(places);
        for (int x : mine)
          if (forcing.count(x)) {
            facts.push_back({i, o, x, places, false});
            touched.insert(o);
          }
      }
    }
    if (!touched.empty() && deal(i, touched, false, false, false)) return true;
    return Descent::legalize(i, cards);
  }

  bool mend(int i, const std::vector<Reader::Pair>& pairs) override {
    std::map<bool, std::set<Origin>> touched;
    std::vector<int> seq;
    for (const auto& pr : pairs) {
      Origin o = origin(i, pr.want, true, pr.ended);
      if (o == NOWHERE || !seq_of(o, seq) || std::find(seq.begin(), seq.end(), pr.got) == seq.end() ||
          o != origin(i, pr.got, true, pr.ended))
        return Descent::mend(i, pairs);
      facts.push_back({i, o, pr.want, {index_in(seq, pr.got)}, true});
      touched[pr.ended].insert(o);
    }
    if (touched.size() == 1) {
      auto& [ended, keys] = *touched.begin();
      if (deal(i, keys, true, ended, true)) return true;
    }
    return Descent::mend(i, pairs);
  }

  // constraints.py _deal: each shuffle in `keys` dealt anew under every fact, then the history replayed
  bool deal(int i, const std::set<Origin>& keys, bool after, bool ended, bool then) {
    for (int m = 0; m < i; m++)
      if (!learned.count(m)) {
        learn(m);
        learned.insert(m);
      }
    Changed changed;
    std::vector<Swap> swaps;
    std::vector<Origin> orig = origins(i, after, ended);
    std::vector<int> seq;
    for (Origin o : keys) {  // (sorted, as Python's sorted(keys))
      auto [j, k] = o;
      Frame& fj = fr(j);
      if (!seq_of(o, seq)) return restore(changed);
      std::vector<int> free;
      for (int c : seq) if (orig.at(c) == o) free.push_back(c);
      std::vector<int> places;
      for (int c : free) places.push_back(index_in(seq, c));
      sorted_set(places);
      std::vector<int> slot(tb.nc, -1);  // card -> its domain's index
      std::vector<std::vector<int>> doms;
      std::vector<int> keep(tb.nc, -1), next;
      for (int c : free) {
        slot.at(c) = (int)doms.size();
        doms.push_back(places);
        keep[c] = index_in(seq, c);
      }
      for (const Fact& x : facts) {
        if (x.key != o || x.card < 0 || x.card >= tb.nc || slot[x.card] < 0) continue;
        std::vector<int>& d = doms[slot[x.card]];
        next.clear();
        if (x.keep) {
          std::set_intersection(d.begin(), d.end(), x.places.begin(), x.places.end(), std::back_inserter(next));
        } else {
          std::set_difference(d.begin(), d.end(), x.places.begin(), x.places.end(), std::back_inserter(next));
        }
        d.swap(next);
      }
      std::vector<std::pair<int, int>> where;
      int failed = -1;
      if (!assign(free, doms, rng, &keep, where, failed)) {
        stuck = failed;
        return restore(changed);
      }
      work += 1;  // (a deal costs about a step's replay)
      std::vector<int> at(tb.nc, -1);
      for (auto [c, q] : where) at.at(c) = q;
      for (int c : free) {
        int q = at.at(c), x = seq.at(q);
        if (x == c) continue;
        if (!changed.count(j)) changed[j] = copy_of(fj.outcomes);
        if (!swap_outcomes(*fj.outcomes, fj.shuffles.at(k), c, x)) return restore(changed);
        int r = index_in(seq, c);
        seq[q] = c;
        seq[r] = x;
        swaps.push_back({j, c, x});
      }
    }
    if (swaps.empty()) return false;
    return replay(i, changed, swaps, then);
  }
};
}  // namespace rs
