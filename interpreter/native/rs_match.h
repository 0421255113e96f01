// resample/matching.py natively: cards to places under per-card facts, a random assignment that finds one
// whenever one exists, drawing exactly the random numbers the Python one draws (and so the same deal).
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "pymt.h"

namespace rs {

// Places taken, in the order they were first taken (the Python dict `owner`'s order, which its result keeps).
struct Owners {
  std::vector<int> order;
  std::vector<int> card;  // place -> card, -1 for none
  bool has(int q) const { return card[q] >= 0; }
  void set(int q, int c) {
    if (!has(q)) order.push_back(q);
    card[q] = c;
  }
};

// matching.py _augment: card c given a place by an augmenting path (an iterative depth-first search); `dom`
// by card id
inline bool augment(int c, const std::vector<const std::vector<int>*>& dom, Owners& owner) {
  std::vector<char> seen(owner.card.size(), 0);
  std::vector<std::pair<int, size_t>> stack{{c, 0}};
  std::vector<std::pair<int, int>> path;
  while (!stack.empty()) {
    auto& [card, k] = stack.back();
    const std::vector<int>& places = *dom[card];
    if (k >= places.size()) {
      stack.pop_back();
      if (!path.empty()) path.pop_back();
      continue;
    }
    int q = places[k++];
    if (seen[q]) continue;
    seen[q] = 1;
    int cur = card;
    path.emplace_back(cur, q);
    int other = owner.card[q];
    if (other < 0) {
      for (auto& [x, y] : path) owner.set(y, x);
      return true;
    }
    stack.emplace_back(other, 0);
  }
  return false;
}

// matching.py assign: `cards` in the order of the Python dict of domains, each domain sorted (places >= 0);
// `keep` (by card, -1 for none) as there. The (card, place) pairs in the order of the Python result, or
// `failed` the card with nowhere to go (NoDeal).
inline bool assign(const std::vector<int>& cards, const std::vector<std::vector<int>>& domains, PyMT& rng,
                   const std::vector<int>* keep, std::vector<std::pair<int, int>>& out, int& failed) {
  int top = 0, places = 0;
  for (int c : cards) top = std::max(top, c + 1);
  for (const auto& d : domains) if (!d.empty()) places = std::max(places, d.back() + 1);
  std::vector<const std::vector<int>*> dom(top, nullptr);
  for (size_t i = 0; i < cards.size(); i++) dom[cards[i]] = &domains[i];
  std::vector<int> order = cards;
  rng.shuffle(order);
  Owners owner;
  owner.card.assign(places, -1);
  std::vector<int> free;
  for (int c : order) {
    const std::vector<int>& d = *dom[c];
    if (keep) {
      int k = c < (int)keep->size() ? (*keep)[c] : -1;
      if (k >= 0 && std::binary_search(d.begin(), d.end(), k) && !owner.has(k)) {
        owner.set(k, c);
        continue;
      }
    }
    free.clear();
    for (int q : d) if (!owner.has(q)) free.push_back(q);
    if (!free.empty()) {
      owner.set(free[rng.below((uint32_t)free.size())], c);
    } else if (!augment(c, dom, owner)) {
      failed = c;
      return false;
    }
  }
  out.clear();
  for (int q : owner.order) out.emplace_back(owner.card[q], q);
  return true;
}
}  // namespace rs
