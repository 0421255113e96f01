// Cards as SVG and the table as one seat sees it, drawn from the view the server sends (no other source).
// Everything from the server is put into the page as text (textContent), never as markup.
"use strict";

const SUITS = { clubs: "\u2663", diamonds: "\u2666", hearts: "\u2665", spades: "\u2660" };
const RED = new Set(["diamonds", "hearts"]);
const NS = "http://www.w3.org/2000/svg";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// Words of a name in lines of about `width` characters, for cards without a French suit.
function lines(text, width) {
  const out = [];
  let cur = "";
  for (const w of String(text).split(/\s+/)) {
    if (cur && (cur + " " + w).length > width) { out.push(cur); cur = w; } else { cur = cur ? cur + " " + w : w; }
  }
  if (cur) out.push(cur);
  return out.slice(0, 5);
}

function cardSvg(card, small) {
  const w = 60, h = 84;
  const s = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "card" + (small ? " small" : ""), role: "img" });
  s.dataset.card = card.name;
  s.appendChild(svg("title", {}, card.name));
  s.appendChild(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 6, class: "face" }));
  const symbol = SUITS[card.suit];
  if (symbol) {
    const colour = RED.has(card.suit) ? "red" : "black";
    s.classList.add(colour);
    s.appendChild(svg("text", { x: 6, y: 17, class: "rank" }, card.rank));
    s.appendChild(svg("text", { x: 6, y: 31, class: "pip" }, symbol));
    s.appendChild(svg("text", { x: w / 2, y: 60, class: "big", "text-anchor": "middle" }, symbol));
  } else if (card.suit) {
    s.appendChild(svg("text", { x: 6, y: 17, class: "rank" }, card.rank));
    lines(card.suit, 9).forEach((line, i) =>
      s.appendChild(svg("text", { x: w / 2, y: 46 + 11 * i, class: "suitname", "text-anchor": "middle" }, line)));
  } else {
    s.classList.add("special");
    const ls = lines(card.name, 9);
    ls.forEach((line, i) =>
      s.appendChild(svg("text", { x: w / 2, y: 44 - 6 * (ls.length - 1) + 12 * i, class: "name",
        "text-anchor": "middle" }, line)));
  }
  return s;
}

function backSvg(count) {
  const w = 60, h = 84;
  const s = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "card back", role: "img" });
  s.appendChild(svg("title", {}, `${count} card${count === 1 ? "" : "s"}, face down`));
  s.appendChild(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 6, class: "backface" }));
  s.appendChild(svg("rect", { x: 6, y: 6, width: w - 12, height: h - 12, rx: 4, class: "backframe" }));
  s.appendChild(svg("text", { x: w / 2, y: 50, class: "count", "text-anchor": "middle" }, count));
  return s;
}

function shown(v) {
  if (v === null || v === undefined) return "\u2014";
  if (Array.isArray(v)) return v.length ? v.map(shown).join(", ") : "none";
  if (typeof v === "number" && !Number.isInteger(v)) return String(Math.round(v * 1000) / 1000);
  return String(v);
}

function playerName(view, p) {
  return view.players[p] ? view.players[p].name : `seat ${p}`;
}

// The moves a click on a card makes: a card with exactly one move that takes only that card.
function cardMoves(view) {
  const by = new Map();
  for (const m of view.moves) {
    if (m.params.length === 1 && m.params[0].kind === "card") {
      const name = m.params[0].card.name;
      by.set(name, by.has(name) ? null : m);
    }
  }
  return by;
}

function zoneBox(zone, view, clickable, onMove, used) {
  const box = el("div", "zone");
  box.dataset.zone = zone.name;
  const label = el("div", "zlabel", zone.label);
  if (zone.doc) label.title = zone.doc;
  box.appendChild(label);
  const row = el("div", "cards");
  if (!zone.visible) {
    if (zone.count > 0) row.appendChild(backSvg(zone.count));
    else row.appendChild(el("span", "empty", "empty"));
  } else if (!zone.cards.length) {
    row.appendChild(el("span", "empty", "empty"));
  } else {
    for (const c of zone.cards) {
      const s = cardSvg(c);
      const m = clickable.get(c.name);
      if (m && onMove) {
        s.classList.add("playable");
        s.dataset.moveId = m.id;
        s.setAttribute("tabindex", "0");
        const title = s.querySelector("title");
        if (title) title.textContent = `${c.name}: ${m.text}`;
        s.addEventListener("click", () => onMove(m.id));
        s.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") onMove(m.id); });
        used.add(m.id);
      }
      row.appendChild(s);
    }
  }
  box.appendChild(row);
  return box;
}

// Lists of cards (a variable holding melds, a move's cards) as groups of small cards, one group per list.
function cardGroups(groups, cls) {
  const box = el("span", cls);
  if (!groups.length) box.appendChild(el("span", "empty", "none"));
  for (const g of groups) {
    const group = el("span", "cardgroup");
    for (const c of g) group.appendChild(cardSvg(c, true));
    box.appendChild(group);
  }
  return box;
}

// A variable's value: its lists of cards drawn as cards, anything else as text.
function varValue(v, tag, cls) {
  const cell = el(tag, cls);
  if (v && v.cards) cell.appendChild(cardGroups(v.cards, "groups"));
  else cell.textContent = v ? shown(v.value) : "";
  return cell;
}

function varList(vars) {
  const dl = el("dl", "vars");
  for (const v of vars) {
    const dt = el("dt", null, v.team ? `${v.label} (team ${v.owner})` : v.label);
    if (v.doc) dt.title = v.doc;
    dl.appendChild(dt);
    dl.appendChild(varValue(v, "dd"));
  }
  return dl;
}

function moveButton(m, onMove) {
  const b = el("button", "move");
  b.type = "button";
  b.dataset.moveId = m.id;
  b.title = m.text;
  b.appendChild(el("span", "mlabel", m.label));
  for (const p of m.params) {
    const part = el("span", "param");
    part.appendChild(el("span", "pname", p.name));
    if (p.kind === "card") part.appendChild(cardSvg(p.card, true));
    else if (p.kind === "cards") part.appendChild(cardGroups([p.cards], "pcards"));
    else part.appendChild(el("span", "pvalue", shown(p.value)));
    b.appendChild(part);
  }
  if (onMove) b.addEventListener("click", () => onMove(m.id));
  else b.disabled = true;
  return b;
}

function logText(view, ev) {
  switch (ev.event) {
    case "deal": return `Deal ${ev.deal} (dealer ${playerName(view, ev.dealer)})`;
    case "action": return `${playerName(view, ev.player)}: ${ev.text}`;
    case "announce": return `* ${ev.text}`;
    case "eliminated": return `* ${playerName(view, ev.player)} is out of the match`;
    case "sits_out": return `* ${playerName(view, ev.player)} sits out this deal`;
    case "team": return `* ${playerName(view, ev.player)} is on team ${ev.team}`;
    case "bot": return `* ${playerName(view, ev.player)} (a bot) ${ev.text}`;
    case "end_deal": return `End of deal ${ev.deal}`;
    case "over": return `The match is over: ${winnersText(view, ev.winners)}`;
    default: return ev.event;
  }
}

function winnersText(view, winners) {
  if (!winners || !winners.length) return "no winner";
  const names = winners.map((p) => playerName(view, p)).join(" and ");
  return winners.length === 1 ? `${names} wins` : `${names} share the win`;
}

// Whether each end-of-deal panel is open, as the person last set it (by deal): the table is drawn afresh on
// every change, and a panel the person opened or closed stays so.
const endOpen = new Map();

// The table as deal `deal` left it, as this seat saw it: the view's `deal_end`, or, for a match's last deal
// (no next deal starts, so no `deal_end` is made), the finished match's own zones and variables.
function endedTable(view, deal) {
  if (view.deal_end && view.deal_end.deal === deal) return view.deal_end;
  if (view.over && view.deal === deal) return view;
  return null;
}

// A row per player: the zones the seat saw as the deal ended (hands the rules turned up), as cards, and the
// values just counted; then the shared zones' cards and values. Zones holding nothing are left out.
function endedBox(view, ended) {
  const box = el("div", "ended");
  const owned = ended.zones.filter((z) => z.owner !== null);
  const labels = [...new Set(owned.filter((z) => z.count > 0).map((z) => z.label))];
  const perSeat = ended.variables.filter((v) => v.owner !== null && !v.team);
  const varLabels = [...new Set(perSeat.map((v) => v.label))];
  const t = el("table");
  const head = el("tr");
  head.appendChild(el("th"));
  for (const l of labels.concat(varLabels)) head.appendChild(el("th", null, l));
  t.appendChild(head);
  for (const p of view.players) {
    const tr = el("tr");
    tr.dataset.seat = p.seat;
    tr.appendChild(el("th", null, p.name + (p.seat === view.seat ? " (you)" : "")));
    for (const label of labels) {
      const z = owned.find((x) => x.label === label && x.owner === p.seat);
      const td = el("td");
      if (z) {
        td.dataset.zone = z.name;
        const row = el("div", "cards");
        if (!z.count) row.appendChild(el("span", "empty", "\u2014"));
        else if (!z.visible) row.appendChild(backSvg(z.count));
        else for (const c of z.cards) row.appendChild(cardSvg(c, z.cards.length > 8));
        td.appendChild(row);
      }
      tr.appendChild(td);
    }
    for (const label of varLabels) {
      const v = perSeat.find((x) => x.label === label && x.owner === p.seat);
      tr.appendChild(varValue(v, "td", "value"));
    }
    t.appendChild(tr);
  }
  if (labels.length || varLabels.length) box.appendChild(t);
  const centre = el("div", "ended-shared");
  for (const z of ended.zones.filter((x) => x.owner === null && x.visible && x.cards.length)) {
    const zone = el("div", "zone");
    zone.dataset.zone = z.name;
    zone.appendChild(el("div", "zlabel", z.label));
    const row = el("div", "cards");
    for (const c of z.cards) row.appendChild(cardSvg(c, z.cards.length > 8));
    zone.appendChild(row);
    centre.appendChild(zone);
  }
  const vals = ended.variables.filter((v) => (v.owner === null || v.team) && v.value !== null
    && !(Array.isArray(v.value) && !v.value.length));
  if (vals.length) centre.appendChild(varList(vals));
  if (centre.childNodes.length) box.appendChild(centre);
  return box;
}

// The last end of deal: the announcements that closed it, who went out, and the table as it ended as this seat
// saw it (hands the rules turned up, the values just counted). The view holds no report lines: they are worked
// out from every card. It is open from the end of the deal until this seat's first move in the next one; the
// person may open or close it at any time.
function summaryBox(view) {
  const log = view.log;
  let i = -1;
  for (let k = log.length - 1; k >= 0; k--) if (log[k].event === "end_deal") { i = k; break; }
  if (i < 0) return null;
  const ev = log[i];
  const box = el("section", "summary");
  box.id = "summary";
  box.dataset.deal = ev.deal;
  const details = el("details");
  const moved = log.slice(i + 1).some((e) => e.event === "action" && e.player === view.seat);
  details.open = endOpen.has(ev.deal) ? endOpen.get(ev.deal) : !moved;
  const title = el("summary", null, `End of deal ${ev.deal}`);
  // A click toggles the panel after this handler runs, so the state chosen is the opposite of the current one.
  title.addEventListener("click", () => endOpen.set(ev.deal, !details.open));
  details.appendChild(title);
  let start = i;
  while (start > 0 && !["action", "deal", "end_deal"].includes(log[start - 1].event)) start--;
  for (let k = start; k < i; k++) if (log[k].event === "announce") details.appendChild(el("p", "announce", log[k].text));
  for (let k = i + 1; k < log.length && log[k].event !== "deal"; k++) {
    const e = log[k];
    if (e.event === "eliminated") details.appendChild(el("p", "out", `${playerName(view, e.player)} is out of the match`));
    else if (e.event === "sits_out") details.appendChild(el("p", null, `${playerName(view, e.player)} sits out`));
    else if (e.event === "announce") details.appendChild(el("p", "announce", e.text));
  }
  const ended = endedTable(view, ev.deal);
  if (ended) details.appendChild(endedBox(view, ended));
  box.appendChild(details);
  return box;
}

function resultBox(view) {
  if (!view.over) return null;
  const box = el("section", "result");
  box.id = "result";
  box.appendChild(el("h2", null, "The match is over"));
  box.appendChild(el("p", "winners", winnersText(view, view.winners)));
  if (view.returns) {
    const t = el("table");
    const head = el("tr");
    head.appendChild(el("th"));
    view.players.forEach((p) => head.appendChild(el("th", null, p.name)));
    t.appendChild(head);
    const tr = el("tr");
    tr.appendChild(el("th", null, view.returns_name));
    view.returns.forEach((v) => tr.appendChild(el("td", null, shown(v))));
    t.appendChild(tr);
    box.appendChild(t);
  }
  return box;
}

function statusText(view, room) {
  if (view.over) return "The match is over";
  if (room && room.error) return "The match was stopped";
  const who = playerName(view, view.turn);
  return view.your_turn ? `Your turn, ${who}` : `${who} to play`;
}

// The whole table for one seat. `onMove(id)` plays a move; without it the moves are only shown (replays).
function renderTable(root, room, view, onMove) {
  root.replaceChildren();
  const clickable = cardMoves(view);
  const used = new Set();
  const status = el("section", "status" + (view.your_turn ? " yours" : ""));
  status.id = "status";
  status.appendChild(el("strong", null, statusText(view, room)));
  status.appendChild(el("span", "where",
    ` \u00b7 deal ${view.deal} \u00b7 dealer ${playerName(view, view.dealer)} \u00b7 ${view.phase.label}`));
  root.appendChild(status);
  if (room && room.error) root.appendChild(el("p", "rule-error", room.error));

  const bots = new Map((room ? room.seats : []).map((s) => [s.seat, s.bot]));
  const seats = el("section", "seats");
  const order = view.players.map((p) => p.seat);
  // The seat's own place last, nearest the moves; the others in turn order after it.
  const k = order.indexOf(view.seat);
  const around = order.slice(k + 1).concat(order.slice(0, k + 1));
  for (const p of around) {
    const info = view.players[p];
    const box = el("div", "player" + (p === view.seat ? " me" : "") + (p === view.turn && !view.over ? " turn" : "")
      + (info.out ? " out" : ""));
    box.dataset.seat = p;
    const head = el("div", "phead");
    head.appendChild(el("span", "pname", info.name + (p === view.seat ? " (you)" : "")));
    if (bots.get(p)) head.appendChild(el("span", "badge", `bot: ${bots.get(p)}`));
    if (p === view.dealer) head.appendChild(el("span", "badge", "dealer"));
    if (info.out) head.appendChild(el("span", "badge bad", "out"));
    if (info.sitting_out) head.appendChild(el("span", "badge", "sits out"));
    box.appendChild(head);
    const own = view.variables.filter((v) => v.owner === p && !v.team);
    if (own.length) box.appendChild(varList(own));
    for (const z of view.zones.filter((z) => z.owner === p)) box.appendChild(zoneBox(z, view, clickable, onMove, used));
    seats.appendChild(box);
  }
  const centre = el("section", "centre");
  for (const z of view.zones.filter((z) => z.owner === null)) centre.appendChild(zoneBox(z, view, clickable, onMove, used));
  const shared = view.variables.filter((v) => v.owner === null || v.team);
  if (shared.length) centre.appendChild(varList(shared));
  root.appendChild(centre);
  root.appendChild(seats);

  const moves = el("section", "moves");
  moves.id = "moves";
  const rest = view.moves.filter((m) => !used.has(m.id));
  if (view.moves.length) {
    moves.appendChild(el("h2", null, used.size ? "Your move: click a highlighted card" + (rest.length ? ", or" : "")
      : "Your move"));
    for (const m of rest) moves.appendChild(moveButton(m, onMove));
    root.appendChild(moves);
  }
  const result = resultBox(view);
  if (result) root.appendChild(result);
  const summary = summaryBox(view);
  if (summary) root.appendChild(summary);

  const log = el("section", "log");
  log.id = "log";
  log.appendChild(el("h2", null, "Log"));
  const ol = el("ol");
  for (const ev of view.log.slice(-300)) ol.appendChild(el("li", "ev-" + ev.event, logText(view, ev)));
  log.appendChild(ol);
  root.appendChild(log);
  ol.scrollTop = ol.scrollHeight;
}

function rulesDialog(dialog, room) {
  dialog.replaceChildren();
  const g = room.game;
  dialog.appendChild(el("h2", null, g.name));
  dialog.appendChild(el("p", "summary-text", g.summary || "(the rule file has no summary)"));
  if (g.table && g.table.length) {
    dialog.appendChild(el("h3", null, "At the table"));
    const dl = el("dl", "table-help");
    for (const h of g.table) {
      dl.appendChild(el("dt", null, h.label));
      dl.appendChild(el("dd", null, h.doc));
    }
    dialog.appendChild(dl);
  }
  if (g.options && g.options.length) {
    dialog.appendChild(el("h3", null, "Table options"));
    const dl = el("dl", "options");
    for (const o of g.options) {
      dl.appendChild(el("dt", null, o.value !== undefined ? `${o.name} = ${o.value}` : o.name));
      dl.appendChild(el("dd", null, o.doc || "(no description)"));
    }
    dialog.appendChild(dl);
  }
  const book = el("section", "rulebook");
  book.appendChild(el("h3", null, "The rules"));
  const status = el("p", "rulebook-status", "loading the rulebook\u2026");
  book.appendChild(status);
  dialog.appendChild(book);
  const close = el("button", null, "Close");
  close.type = "button";
  close.addEventListener("click", () => dialog.close());
  dialog.appendChild(close);
  rulebookOf(g.key).then((doc) => {
    status.remove();
    renderRulebook(book, doc);
    dialog.dataset.rulebook = "shown";
  }, () => { status.textContent = "the rulebook could not be loaded"; });
}

// The game's rulebook (cardsmith explain), asked of the server once per game and page.
const rulebooks = new Map();
function rulebookOf(key) {
  if (!rulebooks.has(key)) {
    rulebooks.set(key, fetch(`/api/games/${encodeURIComponent(key)}/rules`).then((res) => {
      if (!res.ok) throw new Error("no rulebook");
      return res.json();
    }));
    rulebooks.get(key).catch(() => rulebooks.delete(key));
  }
  return rulebooks.get(key);
}

// The rulebook is data (lists of [kind, text] runs in blocks and sections), built here from text nodes only.
// A link moves within the dialog and never changes the address: a table's address holds its seat's token.
function rulebookRuns(parent, runs, root) {
  for (const [kind, text, target] of runs) {
    let node;
    if (kind === "code") node = el("code", null, text);
    else if (kind === "em") node = el("em", null, text);
    else if (kind === "strong") node = el("strong", null, text);
    else if (kind === "link" || kind === "codelink") {
      node = el("a", "rulebook-link");
      node.appendChild(kind === "codelink" ? el("code", null, text) : document.createTextNode(String(text)));
      node.tabIndex = 0;
      node.setAttribute("role", "link");
      const go = () => {
        const to = Array.from(root.querySelectorAll("[data-anchor]")).find((x) => x.dataset.anchor === target);
        if (to) to.scrollIntoView({ block: "start" });
      };
      node.addEventListener("click", go);
      node.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
    } else node = document.createTextNode(String(text));
    parent.appendChild(node);
  }
  return parent;
}

function rulebookBlock(b, root) {
  if (b.type === "p") return rulebookRuns(el("p"), b.runs, root);
  if (b.type === "note") return rulebookRuns(el("blockquote", "note"), b.runs, root);
  if (b.type === "code") { const pre = el("pre"); pre.appendChild(el("code", null, b.text)); return pre; }
  if (b.type === "list") {
    const ul = el("ul");
    for (const it of b.items) {
      const li = el("li");
      for (const x of it) li.appendChild(rulebookBlock(x, root));
      ul.appendChild(li);
    }
    return ul;
  }
  const table = el("table");
  const head = el("tr");
  for (const c of b.header) head.appendChild(rulebookRuns(el("th"), c, root));
  table.appendChild(el("thead")).appendChild(head);
  const body = el("tbody");
  for (const r of b.rows) {
    const tr = el("tr");
    for (const c of r) tr.appendChild(rulebookRuns(el("td"), c, root));
    body.appendChild(tr);
  }
  table.appendChild(body);
  return table;
}

function rulebookSection(s, level, root) {
  const sec = el("section", s.main ? null : "details");
  sec.dataset.anchor = s.anchor;
  sec.appendChild(el(`h${Math.min(level, 6)}`, null, s.title));
  for (const b of s.blocks) sec.appendChild(rulebookBlock(b, root));
  for (const x of s.sections) sec.appendChild(rulebookSection(x, level + 1, root));
  return sec;
}

function renderRulebook(root, doc) {
  for (const b of doc.blocks) root.appendChild(rulebookBlock(b, root));
  for (const s of doc.sections) root.appendChild(rulebookSection(s, 4, root));
}

window.cardsmith = { el, cardSvg, backSvg, renderTable, rulesDialog, shown };
