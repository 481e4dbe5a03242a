"use strict";
// A seat's table (or a spectator's), drawn from what the server sends — the engine's view of the
// match for this seat — with no knowledge of any game: the board as SVG, zones as rows of cards,
// the rules' status values, the legal actions as buttons, questions as a dialog, the log.
(function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const parts = location.pathname.split("/");          // /play/MATCH/TOKEN
  const matchId = parts[2], token = parts[3];
  let ws = null, hello = null, state = null, retry = 500, closedForGood = false;
  let narrow = null;                                     // {kind: "comp"|"cell", id, label}
  let errorSeen = null;      // the version shown with the error on screen (undefined: not yet come)

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
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  const seatName = (p) => (p === null || p === undefined ? "" : "P" + (p + 1));
  function show(v) {
    if (v === null || v === undefined) return "–";
    if (v === true) return "yes";
    if (v === false) return "no";
    if (Array.isArray(v)) return v.map(show).join(", ");
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
  }

  // ---- the connection: one websocket, reopened when it drops ------------------------------
  const OFFLINE = "the connection to the server is lost: reconnecting… (nothing was sent)";
  // (a move sent and not answered yet may have been played: "nothing was sent" was wrong then — a
  // browser trial's move was played each time it read so)
  const OFFLINE_SENT = "the connection to the server is lost: reconnecting… (your last move was sent: whether it was played shows once back)";
  let unanswered = null;                // the version a move was sent at, until the server answers
  const offline = () => (unanswered !== null ? OFFLINE_SENT : OFFLINE);
  // the connection's state in the header; a move still unanswered also under the pinned status line
  // (scrolled down on a phone, "sent; waiting for the server…" was out of sight: a browser trial —
  // a lost connection says so in #error, pinned there too)
  function conn(text) {
    $("conn").textContent = text;
    $("conn-note").textContent = text.startsWith("sent") ? text : "";
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/${matchId}/${token}`);
    ws.onopen = () => {
      retry = 500;
      conn("");
      if ($("error").textContent === OFFLINE || $("error").textContent === OFFLINE_SENT) $("error").textContent = "";
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "hello") {
        hello = msg;
        if (msg.rules) { $("rules-link").href = msg.rules; $("rules-link").hidden = false; }   // every card's text too
        drawBoardBase();
        header();
      }
      else if (msg.type === "state") {
        if ($("conn").textContent === "sent; waiting for the server…") conn("");
        if (state && msg.version !== state.version) { narrow = null; unanswered = null; }   // a new position: all its actions
        // an error stays through the position it came with (the server sends that one after it),
        // and goes when the match moves on from there
        if (errorSeen === undefined) errorSeen = msg.version;
        else if (errorSeen !== null && msg.version !== errorSeen) { $("error").textContent = ""; errorSeen = null; }
        state = msg;
        render();
      }
      else if (msg.type === "error") { $("error").textContent = msg.message; errorSeen = undefined; unanswered = null; }
    };
    ws.onclose = (ev) => {
      if (ev.code === 4404 || ev.code === 1008) {
        closedForGood = true;
        conn(ev.reason || "closed");
        $("error").textContent = ev.reason || "this link does not open a match";
        return;
      }
      // (the server's word where it gave one: "too many pages open from this address" read as a
      // lost network — a socket trial)
      conn(ev.reason ? `reconnecting… (${ev.reason})` : "reconnecting…");
      // nothing can be sent now: the buttons say so, not a click that is silently lost
      for (const b of document.querySelectorAll("button.action, button.option, #undo")) b.disabled = true;
      if (!$("error").textContent) $("error").textContent = offline();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  // the network gone with the socket still open (wifi lost): the page looked live, and a click
  // waited unseen for 20 s (a browser trial). The browser's own word is taken, and a click not yet
  // answered after a few seconds is said.
  window.addEventListener("offline", () => {
    conn("offline");
    for (const b of document.querySelectorAll("button.action, button.option, #undo")) b.disabled = true;
    $("error").textContent = offline();
  });
  window.addEventListener("online", () => { if (ws && ws.readyState === WebSocket.OPEN) ws.close(); });    // (then anew)
  function send(text) {
    if (!ws || ws.readyState !== WebSocket.OPEN || !state || navigator.onLine === false) { $("error").textContent = OFFLINE; return; }
    $("error").textContent = "";
    ws.send(JSON.stringify({ type: "act", text, version: state.version }));
    const sentAt = unanswered = state.version;
    setTimeout(() => { if (state && state.version === sentAt && !$("error").textContent && !$("conn").textContent)
      conn("sent; waiting for the server…"); }, 4000);
    for (const b of document.querySelectorAll("button.action, button.option")) b.disabled = true;
    $("filter").value = "";             // (the next position's actions are others: a filter kept would hide them)
  }

  function sendUndo(body) {
    if (!ws || ws.readyState !== WebSocket.OPEN || !state) return;
    $("error").textContent = "";
    ws.send(JSON.stringify(Object.assign({ version: state.version }, body)));
    for (const id of ["undo", "undo-yes", "undo-no"]) $(id).disabled = true;   // (once: a double tap asks once)
  }
  // ---- undo: asked by a seat, answered by every other person's seat ------------------------------
  function drawUndo() {
    const u = state.undo, mine = state.you !== null && state.you !== undefined;
    $("undo-box").hidden = !mine || view_over();
    const b = $("undo");
    b.disabled = !state.can_undo;
    b.title = state.undo_why || "take back your last decision (the others are asked)";
    $("undo-why").textContent = state.undo_why && state.undo_why.startsWith("cannot") ? state.undo_why : "";
    const ask = $("undo-ask");
    ask.hidden = !u;
    if (u) {
      const which = u.move ? ` (${u.move}) and everything played since` : "";
      // (what this page shows now and would not once undone: one's own reveal is hidden again — a
      // browser trial accepted, not told the others' pages would lose the character they had seen)
      const hides = (u.hides || []).length ? ` Once undone, ${u.hides.slice(0, 6).join(", ")}${u.hides.length > 6
        ? ` and ${u.hides.length - 6} more` : ""} go${u.hides.length === 1 ? "es" : ""} back out of your sight.` : "";
      // (a friend whose page is closed is said so: an undo waited on one with nothing to tell — a browser trial)
      const seats = state.seats || [];
      const waiting = u.waiting.map((name) => {
        const s = seats[Number(name.slice(1)) - 1];
        return s && s.connected === false ? `${name} (not connected)` : name;
      }).join(", ");
      $("undo-text").textContent = u.to_answer ? `${u.by} asks to undo their last move${which}.${hides}`
        : u.mine ? `You asked to undo your last move${which}: waiting for ${waiting}.`
        : `${u.by} asks to undo their last move${which}: waiting for ${waiting}.`;
      $("undo-yes").hidden = !u.to_answer;
      $("undo-no").hidden = !(u.to_answer || u.mine);
      $("undo-yes").disabled = $("undo-no").disabled = false;
      $("undo-no").textContent = u.mine ? "Withdraw" : "Decline";
    }
  }
  function view_over() { return !!(state && state.view && state.view.over); }

  function header() {
    $("game-name").textContent = hello.game;
    $("who").textContent = hello.you ? `You are ${hello.you}` : "Spectator";
    document.title = `${hello.game} — ${hello.you || "spectator"}`;
  }

  // ---- the board -------------------------------------------------------------------------------
  const CELL = 40;
  function cellPoints(c) {
    const cx = (c.x - hello.board.min_x) * CELL + CELL, cy = (c.y - hello.board.min_y) * CELL + CELL;
    const r = CELL / 2;
    if (c.shape === "hex") {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 180 * (60 * i - 90);
        pts.push([cx + r * 1.15 * Math.cos(a), cy + r * 1.15 * Math.sin(a)]);
      }
      return { cx, cy, pts };
    }
    if (c.shape === "octagon") {
      const k = r * 0.41;
      return { cx, cy, pts: [[cx - k, cy - r], [cx + k, cy - r], [cx + r, cy - k], [cx + r, cy + k], [cx + k, cy + r], [cx - k, cy + r], [cx - r, cy + k], [cx - r, cy - k]] };
    }
    if (c.shape === "socket") {
      const s = r * 0.58;
      return { cx, cy, pts: [[cx, cy - s], [cx + s, cy], [cx, cy + s], [cx - s, cy]] };
    }
    return { cx, cy, pts: [[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]] };
  }
  function drawBoardBase() {
    const b = hello.board, board = $("board");
    board.replaceChildren();
    $("board-wrap").hidden = !b;
    if (!b) return;
    $("board-key").hidden = !(b.legend && b.legend.length);
    $("key-list").replaceChildren(...(b.legend || []).map((x) => el("li", {}, x)));
    const w = (b.max_x - b.min_x + 2) * CELL, h = (b.max_y - b.min_y + 2) * CELL;
    board.setAttribute("viewBox", `0 0 ${w} ${h}`);
    // never drawn so small that its words cannot be read (on a phone, a large board scrolls sideways)
    board.style.minWidth = `${Math.round(w * 0.85)}px`;
    const order = [...b.cells].sort((a, c) => (a.shape === "socket") - (c.shape === "socket"));
    for (const c of order) {
      const { cx, cy, pts } = cellPoints(c);
      const g = svg("g", { class: "cell " + c.shape, "data-cell": c.name });
      g.append(svg("polygon", { points: pts.map((p) => p.join(",")).join(" ") }));
      const t = svg("text", { x: cx, y: cy + 5, "text-anchor": "middle" });
      g.append(t);
      // each cell's name, small, since the actions name cells (`move f11 cavalry g8`)
      if (c.shape !== "socket") {
        const coord = svg("text", { class: "coord", x: cx, y: cy - CELL * 0.27, "text-anchor": "middle" });
        coord.textContent = c.name;
        g.append(coord);
      }
      const title = svg("title", {});
      g.append(title);
      g.addEventListener("click", () => setNarrow({ kind: "cell", id: c.name, label: c.name }));
      board.append(g);
    }
    wider();
  }
  // a board wider than the screen says so (a browser trial: on a phone a column was cut off, with
  // nothing to tell it scrolls)
  function wider() {
    const wrap = $("board-wrap");
    $("board-wider").hidden = !(wrap.scrollWidth > wrap.clientWidth + 2);
  }
  window.addEventListener("resize", () => { if (hello && hello.board) wider(); });
  function drawBoard(view) {
    if (!hello || !hello.board) return;
    const cells = view.cells || {};
    const glyphs = state.glyphs || {};
    const active = new Set();
    for (const a of state.actions.concat(state.out_of_turn)) for (const c of a.cells) active.add(c);
    for (const g of $("board").querySelectorAll("g.cell")) {
      const name = g.dataset.cell;
      const held = cells[name] || {};
      const variables = view.cell_vars || {};           // (no zones: their lists hold ids, not labels)
      const worded = (view.cell_texts || {})[name] || {};
      let glyph = glyphs[name];
      if (glyph === undefined) {
        glyph = "";
        for (const [k, v] of Object.entries(held)) {
          if (!(k in variables) && Array.isArray(v) && v.length) { glyph = v[v.length - 1]; break; }
        }
      }
      if (glyph === "." || glyph === "·") glyph = "";
      g.querySelector("text:not(.coord)").textContent = glyph;
      const lines = [name, ...Object.entries(held).map(([k, v]) => `${k}: ${k in worded ? worded[k]
        : Array.isArray(v) ? v.join(", ") || "empty" : show(v)}`)];
      g.querySelector("title").textContent = lines.join("\n");
      g.classList.toggle("hl", active.has(name));
      g.classList.toggle("picked", !!narrow && narrow.kind === "cell" && narrow.id === name);
      g.classList.toggle("held", Object.keys(held).length > 0);
    }
  }

  // ---- zones as rows of cards --------------------------------------------------------------------
  function cardWords(card) { return card.text ? `${card.label}: ${card.text}` : card.label; }
  // a component's values, one that names a card or a player in words (`mate Oak`, not an id)
  function valuesInWords(view) {
    const values = view.component_values || {}, texts = view.component_texts || {};
    const out = {};
    for (const [c, held] of Object.entries(values)) {
      out[c] = {};
      for (const [k, v] of Object.entries(held)) out[c][k] = texts[c] && k in texts[c] ? texts[c][k] : v;
    }
    return out;
  }
  function cardEl(card, involved, values) {
    const extra = values && values[String(card.id)];
    const e = el("button", { type: "button", class: "card" + (involved.has(card.id) ? " hl" : "") + (narrow && narrow.kind === "comp" && narrow.id === card.id ? " picked" : ""), title: cardWords(card), "data-id": card.id },
      el("span", { class: /[♥♦]/.test(card.label) ? "label red" : "label" }, card.label),     // (red suits in red)
      extra ? el("small", { class: "dim" }, Object.entries(extra).map(([k, v]) => `${k} ${show(v)}`).join(" · ")) : null);
    e.addEventListener("click", (ev) => {
      tip(card, ev.currentTarget);
      if (involved.has(card.id)) setNarrow({ kind: "comp", id: card.id, label: card.label });
    });
    return e;
  }
  function backEl(count) {
    return el("span", { class: "card back", title: `${count} hidden` }, el("span", { class: "label" }, count > 1 ? `×${count}` : "?"));
  }
  // a component's rules text, asked of the server when its tip is first shown (only what this seat
  // may see is answered); kept for the position it was asked in
  const texts = new Map();
  function rulesText(id) {
    const key = `${id}@${state.version}`;
    if (!texts.has(key)) {
      texts.set(key, fetch(`/api/play/${matchId}/${token}/text/${id}`)
        .then((r) => (r.ok ? r.json() : null)).then((b) => (b && b.text) || null).catch(() => null));
    }
    return texts.get(key);
  }
  const byName = new Map();             // a declared card's words, by name: the same all game
  function cardText(name) {
    if (!byName.has(name)) {
      byName.set(name, fetch(`/api/play/${matchId}/${token}/card/${encodeURIComponent(name)}`)
        .then((r) => (r.ok ? r.json() : null)).then((b) => (b && b.text) || null).catch(() => null));
    }
    return byName.get(name);
  }
  function tip(card, anchor) {
    const t = $("card-tip");
    t.replaceChildren(...[el("strong", {}, card.label), card.text ? el("p", {}, card.text) : null].filter(Boolean));
    const key = card.id !== null && card.id !== undefined ? String(card.id) : `name:${card.label}`;
    if (!card.text) {
      (key.startsWith("name:") ? cardText(card.label) : rulesText(card.id)).then((text) => {
        if (text && !t.hidden && t.dataset.id === key) { t.append(el("p", {}, text)); place(); }
      });
    }
    t.dataset.id = key;
    const r = anchor.getBoundingClientRect();
    // below the card, or above it when it would run off the bottom of the screen (a phone); when it
    // fits neither, as low as it fits, inside the screen (a general's 600-pixel text ran 357 pixels
    // off a phone's screen — a browser trial)
    function place() {
      t.style.left = Math.max(4, Math.min(window.innerWidth - 260, r.left + window.scrollX)) + "px";
      const h = t.getBoundingClientRect().height;
      let top;
      if (r.bottom + 4 + h <= window.innerHeight) top = r.bottom + 4;
      else if (r.top - 4 - h >= 0) top = r.top - 4 - h;
      else top = Math.max(4, window.innerHeight - 4 - h);
      t.style.top = top + window.scrollY + "px";
    }
    t.hidden = false;
    place();
    clearTimeout(tip.timer);
    // long enough to read a general's text; Escape or a click elsewhere closes it sooner
    tip.timer = setTimeout(() => { t.hidden = true; }, card.text ? 8000 : 30000);
  }
  function zoneTitle(z) {
    let name = z.name.replace(/_/g, " ");
    if (z.key_text) name += ` (${z.key_text})`;
    if (z.of) name += ` of ${z.of.label}`;
    return name;
  }
  function drawZones(view) {
    const involved = new Set();
    for (const a of state.actions.concat(state.out_of_turn)) for (const c of a.comps) involved.add(c);
    const groups = new Map();
    for (const z of view.zones) {
      const owner = z.owner === null || z.owner === undefined ? null : z.owner;
      if (!groups.has(owner)) groups.set(owner, []);
      groups.get(owner).push(z);
    }
    const out = [];
    const keys = [...groups.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : a === view.viewer ? -1 : b === view.viewer ? 1 : a - b));
    for (const owner of keys) {
      const title = owner === null ? "Table" : seatName(owner) + (owner === view.viewer ? " (you)" : "") + (owner === view.actor ? " — to act" : "");
      const box = el("div", { class: "group" + (owner !== null && owner === view.viewer ? " mine" : "") }, el("h3", {}, title));
      for (const z of groups.get(owner)) {
        // (an empty hidden zone of the table is left out; a player's is shown, as its owner sees
        // it: whether a partner still holds cards is public, and their group stayed off the page)
        if (z.count === 0 && !z.cards && owner === null) continue;
        const row = el("div", { class: "cards" });
        if (z.cards) {
          for (const c of z.cards) row.append(cardEl(c, involved, valuesInWords(view)));
          if (z.top_only && z.count > 1) row.append(backEl(z.count - 1));
        } else {
          const known = z.known || [];
          for (const c of known) row.append(cardEl(c, involved, valuesInWords(view)));
          if (z.count - known.length > 0) row.append(backEl(z.count - known.length));
        }
        box.append(el("div", { class: "zone", "data-zone": z.name, "data-owner": owner === null ? "" : owner },
          el("div", { class: "zone-name" }, `${zoneTitle(z)} `, el("small", { class: "dim" }, String(z.count))), row));
      }
      if (box.children.length > 1) out.push(box);
    }
    replaceIfChanged($("zones"), out);
  }

  // ---- card names in words: each opens its card's tip ----------------------------------------
  // (the rules' status lines may name the cards in play only as words, and a
  // player must be able to read each; the server sends the names this seat may see)
  let namesFor = null, namesRe = null, namesIds = null;
  // The names in a line that open a card's tip: those the reader sees (`names`), each read whole —
  // every card name of the rules (`card_names`) is matched too, longest first, so a name inside a
  // longer one is no link (`Smoke` in "Smoke Bomb"), nor one running on into a capitalised word
  // that starts no name (`Dynamite` in "Dynamite Nurse", an ability): a legibility trial tapped
  // them and read another card's text.
  let namesStart = null, worded = new Set();
  function namePattern() {
    if (namesFor === state.version) return namesRe;
    namesFor = state.version;
    namesIds = new Map(state.names || []);
    worded = new Set(state.worded_cards || []);
    const all = new Set([...namesIds.keys(), ...(state.card_names || [])]);
    const esc = [...all].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    namesRe = esc.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${esc.join("|")})(?![\\p{L}\\p{N}])`, "gu") : null;
    namesStart = esc.length ? new RegExp(`^(?:${esc.join("|")})(?![\\p{L}\\p{N}])`, "u") : null;
    return namesRe;
  }
  function runsOn(text, end) {          // a capitalised word follows that starts no name
    const rest = text.slice(end);
    return /^\s\p{Lu}\p{Ll}/u.test(rest) && !(namesStart && namesStart.test(rest.slice(1)));
  }
  function named(text) {
    const re = namePattern();
    text = String(text);
    if (!re) return [text];
    const out = [];
    let at = 0;
    for (const m of text.matchAll(re)) {
      if ((!namesIds.has(m[0]) && !worded.has(m[0])) || runsOn(text, m.index + m[0].length)) continue;
      // the punctuation right before a name stays on its line too (`into their hand (` / `Neophyte)`
      // broke apart — a browser trial)
      const head = /[^\s\p{L}\p{N}]*$/u.exec(text.slice(at, m.index))[0];
      if (m.index - head.length > at) out.push(text.slice(at, m.index - head.length));
      // a card the seat sees now opens its own tip; any other declared card, the rulebook's words
      // for it (one dealt back into a deck: a browser trial could not read it at the table)
      const id = namesIds.has(m[0]) ? namesIds.get(m[0]) : null;
      const b = id === null ? el("button", { type: "button", class: "named rulebook", "data-name": m[0] }, m[0])
        : el("button", { type: "button", class: "named", "data-id": id }, m[0]);
      b.addEventListener("click", (ev) => { ev.stopPropagation(); tip({ id, label: m[0] }, ev.currentTarget); });
      at = m.index + m[0].length;
      // the punctuation after a name stays on its line, as in plain text (`Summon` / `, Portal`
      // broke apart — a browser trial)
      const tail = /^(?:['’]s)?[^\s\p{L}\p{N}]*/u.exec(text.slice(at))[0];
      if (tail || head) {
        out.push(el("span", { class: "nowrap" }, head, b, tail));
        at += tail.length;
      } else out.push(b);
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  }

  // ---- status values -----------------------------------------------------------------------------
  function drawValues(view) {
    const rows = [], places = [];
    for (const v of view.values) {
      let text;
      if (v.per_player) text = v.per_player.map((x, p) => `${seatName(p)} ${show(v.texts && v.texts[p] !== null && v.texts[p] !== undefined ? v.texts[p] : x)}`).join(" · ");
      else if (v.per_key) text = v.per_key.map((m) => `${m.key_text} ${show(m.text !== undefined ? m.text : m.value)}`).join(" · ");
      else text = show(v.text !== undefined ? v.text : v.value);
      const name = v.label ? v.name : v.name.replace(/_/g, " ");
      if (Array.isArray(v.value) && !v.per_player) {
        rows.push(el("div", { class: "value" }, el("span", { class: "name" }, name), nested(v.value.map(show))));
      } else rows.push(el("div", { class: "value" }, el("span", { class: "name" }, name), " ", el("span", {}, ...named(text))));
      places.push(v.table ? "table-values" : "values");
    }
    // the values the rules mark `table` (the market, the bases in play) are part of the table: in
    // its column, in the board's place or under it, and the rest of the status beside it (a game
    // with no board had its play area under the buttons, below a laptop's fold: a first hour)
    for (const id of ["table-values", "values"]) $(id).replaceChildren(...rows.filter((_, i) => places[i] === id));
    $("table-values").hidden = !places.includes("table-values");
  }
  // A list's lines as the rules indent them: a line that starts with more spaces than the one above
  // is listed inside that one's item (the cards on each place), as the terminal shows it; a browser
  // trial found them flattened to one level, which card lay where lost.
  function nested(lines) {
    const depth = (line) => line.length - line.trimStart().length;
    const top = el("ul", {});
    const stack = [{ depth: Math.min(...lines.map(depth)), ul: top }];
    for (const line of lines) {
      const d = depth(line);
      while (stack.length > 1 && d < stack[stack.length - 1].depth) stack.pop();
      const at = stack[stack.length - 1], above = at.ul.lastElementChild;
      if (d > at.depth && above) {
        const ul = el("ul", {});
        above.append(ul);
        stack.push({ depth: d, ul });
      }
      stack[stack.length - 1].ul.append(el("li", {}, ...named(line.trimStart())));
    }
    return top;
  }

  // ---- status line, outcome -------------------------------------------------------------------
  function drawStatus(view) {
    const kinds = state.seats;
    // (a person whose page is closed: "P4 (not connected) to act" — a browser trial could not tell
    // a friend thinking from a friend gone)
    const kindOf = (p) => (kinds[p] && kinds[p].kind !== "human" ? ` (${kinds[p].kind})`
      : kinds[p] && kinds[p].connected === false && p !== view.viewer ? " (not connected)" : "");
    let line;
    if (state.fault) line = state.fault;
    else if (view.over) {
      // (who won, in the pinned line: on a phone the outcome's box is at the top, out of sight — a
      // browser trial read "The game is over." alone)
      const rs = state.outcome ? state.outcome.results : [];
      const won = rs.filter((r) => r.result === "win").map((r) => r.seat + (state.you === r.seat ? " (you)" : ""));
      line = "The game is over" + (won.length ? `: ${won.join(", ")} ${won.length > 1 ? "win" : "wins"}`
        : rs.length && rs.every((r) => r.result === "draw") ? ": a draw"
        : rs.length && rs.every((r) => r.result === "lose") ? ": everyone loses" : "") + ".";
    }
    else if (view.choice) {
      const mine = view.choice.chooser === view.viewer;
      const who = mine ? "You are" : `${seatName(view.choice.chooser)}${kindOf(view.choice.chooser)} is`;
      const asked = view.choice.prompt || view.choice.kind;
      // (the prompt speaks to its chooser: "your castle" is theirs, so others read it as quoted; the
      // chooser reads it in the question's own box, so the pinned line does not say it twice — on a
      // phone a browser trial saw a defence's prompt twice, ~70 % of the screen)
      const inBox = mine && state.actions.length > 0;
      line = inBox ? `${who} deciding: the question below` : mine ? `${who} deciding: ${asked}` : `${who} asked: “${asked}”`;
    } else {
      const who = view.actor === view.viewer ? "Your turn" : `${seatName(view.actor)}${kindOf(view.actor)} to act`;
      line = `${who} — ${String(view.step).replace(/_/g, " ")}` + (view.turn ? ` · turn ${view.turn}` : "");
    }
    if (state.thinking !== null && state.thinking !== undefined) line += ` · ${seatName(state.thinking)} is thinking…`;
    if (state.notice) line += ` · ${state.notice}`;
    const myTurn = !view.over && view.actor === view.viewer;
    $("status").textContent = line;
    $("status").classList.toggle("mine", myTurn);
    const o = state.outcome;
    const box = $("outcome");
    box.hidden = !o;
    if (o) {
      box.replaceChildren(el("h2", {}, "Game over"),
        el("ul", {}, ...o.results.map((r) => el("li", { class: "result-" + r.result }, `${r.seat} (${r.kind}): ${r.result}` + (r.score !== null && r.score !== undefined ? `, score ${show(r.score)}` : "") + (state.you === r.seat ? " — you" : "")))),
        o.reason ? el("p", {}, "Why: " + o.reason) : null,
        // what next: another game from the lobby (it keeps the links of the matches made there)
        el("p", {}, el("a", { href: "/", id: "to-lobby" }, "New game (the lobby)")));
    }
  }

  // A part of the page drawn again only where it changed: a state pushed at the same version (another
  // page connecting or going, a bot starting to think) rebuilt every button, and a press held across
  // it was lost — the button pressed was gone when the mouse or finger came up (a browser trial:
  // 10 of 10 held presses lost while the other player's tab closed).
  // (compared with the page as it is now: a button greyed since — a move sent, the connection lost —
  // is drawn again)
  function replaceIfChanged(node, children) {
    if (children.every((c) => c.outerHTML !== undefined) && node.innerHTML === children.map((c) => c.outerHTML).join("")) return;
    node.replaceChildren(...children);
  }

  // ---- actions and questions -------------------------------------------------------------------
  function setNarrow(n) {
    narrow = narrow && n && narrow.kind === n.kind && narrow.id === n.id ? null : n;
    render();
  }
  function involves(a) {
    if (!narrow) return true;
    return narrow.kind === "comp" ? a.comps.includes(narrow.id) : a.cells.includes(narrow.id);
  }
  const asking = new Map();          // the text of each action that asks "sure?" now -> when it began
  const ASK_MS = 5000, STRAY_MS = 400;
  function drawActions(view) {
    const q = $("question");
    const asked = view.choice && view.choice.chooser === view.viewer && state.actions.length > 0;
    const filter = $("filter").value.trim().toLowerCase();
    let acts = asked ? [] : state.actions.filter(involves);
    if (filter) acts = acts.filter((a) => a.text.toLowerCase().includes(filter));
    $("filter").hidden = asked || state.actions.length < 12;
    $("narrow").hidden = !narrow;
    if (narrow) $("narrow-text").textContent = `Actions with ${narrow.label}:`;
    // (while an undo waits for its answers, the server takes no move: the buttons say so)
    const waiting = state.undo ? { disabled: true, title: "an undo is being answered first" } : {};
    // (out of turn, or one that reveals a secret — a character shown to every seat — a click asks
    // first: the second within 5 s plays it; a browser trial revealed one by a stray click). Which
    // are asking is kept by text across redraws (the bots' moves redrew the buttons between the two
    // clicks, and the second only asked again); a second click sooner than STRAY_MS after the first
    // is the same tap (a double click revealed a character at once).
    const shown = (a) => asking.has(a.text) ? "sure? " + a.text.replace(/^P\d+: /, "") + " (click again)" : null;
    const confirmFirst = (a) => (ev) => {
      const now = Date.now(), at = asking.get(a.text);
      if (at !== undefined) {
        if (now - at >= STRAY_MS) { asking.delete(a.text); send(a.text); }
        return;
      }
      asking.set(a.text, now);
      ev.currentTarget.textContent = shown(a);
      ev.currentTarget.dataset.armed = "yes";
      setTimeout(() => {
        if (asking.get(a.text) !== now) return;
        asking.delete(a.text);
        for (const b of document.querySelectorAll("button.action")) {
          if (b.dataset.text === a.text) {
            b.textContent = b.classList.contains("out-of-turn") ? a.text.replace(/^P\d+: /, "") : a.text;
            b.dataset.armed = "";
          }
        }
      }, ASK_MS);
    };
    const armed = (a) => (shown(a) ? { "data-armed": "yes" } : {});
    const buttons = acts.map((a) => el("button", { type: "button", class: "action", "data-text": a.text, onclick: a.reveals ? confirmFirst(a) : () => send(a.text), ...(a.reveals ? armed(a) : {}), ...waiting }, (a.reveals && shown(a)) || a.text));
    if (!asked && state.actions.length && !acts.length) buttons.push(el("p", { class: "dim" }, "No action matches."));
    replaceIfChanged($("actions"), buttons);
    const oot = state.out_of_turn.filter(involves);
    $("interrupts").hidden = oot.length === 0;
    replaceIfChanged($("interrupt-list"), oot.map((a) => el("button", { type: "button", class: "action out-of-turn", "data-text": a.text, onclick: confirmFirst(a), ...armed(a), ...waiting }, shown(a) || a.text.replace(/^P\d+: /, ""))));
    if (asked) {
      const c = view.choice;
      // (the card whose ability asks, as the terminal says it, its name opening its tip — a legibility
      // trial read "draw a card?" and could not tell which card asked)
      const prompt = c.prompt || "Choose", by = c.asker && c.asker.label ? String(c.asker.label) : "";
      if (by && !prompt.toLowerCase().includes(by.toLowerCase())) {
        const b = el("button", { type: "button", class: "named", "data-id": c.asker.source }, by);
        b.addEventListener("click", (ev) => { ev.stopPropagation(); tip({ id: c.asker.source, label: by }, ev.currentTarget); });
        $("q-prompt").replaceChildren(b, ": " + prompt);
      } else $("q-prompt").textContent = prompt;
      // (as the terminal words it: the cards whose abilities ask, and how to answer — no rule's own names)
      // (a player's answer says whose and which: `P2's challenge`, `your challenge` — not a bare `P2`)
      const cause = (f) => {
        if (!f.effect) return "";
        const [who, ...rest] = String(f.effect).split(":");
        const what = rest.join(":").trim();
        if (!/^P\d+$/.test(who.trim()) || !what) return who;
        return who.trim() === seatName(view.viewer) ? `your ${what}` : `${who.trim()}'s ${what}`;
      };
      const causes = [...new Set((c.running || []).map(cause).filter(Boolean))];
      const done = state.actions.some((a) => a.text === "done");
      // (a window asked `always`, a card game's before-scoring: with `pass` alone, saying so — a browser
      // trial tapped its one button at every scoring without being told nothing else was possible)
      const passOnly = state.actions.length === 1 && state.actions[0].text === "pass";
      const how = { one: "choose one", subset: done ? "choose some, then done" : "choose some", order: "put them in order",
        may: "yes or no", window: passOnly ? "nothing you may play answers it now: pass" : "respond, or pass" }[c.kind] || "";
      // (a pick of several: what is picked so far, the forced picks too — the list renumbers as it goes)
      const sofar = (c.picked || []).length ? `${c.kind === "order" ? "in order so far" : "picked so far"}: ${c.picked.join(", ")}` : "";
      $("q-running").textContent = [causes.length ? `because of ${causes.join(", ")}` : "", how, sofar].filter(Boolean).join(" · ");
      replaceIfChanged($("q-options"), state.actions.map((a) => {
        const b = el("button", { type: "button", class: "option", "data-text": a.text, onclick: () => send(a.text), ...waiting }, a.text);
        if (a.comps.length !== 1 && !a.about) return b;
        // an option that is one component (a general to draft, a card to pick) or a value with rules
        // text (a faction to draft): `?` shows what it does
        const what = el("button", { type: "button", class: "what small", title: `what ${a.text} does`, "aria-label": `what ${a.text} does` }, "?");
        const card = a.about ? { id: null, label: a.text, text: a.about } : { id: a.comps[0], label: a.text };
        what.addEventListener("click", (ev) => { ev.stopPropagation(); tip(card, ev.currentTarget); });
        return el("span", { class: "opt" }, b, what);
      }));
      if (!q.open) q.show();
    } else if (q.open) q.close();
    fitQuestion();
  }
  // the question sits over the bottom of the page: the page gets room below its end to scroll what
  // lies under it into sight (a browser trial: the messages and values a choice depends on stayed
  // hidden under it, even scrolled to the end)
  function fitQuestion() {
    const q = $("question");
    document.body.style.paddingBottom = q.open ? `${q.offsetHeight}px` : "";
  }
  window.addEventListener("resize", fitQuestion);

  // ---- messages and the log --------------------------------------------------------------------
  // A state carries the last 300 log lines and messages; the earlier ones come on asking, and are kept
  // (lines only ever follow them; an undo takes back the newest) — a browser trial: a card given in
  // secret to P1 early in a long game was gone from its Messages, whose numbers moved on as the game went.
  let earlier = null;                   // {log, messages}: the whole of both, as last asked for
  function fetchEarlier(id) {
    fetch(`/api/play/${matchId}/${token}/history`).then((r) => (r.ok ? r.json() : null))
      .then((b) => { if (b) { earlier = b; drawLogs(); $(id).scrollTop = 0; } }).catch(() => null);
  }
  function drawList(id, lines, total, key) {
    let start = total - lines.length;
    if (start > 0 && earlier && earlier[key].length >= start) {
      lines = earlier[key].slice(0, start).concat(lines);
      start = 0;
    }
    const items = lines.map((t, i) => el("li", { value: start + i + 1 }, ...named(t)));
    if (start > 0) {
      items.unshift(el("li", { class: "earlier" }, el("button", { class: "small", type: "button",
        onclick: () => fetchEarlier(id) }, `show the ${start} earlier`)));
    }
    $(id).replaceChildren(...items);
  }
  function drawLogs() {
    drawList("messages", state.messages, state.messages_length ?? state.messages.length, "messages");
    drawList("log", state.log, state.log_length, "log");
    // the newest message in sight inside its own box; the page itself stays where the player put it
    // (scrollIntoView pulled the whole page down to the Messages on every update)
    const box = $("messages");
    box.scrollTop = box.scrollHeight;
  }

  function render() {
    if (!state) return;
    const view = state.view;
    drawStatus(view);
    drawBoard(view);
    drawZones(view);
    drawValues(view);
    drawActions(view);
    drawLogs();
    drawUndo();
    pointToMoves();
    // the tab says when it is this seat's turn (a browser trial: a friend in another tab missed it)
    const mine = !view.over && state.actions.length > 0;
    if (hello) document.title = `${mine ? "● your turn — " : ""}${hello.game} — ${hello.you || "spectator"}`;
    // after a move, the keyboard goes on from the moves, not from the page's top (Tab past every card)
    const lost = !document.activeElement || document.activeElement === document.body;
    if (mine && lost && keyboardUsed) {
      const first = document.querySelector("#q-options button, #actions button.action");
      if (first) first.focus({ preventScroll: true });
    }
    document.body.dataset.version = state.version;
    document.body.dataset.over = view.over ? "yes" : "no";
  }
  // The status line is pinned at the top (a phone scrolled down to the messages saw nothing change
  // when its turn came, and the first move sat below the screen — a browser trial); with moves to
  // make out of sight, it links to them.
  function pointToMoves() {
    const link = $("to-moves");
    const box = $("controls").getBoundingClientRect();
    // (not while a question is answered in its dialog, which is in sight: the moves panel then holds
    // no answer — the link led a browser trial's player away from the bases the choice was about)
    const v = state && state.view;
    const asked = v && v.choice && v.choice.chooser === v.viewer;
    const away = state && !v.over && !asked && state.actions.length > 0 && (box.top > window.innerHeight || box.bottom < 0);
    const arrow = box.bottom < 0 ? "your moves ↑" : "your moves ↓";
    if (away && !link) $("status").append(" ", el("a", { href: "#controls", id: "to-moves", onclick: toMoves }, arrow));
    else if (away) link.textContent = arrow;
    else if (link) { if (link.previousSibling) link.previousSibling.remove(); link.remove(); }
  }
  // to the moves, their top just under the pinned status (the link's own jump left them under it on
  // a phone, the filter box and the first move hidden — a browser trial)
  function toMoves(ev) {
    ev.preventDefault();
    const pinned = $("pinned") ? $("pinned").getBoundingClientRect().bottom : 0;
    window.scrollBy(0, $("controls").getBoundingClientRect().top - Math.max(0, pinned) - 4);
  }
  let pointing = false;
  window.addEventListener("scroll", () => {
    if (!pointing) { pointing = true; requestAnimationFrame(() => { pointing = false; pointToMoves(); }); }
  }, { passive: true });
  let keyboardUsed = false;      // (a mouse player's page is not scrolled about by focus)
  document.addEventListener("keydown", (ev) => { if (ev.key === "Tab" || ev.key === "Enter") keyboardUsed = true; });

  $("undo").addEventListener("click", () => sendUndo({ type: "undo" }));
  $("undo-yes").addEventListener("click", () => sendUndo({ type: "answer_undo", accept: true }));
  $("undo-no").addEventListener("click", () => sendUndo({ type: "answer_undo", accept: false }));
  $("narrow-clear").addEventListener("click", () => { narrow = null; render(); });
  $("filter").addEventListener("input", render);
  document.addEventListener("click", (ev) => { if (!ev.target.closest(".card, .what, .named")) $("card-tip").hidden = true; });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") $("card-tip").hidden = true; });
  connect();
})();
