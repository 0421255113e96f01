// The binding of the chosen design, built once (at install): it loads a game's library (abi.h) by path and
// gives it the same Python interface as bind.h, through the library's table of C functions.
//
// A state also keeps its history here, (player, action) pairs with -1 for chance outcomes, so that the Python
// side (wrapper.py) can rebuild the same position on the Python backend: a state made without a seed from its
// whole history, a seeded one (whose draws are the Python backend's, pyrandom.h) from its seed and its moves.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "abi.h"

namespace py = pybind11;

namespace {
constexpr int ERR = 512;
constexpr int MAXZ_ANY = 64;  // room for most games' zones at first (more: asked again)  // room for a failure's one-line message from the library

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
  // The legal actions (or chance outcomes) into `out`, a buffer the caller keeps (its room is kept too).
  void legal(std::vector<int>& out) const {
    if (out.size() < 128) out.resize(128);
    if (terminal()) { out.clear(); return; }
    char err[ERR];
    int n = lib->api->legal(s, out.data(), (int)out.size(), err, sizeof err);
    if (n > (int)out.size()) { out.resize(n); n = lib->api->legal(s, out.data(), n, err, sizeof err); }
    if (n < 0) throw std::runtime_error(err);  // the rules failed (the step budget passed, ...)
    out.resize(n);
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
  int over = 0;
  long long small = PyLong_AsLongLongAndOverflow(seed.ptr(), &over);
  if (!over && !(small == -1 && PyErr_Occurred())) {  // most seeds: |seed| below 2^63, one or two words
    unsigned long long m = small < 0 ? 0ULL - (unsigned long long)small : (unsigned long long)small;
    sd.w[0] = (uint32_t)m;
    sd.w[1] = (uint32_t)(m >> 32);
    sd.n = sd.w[1] ? 2 : 1;
    return sd;
  }
  PyErr_Clear();
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

// ------------------------------------------------------------------ the State type
// The state is a plain CPython type, not a pybind11 class: its methods are the hot loop's (four or five calls
// per action from Python), and a METH_NOARGS or METH_O call costs a third of pybind11's dispatch. Python
// subclasses it (wrapper.NativeState); `_game`, `_seed`, `_twin`, `_synced` and `_seen` are the subclass's, kept
// here so that `clone` copies them without a Python frame.
struct StateObject {
  PyObject_HEAD
  NState* st;
  PyObject* game;  // the NativeGame (None until set)
  PyObject* seed;  // the seed it was made with
  PyObject* twin;  // the Python backend's state at the same position, once asked for
  Py_ssize_t synced;  // entries of the history the twin has been given
  PyObject* seen;  // what the players knew at this state or one before it (native/infostate.py), shared by clones
};

PyTypeObject StateType;

NState& st_of(PyObject* self) { return *reinterpret_cast<StateObject*>(self)->st; }

// A Python exception for a C++ one caught at the boundary: pybind11's carry their own, the rest say their text.
PyObject* raise_caught() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject* text(const char* s) { return PyUnicode_DecodeUTF8(s, (Py_ssize_t)std::strlen(s), "replace"); }

// The refusal is said by the subclass's method `hook` (the Python backend's words); a plain State raises the
// native message.
PyObject* refused(PyObject* self, const char* hook, PyObject* what, const char* message) {
  PyObject* fn = PyObject_GetAttrString(self, hook);
  if (!fn) {
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, message);
    return nullptr;
  }
  PyObject* msg = text(message);
  PyObject* r = msg ? PyObject_CallFunctionObjArgs(fn, what, msg, nullptr) : nullptr;
  Py_XDECREF(msg);
  Py_DECREF(fn);
  return r;
}

std::vector<int>& buffer() {  // the legal actions' room, kept between calls (the GIL is held)
  static std::vector<int> b(128);
  return b;
}

PyObject* int_list(const std::vector<int>& v) {
  PyObject* out = PyList_New((Py_ssize_t)v.size());
  if (!out) return nullptr;
  for (size_t i = 0; i < v.size(); i++) {
    PyObject* x = PyLong_FromLong(v[i]);
    if (!x) { Py_DECREF(out); return nullptr; }
    PyList_SET_ITEM(out, (Py_ssize_t)i, x);
  }
  return out;
}

// A chance outcome (a, 1/n) as a tuple, made once per (a, n) and shared: OpenSpiel's loop asks for the whole
// list at every chance node, and a tuple with its float is most of that list's cost.
PyObject* outcome(int a, size_t n) {
  constexpr size_t CAP = 1024;
  static std::vector<std::vector<PyObject*>> made;  // [n][a]; the GIL is held
  if (a < 0 || (size_t)a >= CAP || n >= CAP) return Py_BuildValue("(id)", a, 1.0 / (double)n);
  if (made.size() <= n) made.resize(n + 1);
  auto& row = made[n];
  if (row.size() <= (size_t)a) row.resize((size_t)a + 1, nullptr);
  if (!row[a] && !(row[a] = Py_BuildValue("(id)", a, 1.0 / (double)n))) return nullptr;
  Py_INCREF(row[a]);
  return row[a];
}

PyObject* new_object(PyTypeObject* type, NState* st) {
  auto* o = reinterpret_cast<StateObject*>(type->tp_alloc(type, 0));
  if (!o) { delete st; return nullptr; }
  o->st = st;
  o->game = o->seed = o->twin = o->seen = nullptr;
  o->synced = 0;
  return reinterpret_cast<PyObject*>(o);
}

// State(game, seed=None, limit=-1, owner=None): a new match (`owner`, the NativeGame, kept as `_game`, and the
// seed as `_seed`); State(state): a copy of the native part alone.
PyObject* state_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  try {
    if (PyTuple_GET_SIZE(args) == 1 && !kwds && PyObject_TypeCheck(PyTuple_GET_ITEM(args, 0), &StateType))
      return new_object(type, new NState(st_of(PyTuple_GET_ITEM(args, 0))));
    static const char* names[] = {"game", "seed", "limit", "owner", nullptr};
    PyObject *game, *seed = Py_None, *owner = nullptr;
    long long limit = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OLO", const_cast<char**>(names), &game, &seed, &limit,
                                     &owner))
      return nullptr;
    NGame& g = py::handle(game).cast<NGame&>();
    Seed sd = seed_of(py::reinterpret_borrow<py::object>(seed));
    char err[ERR];
    void* s = g.lib->api->state_new(g.lib->game, sd.w, sd.n, sd.wide, err, sizeof err);
    // a RuntimeError: NativeGame.new_initial_state asks the Python backend where the rules failed
    if (!s) { PyErr_SetString(PyExc_RuntimeError, err); return nullptr; }
    auto* st = new NState(g.lib, s);
    st->limit = limit;
    auto* o = reinterpret_cast<StateObject*>(new_object(type, st));
    if (o && owner) {
      Py_INCREF(owner);
      o->game = owner;
      Py_INCREF(seed);
      o->seed = seed;
    }
    return reinterpret_cast<PyObject*>(o);
  } catch (py::cast_error&) {
    PyErr_SetString(PyExc_TypeError, "State(game, seed=None, limit=-1): game is a Game of this module");
    return nullptr;
  } catch (...) {
    return raise_caught();
  }
}

int state_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* o = reinterpret_cast<StateObject*>(self);
  Py_VISIT(o->game);
  Py_VISIT(o->seed);
  Py_VISIT(o->twin);
  Py_VISIT(o->seen);
  return 0;
}

int state_clear(PyObject* self) {
  auto* o = reinterpret_cast<StateObject*>(self);
  Py_CLEAR(o->game);
  Py_CLEAR(o->seed);
  Py_CLEAR(o->twin);
  Py_CLEAR(o->seen);
  return 0;
}

void state_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  state_clear(self);
  delete reinterpret_cast<StateObject*>(self)->st;
  Py_TYPE(self)->tp_free(self);
}

PyObject* is_terminal(PyObject* self, PyObject*) { return PyBool_FromLong(st_of(self).terminal()); }

PyObject* is_chance_node(PyObject* self, PyObject*) {
  const NState& st = st_of(self);
  return PyBool_FromLong(!st.terminal() && st.chance());
}

PyObject* current_player(PyObject* self, PyObject*) {
  const NState& st = st_of(self);
  return PyLong_FromLong(st.lib->api->current_player(st.s));
}

PyObject* legal_actions(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* player = nargs > 0 ? args[0] : Py_None;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs + nkw > 1 || (nkw && !PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0))) ||
      (nkw && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "player") != 0)) {
    PyErr_SetString(PyExc_TypeError, "legal_actions(player=None)");
    return nullptr;
  }
  if (nkw) player = args[0];
  const NState& st = st_of(self);
  if (st.terminal()) return PyList_New(0);
  std::vector<int>& la = buffer();
  try {
    st.legal(la);
  } catch (const std::exception& e) {
    return refused(self, "_refused_legal", player, e.what());
  }
  if (la.empty()) return refused(self, "_refused_legal", player, "no legal action");
  if (player != Py_None && !st.chance()) {
    long p = PyLong_AsLong(player);
    if (p == -1 && PyErr_Occurred()) return nullptr;
    if (p != st.lib->api->current_player(st.s)) return PyList_New(0);
  }
  return int_list(la);
}

PyObject* apply_action(PyObject* self, PyObject* action) {
  long long a;
  int over = 0;
  if (PyLong_Check(action)) {
    a = PyLong_AsLongLongAndOverflow(action, &over);
  } else if (!PyFloat_Check(action) && PyIndex_Check(action)) {  // numpy's integers
    PyObject* i = PyNumber_Index(action);
    if (!i) { PyErr_Clear(); return refused(self, "_refused_apply", action, "not an action id"); }
    a = PyLong_AsLongLongAndOverflow(i, &over);
    Py_DECREF(i);
  } else {
    return refused(self, "_refused_apply", action, "not an action id");  // the Python backend says what it is
  }
  if (a == -1 && PyErr_Occurred()) return nullptr;
  try {
    if (over || a < INT32_MIN || a > INT32_MAX) throw std::runtime_error("illegal action");
    st_of(self).apply((int)a);
  } catch (const std::exception& e) {
    return refused(self, "_refused_apply", action, e.what());
  }
  Py_RETURN_NONE;
}

PyObject* chance_outcomes(PyObject* self, PyObject*) {
  const NState& st = st_of(self);
  if (st.terminal() || !st.chance()) return PyList_New(0);
  std::vector<int>& o = buffer();
  try {
    st.legal(o);
  } catch (const std::exception& e) {
    try {
      game_error(std::string("the native backend could not list the chance outcomes: ") + e.what());
    } catch (...) {
      return raise_caught();
    }
  }
  PyObject* out = PyList_New((Py_ssize_t)o.size());
  if (!out) return nullptr;
  for (size_t i = 0; i < o.size(); i++) {
    PyObject* x = outcome(o[i], o.size());
    if (!x) { Py_DECREF(out); return nullptr; }
    PyList_SET_ITEM(out, (Py_ssize_t)i, x);
  }
  return out;
}

PyObject* returns(PyObject* self, PyObject*) {  // also `rewards`: OpenSpiel's, as a match pays only at its end
  const NState& st = st_of(self);
  std::vector<double> r(st.lib->api->num_players(st.lib->game));
  st.lib->api->returns(st.s, r.data());
  PyObject* out = PyList_New((Py_ssize_t)r.size());
  if (!out) return nullptr;
  for (size_t i = 0; i < r.size(); i++) {
    PyObject* x = PyFloat_FromDouble(r[i]);
    if (!x) { Py_DECREF(out); return nullptr; }
    PyList_SET_ITEM(out, (Py_ssize_t)i, x);
  }
  return out;
}

// A copy with its subclass's fields: the twin is copied (it is the Python state at this same position), what the
// players knew is shared.
PyObject* clone(PyObject* self, PyObject*) {
  auto* o = reinterpret_cast<StateObject*>(self);
  PyObject* twin = nullptr;
  if (o->twin && o->twin != Py_None && !(twin = PyObject_CallMethod(o->twin, "clone", nullptr))) return nullptr;
  NState* st;
  try {
    st = new NState(*o->st);
  } catch (...) {
    Py_XDECREF(twin);
    return raise_caught();
  }
  auto* c = reinterpret_cast<StateObject*>(new_object(Py_TYPE(self), st));
  if (!c) { Py_XDECREF(twin); return nullptr; }
  Py_XINCREF(o->game);
  c->game = o->game;
  Py_XINCREF(o->seed);
  c->seed = o->seed;
  c->twin = twin;
  c->synced = o->synced;
  Py_XINCREF(o->seen);  // never changed once made: a state that moves on points to a new one
  c->seen = o->seen;
  return reinterpret_cast<PyObject*>(c);
}

PyObject* seed(PyObject* self, PyObject*) {  // the seed of the next draw (Python's State.rng), None if none
  const NState& st = st_of(self);
  uint32_t w[cs::SEED_WORDS];
  int wide = 0;
  int n = st.lib->api->state_seed(st.s, w, cs::SEED_WORDS, &wide);
  if (!n) Py_RETURN_NONE;
  PyObject* v = PyLong_FromLong(0);
  PyObject* shift = PyLong_FromLong(32);
  for (int i = n - 1; i >= 0 && v; i--) {
    PyObject* hi = PyNumber_Lshift(v, shift);
    PyObject* lo = PyLong_FromUnsignedLong(w[i]);
    Py_DECREF(v);
    v = hi && lo ? PyNumber_Or(hi, lo) : nullptr;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
  }
  Py_DECREF(shift);
  return v;
}

PyObject* history(PyObject* self, PyObject*) {  // as the Python backend's: a seeded state draws no chance node
  const NState& st = st_of(self);
  std::vector<int> out;
  out.reserve(st.hist.size());
  for (auto& e : st.hist) out.push_back(e.second);
  return int_list(out);
}

PyObject* entries(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {  // the history from `start`
  const NState& st = st_of(self);
  Py_ssize_t start = 0;
  if (nargs > 1) { PyErr_SetString(PyExc_TypeError, "entries(start=0)"); return nullptr; }
  if (nargs == 1 && (start = PyLong_AsSsize_t(args[0])) == -1 && PyErr_Occurred()) return nullptr;
  size_t from = std::min((size_t)std::max<Py_ssize_t>(start, 0), st.hist.size());
  PyObject* out = PyList_New((Py_ssize_t)(st.hist.size() - from));
  if (!out) return nullptr;
  for (size_t i = from; i < st.hist.size(); i++) {
    PyObject* e = Py_BuildValue("(ii)", st.hist[i].first, st.hist[i].second);
    if (!e) { Py_DECREF(out); return nullptr; }
    PyList_SET_ITEM(out, (Py_ssize_t)(i - from), e);
  }
  return out;
}

PyObject* entry_count(PyObject* self, PyObject*) { return PyLong_FromSize_t(st_of(self).hist.size()); }

// What player p sees (view.h) as bytes of native int64 words: equal bytes for equal observations; None before
// the match's first step has run. A rule failing on the way (a `visible` rule) is a RuntimeError. In both
// cases the wrapper asks the Python backend instead.
PyObject* observation_words(PyObject* self, PyObject* player) {
  const NState& st = st_of(self);
  long p = PyLong_AsLong(player);
  if (p == -1 && PyErr_Occurred()) return nullptr;
  if (p < 0 || p >= st.lib->api->num_players(st.lib->game)) {
    PyErr_SetString(PyExc_ValueError, "no such player");
    return nullptr;
  }
  static std::vector<int64_t> words(256);
  char err[ERR];
  int n = st.lib->api->observe(st.s, (int)p, words.data(), (int)words.size(), err, sizeof err);
  if (n > (int)words.size()) {
    words.resize(n);
    n = st.lib->api->observe(st.s, (int)p, words.data(), n, err, sizeof err);
  }
  if (n == -2) Py_RETURN_NONE;  // before the first step: the wrapper asks the Python backend
  if (n < 0) {
    PyErr_SetString(PyExc_RuntimeError, err);
    return nullptr;
  }
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(words.data()), (Py_ssize_t)n * 8);
}

// The state's position (position.h) as bytes of native int64 words, None while its chance step is half drawn.
PyObject* position(PyObject* self, PyObject*) {
  const NState& st = st_of(self);
  static std::vector<int64_t> words(1024);
  char err[ERR];
  int n = st.lib->api->position(st.s, words.data(), (int)words.size(), err, sizeof err);
  if (n > (int)words.size()) {
    words.resize(n);
    n = st.lib->api->position(st.s, words.data(), n, err, sizeof err);
  }
  if (n == -2) Py_RETURN_NONE;
  if (n < 0) {
    try {
      game_error(std::string("the native backend could not write the position: ") + err);
    } catch (...) {
      return raise_caught();
    }
  }
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(words.data()), (Py_ssize_t)n * 8);
}

// set_position(words, moves): the state put at the position of the words (bytes of native int64 words, as
// `position` gives them), `moves` the player actions taken before it (the action limit counts them). Its
// history starts again here. What does not fit this game's state is a GameError, the state left as it was.
// The subclass's twin is the caller's to set (position.py `native_at` gives it the Python state's copy).
PyObject* set_position(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyBytes_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError, "set_position(words: bytes, moves: int)");
    return nullptr;
  }
  long long moves = PyLong_AsLongLong(args[1]);
  if (moves == -1 && PyErr_Occurred()) return nullptr;
  Py_ssize_t size = PyBytes_GET_SIZE(args[0]);
  if (size % 8 || size / 8 > INT_MAX || moves < 0) {
    PyErr_SetString(PyExc_ValueError, "set_position: whole int64 words, and 0 or more moves");
    return nullptr;
  }
  std::vector<int64_t> words((size_t)size / 8);
  std::memcpy(words.data(), PyBytes_AS_STRING(args[0]), (size_t)size);
  NState& st = st_of(self);
  char err[ERR];
  if (st.lib->api->set_position(st.s, words.data(), (int)words.size(), err, sizeof err)) {
    try {
      game_error(err);
    } catch (...) {
      return raise_caught();
    }
  }
  st.hist.clear();
  st.moves = moves;
  Py_RETURN_NONE;
}

PyMethodDef state_methods[] = {
    {"is_terminal", is_terminal, METH_NOARGS, nullptr},
    {"is_chance_node", is_chance_node, METH_NOARGS, nullptr},
    {"current_player", current_player, METH_NOARGS, nullptr},
    {"legal_actions", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(legal_actions)),
     METH_FASTCALL | METH_KEYWORDS, nullptr},
    {"apply_action", apply_action, METH_O, nullptr},
    {"chance_outcomes", chance_outcomes, METH_NOARGS, nullptr},
    {"returns", returns, METH_NOARGS, nullptr},
    {"rewards", returns, METH_NOARGS, nullptr},
    {"clone", clone, METH_NOARGS, nullptr},
    {"seed", seed, METH_NOARGS, nullptr},
    {"history", history, METH_NOARGS, nullptr},
    {"entries", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(entries)), METH_FASTCALL, nullptr},
    {"entry_count", entry_count, METH_NOARGS, nullptr},
    {"observation_words", observation_words, METH_O, nullptr},
    {"position", position, METH_NOARGS, nullptr},
    {"set_position", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(set_position)), METH_FASTCALL,
     nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyMemberDef state_members[] = {
    {"_game", T_OBJECT, offsetof(StateObject, game), 0, nullptr},
    {"_seed", T_OBJECT, offsetof(StateObject, seed), 0, nullptr},
    {"_twin", T_OBJECT, offsetof(StateObject, twin), 0, nullptr},
    {"_synced", T_PYSSIZET, offsetof(StateObject, synced), 0, nullptr},
    {"_seen", T_OBJECT, offsetof(StateObject, seen), 0, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyObject* state_type() {
  PyTypeObject& t = StateType;
  t.tp_name = "cs_loader.State";
  t.tp_basicsize = sizeof(StateObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  t.tp_doc = "A match on a game's native library (State(game, seed=None, limit=-1, owner=None), or State(state): a copy).";
  t.tp_new = state_new;
  t.tp_dealloc = state_dealloc;
  t.tp_traverse = state_traverse;
  t.tp_clear = state_clear;
  t.tp_methods = state_methods;
  t.tp_members = state_members;
  if (PyType_Ready(&t) < 0) return nullptr;
  Py_INCREF(&t);
  return reinterpret_cast<PyObject*>(&t);
}
}  // namespace

#include "rs_bind.h"
#include "mc_bind.h"

PYBIND11_MODULE(cs_loader, mod) {
  PyObject* state_cls = state_type();
  if (!state_cls) throw py::error_already_set();
  mod.add_object("State", py::reinterpret_steal<py::object>(state_cls));
  py::class_<NGame> game(mod, "Game");
  game
      .def(py::init<std::string>())
      .def("num_players", [](NGame& g) { return g.lib->api->num_players(g.lib->game); })
      .def("new_initial_state", [](py::object g, py::object seed) {  // the spike's scripts' way
        return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&StateType))(g, seed);
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
  bind_resampler(mod, game);
  bind_ismcts(mod);
}
