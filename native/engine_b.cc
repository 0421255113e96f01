// Design (b): the one native engine, built once (at install). It reads the flat program of a rule file
// (emit_prog.py) and interprets it: a typed tree-walker (ei: int nodes, ef: float nodes, el: list nodes,
// ex: statements) over one vector of int64 words; every word it reads is bounds-checked (`w`), as is every
// slot and zone (runtime.h `at`), so a bad program is an error, never a read outside the engine's memory.
#include <cstring>

#include "bind.h"

using namespace cs;

namespace {
enum Op { CI, LOC, ACTOR, CUR, DEALER, VAR, VARX, TAB, IF, ADD, SUB, MUL, FDIV, MOD, DIV, I2F, NOT, AND, OR, CMP,
          IN, LET, CALL, LEN_ZONE, LEN, FIRST, LAST_ZONE, LAST, BY, MIN2, MAX2, FOLD, CF, CLIST, PACK, ZONE, COMP,
          SORT, RANGE, SETCUR, SETDEALER, SETVAR, SETLOC, PICK, MOVEPACK, MOVEZONE, MOVELIST, MOVE1, DEALEACH,
          DEAL, SHUFFLE, RET, DO, IFS, FOR };
enum Fold { F_ANY, F_ALL, F_SUM, F_COUNT, F_MAX, F_MIN, F_MAX_BY, F_MIN_BY, F_ALL_MAX_BY };
constexpr int FI = 32, FF = 8, FL = 4;  // a frame's slots

struct Frame { i64 li[FI]; double lf[FF]; List ll[FL]; };
struct Fn { int ret, ni, nf, nl, body; std::vector<std::pair<int, int>> params; };
struct Act { int off, run, when; struct P { int rank, radix, stride, dom, slot; }; std::vector<P> params; };

inline double asf(i64 b) { double d; std::memcpy(&d, &b, sizeof d); return d; }

struct Prog {
  std::vector<i64> h;  // the whole program
  size_t rp = 0;
  Meta m;
  std::vector<std::vector<i64>> tables;
  std::vector<i64> rank_pos, rank_id;
  std::vector<Fn> fns;
  std::vector<Act> acts;
  int returns_fn = -1;
  std::vector<i64> C;

  i64 rd() { if (rp >= h.size()) fail("program truncated"); return h[rp++]; }
  explicit Prog(std::vector<i64> words) : h(std::move(words)) {
    if (rd() != 0x43534231) fail("not a program");
    m.n = (int)rd(); m.nc = (int)rd(); m.nz = (int)rd(); m.nv = (int)rd(); m.num_actions = (int)rd();
    rd();
    if (m.n < 1 || m.n > MAXP || m.nc < 0 || m.nc > MAXC || m.nz < 1 || m.nz > MAXZ || m.nv > MAXV) fail("sizes");
    for (i64 i = 0, n = rd(); i < n; i++) {
      int slot = at(rd(), std::max(m.nv, 1)); i64 v = rd();
      (rd() ? m.deal_init : m.match_init).push_back({slot, v});
    }
    for (i64 i = 0, n = rd(); i < n; i++) {
      Meta::Phase p;
      p.first = (int)rd(); p.start = (int)rd(); p.after = (int)rd(); p.end = (int)rd(); p.then = (int)rd();
      p.round = rd() != 0; p.next = (int)rd();
      for (i64 j = 0, k = rd(); j < k; j++) p.actions.push_back((int)rd());
      m.phases.push_back(p);
    }
    m.match_start = (int)rd(); m.match_deal = (int)rd(); m.match_end_deal = (int)rd(); m.over_when = (int)rd();
    returns_fn = (int)rd();
    for (i64 i = 0, n = rd(); i < n; i++) {
      std::vector<i64> t;
      for (i64 j = 0, k = rd(); j < k; j++) t.push_back(rd());
      if ((int)t.size() != m.nc) fail("a card table of the wrong size");
      tables.push_back(t);
    }
    for (i64 j = 0, k = rd(); j < k; j++) rank_pos.push_back(rd());
    for (i64 j = 0, k = rd(); j < k; j++) rank_id.push_back(rd());
    for (i64 i = 0, n = rd(); i < n; i++) {
      Fn f;
      f.ret = (int)rd(); f.ni = (int)rd(); f.nf = (int)rd(); f.nl = (int)rd(); f.body = (int)rd();
      if (f.ni > FI || f.nf > FF || f.nl > FL) fail("prototype: frame too big");
      for (i64 j = 0, k = rd(); j < k; j++) { int kd = (int)rd(); f.params.push_back({kd, (int)rd()}); }
      fns.push_back(f);
    }
    for (i64 i = 0, n = rd(); i < n; i++) {
      Act a;
      a.off = (int)rd(); a.run = (int)rd(); a.when = (int)rd();
      for (i64 j = 0, k = rd(); j < k; j++) {
        Act::P p;
        p.rank = (int)rd(); p.radix = (int)rd(); p.stride = (int)rd(); p.dom = (int)rd(); p.slot = (int)rd();
        if (p.radix <= 0) fail("radix");
        a.params.push_back(p);
      }
      acts.push_back(a);
    }
    for (i64 j = 0, k = rd(); j < k; j++) C.push_back(rd());
  }
};

struct Interp {
  const Prog& P;
  explicit Interp(const Prog& p) : P(p) {}
  i64 w(i64 pc) const { if (pc < 0 || pc >= (i64)P.C.size()) fail("bad program offset"); return P.C[pc]; }

  // a list node as something to walk: a zone in place, or the list made into `tmp`
  View walk(Ctx& x, Frame& f, i64 pc, List& tmp) const {
    if (w(pc) == ZONE) return zone(x, ei(x, f, w(pc + 2)));
    if (w(pc) == LOC) { const List& l = f.ll[at(w(pc + 2), FL)]; return View{l.a, l.n}; }
    el(x, f, pc, tmp);
    return View{tmp.a, tmp.n};
  }

  i64 call_i(Ctx& x, Frame& f, i64 pc) const {
    const Fn& fn = P.fns[at(w(pc + 2), (int)P.fns.size())];
    Frame g;
    int n = (int)w(pc + 3);
    if (n != (int)fn.params.size()) fail("arity");
    for (int i = 0; i < n; i++) {
      auto [k, slot] = fn.params[i];
      if (k == 1) g.lf[at(slot, FF)] = ef(x, f, w(pc + 4 + i)); else g.li[at(slot, FI)] = ei(x, f, w(pc + 4 + i));
    }
    if (fn.ret == 3) return exec_block(x, g, fn.body);
    return fn.ret == 1 ? (i64)0 : ei(x, g, fn.body);
  }
  double call_f(Ctx& x, Frame& f, i64 pc) const {
    const Fn& fn = P.fns[at(w(pc + 2), (int)P.fns.size())];
    Frame g;
    int n = (int)w(pc + 3);
    for (int i = 0; i < n; i++) {
      auto [k, slot] = fn.params[at(i, (int)fn.params.size())];
      if (k == 1) g.lf[at(slot, FF)] = ef(x, f, w(pc + 4 + i)); else g.li[at(slot, FI)] = ei(x, f, w(pc + 4 + i));
    }
    return ef(x, g, fn.body);
  }
  void let(Ctx& x, Frame& f, i64 pc) const {
    i64 n = w(pc + 2);
    for (i64 i = 0; i < n; i++) {
      i64 k = w(pc + 3 + 3 * i), slot = w(pc + 4 + 3 * i), v = w(pc + 5 + 3 * i);
      if (k == 0) f.li[at(slot, FI)] = ei(x, f, v);
      else if (k == 1) f.lf[at(slot, FF)] = ef(x, f, v);
      else el(x, f, v, f.ll[at(slot, FL)]);
    }
  }

  static bool cmp(i64 op, double a, double b) {
    switch (op) { case 0: return a == b; case 1: return a != b; case 2: return a < b; case 3: return a <= b;
                  case 4: return a > b; default: return a >= b; }
  }
  static bool cmpi(i64 op, i64 a, i64 b) {
    switch (op) { case 0: return a == b; case 1: return a != b; case 2: return a < b; case 3: return a <= b;
                  case 4: return a > b; default: return a >= b; }
  }

  // FOLD: how, slot, it, cond, elem, elem kind; the int result (any, all, count, sums of ints, max_by...)
  i64 fold_i(Ctx& x, Frame& f, i64 pc) const {
    i64 how = w(pc + 2), slot = at(w(pc + 3), FI), cond = w(pc + 5), elem = w(pc + 6), ek = w(pc + 7);
    List tmp;
    View it = walk(x, f, w(pc + 4), tmp);
    i64 acc = 0, best_item = 0;
    double bestf = 0;
    bool have = false;
    for (int i = 0; i < it.n; i++) {
      f.li[slot] = it.a[i];
      if (cond >= 0 && !ei(x, f, cond)) continue;
      switch (how) {
        case F_ANY: if (ei(x, f, elem)) return 1; break;
        case F_ALL: if (!ei(x, f, elem)) return 0; break;
        case F_SUM: case F_COUNT: acc += ei(x, f, elem); break;
        case F_MAX: case F_MIN: {
          i64 e = ei(x, f, elem);
          if (!have || (how == F_MAX ? e > acc : e < acc)) { acc = e; have = true; }
          break;
        }
        case F_MAX_BY: case F_MIN_BY: {
          double e = ek == 1 ? ef(x, f, elem) : (double)ei(x, f, elem);
          if (!have || (how == F_MAX_BY ? e > bestf : e < bestf)) { bestf = e; best_item = it.a[i]; have = true; }
          break;
        }
        default: fail("fold");
      }
    }
    if (how == F_ALL) return 1;
    if (how == F_ANY) return 0;
    if ((how == F_MAX || how == F_MIN || how == F_MAX_BY || how == F_MIN_BY) && !have) fail("of an empty list");
    return how >= F_MAX_BY ? best_item : acc;
  }
  double fold_f(Ctx& x, Frame& f, i64 pc) const {
    i64 how = w(pc + 2), slot = at(w(pc + 3), FI), cond = w(pc + 5), elem = w(pc + 6);
    List tmp;
    View it = walk(x, f, w(pc + 4), tmp);
    double acc = 0;
    bool have = false;
    for (int i = 0; i < it.n; i++) {
      f.li[slot] = it.a[i];
      if (cond >= 0 && !ei(x, f, cond)) continue;
      double e = ef(x, f, elem);
      if (how == F_SUM) acc += e;
      else if (!have || (how == F_MAX ? e > acc : e < acc)) { acc = e; have = true; }
    }
    if (how != F_SUM && !have) fail("of an empty list");
    return acc;
  }

  i64 ei(Ctx& x, Frame& f, i64 pc) const {
    State& s = x.s;
    switch (w(pc)) {
      case CI: return w(pc + 2);
      case LOC: return f.li[at(w(pc + 2), FI)];
      case ACTOR: return s.actor;
      case CUR: return s.cur;
      case DEALER: return s.dealer;
      case VAR: return s.v[at(w(pc + 2), x.m.nv)];
      case VARX: return s.v[at(w(pc + 2) + ei(x, f, w(pc + 3)), x.m.nv)];
      case TAB: { const auto& t = P.tables[at(w(pc + 2), (int)P.tables.size())]; return t[at(ei(x, f, w(pc + 3)), x.m.nc)]; }
      case IF: return ei(x, f, w(pc + 2)) ? ei(x, f, w(pc + 3)) : ei(x, f, w(pc + 4));
      case ADD: return ei(x, f, w(pc + 2)) + ei(x, f, w(pc + 3));
      case SUB: return ei(x, f, w(pc + 2)) - ei(x, f, w(pc + 3));
      case MUL: return ei(x, f, w(pc + 2)) * ei(x, f, w(pc + 3));
      case FDIV: return floordiv(ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)));
      case MOD: return pymod(ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)));
      case MIN2: return std::min(ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)));
      case MAX2: return std::max(ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)));
      case NOT: return !ei(x, f, w(pc + 2));
      case AND: { i64 n = w(pc + 2); for (i64 i = 0; i < n; i++) if (!ei(x, f, w(pc + 3 + i))) return 0; return 1; }
      case OR: { i64 n = w(pc + 2); for (i64 i = 0; i < n; i++) if (ei(x, f, w(pc + 3 + i))) return 1; return 0; }
      case CMP:
        if (w(pc + 1) == 1) return cmp(w(pc + 2), ef(x, f, w(pc + 3)), ef(x, f, w(pc + 4)));
        return cmpi(w(pc + 2), ei(x, f, w(pc + 3)), ei(x, f, w(pc + 4)));
      case IN: { List tmp; View l = walk(x, f, w(pc + 3), tmp); return contains(l, ei(x, f, w(pc + 2))); }
      case LET: { let(x, f, pc); return ei(x, f, w(pc + 3 + 3 * w(pc + 2))); }
      case CALL: return call_i(x, f, pc);
      case LEN_ZONE: return zone_len(x, ei(x, f, w(pc + 2)));
      case LEN: { List tmp; return walk(x, f, w(pc + 2), tmp).n; }
      case FIRST: { List tmp; return first_of(walk(x, f, w(pc + 2), tmp)); }
      case LAST_ZONE: return zone_last(x, ei(x, f, w(pc + 2)));
      case LAST: { List tmp; return last_of(walk(x, f, w(pc + 2), tmp)); }
      case BY: return s.by[at(ei(x, f, w(pc + 2)), x.m.nc)];
      case FOLD: return fold_i(x, f, pc);
      default: fail("not an int node");
    }
  }
  double ef(Ctx& x, Frame& f, i64 pc) const {
    switch (w(pc)) {
      case CF: return asf(w(pc + 2));
      case LOC: return f.lf[at(w(pc + 2), FF)];
      case I2F: return (double)ei(x, f, w(pc + 2));
      case IF: return ei(x, f, w(pc + 2)) ? ef(x, f, w(pc + 3)) : ef(x, f, w(pc + 4));
      case ADD: return ef(x, f, w(pc + 2)) + ef(x, f, w(pc + 3));
      case SUB: return ef(x, f, w(pc + 2)) - ef(x, f, w(pc + 3));
      case MUL: return ef(x, f, w(pc + 2)) * ef(x, f, w(pc + 3));
      case DIV: return truediv(ef(x, f, w(pc + 2)), ef(x, f, w(pc + 3)));
      case MIN2: return std::min(ef(x, f, w(pc + 2)), ef(x, f, w(pc + 3)));
      case MAX2: return std::max(ef(x, f, w(pc + 2)), ef(x, f, w(pc + 3)));
      case LET: { let(x, f, pc); return ef(x, f, w(pc + 3 + 3 * w(pc + 2))); }
      case CALL: return call_f(x, f, pc);
      case FOLD: return fold_f(x, f, pc);
      default: fail("not a float node");
    }
  }
  void el(Ctx& x, Frame& f, i64 pc, List& out) const {
    out.n = 0;
    switch (w(pc)) {
      case CLIST: { i64 n = w(pc + 2); for (i64 i = 0; i < n; i++) out.push(w(pc + 3 + i)); return; }
      case PACK: for (int c = 0; c < x.m.nc; c++) out.push(c); return;
      case LOC: out = f.ll[at(w(pc + 2), FL)]; return;
      case ZONE: { View v = zone(x, ei(x, f, w(pc + 2))); for (int i = 0; i < v.n; i++) out.push(v.a[i]); return; }
      case COMP: {
        i64 slot = at(w(pc + 2), FI), cond = w(pc + 4), elem = w(pc + 5);
        List tmp;
        View it = walk(x, f, w(pc + 3), tmp);
        for (int i = 0; i < it.n; i++) {
          f.li[slot] = it.a[i];
          if (cond >= 0 && !ei(x, f, cond)) continue;
          out.push(ei(x, f, elem));
        }
        return;
      }
      case SORT: { List tmp; View v = walk(x, f, w(pc + 2), tmp); out = sorted(v); return; }
      case RANGE: out = range_list(ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3))); return;
      case IF: el(x, f, ei(x, f, w(pc + 2)) ? w(pc + 3) : w(pc + 4), out); return;
      case FOLD: {  // all_max_by
        i64 slot = at(w(pc + 3), FI), elem = w(pc + 6), ek = w(pc + 7);
        List tmp;
        View it = walk(x, f, w(pc + 4), tmp);
        double keys[LCAP];
        for (int i = 0; i < it.n; i++) {
          f.li[slot] = it.a[i];
          keys[i] = ek == 1 ? ef(x, f, elem) : (double)ei(x, f, elem);
        }
        if (!it.n) return;
        double b = keys[0];
        for (int i = 1; i < it.n; i++) b = std::max(b, keys[i]);
        for (int i = 0; i < it.n; i++) if (keys[i] == b) out.push(it.a[i]);
        return;
      }
      default: fail("not a list node");
    }
  }

  int exec_block(Ctx& x, Frame& f, i64 pc) const {
    i64 n = w(pc);
    for (i64 i = 0; i < n; i++) {
      int r = exec(x, f, w(pc + 1 + i));
      if (r != NONE_CODE) return r;
    }
    return NONE_CODE;
  }
  int exec(Ctx& x, Frame& f, i64 pc) const {
    State& s = x.s;
    switch (w(pc)) {
      case SETCUR: s.cur = at(ei(x, f, w(pc + 2)), x.m.n); return NONE_CODE;
      case SETDEALER: s.dealer = at(ei(x, f, w(pc + 2)), x.m.n); return NONE_CODE;
      case SETVAR: { i64 slot = ei(x, f, w(pc + 2)); s.v[at(slot, x.m.nv)] = ei(x, f, w(pc + 3)); return NONE_CODE; }
      case SETLOC: {
        i64 k = w(pc + 1), slot = w(pc + 2), v = w(pc + 3);
        if (k == 0) f.li[at(slot, FI)] = ei(x, f, v);
        else if (k == 1) f.lf[at(slot, FF)] = ef(x, f, v);
        else { List tmp; el(x, f, v, tmp); f.ll[at(slot, FL)] = tmp; }
        return NONE_CODE;
      }
      case PICK: {
        List o;
        if (w(pc + 3)) o = zone_list_any(x, ei(x, f, w(pc + 4))); else el(x, f, w(pc + 4), o);
        f.li[at(w(pc + 2), FI)] = o[pick_index(x, o.n)];
        return x.stop ? STOP : NONE_CODE;
      }
      case MOVEPACK: move_pack(x, ei(x, f, w(pc + 2))); return NONE_CODE;
      case MOVEZONE: move_zone(x, ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3))); return NONE_CODE;
      case MOVELIST: { List l; el(x, f, w(pc + 2), l); move_list(x, l, ei(x, f, w(pc + 3))); return NONE_CODE; }
      case MOVE1: move1(x, ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3))); return NONE_CODE;
      case DEALEACH: deal_each(x, ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)), ei(x, f, w(pc + 4))); return NONE_CODE;
      case DEAL: deal(x, ei(x, f, w(pc + 2)), ei(x, f, w(pc + 3)), ei(x, f, w(pc + 4))); return NONE_CODE;
      case SHUFFLE: shuffle(x, ei(x, f, w(pc + 2))); return NONE_CODE;
      case RET: return (int)w(pc + 2);
      case DO: return (int)call_i(x, f, pc);
      case IFS: return exec_block(x, f, ei(x, f, w(pc + 2)) ? w(pc + 3) : w(pc + 4));
      case FOR: {
        List l;
        el(x, f, w(pc + 3), l);
        i64 slot = at(w(pc + 2), FI);
        for (int i = 0; i < l.n; i++) {
          f.li[slot] = l.a[i];
          int r = exec_block(x, f, w(pc + 4));
          if (r != NONE_CODE) return r;
        }
        return NONE_CODE;
      }
      default: fail("not a statement");
    }
  }
};

struct Rules {
  Prog prog;
  Interp in;
  explicit Rules(std::vector<i64> words) : prog(std::move(words)), in(prog) {}
  Meta meta() const { return prog.m; }
  const Fn& fn(int fid) const { return prog.fns[at(fid, (int)prog.fns.size())]; }
  int block(Ctx& x, int fid, const i64*) const { Frame f; return in.exec_block(x, f, fn(fid).body); }
  i64 value(Ctx& x, int fid) const { Frame f; return in.ei(x, f, fn(fid).body); }
  double ret(Ctx& x, int p) const {
    const Fn& r = fn(prog.returns_fn);
    Frame f;
    f.li[at(r.params.at(0).second, FI)] = p;
    return in.ef(x, f, r.body);
  }
  void legal_from(Ctx& x, const Act& a, Frame& f, size_t j, i64 id, std::vector<int>& out) const {
    if (j == a.params.size()) {
      if (a.when < 0 || in.ei(x, f, a.when)) out.push_back((int)id);
      return;
    }
    const auto& p = a.params[j];
    List tmp;
    View d = in.walk(x, f, p.dom, tmp);
    for (int i = 0; i < d.n; i++) {
      i64 v = d.a[i];
      f.li[at(p.slot, FI)] = v;
      i64 digit = p.rank ? prog.rank_pos[at(v, (int)prog.rank_pos.size())] : v;
      legal_from(x, a, f, j + 1, id + digit * p.stride, out);
    }
  }
  void legal(Ctx& x, int ai, std::vector<int>& out) const {
    const Act& a = prog.acts[at(ai, (int)prog.acts.size())];
    Frame f;
    legal_from(x, a, f, 0, a.off, out);
  }
  int run(Ctx& x, int ai, int k) const {
    const Act& a = prog.acts[at(ai, (int)prog.acts.size())];
    Frame f;
    for (const auto& p : a.params) {
      int digit = k % p.radix;
      k /= p.radix;
      f.li[at(p.slot, FI)] = p.rank ? prog.rank_id[at(digit, (int)prog.rank_id.size())] : digit;
    }
    return in.exec_block(x, f, fn(a.run).body);
  }
  int action_of(int id, int& k) const {
    if (id < 0 || id >= prog.m.num_actions) fail("no such action id");
    int best = -1;
    for (size_t i = 0; i < prog.acts.size(); i++)
      if (prog.acts[i].off <= id && (best < 0 || prog.acts[i].off > prog.acts[best].off)) best = (int)i;
    k = id - prog.acts[best].off;
    return best;
  }
};
}  // namespace

PYBIND11_MODULE(cs_engine_b, mod) { bind_game<Rules, std::vector<i64>>(mod); }
