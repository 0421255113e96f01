// The native resampler's binding (rs_*.h, docs/design/native.md "The resampler natively"), part of loader.cc
// (included after its State type, seeds and games): the resampler's states for the tests of its primitives,
// step 1, the searches, resample_with_work, carry and assign, each handing the Python generator's state over
// and back.
#pragma once

#include "rs_match.h"
#include "rs_resample.h"

// ------------------------------------------------------------------ the native resampler (rs_*.h)
// A resampler's state (a state that neither draws its own chance nor deals lazily), for the differential
// tests of its primitives (tests/test_native_resample.py) against history.play_group and search.swap_places.
struct Eager {
  rs::St t;
  py::tuple play(int action, const std::vector<int>& outcomes) {
    char err[ERR];
    int r = t->api->play(t->s, action, outcomes.data(), (int)outcomes.size(), err, sizeof err);
    std::vector<int> tr(t->api->noted(0, nullptr, 0));
    t->api->noted(0, tr.data(), (int)tr.size());
    return py::make_tuple(r, tr, r < 0 ? std::string(err) : std::string());
  }
  py::object draw(int action, uint64_t seed) {
    char err[ERR];
    int n = t->api->draw(t->s, action, seed, err, sizeof err);
    if (n < 0) return py::none();
    std::vector<int> out(n);
    t->api->noted(1, out.data(), n);
    return py::cast(out);
  }
  void swap(int c, int d) {
    char err[ERR];
    if (t->api->swap(t->s, c, d, err, sizeof err)) throw std::runtime_error(err);
  }
  py::bytes words(int p) {
    std::vector<int64_t> w(4096);
    char err[ERR];
    int n = t->api->observe(t->s, p, w.data(), (int)w.size(), err, sizeof err);
    if (n < 0 || n > (int)w.size()) throw std::runtime_error(n == -2 ? "before the first step" : err);
    return py::bytes(reinterpret_cast<const char*>(w.data()), (size_t)n * 8);
  }
  std::vector<int> legal() {
    std::vector<int> la;
    rs::legal(t, la);
    return la;
  }
};

struct InfoObject {
  std::shared_ptr<Lib> lib;
  std::shared_ptr<rs::Tables> tb;
  rs::Info info;
};

InfoObject make_info(py::handle state, int p, std::shared_ptr<rs::Tables> tb) {
  if (!PyObject_TypeCheck(state.ptr(), &StateType)) throw py::type_error("a native state");
  auto* o = reinterpret_cast<StateObject*>(state.ptr());
  const NState& st = *o->st;
  if (p < 0 || p >= tb->n) throw py::value_error("no such player");
  Seed sd = seed_of(py::reinterpret_borrow<py::object>(o->seed ? o->seed : Py_None));
  char err[ERR];
  void* s = st.lib->api->state_new(st.lib->game, sd.w, sd.n, sd.wide, err, sizeof err);
  if (!s) throw std::runtime_error(err);
  auto start = std::make_shared<rs::Handle>(st.lib->api, s);
  return InfoObject{st.lib, tb, rs::make_info(start, rs::groups_of(st.hist), p, *tb)};
}

std::vector<uint32_t> rng_words(const rs::PyMT& mt) {
  std::vector<uint32_t> out(mt.mt, mt.mt + rs::PyMT::N);
  out.push_back((uint32_t)mt.index);
  return out;
}
rs::PyMT rng_of(const std::vector<uint32_t>& words) {
  if (words.size() != rs::PyMT::N + 1) throw py::value_error("a generator's state is 625 words");
  rs::PyMT mt;
  mt.set(words);
  return mt;
}

// A resampler's state before the match, of the game of `io`.
rs::St blank_of(const InfoObject& io) {
  char err[ERR];
  void* s = io.lib->api->blank_new(io.lib->game, err, sizeof err);
  if (!s) throw std::runtime_error(err);
  return std::make_shared<rs::Handle>(io.lib->api, s);
}

// The resampler's bounds from Python: its module's MAX_TRIES, MAX_WORK, RESTARTS, MORE_RESTARTS, PER_STEP, SCOUT
// and DEALS.
rs::Bounds bounds_of(const std::vector<long long>& bounds) {
  if (bounds.size() != 7) throw py::value_error("seven bounds");
  rs::Bounds b{bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5], bounds[6]};
  if (b.restarts < 1 || b.more_restarts < 1) throw py::value_error("bounds");
  return b;
}

// A history found, for Python: (action or None, outcomes) per step.
py::list steps_list(const std::vector<std::pair<int, std::vector<int>>>& steps) {
  py::list out;
  for (auto& [a, outcomes] : steps)
    out.append(py::make_tuple(a < 0 ? py::object(py::none()) : py::object(py::int_(a)), outcomes));
  return out;
}

// resample/search.py Search(info, p, rng, budget).run(): (the history found as (action or None, outcomes) per
// step, or None; the steps replayed; the most steps that fitted at once; the generator's state after)
// (kind 1: resample/descent.py Descent's instead, 2: constraints.py Deals', whose last card with no place in a
// deal, or None, comes last)
py::tuple search(const InfoObject& io, const std::vector<uint32_t>& state, long long budget, int kind) {
  rs::PyMT mt = rng_of(state);
  rs::St start = blank_of(io);
  std::unique_ptr<rs::Search> made;
  if (kind == 2) made = std::make_unique<rs::Deals>(*io.tb, io.info, io.info.p, mt, budget, start);
  else if (kind == 1) made = std::make_unique<rs::Descent>(*io.tb, io.info, io.info.p, mt, budget, start);
  else made = std::make_unique<rs::Search>(*io.tb, io.info, io.info.p, mt, budget, start);
  rs::Search& s = *made;
  rs::St t;
  {
    py::gil_scoped_release nogil;  // (it reads no Python object: other threads run meanwhile, the web table's)
    t = s.run();
  }
  py::object found = t ? py::object(steps_list(s.history())) : py::object(py::none());
  auto* deals = dynamic_cast<rs::Deals*>(made.get());
  py::object stuck = deals && deals->stuck >= 0 ? py::object(py::int_(deals->stuck)) : py::object(py::none());
  return py::make_tuple(found, s.work, s.reached, rng_words(mt), stuck);
}

// resample/__init__.py resample_with_work's search natively: (the history found or None, the steps replayed, the
// constraint layer's last card with no place or None, whether it stopped at `until` (negative: no deadline),
// the generator's state after). `bounds`: the module's MAX_TRIES, MAX_WORK, RESTARTS, MORE_RESTARTS, PER_STEP,
// SCOUT and DEALS.
py::tuple resample(const InfoObject& io, const std::vector<uint32_t>& state, const std::vector<long long>& bounds,
                   double until) {
  rs::Bounds b = bounds_of(bounds);
  rs::PyMT mt = rng_of(state);
  auto blank = [&io]() { return blank_of(io); };
  rs::Resampled r;
  {
    py::gil_scoped_release nogil;  // (as search's)
    r = rs::resample(*io.tb, io.info, mt, b, until, blank);
  }
  py::object found = r.found ? py::object(steps_list(r.steps)) : py::object(py::none());
  return py::make_tuple(found, r.work, r.stuck < 0 ? py::object(py::none()) : py::object(py::int_(r.stuck)),
                        r.out_of_time, rng_words(mt));
}

// A hint's steps from Python: (who or None, action or None, outcomes) each.
std::vector<rs::Group> groups_of_list(py::list hint) {
  std::vector<rs::Group> steps;
  for (py::handle h : hint) {
    auto t = h.cast<py::tuple>();
    steps.push_back({t[0].is_none() ? rs::NONE : t[0].cast<int>(), t[1].is_none() ? rs::NONE : t[1].cast<int>(),
                     t[2].cast<std::vector<int>>()});
  }
  return steps;
}

// carry.py carry natively: (the history found or None, the steps replayed, the generator's state after). `hint`:
// the steps (who or None, action or None, outcomes) of a state found for the player earlier.
py::tuple carry(const InfoObject& io, const std::vector<uint32_t>& state, py::list hint, long long carry_work,
                long long max_seed) {
  rs::PyMT mt = rng_of(state);
  std::vector<rs::Group> steps = groups_of_list(hint);
  rs::St start = blank_of(io);
  rs::Resampled r;
  {
    py::gil_scoped_release nogil;  // (as search's)
    r = rs::carry(*io.tb, io.info, mt, steps, carry_work, max_seed, start);
  }
  py::object found = r.found ? py::object(steps_list(r.steps)) : py::object(py::none());
  return py::make_tuple(found, r.work, rng_words(mt));
}

// resample/matching.py assign(domains, rng, keep): (the (card, place) pairs or None, the card with nowhere to
// go or None, the generator's state after)
py::tuple assign(const std::vector<int>& cards, std::vector<std::vector<int>> domains,
                 const std::vector<uint32_t>& state, py::object keep) {
  rs::PyMT mt = rng_of(state);
  if (domains.size() != cards.size()) throw py::value_error("a domain per card");
  for (auto& d : domains) {
    std::sort(d.begin(), d.end());
    if (!d.empty() && (d.front() < 0 || d.back() > 1 << 20)) throw py::value_error("places from 0 to 2**20");
  }
  int top = 0;
  for (int c : cards) {
    if (c < 0 || c > 1 << 20) throw py::value_error("cards from 0 to 2**20");
    top = std::max(top, c + 1);
  }
  std::vector<int> kept(top, -1);
  if (!keep.is_none())
    for (auto& [c, q] : keep.cast<std::map<int, int>>())
      if (c >= 0 && c < top) kept[c] = q;  // (a kept card that is not dealt is never asked for)
  std::vector<std::pair<int, int>> out;
  int failed = -1;
  bool ok = rs::assign(cards, domains, mt, keep.is_none() ? nullptr : &kept, out, failed);
  return py::make_tuple(ok ? py::object(py::cast(out)) : py::object(py::none()),
                        ok ? py::object(py::none()) : py::object(py::int_(failed)), rng_words(mt));
}

void bind_resampler(py::module_& mod, py::class_<NGame>& game) {
  game.def("eager", [](NGame& g) {  // a resampler's state before the match (Eager)
    char err[ERR];
    void* b = g.lib->api->blank_new(g.lib->game, err, sizeof err);
    if (!b) throw std::runtime_error(err);
    return Eager{std::make_shared<rs::Handle>(g.lib->api, b)};
  });
  py::class_<Eager>(mod, "Eager")
      .def("play", [](Eager& e, py::object a, const std::vector<int>& o) { return e.play(a.is_none() ? -1 : a.cast<int>(), o); })
      .def("draw", [](Eager& e, py::object a, uint64_t seed) { return e.draw(a.is_none() ? -1 : a.cast<int>(), seed); })
      .def("swap", &Eager::swap)
      .def("words", &Eager::words)
      .def("legal", &Eager::legal)
      .def("clone", [](Eager& e) { return Eager{rs::clone(e.t)}; })
      .def("cur", [](Eager& e) { return e.t->api->raw_cur(e.t->s); })
      .def("pending", [](Eager& e) { return rs::pending(e.t); })
      .def("zone", [](Eager& e, int zi) {
        std::vector<int> out(4096);
        int n = e.t->api->zone_cards(e.t->s, zi, out.data(), (int)out.size());
        out.resize(std::max(0, std::min(n, (int)out.size())));
        return out;
      })
      .def("loc", [](Eager& e, int c) { return e.t->api->card_zone(e.t->s, c); });
  py::class_<rs::Tables, std::shared_ptr<rs::Tables>>(mod, "Tables")
      .def(py::init<>())
      .def_readwrite("n", &rs::Tables::n)
      .def_readwrite("nc", &rs::Tables::nc)
      .def_readwrite("nz", &rs::Tables::nz)
      .def_readwrite("zone_owner", &rs::Tables::zone_owner)
      .def_readwrite("kind", &rs::Tables::kind)
      .def_readwrite("klass", &rs::Tables::klass)
      .def_readwrite("pub", &rs::Tables::pub)
      .def_readwrite("listy", &rs::Tables::listy)
      .def_readwrite("poff", &rs::Tables::poff)
      .def_readwrite("params", &rs::Tables::params)
      .def_readwrite("var_shape", &rs::Tables::var_shape)
      .def_readwrite("var_card", &rs::Tables::var_card)
      .def_readwrite("text_card", &rs::Tables::text_card)
      .def_readwrite("canon", &rs::Tables::canon);
  py::class_<InfoObject>(mod, "Info")
      .def(py::init(&make_info))
      .def_property_readonly("who", [](const InfoObject& o) { return o.info.who; })
      .def_property_readonly("known", [](const InfoObject& o) { return o.info.known; })
      .def_property_readonly("text", [](const InfoObject& o) { return o.info.text; })
      .def_property_readonly("seen_at", [](const InfoObject& o) { return o.info.seen_at; })
      .def_property_readonly("acted_at", [](const InfoObject& o) { return o.info.acted_at; })
      .def_property_readonly("views", [](const InfoObject& o) {
        py::list out;
        for (auto& w : o.info.views) out.append(py::bytes(reinterpret_cast<const char*>(w.data()), w.size() * 8));
        return out;
      });
  mod.def("search", &search);
  mod.def("assign", &assign);
  mod.def("resample", &resample);
  mod.def("carry", &carry);
  mod.def("unfixed", [](py::handle state) {  // a native state's undecided blocks, ((zone, cards), ...) sorted
    if (!PyObject_TypeCheck(state.ptr(), &StateType)) throw py::type_error("a native state");
    const NState& st = st_of(state.ptr());
    std::vector<int> out(2 * MAXZ_ANY);
    int n = st.lib->api->unfixed(st.s, out.data(), (int)out.size());
    if (n > (int)out.size()) {
      out.resize(n);
      n = st.lib->api->unfixed(st.s, out.data(), n);
    }
    py::list blocks;
    for (int k = 0; k + 1 < n; k += 2) blocks.append(py::make_tuple(out[k], out[k + 1]));
    return py::tuple(blocks);
  });
  mod.def("set_order", &rs::py_set_order);  // (for its test against CPython's sets)
}
