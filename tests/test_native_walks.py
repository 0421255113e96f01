"""The native runtime's walks over `combinations` and `subsets`, and its lookup of a list-valued parameter's
digit by a table indexed by key, against what they stand in for (issue 33: Cribbage's native loop).

The runtime's parts are compiled alone with a harness (`HARNESS`) that checks every case in C++:
- `Combos` gives the lists `combinations(xs, k)` and `subsets(xs)` build, in their order, and leaves the step
  budget where building them leaves it; where building fails (more lists or items than a list of lists holds,
  a value too large for one, k < 0, the budget passed) it fails with the same words;
- `ids_dense` gives every list of up to three values (cards, and values outside the pack) the digit
  `ids_digit` gives, or fails as it does;
- `sorted_by` orders whole-number keys as std::stable_sort does.
And a rule file walking them every way the emitter writes a walk (a comprehension, folds, `for`, an action's
parameter) plays the same matches on both backends. The builds need g++ (and pybind11 for the rule file)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import cardsmith
import pytest
from cardsmith.native import build
from cardsmith.native.difftest import compare
from cardsmith.native.emit_ids import dense_size, ids_digit, ids_tables
from cardsmith.native.lower import lower

needs_build = pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}")
pytestmark = [needs_build, pytest.mark.slow]

HARNESS = r"""
#include "runtime.h"
#include <cstdio>
#include <functional>
#include <random>
#include <set>
using namespace cs;

@IDS@

static std::set<std::string> failures;
static int cases = 0, wrong = 0;

// what a computation gives (and the budget left after it), or the words it fails with
static std::string outcome(const Budget& b, const std::function<std::string()>& f) {
  try {
    std::string s = f();
    return s + " left " + std::to_string(b.left);
  } catch (const RuleError& e) {
    failures.insert(e.what());
    return std::string("failed: ") + e.what();
  }
}
static std::string show(const List& l) {
  std::string s = "[";
  for (int i = 0; i < l.n; i++) s += std::to_string(l.a[i]) + " ";
  return s + "]";
}
static void same(const std::string& what, const std::string& a, const std::string& b) {
  cases++;
  if (a != b && wrong++ < 20) std::printf("%s\n  %s\n  %s\n", what.c_str(), a.c_str(), b.c_str());
}

int main() {
  const long long budgets[] = {0, 1, 9, 10, 35, 36, 255, 256, 511, 512, 1000000};
  for (int n = 0; n <= 10; n++)
    for (int big = 0; big < 2; big++)
      for (long long k = -1; k <= n + 2; k++)  // k == n + 2: subsets
        for (long long budget : budgets) {
          List xs;
          for (int i = 0; i < n; i++) xs.push(big && i == n / 2 ? 40000 : 3 * i + 1);
          bool all = k == n + 2;
          Budget b1{budget, "over"}, b2{budget, "over"};
          std::string built = outcome(b1, [&] {
            Lists o = all ? subsets(xs, b1) : combinations(xs, k, b1);
            std::string s = std::to_string(o.size()) + ":";
            for (int i = 0; i < o.n; i++) s += show(o[i]);
            return s;
          });
          std::string walked = outcome(b2, [&] {
            Combos w(xs, all ? 0 : k, all, b2);
            std::string s = std::to_string(w.size()) + ":";
            List l;
            while (w.next(l)) s += show(l);
            return s;
          });
          same("walk n=" + std::to_string(n) + " k=" + std::to_string(k) + " big=" + std::to_string(big) +
               " budget=" + std::to_string(budget), built, walked);
        }
  std::printf("walks %d\n", cases);
  int before = cases;
  for (int len = 0; len <= 3; len++) {
    int total = 1;
    for (int i = 0; i < len; i++) total *= 10;
    for (int code = 0; code < total; code++) {
      List l;
      for (int i = 0, c = code; i < len; i++, c /= 10) l.push(c % 10 - 1);  // -1 to 8: outside the pack too
      Budget b{0, "over"};
      same("ids " + show(l), outcome(b, [&] { return std::to_string(ids_digit(IDKS, IDPS, NIDS, l, 6)); }),
           outcome(b, [&] { return std::to_string(ids_dense(IDDD, DSIZE, l, 6)); }));
    }
  }
  List nine;
  for (int i = 0; i < 9; i++) nine.push(0);
  Budget b{0, "over"};
  same("ids of nine", outcome(b, [&] { return std::to_string(ids_digit(IDKS, IDPS, NIDS, nine, 6)); }),
       outcome(b, [&] { return std::to_string(ids_dense(IDDD, DSIZE, nine, 6)); }));
  std::printf("ids %d\n", cases - before);
  before = cases;
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; round++) {
    int n = round % 21;
    List l;
    i64 keys[LCAP];
    for (int i = 0; i < n; i++) { l.push(100 + i); keys[i] = (i64)(rng() % 4) - 1; }
    int ix[LCAP];
    for (int i = 0; i < n; i++) ix[i] = i;
    std::stable_sort(ix, ix + n, [&](int a, int c) { return keys[a] < keys[c]; });
    List want;
    for (int i = 0; i < n; i++) want.push(l.a[ix[i]]);
    same("sorted_by " + show(l), show(want), show(sorted_by(l, keys)));
  }
  std::printf("sorts %d\n", cases - before);
  for (const auto& f : failures) std::printf("failure: %s\n", f.c_str());
  std::printf("wrong %d\n", wrong);
  return 0;
}
"""

# The ids of a parameter of two cards of six, each ordered pair once, a few lists of one card and of three,
# and lists given twice (the first is the one found).
IDS = [[a, b] for a in range(6) for b in range(6)] + [[2], [5], [0, 1, 2], [2, 0], [5]]


def test_the_runtime_walks_and_lookups_agree_with_what_they_stand_in_for(tmp_path: Path) -> None:
    assert dense_size(IDS, 6) == 3 * 49 + 2 * 7 + 1 + 1  # [0, 1, 2]'s key (the cards + 1 in base 7), the largest, + 1
    assert dense_size(IDS, 6, limit=100) is None
    tables = [*ids_tables("D", IDS, 6), *ids_tables("S", IDS, 6, limit=0),
              f"static const int NIDS = {len(IDS)}, DSIZE = {dense_size(IDS, 6)};"]
    assert ids_digit("D", IDS, 6, "l") == f"ids_dense(IDDD, {dense_size(IDS, 6)}, l, 6)"
    assert ids_digit("S", IDS, 6, "l", limit=0) == f"ids_digit(IDKS, IDPS, {len(IDS)}, l, 6)"
    src = tmp_path / "harness.cc"
    src.write_text(HARNESS.replace("@IDS@", "\n".join(tables)))
    exe = tmp_path / "harness"
    subprocess.run([build.COMPILER, "-O1", "-std=c++17", f"-I{build.HERE}", str(src), "-o", str(exe)], check=True,
                   timeout=300)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=True).stdout
    lines = out.splitlines()
    assert lines[-1] == "wrong 0", out[-3000:]
    assert "walks 2178" in lines and "ids 1112" in lines and "sorts 2000" in lines, out[-3000:]
    # every way building fails was met, and the walk failed the same way
    assert {ln for ln in lines if ln.startswith("failure: ")} == {
        "failure: over", "failure: list of lists too long", "failure: a value too large for a list of lists",
        "failure: combinations() needs a whole number of items, 0 or more",
        "failure: a parameter value outside its kind"}, out[-3000:]


WALKS = """\
game: Walks
players: 2
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4', '5']
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  pile: {}
variables:
  n: {type: int}
define:
  total(g): sum(c.rank_index for c in g)
  alike(h, cards): count(subsets(h), g => total(g) == total(cards))   # the cards' own subset at least
  big(h): any(len(g) > 3 for g in subsets(h))
actions:
  lay:
    params:
      cards: {from: "combinations(hand[player], 2)", ids: "[[a, b] for a in pack for b in pack]"}
    when: alike(hand[player], cards) > 0 and (big(hand[player]) or len(hand[player]) == 2)
    effect:
      - move cards to pile
      - n += len([g for g in subsets(pile) if len(g) == 2]) + sum(len(g) for g in combinations(pile, 3))
      - n += total(max_by(combinations(pile, 2), g => total(g))) + len(all_max_by(subsets(pile), g => total(g)))
      - for: g in combinations(pile, len(pile) - 1)
        do: ["n += total(g) * len(g)"]
      - n += max([len(g) for g in subsets(hand[player])]) + len(combinations(hand[player], 0))
phases:
  main:
    first: left(dealer)
    actions: [lay]
    after:
      - if: len(pile) == len(pack)
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 4 from stock to hand
    - goto main
  over_when: deal_number >= 3
  winners: "if n mod 3 == 0 then [0] else if n mod 3 == 1 then [1] else players"
"""


def test_a_rule_file_walking_combinations_and_subsets_plays_the_same_on_both_backends(tmp_path: Path) -> None:
    path = tmp_path / "walks.yaml"
    path.write_text(WALKS)
    src = build.library_source(lower(build.plain_game(str(path), 2)))
    # the comprehensions, the folds, the `for` and the parameter walk; all_max_by reads its lists by index, and
    # len() the list of lists itself: those are built
    assert src.count("subsets_walk(") == 4 and src.count("combinations_walk(") == 4, src
    assert src.count(" subsets(zone(") == 1 and src.count("(combinations(zone(") == 1, src
    assert "ids_dense(" in src
    py = cardsmith.load(path, players=2)
    nat = cardsmith.load(path, players=2, backend="native")
    matches, nodes, diff = compare(py, nat, 40, 11)
    assert diff is None, diff
    assert matches == 40 and nodes > 40 * 3 * 4
    moves, _ = nat.native.random_playouts(20, 7)
    assert moves == 20 * 3 * 4  # every deal: 8 cards laid two at a time
