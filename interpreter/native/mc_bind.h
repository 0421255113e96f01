// The binding of ISMCTS's native decision (mc_search.h), part of loader.cc (included after rs_bind.h): the bot's
// settings (`Plan`), and `ismcts`, which runs one decision with the bot's generator handed over and back.
#pragma once

#include "mc_search.h"

// One decision of the bot (ismcts.py IsmctsBot._search) for the player of `io` (step 1 of the resampler, made
// once for the decision): (True, the root's children as (action, visits, total, avail), the worlds searched,
// the resamples that failed, the fresh worlds, the last failure's work and stuck card (or None), whether it ran
// out of time, the generator's state after, and when fewer than `keep_below` worlds were fresh the last `keep`
// worlds as (history found, reseed)); or (False, why) where it gave up, the generator untouched.
// `hints`: the worlds to carry, each its steps as (who or None, action or None, outcomes), or None for a world of
// another game.
py::tuple ismcts(const InfoObject& io, const rs::Plan& plan, const std::vector<uint32_t>& state,
                 const std::vector<long long>& bounds, py::list hints, long long keep, long long keep_below) {
  rs::Bounds b = bounds_of(bounds);
  if ((int)plan.secret.size() != io.tb->num_actions()) throw py::value_error("a secret flag per action");
  std::vector<rs::Hint> carry;
  for (py::handle h : hints) {
    rs::Hint hint{!h.is_none(), {}};
    if (hint.fits) hint.steps = groups_of_list(py::reinterpret_borrow<py::list>(h));
    carry.push_back(std::move(hint));
  }
  rs::PyMT mt = rng_of(state);
  auto blank = [&io]() { return blank_of(io); };
  rs::Decision d;
  std::string why;
  {
    py::gil_scoped_release nogil;  // (it reads no Python object, as the resampler's searches)
    try {
      rs::Ismcts search(*io.tb, io.info, plan, b, mt, blank);
      d = search.run(carry);
    } catch (const std::bad_alloc&) {
      why = "out of memory";
    } catch (const std::exception& e) {
      why = e.what();
      if (why.empty()) why = "a failure";
    }
  }
  if (!why.empty()) return py::make_tuple(false, why);
  py::list root;
  for (const rs::Child& c : d.root) root.append(py::make_tuple(c.action, c.visits, c.total, c.avail));
  auto maybe = [](long long x) { return x < 0 ? py::object(py::none()) : py::object(py::int_(x)); };
  py::list kept;
  if (keep > 0 && d.fresh < keep_below) {
    size_t from = d.made.size() > (size_t)keep ? d.made.size() - (size_t)keep : 0;
    for (size_t i = from; i < d.made.size(); i++) {
      py::list steps;
      for (const rs::Group& g : d.made[i].steps)
        steps.append(py::make_tuple(maybe(g.who), maybe(g.action), g.outcomes));
      kept.append(py::make_tuple(steps, py::int_(d.made[i].reseed)));
    }
  }
  return py::make_tuple(true, root, d.worlds, d.failed, d.fresh, maybe(d.failed_work), maybe(d.failed_stuck),
                        d.timed_out, rng_words(mt), kept);
}

void bind_ismcts(py::module_& mod) {
  py::class_<rs::Plan>(mod, "Plan")
      .def(py::init<>())
      .def_readwrite("iterations", &rs::Plan::iterations)
      .def_readwrite("deadline", &rs::Plan::deadline)
      .def_readwrite("stop_at", &rs::Plan::stop_at)
      .def_readwrite("c", &rs::Plan::c)
      .def_readwrite("worlds", &rs::Plan::worlds)
      .def_readwrite("rollout", &rs::Plan::rollout)
      .def_readwrite("scaled", &rs::Plan::scaled)
      .def_readwrite("lo", &rs::Plan::lo)
      .def_readwrite("span", &rs::Plan::span)
      .def_readwrite("failed_work", &rs::Plan::failed_work)
      .def_readwrite("limit", &rs::Plan::limit)
      .def_readwrite("carry", &rs::Plan::carry)
      .def_readwrite("carry_work", &rs::Plan::carry_work)
      .def_readwrite("max_seed", &rs::Plan::max_seed)
      .def_readwrite("secret", &rs::Plan::secret);
  mod.def("ismcts", &ismcts);
}
