// The values of rule code that are lists, by value: a list of ints (cards, players, interned texts, numbers),
// of doubles (keys), of lists; and the library's functions over them. Included by runtime.h after the basics
// it needs (i64, fail, at, LCAP); every index is checked, as there.
#pragma once
#include <type_traits>
#include <vector>

namespace cs {
// A list of values (cards, players, interned texts, numbers), by value.
struct List {
  int n = 0;
  i64 a[LCAP];
  List() = default;
  // Copies take the items held, not the whole capacity: lists are passed and returned by value.
  List(const List& o) : n(o.n) { std::memcpy(a, o.a, sizeof(i64) * n); }
  List& operator=(const List& o) { n = o.n; std::memmove(a, o.a, sizeof(i64) * n); return *this; }
  void push(i64 x) { if (n >= LCAP) fail("list too long"); a[n++] = x; }
  i64 operator[](i64 i) const { return a[at(i, n)]; }
  int size() const { return n; }
  bool operator==(const List& o) const { return n == o.n && std::equal(a, a + n, o.a); }
  bool operator!=(const List& o) const { return !(*this == o); }
};

// A list of numbers with decimals (a key such as [30.5, 2, 1]); lists compare as Python's do.
struct FList {
  int n = 0;
  double a[LCAP];
  void push(double x) { if (n >= LCAP) fail("list too long"); a[n++] = x; }
  double operator[](i64 i) const { return a[at(i, n)]; }
  int size() const { return n; }
};
inline FList flist_of(std::initializer_list<double> xs) { FList l; for (double v : xs) l.push(v); return l; }
template <class L, class = decltype(L::a)> inline bool operator<(const L& x, const L& y) {
  return std::lexicographical_compare(x.a, x.a + x.n, y.a, y.a + y.n);
}
template <class L, class = decltype(L::a)> inline bool operator>(const L& x, const L& y) { return y < x; }
inline bool operator==(const FList& x, const FList& y) { return x.n == y.n && std::equal(x.a, x.a + x.n, y.a); }

// List helpers
inline List range_list(i64 a, i64 b) {
  List l;
  if (b - a > LCAP) fail("range too long");
  for (i64 i = a; i < b; i++) l.push(i);
  return l;
}
template <class L> inline List sorted(const L& xs) {
  List l;
  for (int i = 0; i < xs.size(); i++) l.push(xs[i]);
  std::sort(l.a, l.a + l.n);
  return l;
}
template <class L> inline List to_list(const L& xs) {
  List l;
  for (int i = 0; i < xs.size(); i++) l.push(xs[i]);
  return l;
}
// xs[i] of rule code: as Python's, a negative position counts from the end (the Python backend's f_at); checked.
template <class L> inline auto item(const L& xs, i64 i) { return xs[i < 0 ? i + xs.size() : i]; }
template <class L> inline auto first_of(const L& xs) { if (!xs.size()) fail("first() of an empty list"); return xs[0]; }
template <class L> inline auto last_of(const L& xs) { if (!xs.size()) fail("last() of an empty list"); return xs[xs.size() - 1]; }
template <class L> inline bool contains(const L& xs, i64 v) {
  for (int i = 0; i < xs.size(); i++) if (xs[i] == v) return true;
  return false;
}
// Whole numbers as the Python backend keeps them (library_impl): `*` never gives one past 10**18 (f_mul), one
// kept in a variable or returned by a function stays within +-10**18 (f_num), and a sum past the machine's word
// (a big number in Python, never kept) stops the move the same way: no overflow, which C++ leaves undefined.
constexpr i64 BIG = 1000000000000000000LL;
[[noreturn]] __attribute__((cold, noinline)) inline void grew() { throw RuleError("a number grew beyond 10**18"); }
[[noreturn]] __attribute__((cold, noinline)) inline void left_range() {
  throw RuleError("a number left the range -10**18 to 10**18");
}
[[noreturn]] __attribute__((cold, noinline)) inline void wrong_kind() { throw RuleError("a value of the wrong kind"); }
inline i64 mul_i(i64 a, i64 b) { i64 r; if (__builtin_mul_overflow(a, b, &r) || r > BIG || r < -BIG) grew(); return r; }
inline double mul_f(double a, double b) { double r = a * b; if (!(r >= -1e18 && r <= 1e18)) grew(); return r; }
inline i64 add_i(i64 a, i64 b) { i64 r; if (__builtin_add_overflow(a, b, &r)) left_range(); return r; }
inline i64 sub_i(i64 a, i64 b) { i64 r; if (__builtin_sub_overflow(a, b, &r)) left_range(); return r; }
inline i64 keep_i(i64 v) { if (v != NONE_V && (v > BIG || v < -BIG)) left_range(); return v; }
inline double keep_f(double v) { if (!(v >= -1e18 && v <= 1e18)) left_range(); return v; }
inline i64 whole(double d) { if (!(d >= -9e18 && d <= 9e18)) left_range(); return (i64)d; }  // floor, ceil
inline i64 not_none(i64 v) { if (v == NONE_V) wrong_kind(); return v; }  // `none` in arithmetic
inline i64 floordiv(i64 a, i64 b) {
  if (!b) fail("division by zero");
  if (b == -1) return sub_i(0, a);
  i64 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}
inline i64 pymod(i64 a, i64 b) {
  if (!b) fail("modulo by zero");
  if (b == -1) return 0;
  i64 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
// Python's float % and // (CPython's float_rem and float_floor_div), for numbers with decimals: not cut to whole
// numbers first.
inline double pymod_f(double a, double b) {
  if (b == 0) fail("modulo by zero");
  double m = std::fmod(a, b);
  if (m == 0) return std::copysign(0.0, b);
  return (b < 0) != (m < 0) ? m + b : m;
}
inline double floordiv_f(double a, double b) {
  if (b == 0) fail("division by zero");
  double m = std::fmod(a, b), d = (a - m) / b;
  if (m != 0 && (b < 0) != (m < 0)) d -= 1.0;
  if (d == 0) return std::copysign(0.0, a / b);
  double f = std::floor(d);
  return d - f > 0.5 ? f + 1.0 : f;
}
inline double truediv(double a, double b) { if (b == 0) fail("division by zero"); return a / b; }
inline List list_of(std::initializer_list<i64> xs) { List l; for (i64 v : xs) l.push(v); return l; }
template <class A, class B> inline List cat(const A& a, const B& b) {
  List l = to_list(a);
  for (int i = 0; i < b.size(); i++) l.push(b[i]);
  return l;
}
template <class L> inline List reversed(const L& xs) { List l; for (int i = xs.size() - 1; i >= 0; i--) l.push(xs[i]); return l; }
template <class L> inline List unique(const L& xs) {
  List l;
  for (int i = 0; i < xs.size(); i++) if (!contains(l, xs[i])) l.push(xs[i]);
  return l;
}
template <class L> inline List top_of(const L& xs, i64 n) {  // the last n items
  if (n < 0) fail("top() of a negative number of items");
  List l;
  for (i64 i = std::max<i64>(0, xs.size() - n); i < xs.size(); i++) l.push(xs[i]);
  return l;
}
template <class L> inline List bottom_of(const L& xs, i64 n) {  // the first n items
  if (n < 0) fail("bottom() of a negative number of items");
  List l;
  for (i64 i = 0; i < std::min<i64>(n, xs.size()); i++) l.push(xs[i]);
  return l;
}
template <class L> inline i64 index_of(const L& xs, i64 v) {
  for (int i = 0; i < xs.size(); i++) if (xs[i] == v) return i;
  return -1;
}
template <class K> inline List sorted_by(List l, const K* keys) {  // stable, as Python's sorted(key=)
  int ix[LCAP];
  for (int i = 0; i < l.n; i++) ix[i] = i;
  if (std::is_integral<K>::value && l.n <= 16) {
    // a hand's worth of whole-number keys: an insertion sort, stable, without the buffer stable_sort takes from
    // the heap (whole numbers are totally ordered, so every stable sort gives this order)
    for (int i = 1; i < l.n; i++) {
      int v = ix[i], j = i;
      for (; j > 0 && keys[v] < keys[ix[j - 1]]; j--) ix[j] = ix[j - 1];
      ix[j] = v;
    }
  } else {
    std::stable_sort(ix, ix + l.n, [&](int a, int b) { return keys[a] < keys[b]; });
  }
  List o;
  for (int i = 0; i < l.n; i++) o.push(l.a[ix[i]]);
  return o;
}
// A list of lists (of cards, players or texts), by value: the items one after another, and where each
// list starts.
#define LLCAP 256
#define LLITEMS 1024
#define KCAP (LLCAP > LCAP ? LLCAP : LCAP)  // the keys of a walk over any list
struct Lists {
  int n = 0;
  int16_t off[LLCAP + 1];
  int16_t it[LLITEMS];
  Lists() { off[0] = 0; }
  Lists(const Lists& o) : n(o.n) { copy(o); }
  Lists& operator=(const Lists& o) { n = o.n; copy(o); return *this; }
  void copy(const Lists& o) {
    std::memmove(off, o.off, sizeof(int16_t) * (n + 1));
    std::memmove(it, o.it, sizeof(int16_t) * off[n]);
  }
  template <class L> void push(const L& l) {
    if (n >= LLCAP || off[n] + l.size() > LLITEMS) fail("list of lists too long");
    int o = off[n];
    for (int i = 0; i < l.size(); i++) {
      i64 v = l[i];
      if (v < INT16_MIN || v > INT16_MAX) fail("a value too large for a list of lists");
      it[o + i] = (int16_t)v;
    }
    off[++n] = (int16_t)(o + l.size());
  }
  List operator[](i64 i) const {
    int k = at(i, n);
    List l;
    l.n = off[k + 1] - off[k];  // at most LCAP: pushed from a List
    for (int j = 0; j < l.n; j++) l.a[j] = it[off[k] + j];
    return l;
  }
  int size() const { return n; }
  bool has(const List& l) const {  // `l in` this list: an equal list
    for (int k = 0; k < n; k++) {
      if (off[k + 1] - off[k] != l.n) continue;
      bool same = true;
      for (int j = 0; j < l.n && same; j++) same = it[off[k] + j] == l.a[j];
      if (same) return true;
    }
    return false;
  }
};
template <class L> inline bool contains(const Lists& xs, const L& v) { return xs.has(to_list(v)); }
inline Lists cat(const Lists& a, const Lists& b) { Lists o = a; for (int i = 0; i < b.n; i++) o.push(b[i]); return o; }
inline List flatten(const Lists& xs) { List l; for (int j = 0; j < xs.off[xs.n]; j++) l.push(xs.it[j]); return l; }
// The generators charge a unit per list they build (`b`), as they go: their work is in the lists they make.
template <class L> inline Lists combinations(const L& xs_, i64 k, Budget& b) {
  if (k < 0) fail("combinations() needs a whole number of items, 0 or more");
  List xs = to_list(xs_);
  Lists o;
  if (k > xs.n) return o;
  int ix[LCAP];
  for (int i = 0; i < k; i++) ix[i] = i;
  while (true) {  // itertools.combinations' order
    b.tick();
    List c;
    for (int i = 0; i < k; i++) c.push(xs.a[ix[i]]);
    o.push(c);
    int i = (int)k - 1;
    while (i >= 0 && ix[i] == i + xs.n - k) i--;
    if (i < 0) return o;
    ix[i]++;
    for (int j = i + 1; j < k; j++) ix[j] = ix[j - 1] + 1;
  }
}
template <class L> inline Lists subsets(const L& xs, Budget& b) {
  Lists o;
  for (int k = 0; k <= xs.size(); k++) { Lists c = combinations(xs, k, b); for (int i = 0; i < c.n; i++) o.push(c[i]); }
  return o;
}
// A walk over `combinations(xs, k)` or `subsets(xs)` where rule code only reads the lists one after another (a
// comprehension, a fold, a `for`, an action parameter's values): the same lists in the same order, made one at
// a time into the loop's variable instead of all into a list of lists and copied out of it (a hand's show walks
// 32 subsets). It charges the budget what building them charges (a unit per list), before the first; where
// building them would fail (more lists or items than a list of lists holds, a value too large for one, k < 0),
// it builds them, failing as that does.
struct Combos {
  List xs;
  int k = 0;  // the size of the lists made now (subsets: 0, 1, ... n)
  int ix[LCAP];  // their items' positions in xs
  i64 count = 0, given = 0;
  bool built = false;  // the fallback: the lists built, given from `all`
  Lists all;

  template <class L> Combos(const L& xs_, i64 k_, bool all_sizes, Budget& b) : xs(to_list(xs_)) {
    int n = xs.n;
    i64 items = 0;
    if (all_sizes) {  // 2**n lists, n * 2**(n-1) items
      count = n < 16 ? (i64)1 << n : LLCAP + 1;
      items = n < 16 ? count * n / 2 : LLITEMS + 1;
    } else if (k_ >= 0 && k_ <= n) {
      k = (int)k_;
      count = 1;  // C(n, k) as C(n-k+1, 1) * ... / i, rising: stop once past the cap
      for (int i = 1; i <= k && count <= LLCAP; i++) count = count * (n - k + i) / i;
      items = count * k;
    }
    bool fits = (all_sizes || k_ >= 0) && count <= LLCAP && items <= LLITEMS;
    for (int i = 0; i < n && fits && items > 0; i++) fits = xs.a[i] >= INT16_MIN && xs.a[i] <= INT16_MAX;
    if (!fits) {
      built = true;
      all = all_sizes ? subsets(xs, b) : combinations(xs, k_, b);
      return;
    }
    b.charge(count);
    for (int i = 0; i < k; i++) ix[i] = i;
  }
  int size() const { return built ? all.n : (int)count; }
  // The next list into out; false after the last. Inlined into the loop (it is its every step): 4% of a
  // scoring-heavy game's native loop (docs/design/native.md).
  __attribute__((always_inline)) bool next(List& out) {
    if (built) {
      if (given == all.n) return false;
      out = all[given++];
      return true;
    }
    if (given == count) return false;
    if (given++ > 0) step();
    out.n = k;
    for (int i = 0; i < k; i++) out.a[i] = xs.a[ix[i]];
    return true;
  }
  void step() {  // itertools.combinations' next, and after the last of a size the first of the next (subsets)
    int i = k - 1;
    while (i >= 0 && ix[i] == i + xs.n - k) i--;
    if (i < 0) {
      k++;
      for (int j = 0; j < k; j++) ix[j] = j;
      return;
    }
    ix[i]++;
    for (int j = i + 1; j < k; j++) ix[j] = ix[j - 1] + 1;
  }
};
template <class L> inline Combos combinations_walk(const L& xs, i64 k, Budget& b) { return Combos(xs, k, false, b); }
template <class L> inline Combos subsets_walk(const L& xs, Budget& b) { return Combos(xs, 0, true, b); }
inline Lists lists_of(std::initializer_list<List> xs) { Lists o; for (const List& l : xs) o.push(l); return o; }
template <class L> inline i64 index_of(const Lists& xs, const L& v) {
  List l = to_list(v);
  for (int i = 0; i < xs.n; i++) if (xs[i] == l) return i;
  return -1;
}
// A list of lists of lists (the choices `packings` gives), on the heap: never part of the state.
struct Packs {
  std::vector<Lists> v;
  void push(const Lists& l) { if (v.size() >= 100000) fail("list too long"); v.push_back(l); }
  const Lists& operator[](i64 i) const { return v[at(i, (int)v.size())]; }
  int size() const { return (int)v.size(); }
};
inline Packs packs_of(std::initializer_list<Lists> xs) { Packs o; for (const Lists& l : xs) o.push(l); return o; }
inline Packs cat(const Packs& a, const Packs& b) { Packs o = a; for (const Lists& l : b.v) o.push(l); return o; }
inline Lists flatten(const Packs& xs) { Lists o; for (const Lists& l : xs.v) for (int i = 0; i < l.n; i++) o.push(l[i]); return o; }
// library_impl.f_packings: every choice of groups that share no item, the groups in their order, the empty
// choice first (the search recurses once per group: at most 400). A unit per step of the search, as it runs:
// it may take many more steps than it finds choices.
inline void packings_go(const Lists& g, int i, Lists& chosen, std::vector<i64>& used, Packs& out, Budget& b) {
  b.tick();
  if (i == g.n) { out.push(chosen); return; }
  packings_go(g, i + 1, chosen, used, out, b);
  List gi = g[i];
  for (int j = 0; j < gi.n; j++) if (std::find(used.begin(), used.end(), gi.a[j]) != used.end()) return;
  size_t mark = used.size();
  used.insert(used.end(), gi.a, gi.a + gi.n);
  Lists before = chosen;
  chosen.push(gi);
  packings_go(g, i + 1, chosen, used, out, b);
  chosen = before;
  used.resize(mark);
}
inline Packs packings(const Lists& g, Budget& b) {
  if (g.n > 400) fail("packings() of more than 400 groups");
  Packs out;
  Lists chosen;
  std::vector<i64> used;
  packings_go(g, 0, chosen, used, out, b);
  return out;
}
// A list-of-cards parameter: its digit is the list's position among the action's ids (keys sorted, with
// each id's position), and an id's list is read back from the flat table of every id's items.
inline i64 list_key(const List& l, int nc) { i64 k = 0; for (int i = l.n - 1; i >= 0; i--) k = k * (nc + 1) + l.a[i] + 1; return k; }
inline i64 ids_digit(const i64* keys, const i64* pos, int n, const List& l, int nc) {
  if (l.n > 8) fail("a parameter value outside its kind");
  i64 k = list_key(l, nc);
  const i64* f = std::lower_bound(keys, keys + n, k);
  if (f == keys + n || *f != k) fail("a parameter value outside its kind");
  return pos[f - keys];
}
// The same, read from a table indexed by the key (emit_ids.py: where every id's key is small): the first id's
// position, -1 where no id has the key.
template <class T> inline i64 ids_dense(const T* pos, i64 size, const List& l, int nc) {
  if (l.n > 8) fail("a parameter value outside its kind");
  i64 k = list_key(l, nc);
  if (k < 0 || k >= size || pos[k] < 0) fail("a parameter value outside its kind");
  return pos[k];
}
inline List ids_list(const int* off, const int16_t* items, i64 d) {
  List l;
  for (int j = off[d]; j < off[d + 1]; j++) l.push(items[j]);
  return l;
}
inline i64 map_get(const List& keys, const List& vals, i64 k) {  // a constant table's entry
  for (int i = 0; i < keys.n; i++) if (keys.a[i] == k) return vals.a[i];
  fail("a key the table does not have");
}
inline i64 digit_of(const i64* vals, int n, i64 v) {  // a listed value's position: its digit in an action id
  for (int i = 0; i < n; i++) if (vals[i] == v) return i;
  fail("a parameter value outside its kind");
}
}  // namespace cs
