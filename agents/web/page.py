"""The one static page of browser play: plain HTML, CSS and JavaScript, nothing loaded from anywhere else.

The page reads ``GET /api/state`` and shows: the board as the person's seat sees it (the game's SVG), the
current decision as the stages of terminal play (buttons; options that name a board element are also
clickable on the board, outlined in gold, as is where the only legal move goes; one chosen earlier in the move is outlined in dashed blue; a board
that draws an element's own outline, ``id="outline-<the element's id>"`` above every mark (The Monolith's
spaces), has that outline lit instead, so that no mark drawn over the element hides it), the
narration of every move, and at the end the result with each seat's returns, a link to the game's replay
page and a New game button (the button also when an opponent's agent failed to move and the game cannot
go on).  A move is sent with the decision it was chosen at; when the server answers that the game has moved
on (409) or failed (5xx), the page reloads the state.  Every option is numbered; its number typed on the
keyboard chooses it (a number that could go on, e.g. 1 when there are 12 options, waits 1.5 s or Enter for the
next digit, shown in ``typed``; a number with no option, e.g. 0 or 9 of 3 options, or 19 of 12, is said there for
1.5 s and chooses nothing; the only legal move is taken with 1 or Enter, or a click where it goes), Escape forgets the digits typed,
Backspace goes back one stage of the move being entered.

Element ids (stable, used by the tests): ``status``, ``board`` (holds the SVG; class ``wide`` when the
``zoom`` button has made it fill the column's width, scrolling in its own box; the choice is kept in the
browser's local storage), ``decision``, ``auto`` (stages
taken at once and the ones chosen so far), ``stage-title``, ``typed`` (the digits typed so far of an option's
number), ``hint`` (shown when options, or the only legal move, can be clicked on
the board, or an element chosen earlier in the move is outlined there), ``options`` (one ``button.opt`` per
option: its number, then its label, which wraps under its own text), ``facing-picks`` (a group drawn on
the board at a stage whose options point from the element chosen before, Arena's facings: one
``polygon.facing-pick`` arrow per option, ``data-option`` its index; a click chooses it, hovering its button
lights it up), ``back``, ``error``, ``narration`` (one ``div.entry``
per move, one ``div.ln`` per line in it: a long line wraps under its own text), ``moves-key`` (the
Moves legend; a one-seat game names no other seats), ``notes`` (the game's notes on the position, e.g. what the Strategy Game's cards do, in
``notes-panel``, hidden when there are none), ``ask`` (what the open decision asks, in words, where the game
says, e.g. a Strategy payment's cost and purpose; hidden otherwise), ``result``, ``verdict``, ``reason`` (why
the game ended so, e.g. Arena's tie-break; hidden when the game does not say), ``hidden-list`` (what the board
hid from the person until the end, e.g. the other seats' hands and objectives, one ``li`` each; hidden when
nothing was), ``returns`` (a table, one row
per seat), ``replay-link``, ``new-game``. The second click of a double click chooses nothing.
``body[data-state]`` is ``loading``, ``ready``, ``busy`` (a request is under way) or ``over``.
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>monolith_envs: play</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f4ee; color: #222; }
header { padding: 6px 14px; background: #2f3b4a; color: #fff; font-size: 15px; display: flex; gap: 12px;
  justify-content: space-between; align-items: center; min-height: 22px; }
main { display: grid; grid-template-columns: minmax(0, 1fr) clamp(270px, 30vw, 440px); gap: 14px; padding: 12px;
  align-items: start; }
#board { min-width: 0; background: #fff; border: 1px solid #ccc; padding: 4px; }
#board svg { display: block; width: 100%; height: auto; max-height: calc(100vh - var(--head, 34px) - 36px); }
/* "larger board": the drawing fills the column's width and the board scrolls in its own box */
#board.wide { max-height: calc(100vh - var(--head, 34px) - 36px); overflow: auto; }
#board.wide svg { max-height: none; min-width: var(--natural-width, 0px); }  /* at least its drawn size */
#zoom { font-size: 12px; padding: 2px 8px; flex: none; }
#zoom.hint { background: #ffe08a; border: 1px solid #b89a3c; }  /* the board is drawn small: say so */
/* the side column stays in the window: the Moves, the notes and the list of options shrink to fit (the
   decision never under its own lines and about four options), and the column scrolls past that */
#side { display: flex; flex-direction: column; gap: 10px; position: sticky; top: 8px;
  max-height: calc(100vh - var(--head, 34px) - 26px); overflow-y: auto; overflow-x: hidden; }  /* in view under the header, scrolled or not; no sideways scroll bar over its last button */
#side .panel { overflow-wrap: anywhere; }  /* a long name wraps in the column, never widens it */
#side > .panel { flex: none; }
#side > #decision:not([hidden]) { flex: 0 1 auto; display: flex; flex-direction: column; }
#decision > * { flex: none; }
#decision > #options { flex: 0 1 auto; }  /* its least height: fitDecision() */
#side > #moves-panel { flex: 0 1 auto; min-height: 7em; display: flex; flex-direction: column; }
#side > #notes-panel:not([hidden]) { flex: 0 1 auto; min-height: 5em; display: flex; flex-direction: column; }
.panel { background: #fff; border: 1px solid #ccc; padding: 8px 10px; }
#stage-title { font-weight: bold; margin: 4px 0; }
#hint { color: #8a6500; font-size: 13px; margin: -2px 0 4px; }
#ask { font-size: 14px; margin: 0 0 6px; padding: 4px 6px; background: #f3f0e4; border-left: 3px solid #b89a3c; }
#reason { margin: -4px 0 8px; font-size: 14px; color: #333; }
#hidden-list { margin: 0 0 8px; font-size: 14px; color: #333; }
#hidden-list ul { margin: 2px 0 0; padding-left: 20px; }
#auto { color: #555; font-size: 13px; white-space: pre-wrap; }
#options { display: flex; flex-direction: column; gap: 4px; max-height: 46vh; overflow-y: auto; }
/* flex: a wrapped label goes on under its text, not its number */
button.opt { display: flex; align-items: baseline; text-align: left; padding: 5px 8px; font-size: 14px;
  border: 1px solid #99a; background: #eef1f6; border-radius: 4px; cursor: pointer; }
button.opt:hover:not([disabled]) { background: #dde6f5; }
button.opt .key { flex: none; min-width: 2.2em; color: #667; }
#typed { color: #356; }
button[disabled] { opacity: .55; cursor: wait; }
#back { margin-top: 6px; }
#error { color: #a00; white-space: pre-wrap; }
#narration { flex: 1 1 auto; min-height: 0; max-height: 34vh; overflow-y: auto; font-family: monospace; font-size: 12.5px; }
/* the game's own notes (Strategy's "what the cards do"): scrolled in their box, so the Moves stay in view */
#notes { flex: 1 1 auto; min-height: 0; max-height: 24vh; overflow-y: auto; }
#narration .entry { white-space: pre-wrap; border-bottom: 1px solid #eee; padding: 2px 0; }
#narration .entry.you { font-weight: bold; }  /* not a colour: the boards draw each seat in its own colour */
#narration .entry.fresh { background: #fff6d8; }
#result h2 { margin: 4px 0 8px; font-size: 18px; }
#returns td, #returns th { padding: 2px 10px 2px 0; text-align: left; }
[data-target].target { cursor: pointer; }
#board.picking svg * { pointer-events: none; }  /* pieces drawn over a target never take its click */
#board.picking [data-target].target, #board.picking [data-target].target * { pointer-events: auto; }
/* only the element's own outline: its shape of class "target-shape", else (a drawing that marks none) the
   shape right after the group's title (its first shape); never its other marks (a hex's wedge, its tabs) */
[data-target].target:not(.outlined) > .target-shape,
[data-target].target:not(.outlined):not(:has(> .target-shape)) > title:first-child + :is(rect, polygon) {
  /* gold with a dark edge, so it shows next to a gold seat's tiles (Arena's P3) as on every other fill */
  stroke: #ffc21a; stroke-width: 3.5px; filter: drop-shadow(0 0 1.2px #2a1c00) drop-shadow(0 0 1.2px #2a1c00); }
[data-target].chosen:not(.outlined) > .target-shape,
[data-target].chosen:not(.outlined):not(:has(> .target-shape)) > title:first-child + :is(rect, polygon) {
  stroke: #1a6fd0; stroke-width: 4px; stroke-dasharray: 6 3; }
/* a board that draws its own outline of an element (id "outline-" + the element's id, over every mark):
   a dark line under a gold (dashed blue) one, readable on every fill and next to every seat's colour */
g.hl-target > polyline { stroke: #2a1c00; stroke-width: 8px; }
g.hl-target > g > polyline { stroke: #ffc21a; stroke-width: 4px; }
g.hl-chosen > polyline { stroke: #0a2140; stroke-width: 8px; }
g.hl-chosen > g > polyline { stroke: #5aa8ff; stroke-width: 4px; stroke-dasharray: 6 3; }
[data-target].target:hover { opacity: .75; }
/* options that point from the element chosen before (Arena's facings): an arrow each, drawn on the board */
#board svg .facing-pick, #board.picking svg .facing-pick { fill: #ffc21a; stroke: #2a1c00; stroke-width: 2px;
  cursor: pointer; pointer-events: auto; }
#board svg .facing-pick:hover, #board svg .facing-pick.hot { fill: #ffffff; stroke-width: 3px; }
/* one column (after the rules it overrides) on a narrow portrait window or a very narrow one: a shorter
   board, so the decision under it is in view; a landscape window (800x600) keeps the two columns */
@media (max-width: 860px) and (orientation: portrait), (max-width: 560px) {
  main { grid-template-columns: minmax(0, 1fr); }
  #board svg { max-height: 55vh; }
  #board.wide { max-height: 55vh; }
  #side { position: static; max-height: none; overflow-y: visible; }
}
</style></head>
<body data-state="loading">
<header><span id="status">loading...</span>
<button id="zoom" title="switch between the whole board in the window and a larger board that scrolls">larger board</button>
</header>
<main>
<div id="board" aria-label="the board"></div>
<div id="side">
  <div class="panel" id="decision">
    <div id="ask" hidden></div>
    <div id="auto"></div>
    <div id="stage-title"></div>
    <div id="typed" hidden></div>
    <div id="hint" hidden>or click one outlined in gold on the board</div>
    <div id="options"></div>
    <button id="back" hidden>back (undo a stage of this move)</button>
  </div>
  <div class="panel" id="error" hidden></div>
  <div class="panel" id="result" hidden>
    <h2 id="verdict"></h2>
    <p id="reason" hidden></p>
    <div id="hidden-list" hidden><b>hidden until now:</b><ul></ul></div>
    <table id="returns"><thead><tr><th>seat</th><th>outcome</th><th title="the sum of the seat&#39;s rewards over the game (its return, as the game&#39;s reward_mode pays it: docs/&lt;game&gt;.md, section 8)">return</th></tr></thead><tbody></tbody></table>
    <p><a id="replay-link" href="#" target="_blank">watch this game's replay</a></p>
    <button id="new-game">New game</button>
  </div>
  <div class="panel" id="notes-panel" hidden><div id="notes" style="white-space: pre-wrap; font-size: 13px"></div></div>
  <div class="panel" id="moves-panel"><b>Moves</b> <small id="moves-key">(yours in bold; the other seats' latest highlighted)</small><div id="narration"></div></div>
</div>
</main>
<script>
"use strict";
const $ = id => document.getElementById(id);
let S = null, node = null, path = [], busy = false, shown = 0;
let followMoves = true;  // the Moves box keeps its newest line in view, unless the player scrolled it up
$("narration").addEventListener("scroll", () => {
  const n = $("narration");
  followMoves = n.scrollTop + n.clientHeight >= n.scrollHeight - 4;
});
function followNewest() {  // after the panels above and beside it took their height (the box may have shrunk)
  if (followMoves) $("narration").scrollTop = $("narration").scrollHeight;
}
// The second click of a double click (the next stage's buttons are drawn where the first click's were)
// chooses nothing: one click makes one choice. Keyboard presses (detail 0) and single clicks choose.
function stray(ev) { return ev.detail > 1; }

function setState(b) {
  busy = b;
  if (b) { $("stage-title").textContent = "waiting for the server (the opponents move)..."; $("hint").hidden = true; }
  document.body.dataset.state = b ? "busy" : (S && S.over ? "over" : "ready");
  for (const x of document.querySelectorAll("#options button, #back, #new-game")) x.disabled = b;
}
function error(msg) { $("error").textContent = msg || ""; $("error").hidden = !msg; }

async function api(method, url, body) {
  const opts = {method: method, headers: {}};
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let r;
  try { r = await fetch(url, opts); }
  catch (e) { throw new Error("the server does not answer (was it stopped? start it again and reload this page): " + e.message); }
  let d = null;
  try { d = await r.json(); } catch (e) { throw new Error("the server answered " + r.status + " without JSON"); }
  if (!r.ok) {
    const e = new Error(d && d.error ? d.error : "the server answered " + r.status);
    e.status = r.status;
    throw e;
  }
  return d;
}
async function request(method, url, body) {
  setState(true);
  try {
    let st = await api(method, url, body);
    while (st.busy) {  // another request holds the game (the opponents move): show it, then ask again
      show(st); setState(true); $("stage-title").textContent = st.busy;
      await new Promise(done => setTimeout(done, 500));
      st = await api("GET", "/api/state");
    }
    show(st); error("");
  }
  catch (e) {
    if (e.status === 409 || e.status >= 500) {  // the game moved on (another tab, a new game, a failed
      // opponent after the person's move was played): show where it is now
      try {
        const cur = await api("GET", "/api/state"), other = S && cur.game_id !== S.game_id;
        show(cur);
        if (other) e.message = "a new game was started since, perhaps in another tab: this page shows it now; choose again";
      } catch (e2) { /* the first error says enough */ }
    }
    error(e.message); if (S) { node = S.stages; path = []; } setState(false); renderStage();
  }
}

function show(st) {
  const fresh = S && S.game_id === st.game_id ? shown : 0;
  S = st; node = st.stages; path = [];
  $("status").textContent = st.env_id + ", seed " + st.seed + ": you are P" + st.seat + "; " +
    st.table + "; decision " + st.decisions + (st.over ? " (game over)" : "");
  $("board").innerHTML = st.svg;
  const svg = $("board").querySelector("svg");  // "larger board" draws it at least at its own width
  if (svg && svg.getAttribute("width")) $("board").style.setProperty("--natural-width", svg.getAttribute("width") + "px");
  hintZoom();
  $("notes").textContent = (st.notes || []).join("\\n");
  $("notes-panel").hidden = !(st.notes && st.notes.length);
  $("ask").textContent = st.ask || "";
  $("ask").hidden = !st.ask;
  $("moves-key").textContent = st.players.length > 1 ? "(yours in bold; the other seats' latest highlighted)"
    : "(yours in bold)";  // a one-seat game has no other seats
  const nar = $("narration");
  nar.textContent = "";
  st.narration.forEach((e, k) => {
    const div = document.createElement("div");
    div.className = "entry" + (e.seat === st.seat ? " you" : "") + (k >= fresh && e.seat !== st.seat ? " fresh" : "");
    // one block per line, the terminal's 80-column wrapping undone: the panel wraps a long line under its own text
    e.lines.map(item => item.replace(/\\n\\s*/g, " ")).forEach(line => {
      const ln = document.createElement("div"), pad = line.length - line.trimStart().length + 2;
      ln.className = "ln";
      ln.style.paddingLeft = pad + "ch";
      ln.style.textIndent = -pad + "ch";
      ln.textContent = line;
      div.appendChild(ln);
    });
    nar.appendChild(div);
  });
  shown = st.narration.length;
  nar.scrollTop = nar.scrollHeight;
  followMoves = true;
  const res = st.result, stuck = !st.over && !st.stages && !st.busy;  // stuck: an opponent's agent failed to move
  $("result").hidden = !res && !stuck;
  $("decision").hidden = !!res || stuck;
  $("returns").hidden = $("replay-link").parentElement.hidden = !res;
  if (stuck) $("verdict").textContent =
    "the game cannot go on: an opponent's agent failed to move; start a new game";
  if (res) {
    $("verdict").textContent = "game over after " + st.decisions + " decisions: " + res.verdict;
    $("reason").textContent = res.reason || "";
    $("reason").hidden = !res.reason;
    const hid = $("hidden-list").querySelector("ul");
    hid.textContent = "";
    (res.hidden || []).forEach(x => { const li = document.createElement("li"); li.textContent = x; hid.appendChild(li); });
    $("hidden-list").hidden = !(res.hidden || []).length;
    const body = $("returns").tBodies[0];
    body.textContent = "";
    res.returns.forEach((r, i) => {
      const tr = body.insertRow();
      tr.insertCell().textContent = "P" + i + (i === st.seat ? " (you)" : " (" + st.players[i]
        + ((st.partners || []).includes(i) ? ", your partner" : "") + ")");
      tr.insertCell().textContent = res.outcome ? res.outcome[i] : "truncated";
      tr.insertCell().textContent = String(r);
    });
    $("replay-link").href = res.replay;
  }
  renderStage();
  setState(false);
}

function optionButton(text, title, onclick, k) {
  const b = document.createElement("button");
  b.className = "opt";
  const s = document.createElement("span"); s.className = "key"; s.textContent = (k + 1) + ")"; b.appendChild(s);
  const t = document.createElement("span"); t.textContent = text; b.appendChild(t);
  if (title) b.title = title;
  b.disabled = busy;
  b.addEventListener("click", ev => { if (!stray(ev)) onclick(); });
  return b;
}

function mark(target, cls) {  // the board element named target, and its outline when the board draws one
  const el = document.querySelector('#board [data-target="' + target + '"]');
  if (!el) return false;
  el.classList.add(cls);
  const line = el.id && document.getElementById("outline-" + el.id);
  if (line) { line.classList.add("hl-" + cls); el.classList.add("outlined"); }
  return true;
}

function renderStage() {
  typedClear();
  const opts = $("options");
  opts.textContent = "";
  for (const el of document.querySelectorAll("#board [data-target], #board [id^='outline-']")) {
    el.classList.remove("target", "chosen", "outlined", "hl-target", "hl-chosen");
  }
  const chosen = path.filter(p => p.target && mark(p.target, "chosen")).length;
  const arrows = document.getElementById("facing-picks");
  if (arrows) arrows.remove();
  $("board").classList.remove("picking");
  setHint(0, 0);
  const done = path.flatMap(p => p.said).concat(node ? node.auto : []);
  $("back").hidden = path.length === 0;
  if (!node) { $("stage-title").textContent = ""; $("auto").textContent = ""; fitDecision(); return; }
  if (node.action !== undefined) {  // the whole move was forced
    $("auto").textContent = done.join("\\n");
    $("stage-title").textContent = "the only legal move:";
    opts.appendChild(optionButton(node.name, node.code, () => send(node.action), 0));
    const onBoard = (node.targets || []).filter(t => mark(t, "target")).length;  // where the move goes
    $("board").classList.toggle("picking", onBoard > 0);
    setHint(onBoard, chosen);
    fitDecision();
    return;
  }
  $("auto").textContent = done.join("\\n");
  $("stage-title").textContent = "choose the " + node.title + ":";
  let onBoard = 0;
  node.options.forEach((o, k) => {
    // an option whose later stages are all forced plays the whole move: its label says which (the terminal
    // asks to confirm it; here the click is the confirmation)
    const whole = o.node.action !== undefined && o.node.auto.length ? o.label + " (" + o.node.name + ")" : o.label;
    opts.appendChild(optionButton(whole, o.node.action !== undefined ? o.node.name + " (" + o.node.code + ")" : "",
                                  () => choose(k), k));
    if (o.target && mark(o.target, "target")) onBoard++;
  });
  const pointed = drawDirections(node.options);
  $("board").classList.toggle("picking", onBoard + pointed > 0);
  setHint(onBoard, chosen, pointed);
  fitDecision();
}

function fitDecision() {  // the decision's panel shrinks (its list of options scrolls) down to its own lines
  // and about four options, never further: no option slides under the panels below it
  const d = $("decision"), o = $("options");
  const fewest = Math.min(o.scrollHeight, 120);
  o.style.minHeight = fewest + "px";
  d.style.minHeight = "";
  if (!d.hidden) {  // the game is over: no decision
    const pad = parseFloat(getComputedStyle(d).paddingTop) + parseFloat(getComputedStyle(d).paddingBottom);
    d.style.minHeight = Math.ceil(d.scrollHeight - pad - o.clientHeight + fewest) + "px";  // the content box
  }
  followNewest();
}
window.addEventListener("resize", fitDecision);

function drawDirections(options) {  // an arrow on the board for each option that points from the element
  // chosen before (Arena's facings: the tile's front edge), to click instead of its button; returns how many
  const at = [...path].reverse().find(p => p.target);
  const svg = $("board").querySelector("svg");
  if (!at || !svg || !options.some(o => o.direction !== undefined)) return 0;
  const el = svg.querySelector('[data-target="' + at.target + '"]');
  const shape = el && (el.querySelector(".target-shape") || el.querySelector("polygon, rect"));
  if (!shape) return 0;
  const box = shape.getBBox(), cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const r = Math.min(box.width, box.height) / 2;  // a pointy-top hex: its centre to an edge's middle
  const NS = "http://www.w3.org/2000/svg", g = document.createElementNS(NS, "g");
  g.id = "facing-picks";
  options.forEach((o, k) => {
    if (o.direction === undefined) return;
    const a = o.direction * Math.PI / 180, ux = Math.cos(a), uy = Math.sin(a), w = 0.22 * r;
    const pt = (d, side) => (cx + ux * d * r - uy * side).toFixed(1) + "," + (cy + uy * d * r + ux * side).toFixed(1);
    const tri = document.createElementNS(NS, "polygon");
    tri.setAttribute("points", [pt(0.95, 0), pt(0.55, w), pt(0.55, -w)].join(" "));
    tri.setAttribute("class", "facing-pick");
    tri.dataset.option = String(k);
    const title = document.createElementNS(NS, "title");
    title.textContent = o.label + " (option " + (k + 1) + ")";
    tri.appendChild(title);
    tri.addEventListener("click", ev => { ev.stopPropagation(); if (!stray(ev) && !busy) choose(k); });
    g.appendChild(tri);
    const button = $("options").children[k];  // its button lights the arrow up
    button.addEventListener("mouseenter", () => tri.classList.add("hot"));
    button.addEventListener("mouseleave", () => tri.classList.remove("hot"));
  });
  svg.appendChild(g);
  return g.childElementCount;
}

function setHint(onBoard, chosen, pointed) {  // what the marks on the board mean now (hidden when there are none)
  const parts = (onBoard ? ["or click one outlined in gold on the board"] : [])
    .concat(pointed ? ["or click one of the gold arrows on the board"] : [])
    .concat(chosen ? ["dashed blue on the board: chosen earlier in this move"] : []);
  $("hint").textContent = parts.join("; ");
  $("hint").hidden = !parts.length;
}

function choose(k) {
  if (busy || !node || !node.options) return;
  const o = node.options[k];
  path.push({node: node, said: node.auto.concat([node.title + ": " + o.label]), target: o.target});
  if (o.node.action !== undefined) { node = o.node; send(o.node.action); return; }
  node = o.node;
  renderStage();
}
let typed = "", typedTimer = null;  // the digits typed so far of an option's number
const TYPED_WAIT_MS = 1500;  // how long a number that could go on waits for its next digit
function typedClear() {
  clearTimeout(typedTimer); typedTimer = null; typed = ""; $("typed").hidden = true; fitDecision();
}
function typedPick() { const k = +typed - 1; typedClear(); if (node && node.options && node.options[k]) choose(k); }
function typeDigit(d) {  // a number that no further digit can extend is chosen at once; else wait for one
  const n = +(typed + d), count = node && node.options ? node.options.length : 0;
  if (n < 1 || n > count) {  // no such option (0, or 19 of 12): said, and nothing is chosen
    const shown = typed + d; typedClear();
    if (count) {
      $("typed").textContent = "no option " + shown + ": the options are 1-" + count;
      $("typed").hidden = false;
      fitDecision();
      typedTimer = setTimeout(typedClear, TYPED_WAIT_MS);
    }
    return;
  }
  typed += d; clearTimeout(typedTimer);
  if (n * 10 > count) { typedPick(); return; }
  $("typed").textContent = "option " + typed + "... (another digit within 1.5 s, or Enter; Escape forgets it)";
  $("typed").hidden = false;
  fitDecision();
  typedTimer = setTimeout(typedPick, TYPED_WAIT_MS);
}
function back() { if (!busy && path.length) { node = path.pop().node; renderStage(); } }
function send(action) {  // with the decision it was chosen at: refused if the game has moved on since
  request("POST", "/api/action", {game_id: S.game_id, action: action, decision: S.decisions});
}

$("board").addEventListener("click", ev => {
  const el = ev.target.closest ? ev.target.closest("[data-target]") : null;
  if (el && !busy && node && node.action !== undefined && (node.targets || []).includes(el.getAttribute("data-target"))
      && !stray(ev)) { send(node.action); return; }  // the only legal move, clicked where it goes
  if (!el || busy || !node || !node.options || stray(ev)) return;
  const k = node.options.findIndex(o => o.target === el.getAttribute("data-target"));
  if (k >= 0) choose(k);
});
function zoom(wide) {  // the board's size: fitted to the window, or the column's width (kept for this browser)
  $("board").classList.toggle("wide", wide);
  hintZoom();
  try { localStorage.setItem("monolith-board-wide", wide ? "1" : "0"); } catch (e) { /* private mode */ }
}
function fitHeader() {  // the header's height (two lines in a narrow window): the board and the column fit under it
  document.documentElement.style.setProperty("--head", document.querySelector("header").offsetHeight + "px");
}
function drawnScale() {  // the board's drawn size over its own, by the limit that holds (width or height)
  const svg = $("board").querySelector("svg");
  const w = svg ? parseFloat(svg.getAttribute("width")) : 0, h = svg ? parseFloat(svg.getAttribute("height")) : 0;
  if (!(w > 0 && h > 0)) return 1;
  const r = svg.getBoundingClientRect();  // the box; the drawing keeps its aspect inside it
  return Math.min(r.width / w, r.height / h);
}
function hintZoom() {  // a board fitted under 80% of its drawn size (a laptop, a small window, a phone) says so
  for (let pass = 0; pass < 2; pass++) {  // the label may wrap the header, which leaves the board less height
    const wide = $("board").classList.contains("wide"), k = drawnScale();
    const small = !wide && k > 0 && k < 0.8;  // at 2/3 (1366x768) Arena's tile names are 4-6 px: too small
    $("zoom").textContent = wide ? "whole board" : small ? "larger board (now " + Math.round(100 * k) + "%)"
      : "larger board";
    $("zoom").classList.toggle("hint", small);
    fitHeader();
  }
}
window.addEventListener("resize", hintZoom);
let wide0 = false;
try { wide0 = localStorage.getItem("monolith-board-wide") === "1"; } catch (e) { /* private mode */ }
zoom(wide0);
$("zoom").addEventListener("click", ev => { if (!stray(ev)) zoom(!$("board").classList.contains("wide")); });
$("back").addEventListener("click", ev => { if (!stray(ev)) back(); });
$("new-game").addEventListener("click", ev => { if (!stray(ev)) request("POST", "/api/new", {game_id: S.game_id}); });
document.addEventListener("keydown", ev => {
  if (ev.target.tagName === "INPUT" || busy) return;
  if (ev.key === "Backspace") { back(); ev.preventDefault(); }
  else if (node && node.action !== undefined && (ev.key === "1" || ev.key === "Enter")) {  // the only legal move
    send(node.action); ev.preventDefault();
  }
  else if (/^[0-9]$/.test(ev.key) && node && node.options) typeDigit(ev.key);
  else if (ev.key === "Enter" && typed) { typedPick(); ev.preventDefault(); }
  else if (ev.key === "Escape") typedClear();
});
request("GET", "/api/state");
</script>
</body></html>
"""
