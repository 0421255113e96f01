// The table page: one websocket per seat this screen holds (one, or several for hot-seat), each seat's
// token taken from the address's fragment (#token=T or #tokens=T1,T2), which is never sent in a request.
"use strict";

(() => {
  const C = window.cardsmith;
  const roomId = decodeURIComponent(location.pathname.split("/").pop());
  const fragment = new URLSearchParams(location.hash.slice(1));
  const tokens = (fragment.get("tokens") || fragment.get("token") || "").split(",").filter(Boolean);
  const conns = tokens.map((token) => ({ token, ws: null, msg: null, closed: false }));
  const root = document.getElementById("table");
  const notice = document.getElementById("notice");
  const curtain = document.getElementById("curtain");
  let shown = null; // the seat on screen
  let unlocked = null; // hot-seat: the seat whose player has taken the screen

  function say(text) {
    notice.textContent = text;
    notice.hidden = !text;
  }

  function connect(c) {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + encodeURIComponent(roomId));
    c.ws = ws;
    ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", room: roomId, token: c.token })));
    ws.addEventListener("message", (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === "state") { c.msg = m; update(); }
      else if (m.type === "error") {
        say(m.error);
        if (!c.msg && m.error.startsWith("no such room")) c.closed = true; // a link to a room that is gone
      }
      else if (m.type === "closed") { c.closed = true; say(m.error); }
    });
    ws.addEventListener("close", () => {
      if (!c.closed && !(c.msg && c.msg.view.over)) setTimeout(() => connect(c), 2000);
    });
  }

  function current() {
    return conns.find((c) => c.msg && c.msg.view.seat === shown) || null;
  }

  function move(id) {
    const c = current();
    if (!c || !c.ws || c.ws.readyState !== WebSocket.OPEN) { say("not connected; wait a moment"); return; }
    say("");
    c.ws.send(JSON.stringify({ type: "move", action: id, seat: c.msg.view.seat, version: c.msg.version }));
  }

  function update() {
    const ready = conns.filter((c) => c.msg);
    if (!ready.length) return;
    // The seat to move if this screen holds it; otherwise the seat already shown.
    const toMove = ready.find((c) => c.msg.view.your_turn);
    const next = toMove ? toMove.msg.view.seat : (shown !== null ? shown : ready[0].msg.view.seat);
    shown = next;
    const c = current();
    const { room, view, version } = c.msg;
    document.getElementById("title").textContent = `${room.game.name} \u00b7 ${view.players[view.seat].name}`;
    document.title = `${room.game.name} \u2013 cardsmith`;
    const rules = document.getElementById("rules-button");
    rules.disabled = false;
    rules.onclick = () => { C.rulesDialog(document.getElementById("rules"), room); document.getElementById("rules").showModal(); };
    const save = document.getElementById("save-button");
    save.disabled = false;
    document.getElementById("replay-button").hidden = !(view.over || room.error);
    // Hot-seat: a new player at the screen first sees a curtain, so the last one's cards are not left showing.
    if (conns.length > 1 && !view.over && unlocked !== shown) {
      root.replaceChildren();
      curtain.hidden = false;
      document.getElementById("curtain-text").textContent = `Pass the screen to ${view.players[view.seat].name}.`;
      document.getElementById("curtain-button").textContent = `I am ${view.players[view.seat].name}: show my cards`;
      document.body.dataset.version = version;
      return;
    }
    curtain.hidden = true;
    C.renderTable(root, room, view, view.your_turn ? move : null);
    document.body.dataset.version = version;
    document.body.dataset.seat = view.seat;
    document.body.dataset.over = view.over ? "yes" : "no";
  }

  async function record() {
    const res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/record`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ tokens: conns.map((c) => c.token) }),
    });
    // The text is kept as it came: a record's seed is a 39-digit number, which a JavaScript number would round.
    const text = await res.text();
    const data = JSON.parse(text);
    if (!res.ok) throw new Error(data.error || "the record could not be made");
    return { data, text };
  }

  document.getElementById("save-button").addEventListener("click", async () => {
    try {
      const { data, text } = await record();
      const blob = new Blob([text], { type: "application/json" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `${data.game.replace(/[^A-Za-z0-9]+/g, "-")}-${roomId}.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      say("saved: replay it on the lobby's replay page or with 'cardsmith replay'");
    } catch (e) { say(e.message); }
  });

  document.getElementById("replay-button").addEventListener("click", async () => {
    try {
      sessionStorage.setItem("cardsmith-record", (await record()).text);
      sessionStorage.setItem("cardsmith-seat", String(shown || 0));
      location.href = "/replay";
    } catch (e) { say(e.message); }
  });

  document.getElementById("curtain-button").addEventListener("click", () => { unlocked = shown; update(); });

  if (!conns.length) say("this address holds no seat: open the link the lobby gave for your seat");
  conns.forEach(connect);
})();
