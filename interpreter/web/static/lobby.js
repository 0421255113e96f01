// The lobby: choose a game, its options, the players and each seat, then open the table.
"use strict";

(() => {
  const C = window.cardsmith;
  const $ = (id) => document.getElementById(id);
  let games = [];
  let bots = [];

  function game() { return games.find((g) => g.key === $("game").value); }

  function optionField(o) {
    const row = C.el("div", "option");
    const label = C.el("label", null, o.name);
    label.htmlFor = `option-${o.name}`;
    row.appendChild(label);
    let input;
    if (o.kind === "int") {
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = "numeric";
      input.placeholder = `default ${o.default}`;
      row.appendChild(input);
      row.appendChild(C.el("span", "range", `${o.min} to ${o.max}`));
    } else {
      input = document.createElement("select");
      const def = C.el("option", null, `default (${o.default})`);
      def.value = "";
      input.appendChild(def);
      for (const v of o.values) {
        const opt = C.el("option", null, v);
        opt.value = v;
        input.appendChild(opt);
      }
      row.appendChild(input);
    }
    input.id = `option-${o.name}`;
    input.dataset.option = o.name;
    row.appendChild(C.el("p", "doc", o.doc || ""));
    return row;
  }

  function seatRow(k, old) {
    const row = C.el("div", "seat");
    row.appendChild(C.el("span", "seatno", `Seat ${k + 1}`));
    const kind = document.createElement("select");
    kind.id = `seat-${k}-kind`;
    for (const [v, t] of [["person", "a person"], ["bot", "a bot"]]) {
      const o = C.el("option", null, t);
      o.value = v;
      kind.appendChild(o);
    }
    kind.value = old ? old.kind : (k === 0 ? "person" : "bot");
    const name = document.createElement("input");
    name.id = `seat-${k}-name`;
    name.placeholder = "name";
    name.maxLength = 24;
    name.value = old ? old.name : "";
    const spec = document.createElement("input");
    spec.id = `seat-${k}-spec`;
    spec.setAttribute("list", "bot-names");
    spec.placeholder = "bot";
    spec.value = old ? old.spec : "random";
    const sync = () => { spec.hidden = kind.value !== "bot"; };
    kind.addEventListener("change", sync);
    sync();
    row.append(kind, name, spec);
    return row;
  }

  function seatsNow() {
    return [...document.querySelectorAll("#seats .seat")].map((_, k) => ({
      kind: $(`seat-${k}-kind`).value, name: $(`seat-${k}-name`).value, spec: $(`seat-${k}-spec`).value }));
  }

  function showSeats() {
    const old = seatsNow();
    const n = Number($("players").value) || 0;
    const box = $("seats");
    box.replaceChildren();
    for (let k = 0; k < Math.min(n, 16); k++) box.appendChild(seatRow(k, old[k]));
  }

  function showGame() {
    const g = game();
    if (!g) return;
    $("summary").textContent = g.summary;
    $("players").min = g.min_players;
    $("players").max = g.max_players;
    const n = Number($("players").value);
    if (!(n >= g.min_players && n <= g.max_players)) $("players").value = g.min_players;
    $("players-range").textContent = g.min_players === g.max_players ? "" : `${g.min_players} to ${g.max_players}`;
    $("options").replaceChildren(...g.options.map(optionField));
    $("options-section").hidden = !g.options.length;
    const list = document.getElementById("bot-names") || document.body.appendChild(document.createElement("datalist"));
    list.id = "bot-names";
    list.replaceChildren(...bots.map((b) => b.name).concat(g.strategies.map((s) => s.name)).map((n) => {
      const o = document.createElement("option");
      o.value = n;
      return o;
    }));
    const dl = $("bots");
    dl.replaceChildren();
    for (const b of bots) {
      dl.appendChild(C.el("dt", null, b.name));
      const dd = C.el("dd", null, b.doc);
      for (const p of b.params) dd.appendChild(C.el("div", "param-doc", `${p.name} (default ${p.default === "" ? "none" : p.default}): ${p.doc}`));
      dl.appendChild(dd);
    }
    for (const s of g.strategies) {
      dl.appendChild(C.el("dt", null, s.name));
      dl.appendChild(C.el("dd", null, `a strategy of the rule file: ${s.doc}`));
    }
    showSeats();
  }

  function errors(lines) {
    const ul = $("errors");
    ul.replaceChildren(...lines.map((l) => C.el("li", null, l)));
    ul.hidden = !lines.length;
  }

  async function create(ev) {
    ev.preventDefault();
    errors([]);
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) if (input.value.trim()) options[input.dataset.option] = input.value.trim();
    const seats = seatsNow().map((s) => (s.kind === "bot" ? { bot: s.spec, name: s.name } : { name: s.name }));
    const body = { game: $("game").value, players: Number($("players").value), options, seats };
    const seed = $("seed").value.trim();
    if (seed) {
      if (!/^[0-9]{1,18}$/.test(seed)) { errors(["the seed must be a whole number in the digits 0-9"]); return; }
      body.seed = Number(seed);
    }
    const res = await fetch("/api/rooms", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) { errors(data.errors || [data.error]); return; }
    const ul = $("seat-links");
    ul.replaceChildren();
    const people = data.seats.filter((s) => s.token);
    for (const s of data.seats) {
      const li = C.el("li", null);
      if (s.token) {
        const url = `${location.origin}/room/${encodeURIComponent(data.room)}#token=${s.token}`;
        const a = C.el("a", "seat-link", `${s.name}: ${url}`);
        a.href = url;
        a.target = "_blank";
        a.dataset.seat = s.seat;
        li.appendChild(a);
        const copy = C.el("button", null, "copy");
        copy.type = "button";
        copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(url));
        li.appendChild(copy);
      } else {
        li.textContent = `${s.name}: bot ${s.bot}`;
      }
      ul.appendChild(li);
    }
    $("hotseat").hidden = people.length < 2;
    $("hotseat-link").href = `/room/${encodeURIComponent(data.room)}#tokens=${people.map((s) => s.token).join(",")}`;
    $("links").hidden = false;
  }

  async function start() {
    const data = await (await fetch("/api/games")).json();
    games = data.games;
    bots = data.bots;
    $("game").replaceChildren(...games.map((g) => {
      const o = C.el("option", null, `${g.name} (${g.min_players === g.max_players ? g.min_players : `${g.min_players}-${g.max_players}`} players)`);
      o.value = g.key;
      return o;
    }));
    const wanted = new URLSearchParams(location.search).get("game");
    if (wanted && games.some((g) => g.key === wanted)) $("game").value = wanted;
    $("game").addEventListener("change", showGame);
    $("players").addEventListener("change", showSeats);
    $("setup").addEventListener("submit", create);
    showGame();
  }

  start();
})();
