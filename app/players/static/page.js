// A side's page (issue 48): the desk's view of this side, live; the dice and plots its
// players type, sent to the desk as pending entries the umpire accepts with one key.
// No build step, no library: the browser's EventSource keeps the page live and reconnects
// by itself; on every (re)connection the desk sends the view as it is now.
"use strict";
(function () {
  const token = location.pathname.split("/")[2] || "";
  const base = "/s/" + encodeURIComponent(token);
  const $ = (id) => document.getElementById(id);
  let view = null;
  let source = null;
  let poll = null;
  const forms = new Map(); // line key -> {sig, el}
  const said = new Map(); // line key -> what the last send said (until the view says more)
  const cards = new Map(); // card key -> its HTML (sent once per change of the card)

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function link(state, text) {
    const l = $("link");
    l.className = "link " + state;
    l.textContent = text;
  }

  function render(v) {
    view = v;
    document.title = "Airboss — " + v.side;
    $("side").textContent = v.side;
    $("turn").textContent = "Turn " + v.turn;
    $("step").textContent = v.step;
    $("step-text").textContent = v.step_text;
    renderActing(v);
    renderMine(v);
    renderSent(v);
    for (const k of [...cards.keys()]) if (!v.cards.includes(k)) cards.delete(k);
    const html = v.cards.map((k) => cards.get(k) || "").join("");
    if ($("cards").dataset.keys !== v.cards.join(" ")) {  // redrawn only when a card changed
      $("cards").innerHTML = html || '<p class="none">no aircraft</p>';
      $("cards").dataset.keys = v.cards.join(" ");
    }
    const enemy = $("enemy");
    enemy.replaceChildren();
    $("enemy-title").textContent = v.spotting ? "The enemy you have spotted" : "The enemy";
    for (const a of v.enemy) enemy.append(aircraftItem(a));
    if (!v.enemy.length) enemy.append(el("li", {class: "none"}, v.spotting ? "none spotted" : "none"));
    const order = $("order");
    order.replaceChildren(...v.initiative.map((w) => el("li", {}, w)));
    $("order-box").hidden = !v.initiative.length;
  }

  function aircraftItem(a) {
    let text = a.name + " (" + a.kind + (a.count !== 1 ? " ×" + a.count : "") + ")";
    if (a.damage) text += "  damage " + a.damage;
    if (a.status) text += " — " + a.status;
    return el("li", {class: a.in_play ? "" : "out"}, text);
  }

  function renderActing(v) {
    const ol = $("acting");
    ol.replaceChildren();
    for (const line of v.acting) {
      const cls = (line.done ? "done " : "") + (line.mine ? "mine" : "");
      let text = line.name + " — " + line.what;
      if (line.cannot) text += " — cannot: " + line.cannot;
      ol.append(el("li", {class: cls}, text));
    }
    if (!v.acting.length) ol.append(el("li", {class: "none"}, "nobody acts in this step"));
  }

  function renderMine(v) {
    const box = $("mine");
    const keep = new Set();
    const nodes = [];
    for (const line of v.acting) {
      if (!line.mine || !line.ask) continue;
      const sig = JSON.stringify([line.key, line.ask]);
      keep.add(line.key);
      let f = forms.get(line.key);
      if (!f || f.sig !== sig) {
        f = {sig: sig, el: askForm(line)};
        forms.set(line.key, f);
      }
      const out = f.el.querySelector(".said");
      const entry = line.entry;
      const mine = said.get(line.key);
      if (mine && entry && entry.id > mine.after) said.delete(line.key); // the desk has it now
      const s = said.get(line.key) || (entry ? {state: entry.state, text: entry.text} : {state: "", text: ""});
      out.className = "said " + s.state;
      out.textContent = s.text;
      nodes.push(f.el);
    }
    for (const k of [...forms.keys()]) if (!keep.has(k)) forms.delete(k);
    box.replaceChildren(...nodes);
    $("mine-box").hidden = !nodes.length;
  }

  function askForm(line) {
    const ask = line.ask;
    const form = el("form", {class: "ask", "data-line": line.key});
    form.append(el("h3", {}, line.name + " — " + line.what));
    if (ask.kind === "wait") {
      form.append(el("p", {class: "wait"}, ask.note));
      form.append(el("div", {class: "said"}));
      return form;
    }
    if (ask.kind === "dice") {
      form.append(el("p", {}, "Roll and type:"));
      ask.slots.forEach((s, i) => {
        const id = "d-" + line.key + "-" + i;
        const label = el("label", {for: id}, s.label + " — " + s.die + " ");
        label.append(el("small", {}, "(" + s.hint + ")"));
        const input = el("input", {type: "text", id: id, inputmode: "numeric", autocomplete: "off",
                                   "data-slot": String(i), maxlength: "40", "aria-label": s.label + " (" + s.die + ")"});
        form.append(label, input);
      });
    } else {
      form.append(el("p", {}, ask.sealed ? "Write your plot (the umpire sees it only once every plot is in):" : "Write your plot:"));
      for (const f of ask.fields) {
        const id = "p-" + line.key + "-" + f.name;
        if (f.kind === "bool") {
          const wrap = el("label", {class: "check", for: id});
          const box = el("input", {type: "checkbox", id: id, "data-field": f.name});
          box.checked = !!f.default;
          wrap.append(box, document.createTextNode(f.title));
          form.append(wrap);
        } else if (f.kind === "choice") {
          form.append(el("label", {for: id}, f.title));
          const sel = el("select", {id: id, "data-field": f.name});
          for (const o of f.options) sel.append(el("option", {value: o}, o));
          if (f.default !== null) sel.value = String(f.default);
          form.append(sel);
        } else {
          const label = el("label", {for: id}, f.title + " ");
          label.append(el("small", {}, "(" + f.low + "-" + f.high + ")"));
          const input = el("input", {type: "number", id: id, inputmode: "numeric", min: String(f.low),
                                     max: String(f.high), "data-field": f.name});
          if (f.default !== null) input.value = String(f.default);
          form.append(label, input);
        }
      }
    }
    const button = el("button", {type: "submit"}, ask.kind === "dice" ? "Send the dice to the umpire" : "Send the plot to the umpire");
    form.append(button, el("div", {class: "said", role: "status"}));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); send(line.key, ask, form); });
    return form;
  }

  async function send(key, ask, form) {
    const body = {line: key, seen: view ? view.version : 0};
    const line = view ? view.acting.find((l) => l.key === key) : null;
    const after = line && line.entry ? line.entry.id : 0;
    const out = form.querySelector(".said");
    if (ask.kind === "dice") {
      body.dice = [...form.querySelectorAll("[data-slot]")].map((i) => i.value.trim());
    } else {
      body.plot = {};
      for (const f of ask.fields) {
        const input = form.querySelector('[data-field="' + CSS.escape(f.name) + '"]');
        if (f.kind === "bool") body.plot[f.name] = input.checked;
        else if (f.kind === "choice") body.plot[f.name] = input.value;
        else {
          const n = Number(input.value);
          if (input.value.trim() === "" || !Number.isInteger(n)) {
            out.className = "said error";
            out.textContent = f.title + ": type a whole number";
            return;
          }
          body.plot[f.name] = n;
        }
      }
    }
    out.className = "said pending";
    out.textContent = "Sending…";
    try {
      const r = await fetch(base + "/send", {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify(body), credentials: "omit", cache: "no-store"});
      const answer = await r.json().catch(() => ({}));
      const s = r.ok ? {state: "pending", text: answer.said || "Sent", after: after}
                     : {state: "error", text: "Not sent: " + (answer.error || r.status), after: Infinity};
      said.set(key, s);
      out.className = "said " + s.state;
      out.textContent = s.text;
    } catch (e) {
      said.set(key, {state: "error", text: "Not sent: no connection to the desk. Try again.", after: Infinity});
      out.className = "said error";
      out.textContent = "Not sent: no connection to the desk. Try again.";
    }
  }

  function renderSent(v) {
    const ul = $("sent");
    ul.replaceChildren(...v.entries.map((e) => el("li", {class: "said " + e.state}, e.text)));
    $("sent-box").hidden = !v.entries.length;
  }

  function revoked() {
    link("lost", "This link is not valid any more (revoked, or another game). Ask the umpire for your side's new link.");
    if (source) source.close();
    if (poll) clearInterval(poll);
    source = null;
  }

  async function fetchState() {
    try {
      const r = await fetch(base + "/state", {cache: "no-store", credentials: "omit"});
      if (r.status === 404) { revoked(); return; }
      if (r.ok) {
        const v = await r.json();
        for (const [k, html] of Object.entries(v.card_html)) cards.set(k, html);
        render(v);
        link("live", "Up to date (reloading every few seconds)");
      }
    } catch (e) {
      link("lost", "No connection to the desk: trying again…");
    }
  }

  function connect() {
    if (!window.EventSource) { fetchState(); poll = setInterval(fetchState, 3000); return; }
    source = new EventSource(base + "/events");
    source.addEventListener("view", (ev) => {
      render(JSON.parse(ev.data));
      link("live", "Live: up to date with the desk");
    });
    source.addEventListener("card", (ev) => {
      const c = JSON.parse(ev.data);
      cards.set(c.key, c.html);
    });
    source.addEventListener("revoked", revoked);
    source.onerror = () => {
      if (!source) return;
      link("lost", "Connection to the desk lost: reconnecting…");
      if (source.readyState === EventSource.CLOSED) {
        // refused outright (a revoked link answers 404): ask once to tell which
        fetchState().then(() => { if (source) setTimeout(connect, 2000); });
      }
    };
  }

  document.addEventListener("visibilitychange", () => {
    // a phone that slept: its connection may be gone without an error; start afresh
    if (document.visibilityState === "visible" && source && source.readyState !== EventSource.OPEN) {
      source.close();
      connect();
    }
  });
  connect();
})();
