// The table's page: one for the GM, each player and the spectators; the server says what this link
// may do. It draws the snapshot (/api/TOKEN/state) and redraws whenever the server says it changed
// (server-sent events). Answers and GM commands are typed JSON (live/table.py, live/commands.py);
// an answer names the question it answers, so a stale one is refused. No build step: plain modules.
const token = location.pathname.split("/").pop();
const api = (what) => `/api/${token}/${what}`;
const $ = (id) => document.getElementById(id);
let current = null;
let drawnSeq = null;      // the question whose choices are drawn (a redraw keeps the player's place)
let invokeAspect = null;  // the stepped invoke: the aspect chosen in step one
let answeringFor = null;  // the GM's page: the seq of a player's question the GM chose to answer for them

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

async function refresh() {
  const r = await fetch(api("state"), { cache: "no-store" });
  if (!r.ok) { $("status").textContent = (await r.json()).error || r.statusText; return; }
  draw(await r.json());
}

function draw(s) {
  current = s;
  $("title").textContent = s.title;
  $("seat").textContent = s.role === "player" ? `player of ${cardOf(s.pc)?.name || "a PC"}` : s.role === "gm" ? "GM" : "spectator";
  $("pool").textContent = `GM pool ${s.gm_pool}`;
  $("status").textContent = s.error ? `stopped: ${s.error}` : s.over ? "the fight is over"
    : s.paused ? "paused by the GM: each NPC move waits for the GM" : s.busy ? "the NPCs are playing…" : "";
  // the tab says whose move it is, so a phone in a pocket or a tab behind others knows when to look
  document.title = (myTurn(s) ? "● Your move · " : s.over ? "Over · " : "") + s.title;
  $("buzzbox").hidden = s.role !== "player";
  drawFeed(s.feed);
  if (s.scene) drawScene(s.scene);
  if (s.links) drawLinks(s.links);
  if (s.over) drawReport();
  $("powers").hidden = s.role !== "gm" || s.over;
  if (s.role === "gm") drawPowers();
  drawQuestion(s.question);
}

// a question this page is to answer: a player's own, or the GM's (a player's question on the GM's page is the player's)
const myTurn = (s) => !!(s.question && s.question.yours && !(s.role === "gm" && s.question.owner));

const cardOf = (id) => current && current.scene && current.scene.cards.find((c) => c.id === id);
const pct = (p) => (p >= 0.005 || p === 0 ? `${Math.round(100 * p)}%` : "<1%");
const odds = (o) => (o ? `${pct(o.success + o.success_with_style)} success` + (o.success_with_style >= 0.005 ? `, ${pct(o.success_with_style)} style` : "") : "");
// a question in words: asked of its player ("Cynere: how do you defend?"), and waited on by the others
const ASKS = { turn: "what do you do?", respond: "how do you defend?", absorb: "how do you take the hit?",
  invoke: "invoke an aspect?", move: "where do you move?", style: "a hit with style: how do you use it?",
  next: "who goes next?", concession: "a concession is offered", choice: "your choice" };
const WAITS = { turn: "takes a turn", respond: "defends", absorb: "takes the hit", invoke: "may invoke an aspect",
  move: "moves", style: "uses a hit with style", next: "picks who goes next", concession: "answers a concession",
  choice: "chooses", name: "names a consequence", dice: "rolls the dice", compel: "answers a compel" };
const waits = (q) => WAITS[q.decision] || WAITS[q.kind] || "answers";

// -- the question -------------------------------------------------------------------------------
function drawQuestion(q) {
  const ask = $("ask");
  const fresh = !q || q.seq !== drawnSeq;
  ask.classList.toggle("waiting", !(q && q.yours));
  ask.classList.toggle("theirs", !!(q && q.yours && current.role === "gm" && q.owner && answeringFor !== q.seq));
  ask.dataset.seq = q ? q.seq : "";
  if (!q) {
    $("question").textContent = current.over ? "The fight is over" : "The NPCs are playing…";
    $("context").replaceChildren();
    $("choices").replaceChildren();
    drawnSeq = null;
    return;
  }
  if (!fresh) return;  // the same question: keep the page as the player left it (a step of an invoke, typed text)
  drawnSeq = q.seq;
  invokeAspect = null;
  $("refused").textContent = "";
  const ctx = $("context");
  ctx.replaceChildren();
  const who = q.actor_name;
  if (q.yours && current.role === "gm" && q.owner && answeringFor !== q.seq) {
    // a player's question on the GM's page: theirs to answer; answering for them is a deliberate step
    const player = `${cardOf(q.owner)?.name || who}'s player`;
    $("question").textContent = `Waiting for ${player}: ${who} ${waits(q)}`;
    ctx.append(el("p", "why", `This question is ${player}'s. Answering it here answers for them.`));
    $("choices").replaceChildren(button(`Answer for ${player}`, () => {
      answeringFor = q.seq;
      drawnSeq = null;
      drawQuestion(q);
    }));
    return;
  }
  if (myTurn(current) && current.role === "player") buzz();
  if (!q.yours) {
    const answerer = q.owner ? `${who}'s player` : "the GM";
    $("question").textContent = q.kind === "gate" ? `The GM looks at ${who}'s move`
      : q.kind === "offer" ? `The GM considers a compel on ${who}` : `Waiting for ${answerer}: ${who} ${waits(q)}`;
    $("choices").replaceChildren();
    return;
  }
  if (q.kind === "gate" || q.for_npc) {
    ctx.append(el("p", null, `${who} wants to ${q.move}.`));
    if (q.reason) ctx.append(el("p", "why", `Why: ${q.reason}`));
    if (q.gate) ctx.append(el("p", "why", `Stopped for the GM: ${q.gate}.`));
    else if (q.paused) ctx.append(el("p", "why", "Stopped: the NPCs are paused."));
  }
  if (q.hit) ctx.append(el("p", null, `A ${q.hit.shifts}-shift hit${q.hit.by ? ` from ${q.hit.by}` : ""}${q.hit.track ? ` (${q.hit.track} stress)` : ""}.`));
  if (q.about) ctx.append(el("p", "roll", q.about + "."));  // the roll the question is about: who, what, the dice
  if (q.standing) ctx.append(el("p", null, q.standing[0].toUpperCase() + q.standing.slice(1) + "."));
  if (q.kind === "gate") {
    $("question").textContent = `GM gate: ${who}'s move`;
    $("choices").replaceChildren(
      button(`Accept: ${q.move}`, () => answer({ answer: "accept" }), "proposed"),
      button("Choose another move for them", () => answer({ answer: "override" })));
  } else if (q.kind === "name") {
    $("question").textContent = q.role === "advantage" ? `Name the aspect ${who} created` : `Name ${who}'s ${q.role} consequence`;
    if (q.blow) ctx.append(el("p", null, `From ${q.blow}'s blow.`));
    drawNaming(q);
  } else if (q.kind === "compel") {
    $("question").textContent = `The GM compels ${who}: ${q.aspect_name}`;
    ctx.append(el("p", null, "Accept the complication and gain a fate point, or refuse it and pay one."));
    $("choices").replaceChildren(
      button("Accept (gain a fate point)", () => answer({ answer: "accept" }), "proposed"),
      button("Refuse (pay a fate point)", () => answer({ answer: "refuse" })));
  } else if (q.kind === "offer") {
    $("question").textContent = `The NPCs propose a compel: ${who}'s ${q.aspect_name}`;
    ctx.append(el("p", "why", `Why: ${q.reason}.`));
    ctx.append(el("p", null, "Offered, the player accepts the complication for a fate point or pays one to refuse it; compels cost the GM nothing."));
    $("choices").replaceChildren(
      button("Offer the compel", () => answer({ answer: "accept" }), "proposed"),
      button("Let it go", () => answer({ answer: "refuse" })));
  } else if (q.kind === "dice") {
    $("question").textContent = `${who} rolls ${q.roll}`;
    drawDice();
  } else if (q.decision === "invoke") {
    $("question").textContent = `${who}: invoke an aspect?`;
    drawInvoke(q);
  } else {
    $("question").textContent = q.for_npc ? `Choose ${who}'s move` : `${who}: ${ASKS[q.decision] || q.decision}`;
    drawList(q);
  }
  if (q.yours) {
    ask.scrollIntoView({ block: "start", behavior: "instant" });
    const first = ask.querySelector("button, input, select");
    if (first && !document.activeElement.closest("#powers")) first.focus({ preventScroll: true });
  }
}

// the optional buzz on a player's turn (the header's checkbox, kept on this device)
const buzzBox = $("buzz");
buzzBox.checked = localStorage.getItem("fate-npc-buzz") === "1";
buzzBox.onchange = () => localStorage.setItem("fate-npc-buzz", buzzBox.checked ? "1" : "0");
function buzz() {
  if (buzzBox.checked && navigator.vibrate) navigator.vibrate(200);
}

function button(text, onclick, cls, oddsText) {
  const b = el("button", `choice${cls ? ` ${cls}` : ""}`);
  b.type = "button";
  b.append(el("span", "what", text));
  if (oddsText) b.append(el("span", "odds", oddsText));
  b.onclick = onclick;
  return b;
}

const optionButton = (o) => button(o.text, () => answer({ answer: "choose", number: o.number }), o.proposed ? "proposed" : "", odds(o.odds));

// a decision as a short list: the proposal first, the few best of each kind (the server's pick), the rest behind "more"
function drawList(q) {
  const box = $("choices");
  box.replaceChildren();
  const proposed = q.items.find((o) => o.proposed);
  // the server's short list after the proposal, cut to the buttons a glance takes ("let the tool choose" among them)
  const room = MAX_BUTTONS - (proposed ? 1 : 0) - (q.for_npc ? 0 : 1);
  const picked = (q.short ? q.items.filter((o) => q.short.includes(o.number)) : q.items)
    .filter((o) => o !== proposed).slice(0, room);
  const short = new Set(picked.map((o) => o.number));
  if (proposed) box.append(el("div", "group", "Proposed"), optionButton(proposed));
  grouped(box, picked);
  const rest = q.items.filter((o) => !short.has(o.number) && o !== proposed);
  if (rest.length) {
    const more = el("details", "more");
    more.append(el("summary", null, `${rest.length} more option${rest.length === 1 ? "" : "s"}`));
    grouped(more, rest);
    box.append(more);
  }
  if (!q.for_npc) box.append(button("Let the tool choose for me", () => answer({ answer: "auto" })));
}

function grouped(box, items) {
  let group = null;
  for (const o of items) {
    if (o.group !== group) { group = o.group; box.append(el("div", "group", group)); }
    box.append(optionButton(o));
  }
}

// the buttons a question shows before "more" (issue 75: a phone's screen, read at a glance)
const MAX_BUTTONS = 8;

// an invoke in steps: which aspect (what it would change), then how and who pays; never the cross product
function drawInvoke(q) {
  const box = $("choices");
  box.replaceChildren();
  const invokes = q.items.filter((o) => o.invoke);
  const others = q.items.filter((o) => !o.invoke);
  if (invokeAspect === null) {
    // the proposal in one tap, its aspect and its payer together; then "no more invokes" and the aspects
    const proposed = invokes.find((o) => o.proposed);
    if (proposed) {
      const i = proposed.invoke;
      const pay = i.free ? `a free invoke (${i.payer_name}'s)` : `a fate point from ${i.payer_name}`;
      const what = i.effect === "reroll" ? "reroll the dice" : "+2";
      box.append(el("div", "group", "Proposed"), button(`${i.aspect_name}: ${what}, paid with ${pay}`,
        () => answer({ answer: "choose", number: proposed.number }), "proposed", i.effect === "bonus" ? i.change : ""));
    }
    for (const o of others) box.append(optionButton(o));
    const aspects = new Map();
    for (const o of invokes) {
      const a = aspects.get(o.invoke.aspect) || { name: o.invoke.aspect_name, owner: o.invoke.owner,
        bears: o.invoke.bears, ways: [] };
      a.ways.push(o);
      aspects.set(o.invoke.aspect, a);
    }
    const aspectButton = ([id, a]) => {
      const bonus = a.ways.find((o) => o.invoke.effect === "bonus");
      const free = a.ways.some((o) => o.invoke.free);
      const whose = a.owner ? ` (${a.owner}'s)` : "";
      return button(`${a.name}${whose}${free ? " · free invoke" : ""}`, () => { invokeAspect = id; drawInvoke(q); stepFocus(); },
        "aspect", bonus ? bonus.invoke.change : "");
    };
    // the aspects that plainly bear on this roll (the situation, your own, the other party's) and any
    // free invoke first, free invokes before paid ones; at most eight buttons before "more" (a bystander's
    // aspect is always there: it needs a story the table tells)
    const all = [...aspects];
    const bearing = all.filter(([, a]) => a.bears || a.ways.some((o) => o.invoke.free))
      .sort(([, a], [, b]) => b.ways.some((o) => o.invoke.free) - a.ways.some((o) => o.invoke.free));
    const room = Math.max(0, MAX_BUTTONS - box.querySelectorAll("button").length);
    const plain = bearing.slice(0, room);
    const rest = all.filter((entry) => !plain.includes(entry));
    if (plain.length) box.append(el("div", "group", "Or invoke which aspect?"), ...plain.map(aspectButton));
    if (rest.length) {
      const more = el("details", "more");
      more.append(el("summary", null, `${rest.length} more aspect${rest.length === 1 ? "" : "s"}`));
      more.append(...rest.map(aspectButton));
      box.append(more);
    }
  } else {
    const ways = invokes.filter((o) => o.invoke.aspect === invokeAspect);
    box.append(el("div", "group", `${ways[0].invoke.aspect_name}: how, and who pays?`));
    for (const o of ways) {
      const pay = o.invoke.free ? `a free invoke (${o.invoke.payer_name}'s)` : `a fate point from ${o.invoke.payer_name}`;
      const what = o.invoke.effect === "reroll" ? "reroll the dice" : "+2";
      box.append(button(`${what}, paid with ${pay}`, () => answer({ answer: "choose", number: o.number }),
        o.proposed ? "proposed" : "", o.invoke.effect === "bonus" ? o.invoke.change : ""));
    }
    const back = el("button", "plain", "Back to the aspects");
    back.type = "button";
    back.onclick = () => { invokeAspect = null; drawInvoke(q); stepFocus(); };
    box.append(back);
  }
}

// a step of the invoke redraws the buttons: the focus goes to the step's first (the proposed one where
// there is one), never to the page's body, so a keyboard or a screen reader keeps its place
function stepFocus() {
  const box = $("choices");
  const first = box.querySelector("button.choice.proposed") || box.querySelector("button");
  if (first) first.focus({ preventScroll: true });
}

function drawNaming(q) {
  const box = $("choices");
  box.replaceChildren();
  q.names.forEach((n, i) => box.append(button(n, () => answer({ answer: "name", number: i + 1 }), i === 0 ? "proposed" : "")));
  const form = el("form", "row");
  const label = el("label", null, "or your own words ");
  const input = el("input");
  input.type = "text";
  input.maxLength = 80;
  input.id = "ownname";
  label.append(input);
  const go = el("button", "plain", "Name it");
  go.type = "submit";
  form.append(label, go);
  form.onsubmit = (e) => { e.preventDefault(); if (input.value.trim()) answer({ answer: "name", text: input.value }); };
  box.append(form);
}

function drawDice() {
  const box = $("choices");
  box.replaceChildren();
  const form = el("form", "row");
  const dice = [0, 1, 2, 3].map((i) => {
    const label = el("label", null, `die ${i + 1} `);
    const s = el("select");
    for (const [v, t] of [[1, "+"], [0, "0"], [-1, "−"]]) { const o = el("option", null, t); o.value = v; s.append(o); }
    s.value = "0";
    label.append(s);
    form.append(label);
    return s;
  });
  const go = el("button", "plain", "Roll these");
  go.type = "submit";
  form.append(go);
  form.onsubmit = (e) => { e.preventDefault(); answer({ answer: "dice", faces: dice.map((s) => Number(s.value)) }); };
  box.append(form);
}

async function post(what, body) {
  $("refused").textContent = "";
  const r = await fetch(api(what), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const said = await r.json().catch(() => ({ error: `the table answered ${r.status}` }));
  // a refusal says why; a table stopping mid-change says whether this answer was taken and saved
  if (!r.ok || said.note) $("refused").textContent = r.ok ? said.note : said.error;
  if (said.stopping) return r.ok;  // the server is going: there is no state to read
  await refresh();
  return r.ok;
}

function answer(body) {
  if (!current || !current.question) return;
  post("answer", { seq: current.question.seq, ...body });
}

// -- the feed: a log of what happened, not a transcript -----------------------------------------------
let feedShown = -1;
function drawFeed(feed) {
  const count = current.feed_count;
  if (count === feedShown) return;
  feedShown = count;
  const n = $("narration");
  const atBottom = n.scrollHeight - n.scrollTop - n.clientHeight < 40;
  n.replaceChildren(...feed.filter(([kind, text]) => kind !== "panel" && text.trim()).map(([kind, text]) => {
    const t = text.trim();
    return el("li", /^(==|—|-{2,})?\s*Exchange \d/.test(t) ? "round" : kind, t.replace(/^\((.*)\)$/, "$1"));
  }));
  if (atBottom) n.scrollTop = n.scrollHeight;
}

// -- the scene: a map, the situation aspects, a card per character ----------------------------------
// the map: zones in rows by how many moves they are from the first (a breadth-first layering: never an
// overlap, readable at any width, any number of zones), the borders drawn as lines between them and
// written in the zone they lead from
function layers(sc) {
  const next = new Map(sc.zones.map((z) => [z.id, []]));
  for (const b of sc.borders) { next.get(b.a)?.push(b.b); next.get(b.b)?.push(b.a); }
  const depth = new Map();
  const queue = sc.zones.length ? [sc.zones[0].id] : [];
  if (queue.length) depth.set(queue[0], 0);
  while (queue.length) {
    const z = queue.shift();
    for (const n of next.get(z) || []) if (!depth.has(n)) { depth.set(n, depth.get(z) + 1); queue.push(n); }
  }
  const far = Math.max(0, ...depth.values()) + 1;
  const rows = [];
  for (const z of sc.zones) (rows[depth.has(z.id) ? depth.get(z.id) : far] ||= []).push(z);
  return rows.filter(Boolean);
}

function drawScene(sc) {
  const map = $("map");
  const names = Object.fromEntries(sc.zones.map((z) => [z.id, z.name]));
  const sides = [...new Set(sc.cards.map((c) => c.side))];
  const rows = [];
  for (const row of layers(sc)) {
    const layer = el("div", "layer");
    for (const z of row) {
      const box = el("div", "zone");
      box.dataset.zone = z.id;
      box.append(el("div", "zone-name", z.name));
      for (const c of sc.cards.filter((c) => c.zone === z.id && (c.status === "to act" || c.status === "acted"))) {
        box.append(el("div", `who side-${sides.indexOf(c.side)}`, c.name + (c.members ? ` (${c.members})` : "")));
      }
      for (const a of sc.situation.filter((a) => a.zone === z.id)) box.append(el("div", "zone-aspect", `${a.name}${a.hidden ? " (hidden)" : ""}`));
      for (const b of sc.borders.filter((b) => b.a === z.id)) {
        const words = [b.difficulty ? `move ${b.difficulty}` : "", b.aspect || "", b.blocks_ranged ? "blocks shots" : ""].filter(Boolean);
        if (words.length) {
          const tag = el("div", "border-tag", `↔ ${names[b.b]}: ${words.join(" · ")}`);
          tag.dataset.border = `${b.a}|${b.b}`;
          box.append(tag);
        }
      }
      layer.append(box);
    }
    rows.push(layer);
  }
  map.replaceChildren(...rows);
  drawWays(sc);
  const aspects = $("aspects");
  aspects.replaceChildren(...sc.situation.map((a) => {
    const card = el("div", "sit");
    card.append(el("span", null, a.name));
    const where = a.zone ? names[a.zone] : "scene-wide";
    card.append(el("span", "card-sub", ` · ${a.kind === "boost" ? "boost · " : ""}${where}${a.hidden ? " · hidden from the players" : ""}`));
    const free = freeText(a.free);
    if (free) card.append(el("span", "free", ` · free: ${free}`));
    return card;
  }));
  // a player's own sheet comes first, right under the question; the others' cards below the map
  const own = current && current.role === "player" ? sc.cards.find((c) => c.id === current.pc) : null;
  $("mine").hidden = !own;
  $("mine").replaceChildren(...(own ? [drawCard(own)] : []));
  $("cards").replaceChildren(...sc.cards.filter((c) => c !== own).map(drawCard));
}

function drawWays(sc) {
  const map = $("map");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "ways");
  const frame = map.getBoundingClientRect();
  const at = (id) => {
    const r = map.querySelector(`.zone[data-zone='${CSS.escape(id)}']`)?.getBoundingClientRect();
    return r && [r.left + r.width / 2 - frame.left, r.top + r.height / 2 - frame.top];
  };
  for (const b of sc.borders) {
    const [p, q] = [at(b.a), at(b.b)];
    if (!p || !q) continue;
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    for (const [k, v] of [["x1", p[0]], ["y1", p[1]], ["x2", q[0]], ["y2", q[1]]]) line.setAttribute(k, v);
    line.setAttribute("class", "way" + (b.difficulty || b.aspect ? " impeded" : "") + (b.blocks_ranged ? " no-shots" : ""));
    svg.append(line);
  }
  map.querySelector("svg.ways")?.remove();
  map.prepend(svg);
}
window.addEventListener("resize", () => current && current.scene && drawWays(current.scene));

const freeText = (free) => Object.entries(free || {}).map(([h, n]) => `${n} for ${h}`).join(", ");
const box = (m) => (m ? "☒" : "☐");

function drawCard(c) {
  const card = el("article", "card" + (c.pending ? " pending" : "") + (c.status === "to act" || c.status === "acted" ? "" : " out"));
  card.dataset.id = c.id;
  card.append(el("div", "card-name", `${c.name}${c.members ? ` (${c.members})` : ""}`));
  card.append(el("div", "card-sub", `${c.kind_name} · ${c.side_name} · ${c.status}`));
  if (c.fate_points !== null) {  // a PC's fate points, where a player looks first, and the refresh they come back to
    const fp = el("div", "fp");
    fp.append(el("span", "fp-count", `${c.fate_points}`), el("span", null, ` fate point${c.fate_points === 1 ? "" : "s"}`));
    if (c.refresh !== null && c.refresh !== undefined) fp.append(el("span", "card-sub", ` · refresh ${c.refresh}`));
    card.append(fp);
  }
  const list = (title, rows) => {
    if (!rows.length) return;
    card.append(el("h3", null, title));
    const ul = el("ul");
    for (const r of rows) ul.append(r instanceof Node ? r : el("li", null, r));
    card.append(ul);
  };
  const label = (a) => (a.name === c.high_concept ? "High concept: " : a.name === c.trouble ? "Trouble: " : "");
  const aspectRow = (a) => {
    const li = el("li", null, "");
    const which = label(a);
    if (which) li.append(el("span", "label", which));
    li.append(a.name);
    const free = freeText(a.free);
    if (free) li.append(el("span", "free", ` — free: ${free}`));
    return li;
  };
  list("Aspects", c.aspects.filter((a) => a.kind === "character" || a.kind === "advantage" || a.kind === "situation").map(aspectRow));
  list("Boosts", c.aspects.filter((a) => a.kind === "boost").map(aspectRow));
  list("Skills", [c.skills.map(([k, v]) => `${k} ${v >= 0 ? "+" : ""}${v}`).join(", ")].filter(Boolean));
  list("Stunts", c.stunts.map((st) => {
    const li = el("li");
    li.append(el("span", "label", st.name), ` — ${st.text}`);
    return li;
  }));
  if (c.weapon || c.armor) list("Gear", [[c.weapon ? `weapon ${c.weapon}` : "", c.armor ? `armor ${c.armor}` : ""].filter(Boolean).join(", ")]);
  list("Stress", Object.entries(c.stress).map(([k, boxes]) => {
    const li = el("li", null, `${k} `);
    li.append(el("span", "boxes", boxes.map(box).join("")));
    return li;
  }));
  list("Consequences", c.consequences.map((x) => {
    if (!x.name) return `${x.severity} (${x.value}): open`;
    return aspectRow({ handle: x.handle, name: `${x.name} (${x.severity})`, free: x.free });
  }));
  return card;
}

// -- the GM's powers: typed commands with fields, from the server's own declarations -----------------
function choices(type) {
  const sc = current && current.scene;
  if (!sc) return [];
  const cards = sc.cards.filter((c) => c.status === "to act" || c.status === "acted");
  const zones = sc.zones.map((z) => [z.id, z.name]);
  switch (type) {
    case "character": return cards.map((c) => [c.id, c.name]);
    case "npc": return cards.map((c) => [c.id, c.name]);
    case "aspect": return sc.cards.flatMap((c) => c.aspects.map((a) => [a.handle, `${a.name} (${c.name})`]))
      .concat(sc.situation.map((a) => [a.handle, a.name]));
    case "created": return sc.cards.flatMap((c) => c.consequences.filter((x) => x.name)
      .map((x) => [x.handle, `${x.name} (${c.name}, ${x.severity})`]))
      .concat(sc.cards.flatMap((c) => c.aspects.filter((a) => a.kind === "advantage" || a.kind === "boost")
        .map((a) => [a.handle, `${a.name} (on ${c.name})`])))
      .concat(sc.situation.filter((a) => a.kind === "advantage" || a.kind === "boost").map((a) => [a.handle, a.name]));
    case "zone": return zones;
    case "flag": return [["", "ask the player"], ["false", "accepted"], ["true", "refused (they pay a fate point)"]];
    default: return [];
  }
}

function field([name, type, optional]) {
  const label = el("label", "field", `${name} `);
  let input;
  if (["text", "number", "signed", "skill", "addable"].includes(type)) {
    input = el("input");
    input.type = type === "number" || type === "signed" ? "number" : "text";
    input.required = !optional;
    input.maxLength = 200;
    if (input.type === "number") input.value = "1";
    if (type === "skill" || type === "addable") {  // suggestions; anything may be typed (a spec, a new skill)
      input.setAttribute("list", `list-${type}`);
      if (type === "addable") input.placeholder = "a reserve, a library NPC, or Thug x3: mob, Fight 2";
    }
  } else {
    input = el("select");
    input.dataset.type = type;
    input.dataset.optional = optional ? "1" : "";
  }
  input.name = name;
  input.dataset.kind = type;
  label.append(input);
  return label;
}

function refreshChoices() {
  for (const sel of document.querySelectorAll("#powerform select[data-type]")) {
    const keep = sel.value;
    let items = choices(sel.dataset.type);
    if (sel.dataset.optional && sel.dataset.type !== "flag") items = [["", "(none)"]].concat(items);
    const same = items.length === sel.options.length && items.every(([v, t], i) => sel.options[i].value === String(v) && sel.options[i].text === t);
    if (same) continue;
    sel.replaceChildren(...items.map(([v, t]) => { const o = el("option", null, t); o.value = v; return o; }));
    if (items.some(([v]) => String(v) === keep)) sel.value = keep;
  }
}

let powersDrawn = false;
function drawPowers() {
  const g = current.gm;
  if (!powersDrawn && g) {
    powersDrawn = true;
    const kind = $("powerkind");
    for (const p of g.commands) {
      if (p.fields.length === 0) {
        const b = el("button", "plain", p.name[0].toUpperCase() + p.name.slice(1));
        b.type = "button";
        b.title = p.help;
        b.onclick = () => post("command", { command: p.name });
        $("powerbuttons").append(b);
      } else {
        const o = el("option", null, p.label || p.name);
        o.value = p.name;
        kind.append(o);
      }
    }
    const form = () => g.commands.find((p) => p.name === kind.value);
    const drawForm = () => { $("powerfields").replaceChildren(...form().fields.map(field)); refreshChoices(); };
    kind.onchange = drawForm;
    for (const [id, items] of [["list-skill", g.skills], ["list-addable", g.reserves.map((r) => r.id).concat(g.library)]]) {
      const dl = el("datalist");
      dl.id = id;
      dl.append(...items.map((v) => { const o = el("option"); o.value = v; return o; }));
      document.body.append(dl);
    }
    $("powerform").addEventListener("submit", (e) => {
      e.preventDefault();
      const body = { command: kind.value };
      for (const input of $("powerfields").querySelectorAll("[name]")) {
        const v = input.value;
        if (v === "") continue;
        const k = input.dataset.kind;
        body[input.name] = k === "number" || k === "signed" ? Number(v) : k === "flag" ? v === "true"
          : (k === "aspect" || k === "created") ? Number(v) : v;
      }
      post("command", body);
    });
    drawForm();
  }
  refreshChoices();
}

let reportDrawn = false;
async function drawReport() {
  if (reportDrawn) return;
  reportDrawn = true;
  const r = await fetch(api("report.html"), { cache: "no-store" });
  if (!r.ok) return;
  // the server's rendering of the Markdown, raw HTML escaped (server.report_html): headings, tables, lists
  $("reporttext").innerHTML = await r.text();
  // each cell carries its column's heading: on a phone a row reads as a small card ("Side: rival")
  for (const table of $("reporttext").querySelectorAll("table")) {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((td, i) => td.setAttribute("data-label", heads[i] || ""));
    }
  }
  $("download").href = api("report");
  $("report").hidden = false;
}

let linksDrawn = false;
function drawLinks(links) {
  if (linksDrawn) return;  // the links never change: drawn once
  linksDrawn = true;
  $("links").hidden = false;
  for (const l of links) {
    const li = el("li");
    const a = el("a", null, l.name);
    a.href = l.url;
    li.append(a);
    if (l.qr) {
      const img = el("img");
      img.alt = `QR code for ${l.name}'s link`;
      img.src = l.qr;
      li.append(img);
    }
    $("linklist").append(li);
  }
}

const events = new EventSource(api("events"));
events.onmessage = () => refresh();
refresh();
