"""Ratios, targets, the markdown tables and the JSON file of a benchmark run."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

__all__ = ["RATIO_COLUMNS", "TARGETS", "compute_ratios", "machine_info", "render_markdown", "write_results"]

# (key, description, comparison, threshold)
TARGETS = [
    ("aec_x_c4", "AEC dec/s ÷ connect_four_v3", ">=", 2.0),
    ("engine_x_oschess", "engine dec/s ÷ OpenSpiel chess (obs)", ">=", 1.0),
    ("clone_us", "clone µs", "<=", 20.0),
    ("reset_us", "reset µs", "<=", 1000.0),
    ("env_mb", "MB per live env", "<=", 1.0),
]


# (column title, section, key, reference kind, reference id, "speed" (higher is better) or "cost")
RATIO_COLUMNS = [
    ("AEC ÷ C4", "aec", "decisions_per_s", "pettingzoo", "connect_four_v3", "speed"),
    ("AEC ÷ PZ chess", "aec", "decisions_per_s", "pettingzoo", "chess_v6", "speed"),
    ("AEC ÷ OS chess", "aec", "decisions_per_s", "openspiel", "chess", "speed"),
    ("engine ÷ bare OS chess", "engine", "decisions_per_s", "openspiel", "chess", "speed"),
    ("engine ÷ OS backgammon", "engine", "decisions_per_s", "openspiel", "backgammon", "speed"),
    ("reset ÷ C4", "latency", "reset_us", "pettingzoo", "connect_four_v3", "cost"),
    ("observe ÷ C4 last()", "latency", "observe_us", "pettingzoo", "connect_four_v3", "cost"),
    ("observe ÷ OS chess", "latency", "observe_us", "openspiel", "chess", "cost"),
    ("clone ÷ OS chess", "latency", "clone_us", "openspiel", "chess", "cost"),
    ("JSON ÷ OS chess serialize", "latency", "json_roundtrip_us", "openspiel", "chess", "cost"),
    ("KB/env ÷ C4", "memory", "env_bytes", "pettingzoo", "connect_four_v3", "cost"),
    ("KB/env ÷ PZ chess", "memory", "env_bytes", "pettingzoo", "chess_v6", "cost"),
]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(mod: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(mod)
    except Exception:  # noqa: BLE001
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             check=False, cwd=Path(__file__).resolve().parent)
        return out.stdout.strip() or None
    except Exception:  # noqa: BLE001
        return None


def machine_info() -> dict:
    """Date (UTC), CPU model from /proc/cpuinfo, core count, Python and library versions, git commit and the
    1-minute load average (other processes on the machine make every figure noisier)."""
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "pettingzoo": _version("pettingzoo"),
        "open_spiel": _version("open_spiel"),
        "torch": _version("torch"),
        "sb3_contrib": _version("sb3-contrib"),
        "commit": _git_commit(),
        "load_avg_1m": _loadavg(),
    }


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _get(d: dict | None, *keys: str) -> Any:
    for k in keys:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def _ref_rate(rows: list[dict], kind: str, env_id: str, section: str = "aec",
              key: str = "decisions_per_s") -> float | None:
    for r in rows:
        if r["kind"] == kind and r["env_id"] == env_id:
            return _get(r, section, key)
    return None


def compute_ratios(rows: list[dict], training: list[dict]) -> dict:
    """Add ``ratios``, ``ratios_cpu``, ``targets`` and (Monolith rows) ``ref_ratios`` to every row and ``x_c4``
    to every training entry (in place).

    ``ratios["aec_x_c4"]`` of a Monolith row is its paired "× C4": decisions per CPU second of its AEC loop
    over the slices it played in turn with connect four ÷ connect four's over the same rounds
    (``row["paired_c4"]["x_cpu"]``; ``ratios["aec_x_c4_wall"]``: the same from wall seconds; ``None`` when
    connect four was not measured). A reference row's ``aec_x_c4`` is its AEC decisions/s ÷ the connect-four
    row's, both measured on their own. ``ratios["aec_x_c4_method"]`` says which: ``"paired_cpu"``,
    ``"unpaired_wall"`` or ``None``. The other ``ratios`` use wall-clock rates, ``ratios_cpu`` decisions per
    CPU second (``aec_x_c4``: the paired CPU ratio again for a Monolith row).

    Returns:
        The reference rates used: ``connect_four_v3`` AEC decisions/s and OpenSpiel ``chess`` decisions/s
        with observation tensors (``None`` when a reference was not measured), and ``x_c4_paired``: whether
        the Monolith rows' "× C4" is paired (connect four was measured).
    """
    c4 = _ref_rate(rows, "pettingzoo", "connect_four_v3")
    oschess = _ref_rate(rows, "openspiel", "chess")
    c4_cpu = _ref_rate(rows, "pettingzoo", "connect_four_v3", key="decisions_per_cpu_s")
    oschess_cpu = _ref_rate(rows, "openspiel", "chess", key="decisions_per_cpu_s")

    def ratio(a, b):
        return a / b if a and b else None

    for r in rows:
        aec = _get(r, "aec", "decisions_per_s")
        eng = _get(r, "engine", "decisions_per_s")
        env_bytes = _get(r, "memory", "env_bytes")
        if r["kind"] == "monolith":  # paired with connect four, in the same slices, per CPU second
            x_c4 = x_c4_cpu = _get(r, "paired_c4", "x_cpu")
            x_c4_wall = _get(r, "paired_c4", "x_wall")
            method = "paired_cpu" if x_c4 is not None else None
        else:
            x_c4, x_c4_cpu = ratio(aec, c4), ratio(_get(r, "aec", "decisions_per_cpu_s"), c4_cpu)
            x_c4_wall = x_c4
            method = "unpaired_wall" if x_c4 is not None else None
        r["ratios"] = {
            "aec_x_c4": x_c4,
            "aec_x_c4_wall": x_c4_wall,
            "aec_x_c4_method": method,
            "aec_x_oschess": ratio(aec, oschess),
            "engine_x_oschess": ratio(eng, oschess),
        }
        # the same ratios from decisions per CPU second: less sensitive to other processes on the machine
        r["ratios_cpu"] = {
            "aec_x_c4": x_c4_cpu,
            "engine_x_oschess": ratio(_get(r, "engine", "decisions_per_cpu_s"), oschess_cpu),
        }
        if r["kind"] != "monolith":
            r["targets"] = None
            continue
        values = {
            "aec_x_c4": r["ratios"]["aec_x_c4"],
            "engine_x_oschess": r["ratios"]["engine_x_oschess"],
            "clone_us": _get(r, "latency", "clone_us"),
            "reset_us": _get(r, "latency", "reset_us"),
            "env_mb": env_bytes / 1e6 if env_bytes is not None else None,
        }
        t = {}
        for key, _desc, op, thr in TARGETS:
            v = values[key]
            ok = None if v is None else (v >= thr if op == ">=" else v <= thr)
            t[key] = {"value": v, "threshold": thr, "op": op, "met": ok}
        r["targets"] = t
    for r in rows:
        if r["kind"] != "monolith":
            continue
        rr = {}
        for title, section, key, rkind, rid, _sense in RATIO_COLUMNS:
            ref = _ref_rate(rows, rkind, rid, section, key)
            rr[title] = ratio(_get(r, section, key), ref)
        rr["AEC ÷ C4"] = r["ratios"]["aec_x_c4"]  # the paired ratio, as in the other tables
        r["ref_ratios"] = rr
    c4_train = {e["vec"]: e.get("steps_per_s") for e in training
                if e.get("kind") == "pettingzoo" and e.get("env_id") == "connect_four_v3"}
    for e in training:
        base = c4_train.get(e.get("vec"))
        sps = e.get("steps_per_s")
        e["x_c4"] = sps / base if sps and base else None
    return {"connect_four_v3_aec_decisions_per_s": c4, "openspiel_chess_obs_decisions_per_s": oschess,
            "x_c4_paired": any(r.get("paired_c4") for r in rows)}


# ---------------------------------------------------------------------------------------------- formatting
def _rate(v: float | None) -> str:
    if v is None:
        return "—"
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def _us(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}" if v >= 1 else f"{v:.2f}"


def _x(v: float | None) -> str:
    return "—" if v is None else f"{v:.2f}×"


def _kb(v: float | None) -> str:
    return "—" if v is None else f"{v / 1024:,.1f}"


def _pct(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.0f}"


def _mark(t: dict | None) -> str:
    if not t or t["met"] is None:
        return "—"
    return "✅" if t["met"] else "❌"


def _xc4(r: dict) -> str:
    """The "× C4" cell: the paired ratio of a Monolith row; a reference row's unpaired ratio marked ``*``
    (connect four's own row: 1.00×, unmarked)."""
    v = _get(r, "ratios", "aec_x_c4")
    unpaired = _get(r, "ratios", "aec_x_c4_method") == "unpaired_wall" and r.get("env_id") != "connect_four_v3"
    return _x(v) + ("*" if unpaired and v is not None else "")


def _xc4_rounds(r: dict) -> str:
    """Min–max of the per-round paired CPU ratios of a Monolith row (``—`` otherwise)."""
    lo, hi = _get(r, "paired_c4", "x_rounds", "min"), _get(r, "paired_c4", "x_rounds", "max")
    return "—" if lo is None or hi is None else f"{lo:.2f}–{hi:.2f}"


def _c4_line(result: dict) -> str:
    """The sentence of the report's header that says how "× C4" was measured."""
    refs, budget = result["references"], result.get("budget") or {}
    if refs.get("connect_four_v3_aec_decisions_per_s") is None:
        return "× C4: not measured (connect_four_v3 was not part of this run)."
    if not refs.get("x_c4_paired"):
        return "× C4: AEC dec/s ÷ the connect_four_v3 row's, each measured on its own (not paired)."
    return (f"× C4 of the Monolith rows is paired: the configuration's AEC loop and connect four's played "
            f"{budget.get('pair_rounds', '?')} rounds of {budget.get('pair_slice_seconds', 0):g} s slices in turn, in "
            "this process, and the ratio is of their decisions per CPU second over those slices (range of the "
            "per-round ratios in the throughput table, the same slices' wall-clock ratio in the targets table). "
            "A reference row's × C4 (marked *) is its AEC dec/s ÷ the connect-four row's, measured on their own.")


def _table(header: list[str], rows: list[list[str]], align: str | None = None) -> list[str]:
    align = align or ("l" + "r" * (len(header) - 1))
    sep = ["---:" if a == "r" else ":---" for a in align]
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _compiled_line(meta: dict) -> str:
    mods = meta.get("compiled_modules")
    if mods is None:  # a result file written before this field existed
        return "Compiled modules: not recorded."
    if meta.get("pure_python"):
        return "Compiled modules: none used (MONOLITH_ENVS_PURE_PYTHON=1: pure-Python code throughout)."
    if not mods:
        return "Compiled modules: none built or loaded (pure-Python code throughout)."
    return "Compiled modules used: " + ", ".join(f"`{m}`" for m in mods) + "."


def render_markdown(result: dict) -> str:
    """The markdown report: meta line, throughput, latency/memory, targets, progress, player count, training."""
    meta, rows, training, refs = result["meta"], result["rows"], result["training"], result["references"]
    lines = [
        f"# monolith_envs benchmarks ({result['mode']})",
        "",
        (f"{meta['date']} · {meta['cpu']} · {meta['cores']} cores · Python {meta['python']} · numpy {meta['numpy']}"
         f" · pettingzoo {meta['pettingzoo']} · open_spiel {meta['open_spiel']} · torch {meta['torch']}"
         f" · commit {meta['commit']} · run time {result['seconds']:.0f} s"
         f" · load average {meta.get('load_avg_1m')} at start, {meta.get('load_avg_1m_end')} at end"),
        "",
        _compiled_line(meta),
        "",
        (f"References in this run: connect_four_v3 AEC {_rate(refs['connect_four_v3_aec_decisions_per_s'])} dec/s;"
         f" OpenSpiel chess with observation tensors {_rate(refs['openspiel_chess_obs_decisions_per_s'])} dec/s."),
        "",
        _c4_line(result),
        "",
    ]
    lines += ["## Summary", ""]
    body = []
    for r in rows:
        lat, mem = r["latency"] or {}, r["memory"] or {}
        body.append([
            r["name"], _rate(_get(r, "aec", "decisions_per_s")), _xc4(r),
            _rate(_get(r, "engine", "decisions_per_s")), _x(_get(r, "ratios", "engine_x_oschess")),
            _rate(_get(r, "aec", "decisions_per_game")), _us(lat.get("observe_us")), _us(lat.get("clone_us")),
            _us(lat.get("reset_us")), _kb(mem.get("env_bytes")),
        ])
    lines += _table(["Environment", "AEC dec/s", "× C4", "engine dec/s", "× OS chess", "dec/game", "observe µs",
                     "clone µs", "reset µs", "KB / env"], body)
    lines += ["", "## Throughput (uniform random legal actions)", ""]
    body = []
    for r in rows:
        body.append([
            r["name"], str(r["num_players"] or "—"), str(r["num_actions"] or "—"), str(r["obs_size"] or "—"),
            _rate(_get(r, "aec", "decisions_per_s")), _xc4(r), _xc4_rounds(r),
            _rate(_get(r, "aec", "games_per_s")), _rate(_get(r, "aec", "decisions_per_game")),
            _rate(_get(r, "aec_raw", "decisions_per_s")),
            _rate(_get(r, "engine", "decisions_per_s")), _x(_get(r, "ratios", "engine_x_oschess")),
            _rate(_get(r, "engine_obs", "decisions_per_s")),
            _us(_get(r, "aec_calls", "last_us")), _us(_get(r, "aec_calls", "step_us")),
            _pct(_get(r, "aec", "cpu_share")),
        ])
    lines += _table(["Environment", "P", "Actions", "Obs", "AEC dec/s", "× C4", "× C4 per round", "games/s",
                     "dec/game",
                     "bare AEC dec/s", "engine dec/s", "× OS chess", "engine+obs dec/s", "last() µs",
                     "step() µs", "CPU %"], body)
    lines += ["", "## Per-call latency and memory", ""]
    body = []
    for r in rows:
        lat, mem = r["latency"] or {}, r["memory"] or {}
        body.append([
            r["name"], _us(lat.get("make_us")), _us(lat.get("reset_us")), _us(lat.get("clone_us")), _us(lat.get("observe_us")),
            _us(lat.get("observe_warm_us")), _us(lat.get("legal_mask_us")), _us(lat.get("json_roundtrip_us")), _kb(lat.get("json_bytes")),
            _kb(mem.get("env_bytes")), _kb(mem.get("state_bytes")),
        ])
    lines += _table(["Environment", "make µs", "reset µs", "clone µs", "observe µs", "warm observe µs", "legal mask µs",
                     "JSON round trip µs",
                     "JSON KB", "KB / env", "KB / state"], body)
    mono = [r for r in rows if r["kind"] == "monolith"]
    if mono:
        lines += ["", "## Targets", ""]
        body = []
        for r in mono:
            t = r.get("targets") or {}
            cells = [r["name"]]
            for key, _d, _op, _thr in TARGETS:
                v = _get(t, key, "value")
                if key == "aec_x_c4":  # paired, per CPU second; the same slices' wall-clock ratio in brackets
                    txt = f"{_x(v)} (wall {_x(_get(r, 'ratios', 'aec_x_c4_wall'))})"
                elif key.endswith("oschess"):
                    txt = f"{_x(v)} (CPU {_x(_get(r, 'ratios_cpu', key))})"
                else:
                    txt = f"{v:.2f}" if key == "env_mb" and v is not None else _us(v)
                cells.append(f"{txt} {_mark(t.get(key))}")
            body.append(cells)
        lines += _table(["Environment", "AEC ÷ C4 (≥ 2×)", "engine ÷ OS chess with obs (≥ 1×)", "clone µs (≤ 20)",
                         "reset µs (≤ 1000)", "MB / env (≤ 1)"], body)
        lines += ["", "## Ratios to the references (same run)", "",
                  ("Speed ratios (higher is better): AEC and engine decisions/s. Cost ratios (lower is better): "
                   "µs per call and KB. Training ratios are in the training table."), ""]
        lines += _table(["Environment"] + [c[0] for c in RATIO_COLUMNS],
                        [[r["name"]] + [_x(v) for v in r.get("ref_ratios", {}).values()] for r in mono])
        lines += ["", "## Cost by game progress (engine calls, median µs per call)", ""]
        body = []
        for r in mono:
            prog = r.get("progress") or {}
            for ph in ("early", "mid", "late"):
                p = prog.get(ph)
                if not p:
                    continue
                body.append([r["name"] if ph == "early" else "", ph, f"{p['legal_actions']:.1f}",
                             _us(p["mask_apply_us"]), _us(p["mask_apply_p90_us"]), _us(p["legal_mask_us"]),
                             _us(p["apply_us"]), _us(p["observe_us"]), _us(p["clone_us"])])
        lines += _table(["Environment", "phase", "legal actions", "mask+apply µs", "mask+apply p90 µs",
                         "legal mask µs", "apply µs", "observe µs", "clone µs"], body, "llrrrrrrr")
        lines += ["", "## Cost by player count (relative to the first configuration of each env)", ""]
        body = []
        base: dict[str, dict] = {}
        for r in mono:
            b = base.setdefault(r["env_id"], r)
            aec = _get(r, "aec", "decisions_per_s")
            eng = _get(r, "engine", "decisions_per_s")
            baec = _get(b, "aec", "decisions_per_s")
            beng = _get(b, "engine", "decisions_per_s")

            def rel(v, bv):
                return _x(v / bv) if v and bv else "—"

            aec_us = 1e6 / aec if aec else None
            eng_us = 1e6 / eng if eng else None
            obs, bobs = _get(r, "latency", "observe_us"), _get(b, "latency", "observe_us")
            cl, bcl = _get(r, "latency", "clone_us"), _get(b, "latency", "clone_us")
            body.append([r["name"], str(r["num_players"] or "—"), _us(aec_us), rel(baec, aec) if aec else "—",
                         _us(eng_us), rel(beng, eng) if eng else "—", _us(obs), rel(obs, bobs), _us(cl),
                         rel(cl, bcl), _kb(_get(r, "memory", "env_bytes"))])
        lines += _table(["Environment", "P", "AEC µs / dec", "× base", "engine µs / dec", "× base", "observe µs",
                         "× base", "clone µs", "× base", "KB / env"], body)
    if training:
        lines += ["", "## MaskablePPO training throughput (learner vs random opponents, 2 envs)", ""]
        body = []
        for e in training:
            body.append([e["name"], e.get("vec_class", e.get("vec", "")), str(e.get("n_envs", "—")),
                         _rate(e.get("steps_per_s")), _x(e.get("x_c4")), _rate(e.get("collect_steps_per_s")),
                         _rate(e.get("all_seat_decisions_per_s")), e.get("wrapper") or e.get("error", "")])
        lines += _table(["Environment", "VecEnv", "envs", "env-steps/s", "× C4", "collect-only steps/s",
                         "all-seat dec/s", "wrapper"], body, "llrrrrrl")
    errs = [(r["name"], e) for r in rows for e in r.get("errors", [])]
    errs += [(e["name"], e["error"]) for e in training if e.get("error")]
    if errs:
        lines += ["", "## Errors", ""]
        lines += [f"- {n}: {e}" for n, e in errs]
    lines.append("")
    return "\n".join(lines)


def write_results(result: dict, out_dir: Path, stem: str) -> tuple[Path, Path]:
    """Write ``<out_dir>/<stem>.md`` and ``<out_dir>/<stem>.json`` (each atomically); returns both paths."""
    from monolith_envs.core.outfiles import write_text_atomic

    out_dir.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out_dir / f"{stem}.md", out_dir / f"{stem}.json"
    write_text_atomic(md_path, render_markdown(result))
    write_text_atomic(json_path, json.dumps(result, indent=1, default=float) + "\n")
    return md_path, json_path
