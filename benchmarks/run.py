"""Command line: ``python -m benchmarks.run [--quick] [options]``.

Measures every registered ``monolith_envs`` id on its main configurations, the reference games
(PettingZoo ``connect_four_v3``, ``chess_v6``; OpenSpiel ``chess``, ``backgammon``) and MaskablePPO
training throughput, then prints the markdown tables and writes them with the JSON under
``runs/benchmarks/`` (``latest.*`` for a full run, ``latest-quick.*`` for ``--quick``).  The committed
results in ``benchmarks/results/`` are only replaced with ``--publish``.

Bad arguments (an unknown ``--env`` or reference, a seed outside 0 to 2**128-1, a ``--stem`` that is not a
plain file name, an ``--out-dir`` that cannot be created and written) end with one ``error:`` line and exit
status 2 before anything is measured. Ctrl-C (SIGINT) or SIGTERM stops the run at once: the tables of what
was measured so far are printed (nothing is written) and the exit status is 130 or 143.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import time
from pathlib import Path

from monolith_envs.core.cli import ArgumentParser, import_modules
from monolith_envs.core.interrupt import Interrupted, stop_on_signals
from monolith_envs.core.outfiles import OutputPathError, check_output_dir
from monolith_envs.core.seeds import check_seed, seed_arg
from monolith_envs.core.words import count

from .report import compute_ratios, machine_info, render_markdown, write_results
from .specs import REFERENCES, BenchSpec, monolith_specs, reference_specs
from .timing import BUDGETS, Budget

__all__ = ["main", "run_benchmarks"]

#: the committed results (written only with ``--publish``)
RESULTS_DIR = Path(__file__).resolve().parent / "results"
#: default output folder of a run (relative to the working directory; ``runs/`` is git-ignored)
RUNS_DIR = Path("runs") / "benchmarks"
#: a ``--stem``: a plain file name (no folder, no leading dot), at most 100 characters
STEM_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def _log(msg: str, t0: float, quiet: bool) -> None:
    if not quiet:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


def _training_specs(mono: list[BenchSpec], refs: list[BenchSpec], budget: Budget) -> list[BenchSpec]:
    """Baseline config of each Monolith id (plus its largest player count in a full run) and connect four."""
    out: list[BenchSpec] = []
    seen: dict[str, list[BenchSpec]] = {}
    for s in mono:
        seen.setdefault(s.env_id, []).append(s)
    for specs in seen.values():
        out.append(specs[0])
        if budget.name == "full":
            big = max(specs, key=lambda s: (s.config.get("num_players", 0), -specs.index(s)))
            if big is not specs[0]:
                out.append(big)
    out += [s for s in refs if s.kind == "pettingzoo" and s.env_id == "connect_four_v3"]
    return out


def run_benchmarks(budget: Budget, env_ids: list[str] | None = None, imports: tuple[str, ...] = (),
                   refs: list[str] | None = None, train: bool = True, train_vecs: tuple[str, ...] = ("dummy", "subproc"),
                   seed: int = 0, quiet: bool = False) -> dict:
    """Run every measurement and return the result dict (also what is written as JSON).

    When ``connect_four_v3`` is among the references, it is measured first and its AEC loop is then kept for
    the whole run: each Monolith configuration's AEC loop is measured in turn with it (``row["paired_c4"]``,
    :func:`benchmarks.monolith.measure_paired`), which gives the row's "× C4"; without it there is no ratio.

    Args:
        budget: one of :data:`benchmarks.timing.BUDGETS` (or a custom :class:`Budget`).
        env_ids: Monolith env ids to measure (default: all registered); an id given twice is measured once
            (the first place counts).
        imports: modules to import first (e.g. one that registers extra envs).
        refs: reference names to measure (default: all; ``[]`` for none).
        train: measure MaskablePPO throughput.
        train_vecs: VecEnv kinds for training (``"dummy"``, ``"subproc"``).
        seed: base seed of every loop (0 to 2**128-1).
        quiet: no progress lines on stderr.

    Raises:
        ValueError: a seed outside 0 to 2**128-1, or an env id that is not registered.
        TypeError: a seed that is not an integer.
        Interrupted: SIGINT or SIGTERM arrived (in the main thread); its ``partial`` attribute holds the
            result dict of what was measured so far (``"interrupted"``: the signal name).
    """
    check_seed(seed, "--seed")
    t0 = time.perf_counter()
    meta = machine_info()
    for mod in imports:
        importlib.import_module(mod)
    if env_ids:
        import monolith_envs

        env_ids = list(dict.fromkeys(env_ids))  # a repeated --env is measured once, in its first place
        unknown = [e for e in env_ids if e not in monolith_envs.available_envs()]
        if unknown:
            raise ValueError(f"--env {', '.join(unknown)}: not a registered env id; registered: "
                             f"{', '.join(monolith_envs.available_envs())}")
    mono = monolith_specs(env_ids, quick=budget.name != "full", imports=tuple(imports))
    ref_specs = reference_specs(refs) if refs != [] else []
    rows: list[dict] = []
    training: list[dict] = []
    try:
        with stop_on_signals():
            _measure(budget, mono, ref_specs, rows, training, train, train_vecs, seed, quiet, t0)
    except Interrupted as exc:
        exc.partial = _result(budget, meta, rows, training, t0)
        exc.partial["interrupted"] = exc.name
        raise
    return _result(budget, meta, rows, training, t0)


def _measure(budget: Budget, mono: list[BenchSpec], ref_specs: list[BenchSpec], rows: list[dict],
             training: list[dict], train: bool, train_vecs: tuple[str, ...], seed: int, quiet: bool,
             t0: float) -> None:
    """Append every row and training entry to ``rows`` and ``training`` as it is measured."""
    from .monolith import measure_monolith
    from .references import measure_reference, pettingzoo_runner

    c4_runner = None  # connect four's AEC loop, kept for the run: each Monolith row's "× C4" is paired with it
    order = ref_specs[:1] + mono + ref_specs[1:]
    t_rows = time.perf_counter()
    then = ", then the training throughput" if train and budget.train_steps > 0 else ""
    for k, spec in enumerate(order):
        _log(f"measuring {spec.name} ({k + 1} of {len(order)}{_eta(t_rows, k, len(order), then)})", t0, quiet)
        if spec.kind == "monolith":
            rows.append(measure_monolith(spec, budget, seed, c4_runner=c4_runner))
        else:
            rows.append(measure_reference(spec, budget, seed))
            if (spec.kind, spec.env_id) == ("pettingzoo", "connect_four_v3") and rows[-1]["aec"]:
                c4_runner = pettingzoo_runner(spec.env_id, seed)
        for e in rows[-1]["errors"]:
            _log(f"  error: {e}", t0, quiet)
    if train and budget.train_steps > 0:
        from .train_bench import measure_training

        jobs = [(spec, vec) for spec in _training_specs(mono, ref_specs, budget) for vec in train_vecs
                if not any(r["name"] == spec.name and any(e.startswith("unavailable") for e in r["errors"])
                           for r in rows)]
        t_jobs = time.perf_counter()
        for k, (spec, vec) in enumerate(jobs):  # a spec's training throughput with one vec env class
            _log(f"training throughput {spec.name} ({vec}; {k + 1} of {len(jobs)}{_eta(t_jobs, k, len(jobs))})",
                 t0, quiet)
            entry = {"name": spec.name, "kind": spec.kind, "env_id": spec.env_id, "label": spec.label,
                     "vec": vec, "vec_class": "DummyVecEnv" if vec == "dummy" else "SubprocVecEnv"}
            try:
                entry.update(measure_training(spec, budget, vec, seed))
            except Exception as exc:  # noqa: BLE001
                entry["error"] = f"{type(exc).__name__}: {exc}"
                _log(f"  error: {entry['error']}", t0, quiet)
            training.append(entry)


def _eta(start: float, done: int, total: int, then: str = "") -> str:
    """``"; about N s left"`` from the mean time of the ``done`` items measured since ``start`` (``""`` before the
    first): the items of a run share one time budget each, so the mean is a fair guess.  ``then`` names the stage
    that follows (its time is not counted: ``"; about N s left in this stage, then ..."``)."""
    if done == 0:
        return f"; {then[2:]} after these" if then else ""
    left = f"; about {(time.perf_counter() - start) / done * (total - done):.0f} s left"
    return f"{left} in this stage{then}" if then else left


def _result(budget: Budget, meta: dict, rows: list[dict], training: list[dict], t0: float) -> dict:
    result = {
        "mode": budget.name,
        "meta": meta,
        "budget": budget.to_dict(),
        "rows": rows,
        "training": training,
    }
    result["references"] = compute_ratios(rows, training)
    result["meta"]["compiled_modules"] = compiled_modules()
    result["meta"]["pure_python"] = os.environ.get("MONOLITH_ENVS_PURE_PYTHON", "") == "1"
    try:
        result["meta"]["load_avg_1m_end"] = round(os.getloadavg()[0], 2)
    except OSError:
        result["meta"]["load_avg_1m_end"] = None
    result["seconds"] = time.perf_counter() - t0
    return result


def compiled_modules() -> list[str]:
    """The compiled extension modules of ``monolith_envs`` loaded in this process (e.g. the Arena's
    observation builder), sorted; the pure-Python fallbacks are used where one is missing."""
    import sys

    return sorted(name for name, mod in list(sys.modules.items())
                  if name.startswith("monolith_envs.") and str(getattr(mod, "__file__", "") or "").endswith(
                      (".so", ".pyd")))


def _out_dir(text: str) -> Path:
    """``--out-dir``: a folder path (argparse type); an empty path or one with a NUL byte is a usage error."""
    if not text.strip() or "\x00" in text:
        raise argparse.ArgumentTypeError(f"give a folder path (not empty, no NUL byte), got {text[:60]!r}")
    return Path(text)


def _stem(text: str) -> str:
    """``argparse`` type of ``--stem``: a plain file name, so the files stay inside ``--out-dir``."""
    if not STEM_RE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not a plain file name; use letters, digits, '.', '_' "
                                         "and '-', starting with a letter or digit (at most 100 characters)")
    return text


def main(argv: list[str] | None = None) -> dict:
    """Parse the command line, run, print the markdown and write ``<out-dir>/<stem>.{md,json}`` (default
    ``runs/benchmarks/``; ``--publish``: ``benchmarks/results/``).

    Exits with status 2 (one ``error:`` line) on bad arguments, before any measurement, and with 130 / 143
    after printing what was measured when SIGINT / SIGTERM arrives.
    """
    ap = ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short budget (about 2-3 minutes)")
    ap.add_argument("--budget", choices=sorted(BUDGETS), help="explicit budget (overrides --quick)")
    ap.add_argument("--env", action="append", dest="envs", metavar="ID",
                    help="Monolith env id to measure (repeatable; default: every registered id)")
    ap.add_argument("--import", action="append", dest="imports", default=[], metavar="MODULE",
                    help="import MODULE first, e.g. one that registers an extra env (repeatable)")
    ap.add_argument("--refs", nargs="*", metavar="NAME",
                    help="reference games to measure (default all: connect_four_v3 chess_v6 chess backgammon)")
    ap.add_argument("--no-refs", action="store_true", help="skip the reference games")
    ap.add_argument("--no-train", action="store_true", help="skip the MaskablePPO throughput")
    ap.add_argument("--no-subproc", action="store_true", help="training throughput with DummyVecEnv only")
    ap.add_argument("--seed", type=seed_arg, default=0, help="base seed of every loop (0 to 2**128-1)")
    ap.add_argument("--out-dir", type=_out_dir, default=None,
                    help=f"output folder (default: {RUNS_DIR}; with --publish: {RESULTS_DIR}); created and "
                         "checked before the run")
    ap.add_argument("--publish", action="store_true",
                    help="write into the committed benchmarks/results/ (replaces the published tables)")
    ap.add_argument("--stem", type=_stem,
                    help="output file stem, a plain file name (default: latest; latest-quick with --quick or "
                         "--budget quick, latest-smoke with --budget smoke)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    budget = BUDGETS[args.budget or ("quick" if args.quick else "full")]
    refs = [] if args.no_refs else args.refs
    names = [name for _kind, name in REFERENCES] + [f"{kind}:{name}" for kind, name in REFERENCES]
    bad_refs = [r for r in args.refs or () if r not in names]
    if bad_refs:
        ap.error(f"--refs {' '.join(bad_refs)}: unknown reference; choose from "
                 f"{' '.join(name for _kind, name in REFERENCES)}")
    try:
        import_modules(args.imports, "--import")
    except ImportError as exc:
        ap.error(str(exc))
    out_dir = args.out_dir or (RESULTS_DIR if args.publish else RUNS_DIR)
    stem = args.stem or ("latest" if budget.name == "full" else f"latest-{budget.name}")
    try:
        with stop_on_signals():
            if not args.no_write:
                check_output_dir(out_dir, "--out-dir")
            result = run_benchmarks(budget, env_ids=args.envs, imports=tuple(args.imports), refs=refs,
                                    train=not args.no_train,
                                    train_vecs=("dummy",) if args.no_subproc else ("dummy", "subproc"),
                                    seed=args.seed, quiet=args.quiet)
    except (OutputPathError, ValueError) as exc:
        ap.error(" ".join(str(exc).split()))
    except Interrupted as exc:
        with stop_on_signals():  # a second Ctrl-C does not cut the summary short
            part = getattr(exc, "partial", None)
            if part is not None:
                print(render_markdown(part))
            measured = (f"{count(len(part['rows']), 'configuration')} and {count(len(part['training']), 'training run')}"
                        f" measured in {part['seconds']:.0f} s (shown above)" if part else "nothing measured yet")
            print(f"interrupted by {exc.name}: {measured}; nothing written", file=sys.stderr, flush=True)
        sys.exit(exc.exit_code)
    md = render_markdown(result)
    print(md)
    if not args.no_write:
        md_path, json_path = write_results(result, out_dir, stem)
        print(f"wrote {md_path} and {json_path}", file=sys.stderr)
    return result


if __name__ == "__main__":
    main()
