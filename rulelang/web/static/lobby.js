"use strict";
// The lobby: pick a game, its player count and options, who sits in each seat; create the match
// and hand out one link per human seat and a spectator link. No build step, no library.
(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];
  let bots = [];
  let maxBudget = 5000;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function current() { return games.find((g) => g.key === $("game").value); }

  function showGame() {
    const g = current();
    if (!g) return;
    $("about").textContent = g.about;
    $("rules-link").href = "/rules/" + encodeURIComponent(g.key);
    const players = $("players");
    players.replaceChildren();
    for (let n = g.min_players; n <= g.max_players; n++) players.append(el("option", { value: n }, String(n)));
    const opts = $("options");
    opts.replaceChildren(el("legend", {}, "Options"));
    opts.hidden = g.options.length === 0;
    for (const o of g.options) {
      let input;
      if (o.choices) input = el("select", { "data-option": o.name, "data-type": o.type },
        ...o.choices.map((c) => el("option", { value: c, selected: c === o.default }, String(c))));
      else if (o.type === "bool") input = el("input", { type: "checkbox", "data-option": o.name, "data-type": "bool", checked: o.default === true });
      else if (o.type === "int") input = el("input", { type: "number", step: "1", value: o.default, "data-option": o.name, "data-type": "int" });
      else input = el("input", { type: "text", value: o.default, "data-option": o.name, "data-type": "text", maxlength: "200" });
      // (append(null) writes the word "null": an option without words showed it, a trial)
      opts.append(...[el("label", { title: o.about }, o.name + " ", input),
                      o.about ? el("small", { class: "dim" }, " " + o.about) : null].filter(Boolean));
    }
    showSeats();
  }

  function showSeats() {
    const n = Number($("players").value);
    const seats = $("seats");
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(el("legend", {}, "Seats"));
    for (let p = 0; p < n; p++) {
      const kind = el("select", { "data-seat": p, "aria-label": "P" + (p + 1) },
        el("option", { value: "human" }, "a person"),
        ...bots.map((b) => el("option", { value: b }, b + " bot")));
      kind.value = old[p] || (p === 0 ? "human" : "human");
      const budget = el("input", { type: "number", min: "1", max: String(maxBudget), value: "200", "data-budget": p, title: "search iterations per move" });
      // (hidden and disabled together: a number out of range in a box out of sight must not stop the form)
      const shown = () => { budget.hidden = budget.disabled = kind.value !== "ismcts"; };
      shown();
      kind.addEventListener("change", shown);
      seats.append(el("div", { class: "seat" }, el("span", {}, "P" + (p + 1) + " "), kind, budget));
    }
  }

  function spec() {
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      const t = input.dataset.type;
      if (t === "int" && input.value.trim() === "") continue;     // (left empty: the rules' default, not 0)
      options[input.dataset.option] = t === "bool" ? input.checked : t === "int" ? Number(input.value) : input.value;
    }
    // (the seats' own boxes: the links of a match made before are marked data-seat too, and a second
    // match made from the same page was refused as one seat too many per link)
    const seats = [...$("seats").querySelectorAll("select[data-seat]")].map((s) => {
      if (s.value !== "ismcts") return s.value;
      const b = document.querySelector(`[data-budget="${s.dataset.seat}"]`);
      return "ismcts:" + Math.max(1, Math.floor(Number(b.value) || 200));
    });
    return { game: $("game").value, players: Number($("players").value), options, seats, invite: !$("per-seat").checked };
  }

  async function create(ev) {
    ev.preventDefault();
    $("error").textContent = "";
    // (the last match's links are not this request's: left under a refusal's error, a host could
    // send friends the wrong game's invite — a browser trial)
    $("created").hidden = true;
    $("create").disabled = true;
    try {
      const r = await fetch("/api/matches", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(spec()) });
      const body = await r.json();
      if (!r.ok) { $("error").textContent = body.error || "the match could not be made"; return; }
      showLinks(body);
      remember(body);
    } catch (e) {
      $("error").textContent = "the server cannot be reached";
    } finally {
      $("create").disabled = false;
    }
  }

  // the clipboard is there on https and on this computer only: over plain http from another one
  // (a LAN address), the link is shown selected for the player to copy
  function copyLink(url, button) {
    const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1500); };
    const byHand = () => { window.prompt("Copy this link (Ctrl+C), then send it to its player:", url); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, byHand);
    else byHand();
  }

  function linkItem(label, url) {
    const copy = el("button", { type: "button", class: "small", onclick: (ev) => copyLink(url, ev.currentTarget) }, "copy");
    return el("li", {}, el("strong", {}, label + " "), el("a", { href: url, target: "_blank", rel: "noopener", class: "seat-link", "data-seat": label }, url), " ", copy);
  }

  function showLinks(body) {
    const ul = $("links");
    ul.replaceChildren();
    $("links-title").textContent = `Links: ${body.game}`;
    $("links-about").textContent = body.invite
      ? `Send the invite link to everyone who plays (${body.invite.seats.join(", ")}): each who opens it and clicks Take a seat gets one of their own, in that order, and comes back to it from the same browser. If you play too, take yours first.`
      : "Each link is a seat's secret: whoever has it plays that seat. Send each one to its player only.";
    if (body.invite) ul.append(linkItem("invite", body.invite.url));
    for (const l of body.links) ul.append(linkItem(l.seat, l.url));
    for (const b of body.bots) ul.append(el("li", { class: "dim" }, `${b.seat}: ${b.kind} bot`));
    ul.append(linkItem("spectator", body.spectator.url));
    $("created").hidden = false;
    $("created").scrollIntoView({ block: "start" });          // (below the fold on a laptop or a phone)
  }

  // The links of matches made here, so the host can find them again (this browser only).
  function remember(body) {
    try {
      const all = JSON.parse(localStorage.getItem("rulelang.matches") || "[]");
      all.unshift({ game: body.game, when: new Date().toISOString(), links: body.links, spectator: body.spectator.url,
                    invite: body.invite ? body.invite.url : null });
      localStorage.setItem("rulelang.matches", JSON.stringify(all.slice(0, 20)));
    } catch (e) { /* private mode: nothing kept */ }
    recent();
  }

  function localTime(iso) {
    const d = new Date(iso), two = (n) => String(n).padStart(2, "0");
    if (isNaN(d)) return String(iso);
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
  }

  function recent() {
    let all = [];
    try { all = JSON.parse(localStorage.getItem("rulelang.matches") || "[]"); } catch (e) { all = []; }
    const ul = $("recent");
    ul.replaceChildren();
    for (const m of all) {
      // each link whole, the lines broken between them (a phone showed "invite s / pectator"), and
      // the time this browser's own (it was UTC, unsaid)
      const links = [...(m.invite ? [["invite", m.invite]] : []), ...m.links.map((l) => [l.seat, l.url]), ["spectator", m.spectator]];
      ul.append(el("li", {}, `${m.game} (${localTime(m.when)}): `,
        ...links.flatMap(([label, url], i) => [i ? "\u00a0· " : null, el("a", { href: url }, label)]).filter(Boolean)));
    }
    $("mine").hidden = all.length === 0;
  }

  async function start() {
    try {
      const r = await fetch("/api/games");
      const body = await r.json();
      games = body.games; bots = body.bots; maxBudget = body.max_ismcts;
    } catch (e) {
      $("error").textContent = "the server cannot be reached";
      return;
    }
    const select = $("game");
    for (const g of games) select.append(el("option", { value: g.key }, `${g.name} (${g.min_players === g.max_players ? g.min_players : g.min_players + "–" + g.max_players} players)`));
    select.addEventListener("change", showGame);
    $("players").addEventListener("change", showSeats);
    $("new-match").addEventListener("submit", create);
    showGame();
    recent();
    // (the button stays disabled until the games are known: clicked earlier on a slow server, the
    // form was sent by the browser itself, reloading the lobby with no match made)
    $("create").disabled = false;
  }
  start();
})();
