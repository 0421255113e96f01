// The native resampler's first part (the binding's, built once; games are reached through abi.h): what it
// needs to know of a game (`Tables`, from Python: resample.py), the states it makes (`St`), a player's
// observation words read as resample/info.py reads the observation's dict (`cards_in`, `differing`), and
// `Info`, step 1 of resampling (resample/info.py), from one replay of the real history.
#pragma once
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "abi.h"

namespace rs {
using i64 = int64_t;
constexpr int NONE = -1;  // Python's None for an action, a seat or a public text
constexpr i64 NONE_V = cs::NONE_V;

// What the resampler needs of a game, worked out once in Python (resample.py `tables`).
struct Tables {
  int n = 0, nc = 0, nz = 0;
  std::vector<int> zone_owner;  // each zone's owner, NONE for none
  // Per action id: its kind (the ActionInfo, by index), its public class (one per public text), whether its
  // public text is its text, whether a parameter of its kind is over lists of cards; its parameters' values
  // in `params[poff[a]..poff[a + 1])` as (kind 0 other | 1 card | 2 cards | 3 player, count, values...).
  std::vector<int> kind, klass;
  std::vector<uint8_t> pub, listy;
  std::vector<int> poff, params;
  // Per variable of the observation, in the words' order: its shape (0 one word, 1 a number with decimals,
  // 2 a list, 3 a list of lists) and whether its items are cards (0 never, 1 card ids, 2 interned texts, a
  // card where `text_card` names one: info.py compares names, and a text may spell a card's name).
  std::vector<int> var_shape, var_card, text_card;
  std::vector<int> canon;  // each card id as the card its name names (info.py's `names`: the last of a name)

  int num_actions() const { return (int)kind.size(); }
  // (parameter position, card) of each card of action a, as info.py cards_of: only the cards here
  void cards_of(int a, std::vector<int>& out) const {
    out.clear();
    for (int k = poff.at(a); k < poff.at(a + 1);) {
      int pk = params.at(k), len = params.at(k + 1);
      if (pk == 1 || pk == 2) out.insert(out.end(), params.begin() + k + 2, params.begin() + k + 2 + len);
      k += 2 + len;
    }
  }
  int card_of_word(int mode, i64 x) const {  // the card an item of a variable is, or -1
    if (x == NONE_V) return -1;
    if (mode == 1) return x >= 0 && x < nc ? canon[x] : -1;
    if (mode == 2) return x >= 0 && x < (i64)text_card.size() ? text_card[x] : -1;
    return -1;
  }
};

// A native state the resampler made (freed by its library).
struct Handle {
  const CsApi* api;
  void* s;
  Handle(const CsApi* a, void* st) : api(a), s(st) {
    if (!s) throw std::bad_alloc();
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { api->state_free(s); }
};
using St = std::shared_ptr<Handle>;
using Words = std::vector<i64>;

inline St clone(const St& t) { return std::make_shared<Handle>(t->api, t->api->state_clone(t->s)); }

// f(t) with cards c and d in each other's places, then put back (a swap twice is no swap): what a copy with the
// swap would answer, without the copy. t is shared, so f only reads it (a run of a step copies it first).
template <class F>
inline auto swapped(const St& t, int c, int d, F&& f) {
  char err[512];
  if (t->api->swap(t->s, c, d, err, sizeof err)) throw std::runtime_error(err);
  struct Back {
    const St& t;
    int c, d;
    ~Back() {
      char e[512];
      t->api->swap(t->s, c, d, e, sizeof e);
    }
  } back{t, c, d};
  return f(t);
}
inline bool pending(const St& t) { return t->api->is_chance(t->s) != 0; }
inline bool terminal(const St& t) { return t->api->is_terminal(t->s) != 0; }

// The legal actions (info.py `legal`): none where the rules fail, at a chance node or at the end.
inline void legal(const St& t, std::vector<int>& out) {
  out.resize(std::max<size_t>(out.capacity(), 128));
  if (terminal(t) || pending(t)) { out.clear(); return; }
  char err[512];
  int n = t->api->legal(t->s, out.data(), (int)out.size(), err, sizeof err);
  if (n > (int)out.size()) {
    out.resize(n);
    n = t->api->legal(t->s, out.data(), n, err, sizeof err);
  }
  out.resize(std::max(n, 0));
}
inline bool is_legal(const St& t, int a) {
  static thread_local std::vector<int> la;
  legal(t, la);
  return std::binary_search(la.begin(), la.end(), a);
}

// What player p sees (view.h), each card as `Tables::canon` names it: equal words exactly where the Python
// backend's observations are equal.
struct Reader {
  const Tables& tb;
  size_t header() const { return 8 + (size_t)tb.n; }
  // Past one `seen` part (view.h) from `at`, calling f(card) for each card it shows (zones and variables);
  // with `fix`, each card id in place as its canonical one. Throws on words that end early (never from view.h).
  template <class F>
  size_t walk(Words& w, size_t at, bool fix, F&& f) const {
    auto word = [&](size_t k) -> i64& {
      if (k >= w.size()) throw std::runtime_error("observation words end early");
      return w[k];
    };
    auto item = [&](size_t k, int mode) {
      i64& x = word(k);
      int c = tb.card_of_word(mode, x);
      if (c >= 0) {
        if (fix && mode == 1) x = c;
        f(c);
      }
    };
    for (int zi = 0; zi < tb.nz; zi++) {
      i64 k = word(at);
      at++;
      for (i64 j = 0; j < k; j++) item(at + j, 1);
      if (k > 0) at += k;
    }
    for (size_t v = 0; v < tb.var_shape.size(); v++) {
      if (!word(at++)) continue;
      int shape = tb.var_shape[v], mode = tb.var_card[v];
      if (shape <= 1) {
        if (shape == 0) item(at, mode);
        at++;
      } else if (shape == 2) {
        i64 k = word(at++);
        for (i64 j = 0; j < k; j++) item(at + j, mode);
        at += k;
      } else {
        i64 k = word(at++);
        for (i64 j = 0; j < k; j++) {
          i64 m = word(at++);
          for (i64 q = 0; q < m; q++) item(at + q, mode);
          at += m;
        }
      }
    }
    return at;
  }
  void canonical(Words& w) const {
    bool dup = false;
    for (int c = 0; c < tb.nc && !dup; c++) dup = tb.canon[c] != c;
    if (!dup) return;
    size_t at = walk(w, header(), true, [](int) {});
    if (at < w.size() && w[at]) walk(w, at + 2, true, [](int) {});
  }
  // info.py cards_in: the cards the present deal's part shows (not the last deal's end)
  std::vector<int> cards_in(Words& w) const {
    std::vector<int> out;
    walk(w, header(), false, [&](int c) { out.push_back(c); });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // info.py differing: (card wanted, card there, at the last deal's end) for each place where the two differ
  // in a card only; false where they differ in anything else.
  struct Pair { int want, got; bool ended; };
  bool differing(const Words& a, const Words& b, std::vector<Pair>& out) const {
    out.clear();
    size_t h = header();
    if (a.size() < h || b.size() < h || !std::equal(a.begin(), a.begin() + h, b.begin())) return false;
    size_t x = h, y = h;
    std::vector<Pair> here;
    bool derived = false;
    if (!seen(a, x, b, y, false, here, derived)) return false;
    // the last deal as it ended: equal, or both there (its deal number the same) and differing in cards only
    if (x >= a.size() || y >= b.size()) return false;
    bool same = a.size() - x == b.size() - y && std::equal(a.begin() + x, a.end(), b.begin() + y);
    if (!same) {
      if (!a[x] || !b[y] || x + 1 >= a.size() || y + 1 >= b.size() || a[x + 1] != b[y + 1]) return false;
      x += 2;
      y += 2;
      derived = false;
      if (!seen(a, x, b, y, true, out, derived)) return false;
      if (derived && out.empty()) return false;  // values alone differ: no card of the deal's end to mend
    }
    out.insert(out.end(), here.begin(), here.end());
    return true;
  }

  // info.py distance: the places where two observations differ (an entry, or one item of lists of one length)
  int distance(const Words& a, const Words& b) const {
    int n = tb.n, out = 0;
    if (a.size() < header() || b.size() < header()) throw std::runtime_error("observation words end early");
    for (int k : {0, 1, 2, 3, 6}) out += a[k] != b[k];  // phase, current, dealer, deal, terminal
    auto seats = [&](i64 bits) {
      std::vector<int> v;
      for (int q = 0; q < n; q++) if ((bits >> q) & 1) v.push_back(q);
      return v;
    };
    out += lists(seats(~(a[4] | a[5])), seats(~(b[4] | b[5])));  // active
    out += lists(seats(a[5]), seats(b[5]));  // sitting out
    if (a[6] && b[6]) out += lists(seats(a[7]), seats(b[7]));  // the winners
    else out += a[6] != b[6];  // (a list and None)
    for (int q = 0; q < n; q++) out += a[8 + q] != b[8 + q];  // teams
    size_t x = header(), y = header();
    out += seen_distance(a, x, b, y);
    i64 fa = get(a, x), fb = get(b, y);
    if (fa && fb) out += (get(a, x + 1) != get(b, y + 1)) + seen_distance(a, x += 2, b, y += 2);
    else out += fa != fb;
    return out;
  }

  // One `seen` part of the words, read: each zone's cards (or its count, hidden) and each variable's items
  // (lists of lists are kept as nothing: no item of theirs is a card name to card_pairs).
  struct Part {
    std::vector<std::pair<bool, std::vector<i64>>> zones, vars;
    bool ended = false;  // the part of the last deal as it ended
    i64 deal = 0;
  };
  Part part(const Words& w, size_t& at) const {
    Part out;
    for (int zi = 0; zi < tb.nz; zi++) {
      i64 k = get(w, at++);
      std::vector<i64> cards;
      for (i64 j = 0; j < k; j++) cards.push_back(get(w, at++));
      out.zones.emplace_back(k >= 0, k >= 0 ? cards : std::vector<i64>{k});
    }
    for (size_t v = 0; v < tb.var_shape.size(); v++) {
      bool seen = get(w, at++) != 0;
      std::vector<i64> items;
      int shape = tb.var_shape[v];
      if (seen && shape <= 1) {
        items.push_back(get(w, at++));
      } else if (seen && shape == 2) {
        i64 k = get(w, at++);
        for (i64 j = 0; j < k; j++) items.push_back(get(w, at++));
      } else if (seen) {
        i64 k = get(w, at++);
        for (i64 j = 0; j < k; j++) at += 1 + get(w, at);
      }
      out.vars.emplace_back(seen, items);
    }
    return out;
  }
  // constraints.py card_pairs: (card wanted, card there, at the last deal's end) at each place where the two
  // show different cards, whatever else differs; `all` the candidate's zones, every card (hidden ones too).
  void card_pairs(const Words& want, const Words& got, const std::vector<std::vector<i64>>& all,
                  std::vector<Pair>& out) const {
    out.clear();
    size_t x = header(), y = header();
    Part a = part(want, x), b = part(got, y);
    Part ae, be;
    if (get(want, x)) {
      i64 deal = get(want, x + 1);
      ae = part(want, x += 2);
      ae.ended = true;
      ae.deal = deal;
    }
    if (get(got, y)) {
      i64 deal = get(got, y + 1);
      be = part(got, y += 2);
      be.ended = true;
      be.deal = deal;
    }
    if (ae.ended && got[3] == ae.deal && (!be.ended || be.deal != ae.deal)) {
      // the player saw this deal end in the step and the candidate's goes on: the cards seen at the deal's
      // end are where the candidate's deal has them now (all its cards); its new deal pairs with nothing
      Part now;
      for (const auto& cards : all) now.zones.emplace_back(true, cards);
      now.vars = b.vars;
      pairs(ae, now, true, out);
      return;
    }
    if (ae.ended && be.ended) pairs(ae, be, true, out);
    pairs(a, b, false, out);
  }

 private:
  template <class V>
  static int lists(const V& u, const V& w) {  // two lists: items differing if of one length, else 1 if unequal
    if (u.size() != w.size()) return 1;
    int k = 0;
    for (size_t i = 0; i < u.size(); i++) k += u[i] != w[i];
    return k;
  }
  // One `seen` part each side (zones, then the variables the first shows: info.py reads `want`'s keys)
  int seen_distance(const Words& a, size_t& x, const Words& b, size_t& y) const {
    int out = 0;
    for (int zi = 0; zi < tb.nz; zi++) {
      i64 k = get(a, x++), m = get(b, y++);
      if (k >= 0 && m >= 0 && k == m) {
        for (i64 j = 0; j < k; j++) out += get(a, x + j) != get(b, y + j);
      } else if (k != m) {
        out += 1;
      }
      x += std::max<i64>(k, 0);
      y += std::max<i64>(m, 0);
    }
    for (size_t v = 0; v < tb.var_shape.size(); v++) {
      i64 fa = get(a, x++), fb = get(b, y++);
      int shape = tb.var_shape[v];
      if (shape <= 1) {
        if (fa && fb) out += get(a, x) != get(b, y);
        else if (fa) out += !(shape == 0 && get(a, x) == NONE_V);  // shown, against not shown (None)
        x += fa != 0;
        y += fb != 0;
        continue;
      }
      std::vector<std::vector<i64>> u, w;  // the items (shape 2) or the lists (3) of each side
      for (int side = 0; side < 2; side++) {
        const Words& ws = side ? b : a;
        size_t& at = side ? y : x;
        auto& items = side ? w : u;
        if (!(side ? fb : fa)) continue;
        i64 k = get(ws, at++);
        for (i64 j = 0; j < k; j++) {
          if (shape == 2) {
            items.push_back({get(ws, at++)});
          } else {
            i64 m = get(ws, at++);
            std::vector<i64> l;
            for (i64 q = 0; q < m; q++) l.push_back(get(ws, at++));
            items.push_back(l);
          }
        }
      }
      if (fa && fb) out += lists(u, w);
      else if (fa) out += 1;
    }
    return out;
  }
  void pairs(const Part& a, const Part& b, bool ended, std::vector<Pair>& out) const {
    for (size_t zi = 0; zi < a.zones.size() && zi < b.zones.size(); zi++) {
      const auto& [sa, u] = a.zones[zi];
      const auto& [sb, w] = b.zones[zi];
      if (sa && sb && u.size() == w.size())
        for (size_t q = 0; q < u.size(); q++) items_only(u[q], w[q], 1, ended, out);
    }
    for (size_t v = 0; v < a.vars.size() && v < b.vars.size(); v++) {
      const auto& [sa, u] = a.vars[v];
      const auto& [sb, w] = b.vars[v];
      int shape = tb.var_shape[v];
      if (sa && sb && (shape == 0 || shape == 2) && u.size() == w.size())
        for (size_t q = 0; q < u.size(); q++) items_only(u[q], w[q], tb.var_card[v], ended, out);
    }
  }
  void items_only(i64 u, i64 w, int mode, bool ended, std::vector<Pair>& out) const {
    if (u == w) return;
    int c = tb.card_of_word(mode, u), d = tb.card_of_word(mode, w);
    if (c >= 0 && d >= 0) out.push_back({c, d, ended});
  }
  static i64 get(const Words& w, size_t k) {
    if (k >= w.size()) throw std::runtime_error("observation words end early");
    return w[k];
  }
  // One item each side (u, w of a variable or zone, cards by `mode`): equal, a pair of cards, or (false) not
  // mendable; at the deal's end a value that is no card is `derived`.
  bool items(i64 u, i64 w, int mode, bool ended, bool var, std::vector<Pair>& out, bool& derived) const {
    if (u == w) return true;
    int c = tb.card_of_word(mode, u), d = tb.card_of_word(mode, w);
    if (c >= 0 && d >= 0) {
      out.push_back({c, d, ended});
      return true;
    }
    if (ended && var) { derived = true; return true; }
    return false;
  }
  bool seen(const Words& a, size_t& x, const Words& b, size_t& y, bool ended, std::vector<Pair>& out,
            bool& derived) const {
    bool ok = true;  // (a part that differs otherwise is still walked past, to find where the next begins)
    for (int zi = 0; zi < tb.nz; zi++) {
      i64 k = get(a, x++), m = get(b, y++);
      if (k != m) ok = false;
      if (k >= 0 && m >= 0 && k == m)
        for (i64 j = 0; j < k && ok; j++) ok = items(get(a, x + j), get(b, y + j), 1, ended, false, out, derived);
      x += std::max<i64>(k, 0);
      y += std::max<i64>(m, 0);
    }
    for (size_t v = 0; v < tb.var_shape.size(); v++) {
      i64 fa = get(a, x++), fb = get(b, y++);
      int shape = tb.var_shape[v], mode = tb.var_card[v];
      if (fa != fb) ok = false;
      if (shape <= 1) {
        if (fa && fb && ok) ok = items(get(a, x), get(b, y), shape == 0 ? mode : 0, ended, true, out, derived);
        x += fa != 0;
        y += fb != 0;
      } else if (shape == 2) {
        i64 k = fa ? get(a, x++) : 0, m = fb ? get(b, y++) : 0;
        if (k != m) ok = false;
        for (i64 j = 0; j < k && ok; j++) ok = items(get(a, x + j), get(b, y + j), mode, ended, true, out, derived);
        x += k;
        y += m;
      } else {
        i64 k = fa ? get(a, x++) : 0, m = fb ? get(b, y++) : 0;
        if (k != m) ok = false;
        // lists of lists of the same lengths differ in cards only, card for card
        for (i64 j = 0, jb = 0; j < std::max(k, m); j++, jb++) {
          i64 p = j < k ? get(a, x++) : 0, q = jb < m ? get(b, y++) : 0;
          if (p != q) ok = false;
          for (i64 r = 0; r < p && r < q && ok; r++)
            ok = items(get(a, x + r), get(b, y + r), mode, ended, true, out, derived);
          x += p;
          y += q;
        }
      }
    }
    return ok;
  }
};

// Step 1 (resample/info.py): who acted at each step, the action as player p saw it (NONE where it did not see
// it in full; `text`: the public class of another's secret action), p's observation after each step, and for
// each card the steps whose observation (`seen_at`) or fully seen action (`acted_at`) held it.
struct Info {
  int p = 0;
  std::vector<int> who, known, text;
  std::vector<Words> views;
  std::vector<std::vector<int>> view_cards;  // the cards each view shows, sorted
  std::vector<std::vector<int>> seen_at, acted_at;
  size_t steps() const { return views.size(); }
};

// The entries of a native state's history as steps: (who, action, outcomes), the first the match's start.
struct Group { int who, action; std::vector<int> outcomes; };
inline std::vector<Group> groups_of(const std::vector<std::pair<int, int>>& entries) {
  std::vector<Group> out{{NONE, NONE, {}}};
  for (auto& [who, what] : entries) {
    if (who >= 0) out.push_back({who, what, {}});
    else out.back().outcomes.push_back(what);
  }
  return out;
}

inline Words observe(const St& t, int p, const Reader& rd) {
  static thread_local std::vector<int64_t> buf(256);
  char err[512];
  int n = t->api->observe(t->s, p, buf.data(), (int)buf.size(), err, sizeof err);
  if (n > (int)buf.size()) {
    buf.resize(n);
    n = t->api->observe(t->s, p, buf.data(), n, err, sizeof err);
  }
  if (n == -2) throw std::runtime_error("an observation before the match's first step");
  if (n < 0) throw std::runtime_error(err);
  Words w(buf.begin(), buf.begin() + n);
  rd.canonical(w);
  return w;
}

// The real history replayed from `start` (a new match of the real state's seed, its first step run), as the
// Python backend's Info replays it: each step's action and chance outcomes given as the real state took them.
inline Info make_info(const St& start, const std::vector<Group>& steps, int p, const Tables& tb) {
  Reader rd{tb};
  Info info;
  info.p = p;
  info.seen_at.assign(tb.nc, {});
  info.acted_at.assign(tb.nc, {});
  const CsApi* api = start->api;
  St t = start;
  char err[512];
  std::vector<int> cards;
  for (size_t i = 0; i < steps.size(); i++) {
    const Group& g = steps[i];
    if (g.action >= 0 && api->apply(t->s, g.action, err, sizeof err))
      throw std::runtime_error(std::string("the history does not replay: ") + err);
    for (int o : g.outcomes)
      if (api->apply(t->s, o, err, sizeof err)) throw std::runtime_error(std::string("the history does not replay: ") + err);
    if (pending(t)) throw std::runtime_error("the native resampler takes no state at a chance node");
    info.who.push_back(g.who);
    int a = g.action;
    if (a >= tb.num_actions()) throw std::runtime_error("an action the tables do not know");
    bool pub = a < 0 || g.who == p || tb.pub[a];
    info.known.push_back(pub ? a : NONE);
    info.text.push_back(pub || a < 0 ? NONE : tb.klass[a]);
    info.views.push_back(observe(t, p, rd));
    info.view_cards.push_back(rd.cards_in(info.views.back()));
    for (int c : info.view_cards.back()) info.seen_at[c].push_back((int)i);
    if (pub && a >= 0) {
      tb.cards_of(a, cards);
      std::sort(cards.begin(), cards.end());
      cards.erase(std::unique(cards.begin(), cards.end()), cards.end());
      for (int c : cards) info.acted_at.at(c).push_back((int)i);  // (ids, not names: as info.py)
    }
  }
  return info;
}

// info.py any_in: whether the sorted `steps` hold one in [lo, hi)
inline bool any_in(const std::vector<int>& steps, int lo, int hi) {
  auto k = std::lower_bound(steps.begin(), steps.end(), lo);
  return k != steps.end() && *k < hi;
}
}  // namespace rs
