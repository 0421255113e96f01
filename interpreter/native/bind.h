// The Python binding both prototypes share (pybind11): a Game and its States, in the shape of OpenSpiel's.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine.h"

namespace py = pybind11;

template <class R, class... Args>
void bind_game(py::module_& mod) {
  using G = cs::Game<R>;
  using S = cs::PyState<R>;
  py::register_exception<cs::RuleError>(mod, "RuleError");
  py::class_<S>(mod, "State")
      .def("legal_actions", [](S& s) { return s.legal(); })
      .def("apply_action", &S::apply)
      .def("is_chance_node", &S::is_chance)
      .def("is_terminal", [](const S& s) { return s.s.terminal; })
      .def("current_player", &S::current_player)
      .def("chance_outcomes", [](S& s) {
        const auto& o = s.legal();
        std::vector<std::pair<int, double>> out;
        out.reserve(o.size());
        double p = 1.0 / o.size();
        for (int a : o) out.emplace_back(a, p);
        return out;
      })
      .def("returns", [](const S& s) {
        std::vector<double> r(s.eng->m.n, 0.0);
        if (s.s.terminal) for (int p = 0; p < s.eng->m.n; p++) r[p] = s.s.rets[p];
        return r;
      })
      .def("clone", [](const S& s) { return S(s); });
  py::class_<G>(mod, "Game")
      .def(py::init<Args...>())
      .def("new_initial_state", [](G& g, py::object seed) {
        S s;
        cs::init_state(s, &g.eng, 0, seed.is_none() ? cs::PySeed{} : cs::narrow_seed(seed.cast<uint64_t>()));
        return s;
      }, py::arg("seed") = py::none())
      .def("random_playouts", [](G& g, long long games, uint64_t seed) {
        std::vector<double> sums(g.eng.m.n, 0.0);
        long long moves;
        {
          py::gil_scoped_release nogil;
          moves = cs::random_playouts(&g.eng, games, seed, sums.data());
        }
        return py::make_tuple(moves, sums);
      });
}
