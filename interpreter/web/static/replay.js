// A saved match step by step: the server replays the record (its rules must be one of the games it offers)
// and sends the table as the chosen seat saw it after each move.
"use strict";

(() => {
  const C = window.cardsmith;
  const $ = (id) => document.getElementById(id);
  let record = null; // the record's text
  let step = 0;
  let steps = 0;
  let seat = 0;

  function say(text) { $("notice").textContent = text; $("notice").hidden = !text; }

  async function show(k) {
    if (!record) return;
    const res = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" },
      body: `{"record": ${record}, "step": ${Number(k)}, "seat": ${Number(seat)}}` });
    const data = await res.json();
    if (!res.ok) { say(data.error); return; }
    say("");
    step = data.step;
    steps = data.steps;
    $("step").textContent = `move ${step} of ${steps}`;
    $("title").textContent = `Replay: ${data.room.game.name}`;
    const sel = $("seat");
    if (sel.options.length !== data.room.seats.length) {
      sel.replaceChildren(...data.room.seats.map((s) => { const o = C.el("option", null, s.name); o.value = s.seat; return o; }));
    }
    sel.value = String(seat);
    $("rules-button").disabled = false;
    $("rules-button").onclick = () => { C.rulesDialog($("rules"), data.room); $("rules").showModal(); };
    C.renderTable($("table"), data.room, data.view, null);
    document.body.dataset.step = step;
  }

  function load(text) {
    // Sent on as the text it is (checked to be JSON): a record's seed is a 39-digit number, which a JavaScript
    // number would round.
    try { JSON.parse(text); record = text; } catch { say("that file is not a match record (not JSON)"); return; }
    show(0);
  }

  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (f) load(await f.text());
  });
  $("seat").addEventListener("change", () => { seat = Number($("seat").value); show(step); });
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(Math.max(0, step - 1)));
  $("next").addEventListener("click", () => show(Math.min(steps, step + 1)));
  $("last").addEventListener("click", () => show(steps));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowRight") show(Math.min(steps, step + 1));
    else if (ev.key === "ArrowLeft") show(Math.max(0, step - 1));
  });

  const kept = sessionStorage.getItem("cardsmith-record");
  if (kept) {
    seat = Number(sessionStorage.getItem("cardsmith-seat") || 0);
    sessionStorage.removeItem("cardsmith-record");
    load(kept);
  }
})();
