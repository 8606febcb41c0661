// The table's page: one for the GM, each player and the spectators; the server says what this
// link may do. It draws the snapshot (/api/TOKEN/state) and redraws whenever the server says it
// changed (server-sent events); an answer names the prompt it answers, so a stale one is refused.
const token = location.pathname.split("/").pop();
const api = (what) => `/api/${token}/${what}`;
const $ = (id) => document.getElementById(id);
let current = null;

async function refresh() {
  const r = await fetch(api("state"), { cache: "no-store" });
  if (!r.ok) { $("status").textContent = (await r.json()).error || r.statusText; return; }
  draw(await r.json());
}

function draw(s) {
  current = s;
  $("title").textContent = s.title;
  $("seat").textContent = s.role === "player" ? `player of ${s.pc}` : s.role;
  $("status").textContent = s.over ? "the fight is over" : (s.prompt ? "" : "the NPCs are playing…");
  if (s.error) $("status").textContent = `stopped: ${s.error}`;
  $("panel").textContent = s.panel.join("\n");
  const n = $("narration");
  const atBottom = n.scrollHeight - n.scrollTop - n.clientHeight < 40;
  n.textContent = s.lines.join("\n");
  if (atBottom) n.scrollTop = n.scrollHeight;
  if (s.links) drawLinks(s.links);
  if (s.over) drawReport();
  if (s.scene) drawScene(s.scene);
  $("powers").hidden = s.role !== "gm";
  if (s.role === "gm") drawPowers();
  const p = s.prompt;
  const box = $("prompt");
  box.dataset.seq = p ? p.seq : "";  // which prompt the page shows (its answers name it)
  box.classList.toggle("waiting", !(p && p.yours));
  const asked = { decision: `${p && p.actor_name} decides (${p && p.decision})`, gate: `GM gate — ${p && p.actor_name}'s move`,
    name: "name the consequence", dice: p && p.text, other: p && p.text };
  $("question").textContent = !p ? "" : p.yours ? (asked[p.kind] || p.text)
    : `waiting for ${p.kind === "gate" ? "the GM" : (p.actor_name || "the table")}`;
  $("standing").textContent = (p && p.standing) || "";
  const opts = $("options");
  opts.replaceChildren();
  if (p && p.yours) {
    let group = null;
    for (const o of p.options) {
      if (o.group !== group) {
        group = o.group;
        const h = document.createElement("div");
        h.className = "group";
        h.textContent = group;
        opts.append(h);
      }
      const b = document.createElement("button");
      b.className = "option" + (o.proposed ? " proposed" : "");
      b.textContent = o.line.trim();
      b.dataset.number = o.number;
      b.onclick = () => send(String(o.number));
      opts.append(b);
    }
    if (p.kind === "gate") {
      for (const [label, text] of [["Accept", ""], ["Override", "o"]]) {
        const b = document.createElement("button");
        b.className = "option";
        b.textContent = label;
        b.onclick = () => send(text);
        opts.append(b);
      }
    }
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// where each zone's box stands on the map, in per cent of its width and height: one zone in the
// middle, two side by side, more around an ellipse (a zone's borders are the lines between boxes)
function layout(n) {
  if (n === 1) return [[50, 50]];
  if (n === 2) return [[22, 50], [78, 50]];
  return Array.from({ length: n }, (_, i) => {
    const a = Math.PI + (2 * Math.PI * i) / n;
    return [50 + 36 * Math.cos(a), 50 + 36 * Math.sin(a)];
  });
}

// the zones as a map (who stands where; the borders between them, with what slows a move across or
// stops shots, as they stand now), and a card per character
function drawScene(sc) {
  const map = $("map");
  map.replaceChildren();
  const where = Object.fromEntries(sc.zones.map((z, i) => [z.id, layout(sc.zones.length)[i]]));
  map.style.height = `${sc.zones.length <= 2 ? 11 : Math.min(30, 9 + 3 * sc.zones.length)}em`;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "ways");
  for (const b of sc.borders) {
    const [[x1, y1], [x2, y2]] = [where[b.a], where[b.b]];
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    for (const [k, v] of [["x1", x1], ["y1", y1], ["x2", x2], ["y2", y2]]) line.setAttribute(k, `${v}%`);
    line.setAttribute("class", "way" + (b.difficulty || b.aspect ? " impeded" : "") + (b.blocks_ranged ? " no-shots" : ""));
    svg.append(line);
    const words = [b.difficulty ? `move ${b.difficulty}` : "", b.aspect || "", b.blocks_ranged ? "blocks shots" : ""].filter(Boolean);
    if (words.length) {
      const tag = el("div", "border-tag", words.join(" · "));
      tag.dataset.border = `${b.a}|${b.b}`;
      tag.style.left = `${(x1 + x2) / 2}%`;
      tag.style.top = `${(y1 + y2) / 2}%`;
      map.append(tag);
    }
  }
  map.prepend(svg);
  for (const z of sc.zones) {
    const box = el("div", "zone");
    box.dataset.zone = z.id;
    box.style.left = `${where[z.id][0]}%`;
    box.style.top = `${where[z.id][1]}%`;
    box.append(el("div", "zone-name", z.name));
    for (const c of sc.cards.filter((c) => c.zone === z.id && (c.status === "to act" || c.status === "acted"))) {
      box.append(el("div", `who side-${sc.cards.findIndex((x) => x.side === c.side)}`, c.name));
    }
    for (const a of sc.situation.filter((a) => a.zone === z.id)) box.append(el("div", "zone-aspect", `#${a.handle} ${a.name}`));
    map.append(box);
  }
  const cards = $("cards");
  cards.replaceChildren();
  for (const c of sc.cards) {
    const card = el("div", "card" + (c.pending ? " pending" : "") + (c.status === "to act" || c.status === "acted" ? "" : " out"));
    card.append(el("div", "card-name", `${c.name}${c.members ? ` (${c.members})` : ""} · ${c.side} · ${c.status}`));
    const stress = Object.entries(c.stress).map(([k, boxes]) => `${k}: ` + boxes.map((m) => (m ? "☒" : "☐")).join(""));
    card.append(el("div", "stress", stress.join("  ")));
    const cons = c.consequences.map((x) => x.name ? `${x.severity} ${x.name} #${x.handle}` : `${x.severity} (${x.value}) open`);
    if (cons.length) card.append(el("div", "cons", cons.join(" · ")));
    if (c.fate_points !== null) card.append(el("div", "fp", `fate points ${c.fate_points}`));
    for (const a of c.aspects) {
      const free = Object.entries(a.free).map(([h, n]) => `${h} ${n}`).join(", ");
      card.append(el("div", "aspect", `#${a.handle} ${a.name}` + (free ? ` — free: ${free}` : "")));
    }
    cards.append(card);
  }
}

// The GM's powers. Those without arguments are buttons; the others a short form whose fields offer
// what is in play now (characters, aspects by handle, zones, skills, who can be added). Either way the
// page sends the line the terminal would type, so the session checks it as it checks a typed one.
const BUTTONS = [["Pause", "/pause"], ["Go", "/go"], ["Step", "/step"], ["Override", "/override"], ["Undo", "/undo"],
  ["Save", "/save"], ["End the scene", "/end"], ["Whole scene", "/state"], ["Help", "/help"]];
const sign = (n) => (Number(n) >= 0 ? `+${Number(n)}` : `${Number(n)}`);
const at = (zone) => (zone ? ` @${zone}` : "");
const FORMS = {
  compel: { label: "Compel", fields: [["who", "character"], ["aspect", "aspect"], ["answer", "answer"]],
    line: (v) => `/compel ${v.who} #${v.aspect}${v.answer === "refused" ? " refuse" : ""}` },
  fp: { label: "Fate points", fields: [["who", "character"], ["n", "number"]], line: (v) => `/fp ${v.who} ${sign(v.n)}` },
  aspect: { label: "Add an aspect", fields: [["name", "text"], ["zone", "zone?"]], line: (v) => `/aspect add ${v.name}${at(v.zone)}` },
  unaspect: { label: "Remove an aspect", fields: [["aspect", "aspect"]], line: (v) => `/aspect remove #${v.aspect}` },
  add: { label: "Add a character", fields: [["who", "addable"], ["zone", "zone?"]], line: (v) => `/add ${v.who}${at(v.zone)}` },
  remove: { label: "Remove a character", fields: [["who", "character"]], line: (v) => `/remove ${v.who}` },
  move: { label: "Move", fields: [["who", "character"], ["zone", "zone"]], line: (v) => `/move ${v.who} ${v.zone}` },
  rating: { label: "Change a rating", fields: [["who", "character"], ["skill", "skill"], ["n", "number"]],
    line: (v) => `/rating ${v.who} ${v.skill} ${Number(v.n)}` },
  boost: { label: "Give a boost", fields: [["who", "character"], ["name", "text"]], line: (v) => `/boost ${v.who} ${v.name}` },
  concede: { label: "Concede for", fields: [["who", "character"]], line: (v) => `/concede ${v.who}` },
  name: { label: "Rename a consequence", fields: [["aspect", "consequence"], ["name", "text"]], line: (v) => `/name #${v.aspect} ${v.name}` },
  takeover: { label: "Take over an NPC", fields: [["who", "npc"]], line: (v) => `/takeover ${v.who}` },
  release: { label: "Release an NPC", fields: [["who", "npc"]], line: (v) => `/release ${v.who}` },
};

// the choices a field of each type offers now: [value, label]
function choices(type) {
  const sc = current && current.scene;
  if (!sc) return [];
  const cards = sc.cards.filter((c) => c.status === "to act" || c.status === "acted");
  const zones = sc.zones.map((z) => [z.id, z.name]);
  switch (type) {
    case "character": return cards.map((c) => [c.id, c.name]);
    case "npc": return cards.filter((c) => c.fate_points === null).map((c) => [c.id, c.name]);
    case "aspect": return sc.cards.flatMap((c) => c.aspects.map((a) => [a.handle, `#${a.handle} ${a.name} (${c.name})`]))
      .concat(sc.situation.map((a) => [a.handle, `#${a.handle} ${a.name}`]));
    case "consequence": return sc.cards.flatMap((c) => c.consequences.filter((x) => x.name)
      .map((x) => [x.handle, `#${x.handle} ${x.name} (${c.name}, ${x.severity})`]));
    case "zone": return zones;
    case "zone?": return [["", "(no zone)"]].concat(zones);
    case "answer": return [["accepted", "accepted"], ["refused", "refused (they pay a fate point)"]];
    default: return [];
  }
}

function field(name, type) {
  const label = el("label", "field", `${name} `);
  let input;
  if (["text", "number", "skill", "addable"].includes(type)) {
    input = el("input");
    input.type = type === "number" ? "number" : "text";
    input.required = true;
    input.maxLength = 120;
    if (type === "number") input.value = "1";
    if (type === "skill" || type === "addable") {  // suggestions; anything may be typed (a spec, a new skill)
      input.setAttribute("list", `list-${type}`);
      if (type === "addable") input.placeholder = "a reserve, a library NPC, or 'Thug x3: mob, Fight 2'";
    }
  } else {
    input = el("select");
    input.dataset.type = type;
  }
  input.name = name;
  label.append(input);
  return label;
}

function refreshChoices() {
  for (const sel of document.querySelectorAll("#powerform select[data-type]")) {
    const keep = sel.value;
    const items = choices(sel.dataset.type);
    const same = items.length === sel.options.length && items.every(([v, t], i) => sel.options[i].value === String(v) && sel.options[i].text === t);
    if (same) continue;
    sel.replaceChildren(...items.map(([v, t]) => { const o = el("option", null, t); o.value = v; return o; }));
    if (items.some(([v]) => String(v) === keep)) sel.value = keep;
  }
}

function drawForm() {
  const form = FORMS[$("powerkind").value];
  const box = $("powerfields");
  box.replaceChildren(...form.fields.map(([name, type]) => field(name, type)));
  refreshChoices();
}

let powersDrawn = false;
function drawPowers() {
  if (!powersDrawn) {
    powersDrawn = true;
    for (const [label, line] of BUTTONS) {
      const b = el("button", "power", label);
      b.type = "button";
      b.onclick = () => send(line);
      $("powerbuttons").append(b);
    }
    const kind = $("powerkind");
    for (const [key, f] of Object.entries(FORMS)) { const o = el("option", null, f.label); o.value = key; kind.append(o); }
    kind.onchange = drawForm;
    const g = current.gm || { reserves: [], library: [], skills: [] };
    for (const [id, items] of [["list-skill", g.skills], ["list-addable", g.reserves.map((r) => r.id).concat(g.library)]]) {
      const dl = el("datalist");
      dl.id = id;
      dl.append(...items.map((v) => { const o = el("option"); o.value = v; return o; }));
      document.body.append(dl);
    }
    $("powerform").addEventListener("submit", (e) => {
      e.preventDefault();
      const values = Object.fromEntries(new FormData(e.target));
      send(FORMS[kind.value].line(values));
    });
    drawForm();
  }
  refreshChoices();
}

let reportDrawn = false;
async function drawReport() {
  if (reportDrawn) return;
  reportDrawn = true;
  const r = await fetch(api("report"), { cache: "no-store" });
  if (!r.ok) return;
  $("reporttext").textContent = await r.text();
  $("download").href = api("report");
  $("report").hidden = false;
}

let linksDrawn = false;
function drawLinks(links) {
  if (linksDrawn) return;  // the links never change: drawn once
  linksDrawn = true;
  $("links").hidden = false;
  for (const l of links) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = l.url;
    a.textContent = l.name;
    li.append(a);
    if (l.qr) {
      const img = document.createElement("img");
      img.alt = `QR code for ${l.name}'s link`;
      img.src = l.qr;
      li.append(img);
    }
    $("linklist").append(li);
  }
}

async function send(text) {
  if (!current || !current.prompt) return;
  $("refused").textContent = "";
  const r = await fetch(api("answer"), {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seq: current.prompt.seq, text }),
  });
  if (!r.ok) $("refused").textContent = (await r.json()).error;
  await refresh();
}

$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  const line = $("line");
  send(line.value);
  line.value = "";
});

const events = new EventSource(api("events"));
events.onmessage = () => refresh();
refresh();
