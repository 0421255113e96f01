// The binding of the chosen design, built once (at install): it loads a game's library (abi.h) by path and
// gives it the same Python interface as bind.h, through the library's table of C functions.
//
// A state also keeps its history here, (player, action) pairs with -1 for chance outcomes given and -2 for
// those it drew itself, so that the Python side (wrapper.py) can rebuild the same position on the Python
// backend. A state made with a seed is
// a state without one whose chance nodes this binding resolves at once from its own generator, each outcome
// recorded: the library's seeded mode draws inside a step and records nothing (until its draws are the Python
// backend's, a seeded state could not otherwise be rebuilt there).
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "abi.h"

namespace py = pybind11;

namespace {
struct Lib {
  const CsApi* api;
  void* game;
};
using Entry = std::pair<int, int>;  // (player, or -1 for chance given, DRAWN for chance drawn; what)
constexpr int DRAWN = -2;

inline uint64_t splitmix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct NState {
  std::shared_ptr<Lib> lib;
  void* s;
  std::vector<Entry> hist;
  bool seeded = false;
  uint64_t rng = 0;
  long long moves = 0;   // player actions taken
  long long limit = -1;  // player actions allowed (-1: no limit); past it apply refuses, the wrapper says why
  NState(std::shared_ptr<Lib> l, void* st) : lib(std::move(l)), s(st) {}
  NState(const NState& o)
      : lib(o.lib), s(o.lib->api->state_clone(o.s)), hist(o.hist), seeded(o.seeded), rng(o.rng), moves(o.moves),
        limit(o.limit) {}
  NState& operator=(const NState&) = delete;
  ~NState() { lib->api->state_free(s); }
  bool terminal() const { return lib->api->is_terminal(s) != 0; }
  bool chance() const { return lib->api->is_chance(s) != 0; }
  std::vector<int> legal() const {
    if (terminal()) return {};
    std::vector<int> out(128);
    int n = lib->api->legal(s, out.data(), (int)out.size());
    if (n > (int)out.size()) { out.resize(n); lib->api->legal(s, out.data(), n); }
    out.resize(n);
    return out;
  }
  void raw_apply(int a) {
    char err[256];
    if (lib->api->apply(s, a, err, sizeof err)) throw std::runtime_error(err);
  }
  // A seeded state's chance nodes, resolved uniformly from its generator and recorded.
  void draw() {
    while (!terminal() && chance()) {
      std::vector<int> o = legal();
      if (o.empty()) throw std::runtime_error("a chance node without outcomes");
      int a = o[(splitmix(rng) >> 11) % o.size()];
      raw_apply(a);
      hist.emplace_back(DRAWN, a);
    }
  }
  void apply(int a) {
    if (terminal()) throw std::runtime_error("the match is over");
    if (chance()) {
      raw_apply(a);
      hist.emplace_back(-1, a);
      return;
    }
    if (limit >= 0 && moves >= limit) throw std::runtime_error("the action limit");
    int p = lib->api->current_player(s);
    raw_apply(a);
    hist.emplace_back(p, a);
    moves++;
    if (seeded) draw();
  }
};
struct NGame {
  std::shared_ptr<Lib> lib;
  explicit NGame(const std::string& path) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw std::runtime_error(dlerror());
    auto get = reinterpret_cast<const CsApi* (*)()>(dlsym(h, "cs_api"));
    if (!get) throw std::runtime_error("not a cardsmith game library");
    const CsApi* api = get();
    if (api->version != 1) throw std::runtime_error("a game library of another version");
    lib = std::make_shared<Lib>(Lib{api, api->game_new()});
  }
};
}  // namespace

// What a state refused (an illegal action, a rule failing, the action limit, a player left stuck) is said by
// the Python subclass (wrapper.py) through its method `hook`, in the Python backend's words; a plain State of
// this module (the spike's scripts) raises the native message.
py::object refused(py::object self, const char* hook, py::object what, const char* message) {
  if (!py::hasattr(self, hook)) throw std::runtime_error(message);
  return self.attr(hook)(what, message);
}

PYBIND11_MODULE(cs_loader, mod) {
  py::class_<NState>(mod, "State")
      .def(py::init([](NGame& g, py::object seed, long long limit) {
        auto* st = new NState(g.lib, g.lib->api->state_new(g.lib->game, 0));
        st->limit = limit;
        if (!seed.is_none()) {
          st->seeded = true;
          st->rng = seed.cast<uint64_t>() * 2 + 1;
          try { st->draw(); } catch (...) { delete st; throw; }
        }
        return st;
      }), py::arg("game"), py::arg("seed") = py::none(), py::arg("limit") = -1)
      .def(py::init<const NState&>())  // a copy (clone)
      .def("legal_actions", [](py::object self, py::object player) -> py::object {
        NState& st = self.cast<NState&>();
        if (st.terminal()) return py::list();
        std::vector<int> la;
        try {
          la = st.legal();
        } catch (const std::exception& e) {
          return refused(self, "_refused_legal", player, e.what());
        }
        if (la.empty()) return refused(self, "_refused_legal", player, "no legal action");
        if (!player.is_none() && !st.chance() && player.cast<int>() != st.lib->api->current_player(st.s))
          return py::list();
        return py::cast(la);
      }, py::arg("player") = py::none())
      .def("apply_action", [](py::object self, py::object action) {
        NState& st = self.cast<NState&>();
        long long a;
        try {
          a = action.cast<long long>();  // an int, or what has __index__ (numpy's integers)
        } catch (const py::cast_error&) {
          refused(self, "_refused_apply", action, "not an action id");  // the Python backend says what it is
          return;
        }
        try {
          if (a < INT32_MIN || a > INT32_MAX) throw std::runtime_error("illegal action");
          st.apply((int)a);
        } catch (const std::exception& e) {
          refused(self, "_refused_apply", action, e.what());
        }
      })
      .def("is_chance_node", [](const NState& st) { return !st.terminal() && st.chance(); })
      .def("is_terminal", &NState::terminal)
      .def("current_player", [](const NState& st) { return st.lib->api->current_player(st.s); })
      .def("chance_outcomes", [](const NState& st) {
        std::vector<std::pair<int, double>> out;
        if (st.terminal() || !st.chance()) return out;
        std::vector<int> o = st.legal();
        out.reserve(o.size());
        for (int a : o) out.emplace_back(a, 1.0 / o.size());
        return out;
      })
      .def("returns", [](const NState& st) {
        std::vector<double> r(st.lib->api->num_players(st.lib->game));
        st.lib->api->returns(st.s, r.data());
        return r;
      })
      .def("rewards", [](const NState& st) {  // OpenSpiel's: a match pays only at its end
        std::vector<double> r(st.lib->api->num_players(st.lib->game));
        st.lib->api->returns(st.s, r.data());
        return r;
      })
      .def("clone", [](const NState& st) { return NState(st); })
      .def("seeded", [](const NState& st) { return st.seeded; })
      .def("history", [](const NState& st) {  // as the Python backend's: no chance the state drew itself
        std::vector<int> out;
        out.reserve(st.hist.size());
        for (auto& [who, what] : st.hist) if (who != DRAWN) out.push_back(what);
        return out;
      })
      .def("reseed", [](NState& st, uint64_t seed) {  // from here it draws its chance from `seed`
        st.seeded = true;
        st.rng = seed * 2 + 1;
        st.draw();
      })
      .def("entries", [](const NState& st, size_t start) {  // the history from `start`, every chance outcome
        return std::vector<Entry>(st.hist.begin() + std::min(start, st.hist.size()), st.hist.end());
      }, py::arg("start") = 0)
      .def("entry_count", [](const NState& st) { return st.hist.size(); });
  py::handle state_cls = mod.attr("State");  // kept alive by the module
  py::class_<NGame>(mod, "Game")
      .def(py::init<std::string>())
      .def("num_players", [](NGame& g) { return g.lib->api->num_players(g.lib->game); })
      .def("new_initial_state", [state_cls](py::object g, py::object seed) {  // the spike's scripts' way
        return state_cls(g, seed);
      }, py::arg("seed") = py::none())
      .def("random_playouts", [](NGame& g, long long games, uint64_t seed) {
        std::vector<double> sums(g.lib->api->num_players(g.lib->game), 0.0);
        long long moves;
        {
          py::gil_scoped_release nogil;
          moves = g.lib->api->playouts(g.lib->game, games, seed, sums.data());
        }
        return py::make_tuple(moves, sums);
      });
}
