"""One self-contained HTML page that shows an episode log decision by decision (``replay FILE --html OUT``).

The page holds, for every decision of the replayed episode and for the final state: the game's omniscient
SVG drawing (``render_svg``), its text render, the seat to act (``P0``, ...), the action that was played (in
the game's words, ``describe_action``, then in grey its layout name and index), the chance events its
``apply`` drew, if any (in grey, as the episode log records them: ``random draws (episode log):
integers(1, 7) -> 6``), and under them what the action did, in the game's narration (Arena's Battle
lines, Strategy's card resolution, The Monolith's rest scoring...: ``game.narrate``, see
:mod:`monolith_envs.core.narration`; a game without that method shows none); at the end each seat's
returns and outcome.  A slider, step buttons (first, previous, play/pause, next, last), the arrow
keys and the list of moves (the actions in words, the name as the item's tooltip; click one to go there) move through the steps; the step is kept in the address (``page.html#step=40`` opens step 40).
It needs nothing but a browser: no scripts, styles or images are loaded from anywhere.

Layout: the title, the controls, the played action and its narration (a box 7 lines high at every step, so
the board below does not move; longer narration scrolls in it, and it can be dragged taller; the lines are
the game's, at most 80 columns, never wrapped again) stay at the top of the window (``position: sticky``)
however far the page is scrolled (in a window under 700 px high the narration box is 4 lines high, to leave
the board more of it; under 760 px wide, or where the top block would cover more than 45% of the window's
height, it scrolls away with the page).  The returns table of the final step is under the top block, not in
it (the final step's action line says the result and the returns too).  Above the action, a grey "the move from this
position:" says that the board shows the position the move is played from.  The list of moves is never taller than the rest of
the window and scrolls inside its own box to keep the current move in view (in the part of the box on
screen); stepping never scrolls the page itself, and Home / End / the arrows do not also scroll it.  The
list (300 px, long moves wrapped) stays beside the board, which shrinks to make room (The Monolith's
1125 px drawing in a 1366 px window); below 760 px the list goes under the board, and the controls wrap
as whole buttons.  The board is drawn as large as the window's height under the head allows (larger than
its drawn size on a large screen; in a low window not under 3/4 of it, the page scrolls instead), and never
wider than the room beside the list (which can make it smaller still); it keeps one size from step to step
(the head's tallest height is allowed for).  Under 760 px wide (a phone) the head scrolls away with the page
and the narration box is 4 lines high.

The drawings are stored once per distinct line: the page holds a table of the distinct SVG and text lines,
and each step holds only its changes from the step before (``[start, end, [line numbers]]`` splices), which
keeps a page a small fraction of one picture per step.  The narration is a few lines of text per step,
stored as they are.

Element ids (stable, used by the tests): ``frame`` (the SVG board), ``slider``, ``first``, ``prev``, ``play``,
``next``, ``last``, ``head`` (the sticky block holding the title, controls, action, chance and narration), ``status`` (``step k / N``), ``action`` (the move in words), ``code`` (its layout name and action
index), ``chance``, ``narration`` (what the move did: the game's narration lines after the move's own, as text,
monospace; at the final position a line saying no move is played from it; hidden when no step of the game has
narration), ``text``, ``moves`` (the list of
moves, one ``li`` per decision), ``returns`` (the table of each seat's returns, shown at the last step).
"""

from __future__ import annotations

import difflib
import html
import json
import re
from pathlib import Path
from typing import Any, Callable

from .narration import narrator
from .outfiles import EarlierOutput, OutputPathError, check_output_file, write_text_atomic
from .replay import EngineRaised, EpisodeLog, replay_steps
from .words import seat_values

__all__ = ["episode_frames", "pack_frames", "render_html", "write_html_replay"]


#: an earlier ``--html`` page, which a new one may replace (any other existing file is refused)
HTML_REPLAY = EarlierOutput("an HTML replay of monolith_envs", "<!DOCTYPE html>",
                            '<meta name="generator" content="monolith_envs replay">')


def episode_frames(log: EpisodeLog, make: Callable[..., Any]) -> list[dict]:
    """Replay ``log`` and describe every decision and the final state.

    Args:
        log: the episode log.
        make: ``make(env_id, **config)`` returning a raw env (``monolith_envs.make(..., wrapped=False)``).

    Returns:
        ``len(log.actions) + 1`` dicts ``{"step", "player", "action", "action_name", "action_text" (the
        action in words, ``game.describe_action``), "chance": [str], "narration": [str] (what the action
        did, ``game.narrate(before, after, action, seat)``: ``[]`` for a game without that method, and at the
        last frame), "text", "svg": str}``; the last one (``action`` None) is the final state with ``"result"``,
        ``"returns"`` (one float per seat) and ``"outcome"`` (one outcome name per seat, or None when the log
        ends before the game does).

    When the engine raises an exception of its own (:class:`~monolith_envs.core.replay.EngineRaised`, e.g. the
    log of a fuzz failure), the frames go up to the failing decision and a last frame says what was raised
    (``"engine_error"``, its ``"result"``) with the returns before it.

    Raises:
        LogError: the log does not replay (see :func:`~monolith_envs.core.replay.replay_steps`).
    """
    frames: list[dict] = []
    returns: list[float] = []
    try:
        _add_frames(frames, returns, log, make)
    except EngineRaised as exc:  # the page shows the game up to the failing step and says what happened
        last = frames[-1]
        frames.append({**last, "step": last["step"] + 1, "action": None, "action_name": None,
                       "action_text": None, "chance": [], "narration": [], "returns": returns, "outcome": None,
                       "result": f"the engine failed: {exc}; returns before it {returns}", "engine_error": str(exc)})
    return frames


def _add_frames(frames: list[dict], returns: list[float], log: EpisodeLog, make: Callable[..., Any]) -> None:
    """The frames of :func:`episode_frames`, appended to ``frames`` as the replay goes (so that those made
    before an :class:`EngineRaised` are kept); ``returns`` holds the returns of the last state drawn.  A
    frame's narration is said once the next state is reached, from a copy of its own state (only the one
    copy of the step before is kept)."""
    said: tuple | None = None  # (narrate, the state before the last frame's action, the action, its seat)
    for step, action, env in replay_steps(log, make):
        game, state = env.game, env.game_state
        if frames:
            frames[-1]["chance"] = [str(e) for e in env.episode_log.chance_at(frames[-1]["step"])]
        if said is not None:
            frames[-1]["narration"] = _narration(*said, state)
            said = None
        mapping = getattr(env, "agent_name_mapping", {})
        frame = {"step": step, "player": _seat_name(env.agent_selection, mapping), "action": action,
                 "action_name": None if action is None else game.layout.decode(int(action)),
                 "action_text": None if action is None else game.describe_action(state, int(action)), "chance": [],
                 "narration": [], "text": game.render_text(state), "svg": game.render_svg(state)}
        narrate = narrator(game)
        if narrate is not None and action is not None:
            said = (narrate, game.clone(state), int(action), int(game.current_player(state)))
        returns[:] = [round(float(x), 4) for x in game.returns(state)]
        if action is None:
            frame["returns"], frame["outcome"] = list(returns), None
            if game.is_terminal(state):
                frame["outcome"] = [o.value for o in game.outcome(state)]
                outcome = ", ".join(f"P{i} {o}" for i, o in enumerate(frame["outcome"]))
                reason = game.end_reason(state)
                frame["result"] = f"game over: {outcome}; returns: {seat_values(returns, 4)}" + (
                    f" ({reason})" if reason else "")
            else:
                frame["result"] = f"the log ends here (not a terminal state); returns so far: {seat_values(returns, 4)}"
        frames.append(frame)


def _narration(narrate: Callable[..., list[str]], before: Any, action: int, seat: int, after: Any) -> list[str]:
    """``narrate(before, after, action, seat)`` as a list of lines (a wrapped line's parts apart); a narration
    that raises says so in one line instead (the page is still written: it is also how a failing log is
    looked at)."""
    try:
        return [line for x in narrate(before, after, action, seat) for line in str(x).split("\n")]
    except Exception as exc:  # noqa: BLE001 - the narration is a comment on the step, never its failure
        return [f"(no narration: {type(exc).__name__}: {exc})"]


def _seat_name(agent: str, mapping: dict) -> str:
    """``P<seat>`` for an agent of the env's ``agent_name_mapping`` (the games' texts name seats so), else the
    agent's own name."""
    return f"P{mapping[agent]}" if agent in mapping else str(agent)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="generator" content="monolith_envs replay">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font-family: sans-serif; margin: 0 12px 12px; background: #f6f4ee; color: #222; }
#head { position: sticky; top: 0; z-index: 1; background: #f6f4ee; padding: 8px 0 4px;
        border-bottom: 1px solid #ddd; }
#head h3 { margin: 0 0 4px; }
#wrap { display: flex; gap: 16px; align-items: flex-start; margin-top: 8px; }
@media (max-width: 760px) { #wrap { flex-wrap: wrap; } }
#frame { border: 1px solid #999; background: #fff; line-height: 0; flex: 0 1 auto; min-width: 0; }
/* sized by fitBoard(): the window's height under the head, or the room beside the moves */
#frame svg { max-width: 100%; height: auto; display: block; }
#moves { font-family: monospace; font-size: 12px; overflow: auto; margin: 0; flex: 0 0 auto;
         width: 300px; box-sizing: border-box;
         max-height: min(560px, calc(100vh - var(--head, 120px) - 36px)); min-height: 120px;
         padding: 4px 4px 4px 44px; background: #fff; border: 1px solid #ccc; }
#moves li { cursor: pointer; padding-left: 1em; text-indent: -1em; }
#moves li.now { background: #ffe08a; font-weight: bold; }
#returns { border-collapse: collapse; margin: 6px 0; }
#returns td, #returns th { border: 1px solid #bbb; padding: 2px 10px; }
#controls { margin: 4px 0; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#controls button, #status { white-space: nowrap; }
#slider { flex: 0 1 420px; min-width: 120px; }
#text { font-family: monospace; font-size: 12px; white-space: pre; background: #fff; padding: 6px;
        border: 1px solid #ccc; max-height: 560px; overflow: auto; margin-top: 16px; }
#action { font-weight: bold; margin: 4px 0; }
#action-label { color: #667; }
#code { color: #667; font-family: monospace; font-size: 12px; margin-left: 6px; }
#chance { font-family: monospace; font-size: 12px; color: #667; margin: 4px 0; }
#narration { font-family: monospace; font-size: 12px; white-space: pre; margin: 4px 0; padding: 4px 6px;
             background: #fff; border: 1px solid #ddd; height: 8.5em; overflow: auto; resize: vertical; }
/* a low or narrow window keeps more of its height for the board: a narration box of 4 lines (it still
   scrolls); a narrow one (a phone) lets the head scroll away with the page, the list of moves under the board */
@media (max-height: 700px), (max-width: 760px) { #narration { height: 4.5em; } }
@media (max-width: 760px) { #head { position: static; } }
#head.loose { position: static; }  /* set by fitHead(): a head over 45% of a low window scrolls away too */
#narration:empty::before { content: "(the move's line above says all it did; the next step shows the result)"; color: #999; }
</style></head>
<body>
<div id="head">
<h3>__TITLE__</h3>
<div id="controls">
<button id="first" title="first step (Home)">|&lt;</button>
<button id="prev" title="previous step (left arrow)">&lt;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next step (right arrow)">&gt;</button>
<button id="last" title="last step (End)">&gt;|</button>
<input id="slider" type="range" min="0" max="0" value="0">
<span id="status"></span>
</div>
<div><span id="action-label"></span><span id="action"></span><span id="code"></span></div>
<div id="chance"></div>
<div id="narration" hidden></div>
</div>
<table id="returns" hidden><thead><tr><th>seat</th><th>outcome</th><th title="the sum of the seat&#39;s rewards over the game (its return, as the game&#39;s reward_mode pays it: docs/&lt;game&gt;.md, section 8)">return</th></tr></thead><tbody></tbody></table>
<div id="wrap"><div id="frame" role="img" aria-label="the board at this step"></div><ol id="moves" start="0"></ol></div>
<div id="text"></div>
<script id="frames" type="application/json">__FRAMES__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("frames").textContent);
const frames = data.frames, lines = data.lines;
const $ = (id) => document.getElementById(id);
// a box of the same height at every step (the board does not jump), when the game narrates at all
$("narration").hidden = !frames.some((f) => f.narration.length);
function unpack(key) {  // each step stores splices of the step before's line numbers
  let cur = [];
  for (const f of frames) {
    const ops = f[key];
    for (let j = ops.length - 1; j >= 0; j--) { cur.splice(ops[j][0], ops[j][1] - ops[j][0], ...ops[j][2]); }
    f[key] = cur.slice();  // a copy: the next step splices cur
  }
}
unpack("svg"); unpack("text");
const moves = $("moves");
frames.forEach((f, i) => {
  const li = document.createElement("li");
  li.textContent = f.action === null ? "end" : f.player + " " + f.action_text;
  if (f.action !== null) li.title = f.action_name + " [" + f.action + "]";
  li.onclick = () => show(i);
  moves.appendChild(li);
});
const last = frames[frames.length - 1];
last.returns.forEach((r, i) => {
  const tr = document.createElement("tr");
  for (const v of ["P" + i, last.outcome === null ? "-" : last.outcome[i], String(r)]) {
    const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
  }
  $("returns").tBodies[0].appendChild(tr);
});
let k = -1, timer = null;
const head = $("head");
let headMost = 0;  // the tallest the sticky head has been since the window was sized: the board keeps one size
function fitHead() {  // the sticky head's height: the list of moves below it fits in the rest of the window
  // not on a phone (the CSS), nor where it would cover more than 45% of the window: the head scrolls away
  // there; once it has, it stays so until the window is sized again (the board keeps one size)
  if (!head.classList.contains("loose") && getComputedStyle(head).position === "sticky"
      && head.offsetHeight > 0.45 * innerHeight) head.classList.add("loose");
  const sticky = getComputedStyle(head).position === "sticky";
  headMost = sticky ? Math.max(headMost, head.offsetHeight) : 0;
  // the final step's returns table, under the head, takes its room from the list of moves (not the board's)
  const table = $("returns"), below = table.hidden || !sticky ? 0 : table.offsetHeight + 12;
  document.documentElement.style.setProperty("--head", headMost + below + "px");
  fitBoard(headMost);
}
function fitBoard(headHeight) {  // the board as large as the window's height under the head and the room allow
  const svg = $("frame").querySelector("svg");
  if (!svg) return;
  const w = parseFloat(svg.getAttribute("width")), h = parseFloat(svg.getAttribute("height"));
  if (!(w > 0 && h > 0)) return;
  const wrap = $("wrap"), beside = wrap.offsetWidth >= 760;  // under 760 px the moves go under the board
  const roomW = wrap.clientWidth - (beside ? moves.offsetWidth + 16 : 0) - 2;
  const roomH = innerHeight - headHeight - 36;
  // the window's height, but never under 3/4 of the drawn size for it (a low window scrolls instead)
  const scale = Math.min(roomW / w, Math.max(roomH / h, 0.75));
  svg.style.width = Math.max(120, Math.floor(w * scale)) + "px";
}
function keepInView(li) {  // scroll the list of moves only (never the page) so that li is in its box
  const box = moves.getBoundingClientRect(), r = li.getBoundingClientRect();
  let top = box.top + moves.clientTop, bottom = top + moves.clientHeight;
  // and in the part of the box that is on screen (below the head), when the page was scrolled and some is
  const seenTop = Math.max(top, head.getBoundingClientRect().bottom);
  const seenBottom = Math.min(bottom, innerHeight);
  if (seenBottom - seenTop >= 3 * r.height) { top = seenTop; bottom = seenBottom; }
  // with two moves of context on either side where the box has room (not flush with its edge)
  const pad = Math.max(0, Math.min(2 * r.height, (bottom - top - r.height) / 2));
  if (r.top < top + pad) moves.scrollTop -= top + pad - r.top;
  else if (r.bottom > bottom - pad) moves.scrollTop += r.bottom - (bottom - pad);
}
function show(i) {
  i = Math.max(0, Math.min(frames.length - 1, i | 0));
  if (k >= 0) moves.children[k].classList.remove("now");
  k = i;
  const f = frames[k];
  moves.children[k].classList.add("now");
  $("frame").innerHTML = f.svg.map((n) => lines[n]).join("\\n");
  $("returns").hidden = k !== frames.length - 1;
  if (location.hash !== "#step=" + k) history.replaceState(null, "", "#step=" + k);
  $("slider").value = k;
  $("status").textContent = "step " + k + " / " + (frames.length - 1);
  // the board shows the position before the step's move: the move is the one played from it
  $("action-label").textContent = f.action === null ? "" : "the move from this position: ";
  $("action").textContent = f.action === null ? f.result : f.player + " " + f.action_text;
  $("code").textContent = f.action === null ? "" : f.action_name + ", action " + f.action;
  $("chance").textContent = f.action === null || !f.chance.length ? "" : "random draws (episode log): " + f.chance.join("; ");
  // the lines after the move's own (the bold line above says it), as text: never read as markup
  const said = f.narration[0] === f.player + " " + f.action_text ? f.narration.slice(1) : f.narration;
  $("narration").textContent = said.join("\\n");
  if (f.action === null && !f.engine_error) $("narration").textContent = "(the final position: no move is played from it)";
  $("narration").scrollTop = 0;
  $("text").textContent = f.text.map((n) => lines[n]).join("\\n");
  fitHead();  // after the head's content: a chance line makes it taller
  keepInView(moves.children[k]);
}
function fromHash() {
  const m = /^#step=(\\d+)$/.exec(location.hash);
  return m ? parseInt(m[1], 10) : 0;
}
window.addEventListener("hashchange", () => show(fromHash()));
function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  if (k >= frames.length - 1) show(0);  // at the last step, play starts again from the first
  $("play").textContent = "pause";
  timer = setInterval(() => { if (k >= frames.length - 1) { play(); } else { show(k + 1); } }, 400);
}
$("slider").max = frames.length - 1;
$("slider").addEventListener("input", (e) => show(parseInt(e.target.value, 10)));
$("first").onclick = () => show(0);
$("prev").onclick = () => show(k - 1);
$("next").onclick = () => show(k + 1);
$("last").onclick = () => show(frames.length - 1);
$("play").onclick = play;
const keys = {ArrowRight: () => show(k + 1), ArrowLeft: () => show(k - 1), Home: () => show(0),
              End: () => show(frames.length - 1), " ": play};
document.addEventListener("keydown", (e) => {
  // the page's own keys: not also the browser's (Home / End scroll the page, arrows move a focused slider)
  if (Object.prototype.hasOwnProperty.call(keys, e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    keys[e.key]();
  }
});
window.addEventListener("resize", () => { headMost = 0; head.classList.remove("loose"); fitHead(); keepInView(moves.children[k]); });
// the narration box dragged taller or back: the head's height starts over from there
if (window.ResizeObserver) {
  let dragged = null;
  new ResizeObserver(() => {
    const h = $("narration").offsetHeight;
    if (dragged !== null && h !== dragged) { headMost = 0; head.classList.remove("loose"); fitHead(); }
    dragged = h;
  }).observe($("narration"));
}
show(fromHash());
</script>
</body></html>
"""


def pack_frames(frames: list[dict]) -> dict:
    """``{"lines": [str], "frames": [...]}``: ``frames`` with ``svg`` and ``text`` replaced by splices.

    Every distinct line of the drawings and text renders is stored once in ``lines``; a frame's ``svg`` and
    ``text`` become ``[[i1, i2, [n, ...]], ...]``: replace items ``i1:i2`` of the previous frame's list of
    line numbers by ``n, ...`` (applied from the last splice to the first; the first frame starts empty).
    """
    lines: list[str] = []
    index: dict[str, int] = {}
    prev: dict[str, list[int]] = {"svg": [], "text": []}
    out = []
    for f in frames:
        g = dict(f)
        for key in ("svg", "text"):
            cur = []
            for line in str(f[key]).split("\n"):
                if line not in index:
                    index[line] = len(lines)
                    lines.append(line)
                cur.append(index[line])
            ops = difflib.SequenceMatcher(None, prev[key], cur, autojunk=False).get_opcodes()
            g[key] = [[i1, i2, cur[j1:j2]] for tag, i1, i2, j1, j2 in ops if tag != "equal"]
            prev[key] = cur
        out.append(g)
    return {"lines": lines, "frames": out}


_SURROGATE = re.compile("[\ud800-\udfff]")


def render_html(log: EpisodeLog, frames: list[dict]) -> str:
    """The page for ``frames`` (from :func:`episode_frames`) of ``log``."""
    title = (f"{log.env_id} seed {log.seed}, {len(log.actions)} decisions"
             + (f" ({log.note.splitlines()[0]})" if log.note else ""))
    # every "<" as \u003c: no "</script>", "<!--" or "<script" inside the script element, whatever the log's
    # text holds (those would end the element early or put it into the double-escaped state)
    data = json.dumps(pack_frames(frames), separators=(",", ":")).replace("<", "\\u003c")
    # a lone surrogate (a log's note or env id may hold one) as the text \ud800: UTF-8 cannot encode it (the
    # data above is JSON's ASCII, its escapes intact)
    title = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", title)
    # one pass over the template: a note that holds a placeholder's name is never itself substituted
    values = {"__TITLE__": html.escape(title), "__FRAMES__": data}
    return re.sub("__TITLE__|__FRAMES__", lambda m: values[m.group(0)], _PAGE)


def write_html_replay(log: EpisodeLog, out: str | Path, make: Callable[..., Any]) -> Path:
    """Replay ``log`` and write its page to ``out``; returns the path.

    ``make(env_id, **config)`` builds the raw env (see :func:`episode_frames`).

    ``out`` is checked first (by creating a probe file next to it), so a bad path fails before any frame
    is rendered; the page is written atomically.

    Raises:
        LogError: the log does not replay.
        OutputPathError: ``out`` cannot be written (a folder, a device, a read-only place).
        EngineRaised: the engine raised while replaying, after the page (up to that decision, its last frame
            saying what was raised) was written.
    """
    out = check_output_file(out, "--html", HTML_REPLAY)
    frames = episode_frames(log, make)
    page = render_html(log, frames)
    try:
        path = write_text_atomic(out, page)
    except OSError as exc:
        raise OutputPathError(f"--html {out}: cannot be written ({exc.strerror or exc})") from None
    if "engine_error" in frames[-1]:
        raise EngineRaised(frames[-1]["engine_error"], frames[-1]["step"] - 1)
    return path
