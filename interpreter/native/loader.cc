// The binding of the chosen design, built once (at install): it loads a game's library (abi.h) by path and
// gives it the same Python interface as bind.h, through the library's table of C functions.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "abi.h"

namespace py = pybind11;

namespace {
struct Lib {
  const CsApi* api;
  void* game;
};
struct NState {
  std::shared_ptr<Lib> lib;
  void* s;
  NState(std::shared_ptr<Lib> l, void* st) : lib(std::move(l)), s(st) {}
  NState(const NState& o) : lib(o.lib), s(o.lib->api->state_clone(o.s)) {}
  ~NState() { lib->api->state_free(s); }
  std::vector<int> legal() const {
    std::vector<int> out(128);
    int n = lib->api->legal(s, out.data(), (int)out.size());
    if (n > (int)out.size()) { out.resize(n); lib->api->legal(s, out.data(), n); }
    out.resize(n);
    return out;
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
    lib = std::make_shared<Lib>(Lib{api, api->game_new()});
  }
};

// A Python int seed as the game library takes it: |seed|'s 32-bit words, least significant first (a zero seed
// is one zero word, as CPython's random keys it), and whether it is wide (seeds.py: 2^128 or more).
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
}  // namespace

PYBIND11_MODULE(cs_loader, mod) {
  py::class_<NState>(mod, "State")
      .def("legal_actions", &NState::legal)
      .def("apply_action", [](NState& st, int a) {
        char err[256];
        if (st.lib->api->apply(st.s, a, err, sizeof err)) throw std::runtime_error(err);
      })
      .def("is_chance_node", [](const NState& st) { return st.lib->api->is_chance(st.s) != 0; })
      .def("is_terminal", [](const NState& st) { return st.lib->api->is_terminal(st.s) != 0; })
      .def("current_player", [](const NState& st) { return st.lib->api->current_player(st.s); })
      .def("chance_outcomes", [](const NState& st) {
        std::vector<int> o = st.legal();
        std::vector<std::pair<int, double>> out;
        out.reserve(o.size());
        for (int a : o) out.emplace_back(a, 1.0 / o.size());
        return out;
      })
      .def("returns", [](const NState& st) {
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
      });
  py::class_<NGame>(mod, "Game")
      .def(py::init<std::string>())
      .def("new_initial_state", [](NGame& g, py::object seed) {
        Seed sd = seed_of(seed);
        return NState(g.lib, g.lib->api->state_new(g.lib->game, sd.w, sd.n, sd.wide));
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
