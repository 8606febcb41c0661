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

// the zones as a map (who stands where; the borders and what blocks them), and a card per character
function drawScene(sc) {
  const map = $("map");
  map.replaceChildren();
  for (const z of sc.zones) {
    const box = el("div", "zone");
    box.append(el("div", "zone-name", z.name));
    for (const c of sc.cards.filter((c) => c.zone === z.id && (c.status === "to act" || c.status === "acted"))) {
      box.append(el("div", `who side-${sc.cards.findIndex((x) => x.side === c.side)}`, c.name));
    }
    for (const a of sc.situation.filter((a) => a.zone === z.id)) box.append(el("div", "zone-aspect", `#${a.handle} ${a.name}`));
    map.append(box);
  }
  const ways = sc.borders.map((b) => `${b.a} ↔ ${b.b}` + (b.difficulty ? `: ${b.difficulty}` : "")
    + (b.aspect ? ` (${b.aspect})` : "") + (b.blocks_ranged ? ", blocks shots" : ""));
  map.append(el("div", "borders", ways.join(" · ")));
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

// the GM's powers: each button starts the command in the line below (a handle or a name completes it)
const POWERS = [["Compel", "/compel CHARACTER ASPECT"], ["Fate point", "/fp CHARACTER +1"], ["Aspect", "/aspect add NAME @ZONE"],
  ["Remove aspect", "/aspect remove ASPECT"], ["Add", "/add "], ["Remove", "/remove CHARACTER"], ["Move", "/move CHARACTER ZONE"],
  ["Rating", "/rating CHARACTER SKILL N"], ["Boost", "/boost CHARACTER NAME"], ["Concede", "/concede CHARACTER"],
  ["Pause", "/pause"], ["Go", "/go"], ["Override", "/override"], ["Undo", "/undo"], ["Save", "/save session.json"],
  ["End", "/end"], ["Help", "/help"]];
let powersDrawn = false;
function drawPowers() {
  if (powersDrawn) return;
  powersDrawn = true;
  for (const [label, template] of POWERS) {
    const b = el("button", "power", label);
    b.type = "button";
    b.onclick = () => { $("line").value = template; $("line").focus(); };
    $("powers").append(b);
  }
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
