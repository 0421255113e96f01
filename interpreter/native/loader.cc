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
    if (api->version != 1) throw std::runtime_error("a game library of another version");
    lib = std::make_shared<Lib>(Lib{api, api->game_new()});
  }
};
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
      .def("clone", [](const NState& st) { return NState(st); });
  py::class_<NGame>(mod, "Game")
      .def(py::init<std::string>())
      .def("new_initial_state", [](NGame& g, py::object seed) {
        uint64_t sd = seed.is_none() ? 0 : seed.cast<uint64_t>() * 2 + 1;
        return NState(g.lib, g.lib->api->state_new(g.lib->game, sd));
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
