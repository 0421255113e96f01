// The binding of the chosen design, built once (at install): it loads a game's library (abi.h) by path and
// gives it the same Python interface as bind.h, through the library's table of C functions.
//
// A state also keeps its history here, (player, action) pairs with -1 for chance outcomes, so that the Python
// side (wrapper.py) can rebuild the same position on the Python backend: a state made without a seed from its
// whole history, a seeded one (whose draws are the Python backend's, pyrandom.h) from its seed and its moves.
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
constexpr int ERR = 512;  // room for a failure's one-line message from the library

// A failure of the native code as cardsmith's GameError with its one-line message (a RuntimeError if cardsmith
// cannot be imported, for the spike's scripts).
[[noreturn]] void game_error(const std::string& message) {
  py::object cls;
  try {
    cls = py::module_::import("cardsmith.engine.errors").attr("GameError");
  } catch (const py::error_already_set&) {
    throw std::runtime_error(message);
  }
  PyErr_SetString(cls.ptr(), message.c_str());
  throw py::error_already_set();
}

struct Lib {
  const CsApi* api;
  void* game;
};
using Entry = std::pair<int, int>;  // (player, or -1 for a chance outcome; the action or outcome)

struct NState {
  std::shared_ptr<Lib> lib;
  void* s;
  std::vector<Entry> hist;
  long long moves = 0;   // player actions taken
  long long limit = -1;  // player actions allowed (-1: no limit); past it apply refuses, the wrapper says why
  NState(std::shared_ptr<Lib> l, void* st) : lib(std::move(l)), s(st) {}
  NState(const NState& o)
      : lib(o.lib), s(o.lib->api->state_clone(o.s)), hist(o.hist), moves(o.moves), limit(o.limit) {
    if (!s) game_error("the native backend could not copy a state: out of memory");
  }
  NState& operator=(const NState&) = delete;
  ~NState() { lib->api->state_free(s); }
  bool terminal() const { return lib->api->is_terminal(s) != 0; }
  bool chance() const { return lib->api->is_chance(s) != 0; }
  std::vector<int> legal() const {
    if (terminal()) return {};
    std::vector<int> out(128);
    char err[ERR];
    int n = lib->api->legal(s, out.data(), (int)out.size(), err, sizeof err);
    if (n > (int)out.size()) { out.resize(n); n = lib->api->legal(s, out.data(), n, err, sizeof err); }
    if (n < 0) throw std::runtime_error(err);  // the rules failed (the step budget passed, ...)
    out.resize(n);
    return out;
  }
  void raw_apply(int a) {
    char err[ERR];
    if (lib->api->apply(s, a, err, sizeof err)) throw std::runtime_error(err);
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
    if (api->version != CS_ABI_VERSION) throw std::runtime_error("a game library of another version");
    char err[ERR];
    void* game = api->game_new(err, sizeof err);
    if (!game) game_error(std::string("the native game could not be made: ") + err);
    lib = std::make_shared<Lib>(Lib{api, game});
  }
};

struct Seed {
  uint32_t w[cs::SEED_WORDS];
  int n = 0;
  int wide = 0;
};
Seed seed_of(const py::object& seed) {
  Seed sd;
  if (seed.is_none()) return sd;
  if (!PyLong_Check(seed.ptr())) throw py::type_error("a seed is an int");
  py::int_ v = py::reinterpret_borrow<py::int_>(seed);
  py::object mag = v.attr("__abs__")();
  int bits = mag.attr("bit_length")().cast<int>();
  if (bits > 32 * cs::SEED_WORDS) throw py::value_error("the native backend takes seeds below 2**256 in size");
  sd.n = bits == 0 ? 1 : (bits - 1) / 32 + 1;
  std::string bytes = mag.attr("to_bytes")(4 * sd.n, "little").cast<std::string>();
  for (int i = 0; i < sd.n; i++) {
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data()) + 4 * i;
    sd.w[i] = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  }
  sd.wide = PyObject_RichCompareBool(v.ptr(), py::int_(0).ptr(), Py_GT) == 1 && bits > 128;
  return sd;
}
py::object seed_int(const uint32_t* w, int n) {  // the inverse, for State.seed()
  py::int_ v(0);
  for (int i = n - 1; i >= 0; i--) v = py::int_(v.attr("__lshift__")(32).attr("__or__")(py::int_(w[i])));
  return std::move(v);
}

// What a state refused (an illegal action, a rule failing, the action limit, a player left stuck) is said by
// the Python subclass (wrapper.py) through its method `hook`, in the Python backend's words; a plain State of
// this module (the spike's scripts) raises the native message.
py::object refused(py::object self, const char* hook, py::object what, const char* message) {
  if (!py::hasattr(self, hook)) throw std::runtime_error(message);
  return self.attr(hook)(what, message);
}
}  // namespace

PYBIND11_MODULE(cs_loader, mod) {
  py::class_<NState>(mod, "State")
      .def(py::init([](NGame& g, py::object seed, long long limit) {
        Seed sd = seed_of(seed);
        char err[ERR];
        void* s = g.lib->api->state_new(g.lib->game, sd.w, sd.n, sd.wide, err, sizeof err);
        // a RuntimeError: NativeGame.new_initial_state asks the Python backend where the rules failed
        if (!s) throw std::runtime_error(err);
        auto* st = new NState(g.lib, s);
        st->limit = limit;
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
        std::vector<int> o;
        try {
          o = st.legal();
        } catch (const std::exception& e) {
          game_error(std::string("the native backend could not list the chance outcomes: ") + e.what());
        }
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
      .def("seed", [](const NState& st) -> py::object {  // the seed of the next draw (Python's State.rng)
        uint32_t w[cs::SEED_WORDS];
        int wide = 0;
        int n = st.lib->api->state_seed(st.s, w, cs::SEED_WORDS, &wide);
        return n ? seed_int(w, n) : py::object(py::none());
      })
      .def("history", [](const NState& st) {  // as the Python backend's: a seeded state draws no chance node
        std::vector<int> out;
        out.reserve(st.hist.size());
        for (auto& e : st.hist) out.push_back(e.second);
        return out;
      })
      .def("entries", [](const NState& st, size_t start) {  // the history from `start`, as (player, action)
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
        char err[ERR];
        {
          py::gil_scoped_release nogil;
          moves = g.lib->api->playouts(g.lib->game, games, seed, sums.data(), err, sizeof err);
        }
        if (moves < 0) game_error(std::string("a random playout stopped: ") + err);
        return py::make_tuple(moves, sums);
      });
}
