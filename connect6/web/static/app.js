// connect6 web board: Play, Analyse and Watch views over one WebSocket per tab.
// Plain JavaScript, no build step, no external resources.
"use strict";

const N = 19;
const COLS = "abcdefghijklmnopqrs";          // Little Golem columns (i included), rows 1..19
const SVGNS = "http://www.w3.org/2000/svg";
const STARS = ["d4", "j4", "p4", "d10", "j10", "p10", "d16", "j16", "p16"];
const WIN = 1000000, FORCED = 1000;
const PV_DRAWN = 4;                         // turns of the principal variation drawn on the board (all are listed)

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ cells and moves
function cellXY(name) {                     // "j10" -> [9, 9] (x from the left, y from the top)
  return [COLS.indexOf(name[0]), N - parseInt(name.slice(1), 10)];
}
function cellName(x, y) { return COLS[x] + (N - y); }
function splitMove(move) { return move.match(/[a-s]\d{1,2}/g) || []; }
function colorOf(turnIndex) { return turnIndex % 2 === 0 ? "black" : "white"; }
function stonesOf(moves) {                  // Map cell -> colour
  const stones = new Map();
  moves.forEach((m, i) => splitMove(m).forEach((c) => stones.set(c, colorOf(i))));
  return stones;
}
function stoneList(moves) { return moves.flatMap(splitMove).join(","); }

// ------------------------------------------------------------------ the board (SVG)
const board = $("board");
function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function drawGrid() {
  const grid = el("g", { class: "grid" }, board);
  for (let i = 0; i < N; i++) {
    el("line", { x1: 0, y1: i, x2: N - 1, y2: i }, grid);
    el("line", { x1: i, y1: 0, x2: i, y2: N - 1 }, grid);
    for (const [x, y, t] of [[i, -0.85, COLS[i]], [i, N - 0.15, COLS[i]],
                             [-0.85, i, N - i], [N - 0.15, i, N - i]]) {
      el("text", { x, y, class: "coord" }, board).textContent = t;
    }
  }
  for (const s of STARS) { const [x, y] = cellXY(s); el("circle", { cx: x, cy: y, r: 0.12, class: "star" }, board); }
  board.appendChild(el("g", { id: "layer-stones" }));
  const hits = el("g", { id: "layer-hits" }, board);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: "hit", "data-cell": cellName(x, y) }, hits);
  }
}
// view: {moves, pending, pendingColor, last, line, pv, pvColor}
function render(view) {
  const layer = $("layer-stones");
  layer.replaceChildren();
  const stones = stonesOf(view.moves || []);
  const line = view.line || [];
  if (line.length) {                        // the winning six: a band under the stones, rings over them
    const [x1, y1] = cellXY(line[0]), [x2, y2] = cellXY(line[line.length - 1]);
    el("line", { x1, y1, x2, y2, class: "win-line" }, layer);
  }
  for (const [c, color] of stones) {
    const [x, y] = cellXY(c);
    el("circle", { cx: x, cy: y, r: 0.46, class: "stone " + color, "data-stone": c, "data-color": color }, layer);
  }
  if (view.pending) {
    const [x, y] = cellXY(view.pending);
    el("circle", { cx: x, cy: y, r: 0.46, class: "stone pending " + view.pendingColor, "data-pending": view.pending }, layer);
  }
  (view.pv || []).slice(0, PV_DRAWN).forEach((move, k) => {   // the engine's PV, drawn faintly and numbered
    const color = k % 2 === 0 ? view.pvColor : (view.pvColor === "black" ? "white" : "black");
    for (const c of splitMove(move)) {
      if (stones.has(c)) continue;
      const [x, y] = cellXY(c);
      el("circle", { cx: x, cy: y, r: 0.42, class: "stone pv " + color }, layer);
      el("text", { x, y, class: "pv-num on-" + color }, layer).textContent = k + 1;
    }
  });
  for (const c of line) { const [x, y] = cellXY(c); el("circle", { cx: x, cy: y, r: 0.46, class: "win-ring", "data-win": c }, layer); }
  for (const c of view.last || []) {
    const [x, y] = cellXY(c);
    el("circle", { cx: x, cy: y, r: 0.14, class: "last", "data-last": c }, layer);
  }
}

// ------------------------------------------------------------------ messages and the socket
let socket = null;
function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(showMessage.timer);
  if (text) showMessage.timer = setTimeout(() => { box.hidden = true; }, 6000);
}
function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { showMessage("Not connected to the server: reload the page."); return; }
  socket.send(JSON.stringify(msg));
}
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  socket = new WebSocket(url);
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    const handler = handlers[msg.type];
    if (handler) handler(msg);
  };
  socket.onclose = (ev) => {               // a refusal (origin, token, a full board) comes with its reason
    play.closed = ev.reason ? "The server closed this tab's connection: " + ev.reason + "." :
      "Disconnected from the server: reload the page.";
    $("status").textContent = play.closed;
  };
}
const handlers = {
  state: (s) => { play.state = s; play.thinking = s.thinking ? s.info : null; play.waiting = s.waiting; renderPlay(); },
  queue: (q) => { play.waiting = q.ahead; renderPlay(); },
  released: () => {},                       // the idle tab's engine was freed: nothing to show
  info: (i) => { play.thinking = i; renderPlay(); },
  error: (e) => showMessage(e.message),
  record: onRecord,
  eval: onEval,
};

// ------------------------------------------------------------------ views
let mode = "play";
function setMode(next) {
  mode = next;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.view === next);
  for (const v of ["play", "analyse", "watch"]) $("view-" + v).hidden = v !== next;
  $("graph").toggleAttribute("hidden", next !== "analyse");   // an SVG element has no .hidden
  document.body.classList.toggle("with-graph", next === "analyse");
  if (next === "play") renderPlay(); else if (next === "analyse") renderAnalyse(); else renderWatch();
}

// ------------------------------------------------------------------ play
const play = { state: null, thinking: null, waiting: null, closed: null };
function queueText(ahead) {
  return "Waiting for the engine: " + (ahead === 0 ? "you are next" : ahead + " ahead of you") + ".";
}
function fmtScore(info) { return info ? info.score_text : "–"; }
function renderPlay() {
  const s = play.state;
  if (!s || mode !== "play") return;
  const info = play.thinking || s.info;
  const engineColor = s.human === "black" ? "white" : "black";
  render({ moves: s.moves, pending: s.pending, pendingColor: s.turn, last: s.last,
           line: s.outcome ? s.outcome.line : [], pv: s.thinking && info ? info.pv : [], pvColor: engineColor });
  let status;
  if (s.outcome) {
    status = s.outcome.result === "draw" ? "Draw: the board is full." :
      (s.outcome.result === s.human ? "You win" : "The engine wins") + ": " + s.outcome.result + " made six in a row.";
  } else if (s.thinking && play.waiting !== null && play.waiting !== undefined) {
    status = queueText(play.waiting);
  } else if (s.thinking) {
    status = "The engine (" + s.turn + ") is thinking…";
  } else {
    const left = s.pending ? 1 : s.to_place;
    status = "Your move (" + s.turn + "): place " + left + " stone" + (left > 1 ? "s" : "") +
      (s.pending ? " (or click the pending stone to take it back)" : "") + ".";
  }
  $("status").textContent = play.closed || status;
  $("status").classList.toggle("waiting", !!s.thinking && play.waiting !== null && play.waiting !== undefined);
  $("t-depth").textContent = info ? info.depth : "–";
  $("t-score").textContent = fmtScore(info);
  $("t-nps").textContent = info ? Math.round(info.nps).toLocaleString("en") : "–";
  $("t-pv").textContent = info ? info.pv.join(" ") : "–";
  $("t-refuted").hidden = !(s.refuted && !s.thinking);
  $("takeback").disabled = !s.pending;
  $("move-now").disabled = !(s.thinking && s.can_stop);
  $("undo").disabled = s.thinking;
  $("moves").textContent = s.moves.map((m, i) => (i + 1) + "." + m).join(" ");
  $("color").value = s.human;
  if ([...$("profile").options].length === 0) {
    $("profile").replaceChildren(...s.profiles.map((p) => new Option(p, p)));
  }
  $("profile").value = s.profile;
  $("time").value = s.time === null ? "" : String(s.time);
}
function exportText(area, text, filename, mime) {
  area.hidden = false;
  area.value = text;
  area.select();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text + "\n"], { type: mime }));
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// ------------------------------------------------------------------ analyse
const analysis = { record: null, evals: [], index: 0 };
function onRecord(r) {
  analysis.record = r;
  analysis.evals = new Array(r.moves.length + 1).fill(null);
  analysis.index = r.moves.length;
  $("slider").max = r.moves.length;
  $("slider").value = analysis.index;
  if (mode !== "analyse") setMode("analyse"); else renderAnalyse();
}
function onEval(e) {
  if (!analysis.record || e.id !== analysis.record.id) return;
  analysis.evals[e.index] = e;
  if (mode === "analyse") renderAnalyse();
}
function step(delta) {
  if (!analysis.record) return;
  analysis.index = Math.max(0, Math.min(analysis.record.moves.length, analysis.index + delta));
  $("slider").value = analysis.index;
  renderAnalyse();
}
function renderAnalyse() {
  const r = analysis.record;
  if (!r) { render({ moves: [] }); drawGraph(); return; }
  const i = analysis.index, moves = r.moves.slice(0, i);
  const final = i === r.moves.length;
  render({ moves, last: i ? splitMove(r.moves[i - 1]) : [], line: final && r.outcome ? r.outcome.line : [] });
  const toMove = colorOf(i);
  $("a-status").textContent = "Position " + i + " of " + r.moves.length +
    (i ? " after " + colorOf(i - 1) + " " + r.moves[i - 1] : " (empty board)") +
    (final && r.outcome ? ": " + r.outcome.result + (r.outcome.result === "draw" ? "" : " won") : ", " + toMove + " to move");
  const e = analysis.evals[i];
  $("a-eval").textContent = e ? "Evaluation (black's view): " + e.text + (e.best ? ", best " + e.best : "") +
    (e.refuted ? " (refuted: the threat search finds a forced win of the opponent after it)" : "") : "Evaluating…";
  $("a-eval").classList.toggle("refuted", !!(e && e.refuted));
  drawGraph();
}
function graphY(score) {                    // black winning at the top; forced wins at the edges
  if (Math.abs(score) >= WIN - FORCED) return score > 0 ? 1 : 29;
  return 15 - 13 * Math.tanh(score / 1000);
}
function drawGraph() {
  const g = $("graph");
  g.replaceChildren();
  const r = analysis.record;
  el("line", { x1: 0, y1: 15, x2: 100, y2: 15, class: "g-axis" }, g);
  if (!r) return;
  const n = Math.max(1, r.moves.length), pts = [];
  analysis.evals.forEach((e, k) => { if (e) pts.push([100 * k / n, graphY(e.score)]); });
  if (pts.length) {                        // black's advantage filled dark above the axis, white's light below
    const area = (clamp) => "M" + pts[0][0] + ",15 " + pts.map((p) => "L" + p[0] + "," + clamp(p[1])).join(" ") +
      " L" + pts[pts.length - 1][0] + ",15 Z";
    el("path", { d: area((y) => Math.min(y, 15)), class: "g-black" }, g);
    el("path", { d: area((y) => Math.max(y, 15)), class: "g-white" }, g);
    el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "g-line" }, g);
  }
  const x = 100 * analysis.index / n;
  el("line", { x1: x, y1: 0, x2: x, y2: 30, class: "g-cursor" }, g);
}
function loadRecord(text) {
  if (!text.trim()) { showMessage("Paste a stone list or an SGF record first."); return; }
  send({ type: "analyse", text });
}

// ------------------------------------------------------------------ watch
const watch = { data: null, selected: null, enabled: false };
async function pollWatch() {
  try {
    const r = await fetch("/api/watch", { cache: "no-store" });
    if (r.ok) { watch.data = await r.json(); if (mode === "watch") renderWatch(); }
  } catch (err) { /* the server is gone; the play view says so */ }
}
function clockText(clock) {
  if (!clock) return "–";
  return ["black", "white"].map((c) => clock[c] === null || clock[c] === undefined ? "–" : clock[c].toFixed(1)).join(" / ");
}
function watchRow(cells, game, selected) {
  const tr = document.createElement("tr");
  tr.dataset.game = game;
  if (selected) tr.classList.add("selected");
  for (const t of cells) { const td = document.createElement("td"); td.textContent = t; tr.appendChild(td); }
  return tr;
}
function renderWatch() {
  const d = watch.data;
  if (!d) { render({ moves: [] }); return; }
  const running = d.running || [];
  const age = d.running_updated ? Math.max(0, Math.round(d.now - d.running_updated)) : null;
  $("w-dir").textContent = d.directory + " (" + d.kind + "): " + d.games.length + (d.total ? " of " + d.total : "") +
    " games finished" + (running.length ? ", " + running.length + " in progress" +
    (age !== null ? " (updated " + age + " s ago)" : "") : "") +
    (d.exists ? "" : " (the directory does not exist yet: waiting for the match)") +
    (d.problem ? " (" + d.problem + ")" : "");
  $("w-summary").textContent = d.summary;
  const chosen = running.find((g) => g.game === watch.selected) || d.games.find((g) => g.game === watch.selected) ||
    running[0] || d.games[d.games.length - 1];
  const shown = chosen ? chosen.game : null;
  $("w-running-wrap").hidden = running.length === 0;
  $("w-running").tBodies[0].replaceChildren(...running.map((g) =>
    watchRow([g.game, g.black, g.white, g.turns, g.to_move, clockText(g.clock)], g.game, g.game === shown)));
  $("w-games").tBodies[0].replaceChildren(...d.games.slice().reverse().map((g) => {
    const tr = watchRow([g.game, g.black, g.white, g.result === "draw" ? "draw" : g.result + " won", g.termination,
                         g.moves.length], g.game, g.game === shown);
    tr.title = g.reason;
    return tr;
  }));
  if (!chosen) { $("w-game").textContent = ""; render({ moves: [] }); return; }
  const live = running.includes(chosen);
  $("w-game").textContent = "Game " + chosen.game + ": " + chosen.black + " (black) - " + chosen.white + " (white), " +
    (live ? chosen.turns + (chosen.turns === 1 ? " turn, " : " turns, ") + chosen.to_move + " to move, clocks " + clockText(chosen.clock) :
      (chosen.result === "draw" ? "draw" : chosen.result + " won") + " (" + chosen.termination + "), " +
      chosen.moves.length + " turns");
  const moves = chosen.moves || [];
  render({ moves, last: moves.length ? splitMove(moves[moves.length - 1]) : [], line: live ? [] : chosen.line || [] });
}

// ------------------------------------------------------------------ wiring
function wire() {
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => setMode(b.dataset.view));
  board.addEventListener("click", (ev) => {
    const cell = ev.target.getAttribute && ev.target.getAttribute("data-cell");
    if (!cell) return;
    if (mode === "play") send({ type: "click", cell });
  });
  $("new-game").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("time").value;
    send({ type: "new", color: $("color").value, profile: $("profile").value, time: t === "" ? null : parseFloat(t) });
  });
  $("takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("move-now").addEventListener("click", () => send({ type: "move_now" }));
  $("export-sgf").addEventListener("click", () => play.state && exportText($("export"), play.state.sgf, "connect6-game.sgf", "application/x-go-sgf"));
  $("export-list").addEventListener("click", () => play.state && exportText($("export"), play.state.stone_list, "connect6-game.txt", "text/plain"));
  $("load-record").addEventListener("click", () => loadRecord($("record-text").value));
  $("record-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    const text = await f.text();
    $("record-text").value = text;
    loadRecord(text);
    ev.target.value = "";
  });
  $("slider").addEventListener("input", (ev) => { analysis.index = parseInt(ev.target.value, 10); renderAnalyse(); });
  $("step-back").addEventListener("click", () => step(-1));
  $("step-next").addEventListener("click", () => step(1));
  $("graph").addEventListener("click", (ev) => {
    if (!analysis.record) return;
    const box = $("graph").getBoundingClientRect();
    step(Math.round((ev.clientX - box.left) / box.width * analysis.record.moves.length) - analysis.index);
  });
  document.addEventListener("keydown", (ev) => {
    if (mode !== "analyse" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
    const d = { ArrowLeft: -1, ArrowRight: 1, Home: -1e9, End: 1e9 }[ev.key];
    if (d !== undefined) { ev.preventDefault(); step(d); }
  });
  $("play-from-here").addEventListener("click", () => {
    const r = analysis.record;
    if (!r) { showMessage("Load a record first."); return; }
    const position = stoneList(r.moves.slice(0, analysis.index));
    const human = colorOf(analysis.index);
    const t = $("time").value;
    send({ type: "new", color: human, profile: $("profile").value, time: t === "" ? null : parseFloat(t), position });
    setMode("play");
  });
  $("a-export-sgf").addEventListener("click", () => analysis.record && exportText($("a-export"), analysis.record.sgf, "connect6-record.sgf", "application/x-go-sgf"));
  $("a-export-list").addEventListener("click", () => analysis.record && exportText($("a-export"), analysis.record.stone_list, "connect6-record.txt", "text/plain"));
  for (const id of ["w-games", "w-running"]) {
    $(id).addEventListener("click", (ev) => {
      const tr = ev.target.closest("tr[data-game]");
      if (!tr) return;
      watch.selected = parseInt(tr.dataset.game, 10);
      renderWatch();
    });
  }
}

async function start() {
  drawGrid();
  wire();
  connect();
  try {
    const reply = await fetch("/api/info");
    if (!reply.ok) { showMessage(await reply.text()); return; }
    const info = await reply.json();
    if (info.watch) {
      $("watch-tab").hidden = false;
      pollWatch();
      setInterval(pollWatch, 1000);            // cheap: the server rereads the files only when they change
      if (location.hash !== "#play") setMode("watch");
    }
  } catch (err) { showMessage("The server did not answer /api/info."); }
  if (location.hash === "#analyse") setMode("analyse");
}
start();
