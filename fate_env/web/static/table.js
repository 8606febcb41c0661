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
  const p = s.prompt;
  const box = $("prompt");
  box.classList.toggle("waiting", !(p && p.yours));
  $("question").textContent = !p ? "" : p.yours ? `${p.actor_name || ""} — ${p.kind}: ${p.text}`
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
