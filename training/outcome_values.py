"""Fit a baseline's value head to game outcomes: ``python -m training.outcome_values NAME``.

A baseline exported from a PPO run (``training.export_baseline``) has the value head PPO trained: an estimate of
the *shaped* return (the outcome minus the heuristic shaping potential), not of the chance to win, so
``baseline+search:N`` was guided by a value that does not say who is ahead.  This command keeps the policy and
refits only the value branch (``vf`` MLP and ``value`` layer) on outcomes:

1. **self-play rollouts** with :func:`monolith_envs.make_vec` (``--num-envs`` games stepped together, one batched
   forward pass per step): every seat samples its move from the baseline's policy (softmax of the logits over the
   legal actions at ``--temperature``); each decision gives a sample ``(observation of the acting seat, that seat's
   final return)`` once its game ends (``win_loss`` returns: +1 / -1 / 0 with 2 seats, +1 for the winner and
   ``-1/(n-1)`` for each other seat with more, the solo result with one seat);
2. **fit** the value branch by mean squared error (Adam, ``--epochs``), the encoder and the policy frozen, so the
   policy's logits do not change; a held-out tenth of the games (at least one) reports the error before and
   after;
3. **write** the file again (same metadata, a ``value_training`` record added) and its new SHA-256 in
   ``index.json`` -- only when the held-out error went down: a refit whose held-out mean squared error is
   not below the error before leaves the file and ``index.json`` unchanged (one line on stderr gives both
   numbers, the printed record has ``"written": false``, exit status 0); ``--replace-worse`` writes it
   anyway.

Ctrl-C (SIGINT) or SIGTERM stops the command cleanly: one line says the stage reached (self-play, fit or
write) and whether the baseline file was changed (it is not, unless the stop came after the new file was in
place), and the exit status is 130 or 143.  A ``--root`` that does not exist or is not a folder is a usage
error (exit status 2).

Seeded: the same command gives the same weights on the same machine (one torch thread); the file also
records the run's timings, so its SHA-256 differs from run to run.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from monolith_envs.core.cli import ArgumentParser
from monolith_envs.core.interrupt import Interrupted, end_children, signals_deferred, stop_on_signals

__all__ = ["MAX_SAMPLE_BYTES", "OutcomeValuesError", "collect_outcomes", "fit_value", "main", "refit_baseline"]

#: most bytes of float16 observations one collection keeps (the peak, while they are stacked, is about twice)
MAX_SAMPLE_BYTES = 3 * 2**30


class OutcomeValuesError(ValueError):
    """A refit that cannot be done as asked (the message says what was wrong and what is allowed)."""


def collect_outcomes(net: Any, env_id: str, env_config: dict, states: int, num_envs: int = 64,
                     temperature: float = 1.0, seed: int = 0, progress: bool = False) -> dict[str, np.ndarray]:
    """Self-play samples of ``net`` (a :class:`~monolith_envs.agents.baselines.net.BaselineNet`) with their outcomes.

    Returns ``{"obs": float16[N, obs_size], "returns": float32[N], "seat": int64[N], "game": int64[N]}`` with
    ``N >= states`` (whole games only): the acting seat's observation at each decision, that seat's final
    return, the seat, and a game number (for a held-out split by game).

    Raises:
        OutcomeValuesError: ``states``, ``num_envs`` or ``temperature`` out of range, or more than
            :data:`MAX_SAMPLE_BYTES` of observations asked for.
    """
    import monolith_envs

    need = states * int(net.meta["obs_size"]) * 2
    if need > MAX_SAMPLE_BYTES:
        raise OutcomeValuesError(f"{states:,} states of {net.meta['obs_size']:,} float16 values need "
                                 f"{need / 2**30:.1f} GiB; at most {MAX_SAMPLE_BYTES / 2**30:.0f} GiB are kept "
                                 "(ask for fewer states)")
    if states < 1 or num_envs < 1 or not temperature > 0:
        raise OutcomeValuesError(f"need states >= 1, num_envs >= 1 and temperature > 0, got {states}, {num_envs}, "
                                 f"{temperature}")
    from monolith_envs.core.cli import stderr_bar

    rng = np.random.default_rng(seed)
    vec = monolith_envs.make_vec(env_id, num_envs, **env_config)
    pending: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(num_envs)]
    obs_l: list[np.ndarray] = []
    ret_l: list[float] = []
    game_l: list[int] = []
    seat_l: list[int] = []
    games = 0
    bar = stderr_bar(states, "self-play", "state", progress)
    try:
        res = vec.reset(seed=seed)
        while len(ret_l) < states:
            obs, mask, seats = res.observation, res.action_mask.astype(bool), res.current_seat
            logits = net.logits(obs) / temperature  # BaselineNet.logits runs without autograd
            logits = np.where(mask, logits, -np.inf)
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            u = rng.random((num_envs, 1))
            actions = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), mask.shape[1] - 1)
            bad = ~mask[np.arange(num_envs), actions]  # rounding at the top end: the last legal action
            if bad.any():
                actions[bad] = [int(np.flatnonzero(m)[-1]) for m in mask[bad]]
            for i in range(num_envs):
                pending[i].append((obs[i].astype(np.float16), int(seats[i])))
            res = vec.step(actions.astype(np.int64))
            for i in np.flatnonzero(res.terminated | res.truncated):
                for o, seat in pending[i]:
                    obs_l.append(o)
                    ret_l.append(float(res.final_returns[i, seat]))
                    game_l.append(games)
                    seat_l.append(seat)
                bar.update(len(pending[i]))
                pending[i] = []
                games += 1
    finally:
        vec.close()
        bar.close()
    return {"obs": np.stack(obs_l), "returns": np.asarray(ret_l, np.float32), "seat": np.asarray(seat_l, np.int64),
            "game": np.asarray(game_l, np.int64)}


def fit_value(net: Any, data: dict[str, np.ndarray], epochs: int = 10, lr: float = 1e-3, batch_size: int = 512,
              holdout: float = 0.1, seed: int = 0, progress: bool = False) -> dict:
    """Fit ``net``'s value branch (``vf``, ``value``) to ``data["returns"]`` by mean squared error, in place; the
    encoder and the policy stay as they are.

    Returns ``{"samples", "holdout_samples", "holdout_mse_before", "holdout_mse_after", "holdout_sign_agreement"}``
    (the held-out games are the last ``holdout`` share of the games, at least one; sign agreement: the share of
    held-out decided samples whose value has the sign of the outcome).

    Raises:
        OutcomeValuesError: too few games to fit on after the held-out ones.
    """
    import torch

    from monolith_envs.core.cli import stderr_bar

    torch.manual_seed(seed)
    games = data["game"]
    ids = np.unique(games)
    n_test = int(round(holdout * len(ids))) if holdout > 0 else 0
    if holdout > 0:
        n_test = max(1, n_test)
    if len(ids) - n_test < 1:
        raise OutcomeValuesError(f"{len(ids)} finished game(s) leave none to fit on after holding out {n_test}; "
                                 "collect more states")
    cut = ids[len(ids) - n_test] if n_test else ids[-1] + 1
    train, test = np.flatnonzero(games < cut), np.flatnonzero(games >= cut)
    obs16 = data["obs"]
    ret_t = torch.as_tensor(data["returns"])
    for p in net.parameters():
        p.requires_grad_(False)
    params = list(net.vf.parameters()) + list(net.value.parameters())
    for p in params:
        p.requires_grad_(True)
    with torch.no_grad():
        feats = torch.cat([net.encoder(torch.as_tensor(obs16[i:i + 4096].astype(np.float32)))
                           for i in range(0, len(obs16), 4096)])  # float32 features, not float32 observations

    def mse(idx: np.ndarray) -> tuple[float, float]:
        if idx.size == 0:
            return float("nan"), float("nan")
        with torch.no_grad():
            v = net.value(net.vf(feats[idx]))[:, 0]
            r = ret_t[idx]
            decided = r != 0
            sign = float(((v[decided] > 0) == (r[decided] > 0)).float().mean()) if bool(decided.any()) else float("nan")
            return float(((v - r) ** 2).mean()), sign

    before, _ = mse(test)
    opt = torch.optim.Adam(params, lr=lr)
    rng = np.random.default_rng(seed)
    net.train()
    bar = stderr_bar(epochs * math.ceil(len(train) / batch_size), "fit value", "batch", progress)
    try:
        for _ in range(epochs):
            order = train[rng.permutation(len(train))]
            for start in range(0, len(order), batch_size):
                idx = order[start:start + batch_size]
                v = net.value(net.vf(feats[idx]))[:, 0]
                loss = torch.nn.functional.mse_loss(v, ret_t[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                bar.update(1)
    finally:
        bar.close()  # now, not when the bar is collected: a stop's message comes after the bar's last line
    net.eval()
    for p in net.parameters():
        p.requires_grad_(False)
    after, sign = mse(test)
    return {"samples": int(len(train)), "holdout_samples": int(len(test)), "holdout_mse_before": before,
            "holdout_mse_after": after, "holdout_sign_agreement": sign}


def check_entry_game(entry: dict, meta: dict) -> None:
    """The game the index entry names for the self-play (``env_id``, ``env_config``) is the file's: the same env
    id, and a game of the file's seats, observation size and actions.

    Raises:
        OutcomeValuesError: ``env_config`` missing or not a table, another env id than the file's, a config the
            game refuses, or a game of other sizes; one line naming the entry and what differs.
    """
    import monolith_envs
    from monolith_envs.core.game import MonolithEnvError

    name, cfg = entry["name"], entry.get("env_config")
    if not isinstance(cfg, dict):
        raise OutcomeValuesError(f"baseline {name!r}: its index entry's env_config must be a table of the game's "
                                 f"config keys, got {cfg!r:.80}")
    if entry["env_id"] != meta.get("env_id"):
        raise OutcomeValuesError(f"baseline {name!r}: its index entry names {entry['env_id']!r:.60}, the file was "
                                 f"trained on {meta.get('env_id')!r:.60}")
    try:
        game = monolith_envs.make_game(entry["env_id"], **cfg)
    except (MonolithEnvError, TypeError) as e:  # a ConfigError, or a ContentError of a content file it names
        raise OutcomeValuesError(f"baseline {name!r}: its index entry's env_config is refused: {e}") from None
    got = (game.num_players, game.obs_spec.size, game.layout.n)
    want = (meta.get("num_players"), meta.get("obs_size"), meta.get("n_actions"))
    if got != want:
        raise OutcomeValuesError(f"baseline {name!r}: its index entry's env_config {cfg} makes a game of {got[0]} "
                                 f"seats, {got[1]} observation values and {got[2]} actions; the file's network "
                                 f"takes {want[0]}, {want[1]} and {want[2]}")


def refit_baseline(name: str, states: int = 200_000, epochs: int = 10, num_envs: int = 64, temperature: float = 1.0,
                   lr: float = 1e-3, seed: int = 0, root: str | Path | None = None, progress: bool = False,
                   replace_worse: bool = False) -> dict:
    """Refit the value branch of baseline ``name`` in ``root`` (default: the package's) on self-play outcomes and,
    when the held-out error went down (or ``replace_worse``), write the file and its ``index.json`` entry again.

    Returns the record added to the file's metadata (``value_training``) with ``written`` (whether the file was
    replaced) and ``sha256`` (the file's digest: the new one when written, else the unchanged one of the index).
    A signal stop (:class:`~monolith_envs.core.interrupt.Interrupted`) passes through with ``info`` holding
    ``stage`` (``"setup"``, ``"self-play"``, ``"fit"`` or ``"write"``), ``file`` and ``written``; the new file
    and its index entry are put in place together (a stop in between waits for both).

    Raises:
        OutcomeValuesError: a ``root`` that does not exist or is not a folder, no baseline called ``name`` (the
            message lists the names), or a collection too small or too large (see :func:`collect_outcomes`,
            :func:`fit_value`).
        monolith_envs.agents.model_files.ModelFileError: an index or baseline file that fails its checks (a file
            whose SHA-256 differs from its index entry's is refused before anything runs).
        OSError: a folder that cannot be read or written.
    """
    import hashlib

    import torch

    from monolith_envs.agents.baselines.net import load_baseline_file, save_baseline_file
    from monolith_envs.agents.baselines.registry import baseline_dir, checked_bytes, list_baselines
    from training.export_baseline import install_baseline

    root_given = root is not None
    root = Path(root if root is not None else baseline_dir())
    if not root.is_dir():
        raise OutcomeValuesError(f"the baseline folder {root} does not exist" if not root.exists() else
                                 f"{root} is not a folder (the baseline folder holds index.json and the .pt files)")
    entries = {e["name"]: e for e in list_baselines(root)}
    if name not in entries:
        raise OutcomeValuesError(f"no baseline called {name!r} in {root}; there are: {', '.join(sorted(entries)) or 'none'}")
    entry = entries[name]
    target = root / entry["file"]
    tmp = target.with_name(target.name + ".new")
    stage, written = "setup", False
    try:
        torch.set_num_threads(1)
        net, meta = load_baseline_file(target, checked_bytes(entry, root))  # a changed file is refused
        check_entry_game(entry, meta)
        t0 = time.perf_counter()
        stage = "self-play"
        data = collect_outcomes(net, entry["env_id"], entry["env_config"], states, num_envs, temperature, seed,
                                progress)
        t1 = time.perf_counter()
        stage = "fit"
        info = fit_value(net, data, epochs, lr, seed=seed, progress=progress)
        record = {**info, "states": states, "epochs": epochs, "num_envs": num_envs, "temperature": temperature,
                  "lr": lr, "seed": seed, "collect_seconds": t1 - t0, "fit_seconds": time.perf_counter() - t1,
                  "command": f"python -m training.outcome_values {name} --states {states} --epochs {epochs} "
                             f"--num-envs {num_envs} --temperature {temperature} --lr {lr} --seed {seed}"
                             + (f" --root {root}" if root_given else "") + (" --replace-worse" if replace_worse else "")}
        if not info["holdout_mse_after"] < info["holdout_mse_before"] and not replace_worse:  # NaN: not better
            return {**record, "written": False, "sha256": entry["sha256"]}
        stage = "write"
        meta = dict(meta)
        meta["value_training"] = record
        dtype = {"float16": torch.float16, "float32": torch.float32}[meta.get("dtype", "float16")]
        save_baseline_file(tmp, meta, dict(net.state_dict()), dtype)
        load_baseline_file(tmp)  # the new file passes the loader's checks before it replaces the old one
        digest = hashlib.sha256(tmp.read_bytes()).hexdigest()
        with signals_deferred():  # the file and its index entry change together (and are counted as written)
            install_baseline(root, tmp, {**entry, "sha256": digest})
            written = True
    except Interrupted as e:
        e.info.update(stage=stage, file=str(target), written=written)
        raise
    finally:
        if not written and tmp.exists():
            tmp.unlink()  # a stop or an error while the new file was written: the old one stays, nothing is left
    return {**record, "written": True, "sha256": digest}


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds ``(default: ...)`` to an option's help, except for a flag or an option whose help says its default."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or isinstance(action.default, bool):
            return action.help
        return super()._get_help_string(action)


_STAGES = {"setup": "setup (loading the baseline)", "self-play": "the self-play rollouts",
           "fit": "the value fit", "write": "the write of the new file"}


def _interrupted_message(e: Interrupted) -> str:
    """The line printed when a signal stops the command: the signal, the stage, whether the file changed."""
    info = e.info
    stage = _STAGES.get(info.get("stage"), "setup")
    if info.get("written"):
        changed = f"the new baseline file {info['file']} and its index.json entry were already written"
    elif info.get("file"):
        changed = f"the baseline file {info['file']} and index.json were not changed"
    else:
        changed = "no baseline file was changed"
    return f"\ninterrupted by {e.name} during {stage}; {changed} (exit status {e.exit_code})"


def main(argv: list[str] | None = None) -> dict:
    """Command line (see the module docstring); prints the record as JSON and returns it."""
    ap = ArgumentParser(prog="python -m training.outcome_values",
                        description="Refit a shipped baseline's value head on self-play game outcomes (the policy "
                                    "is unchanged); the file is replaced only when the held-out error goes down.",
                        formatter_class=_HelpFormatter)
    ap.add_argument("name", help="baseline name (monolith_envs/baselines/index.json), e.g. arena_2p")
    ap.add_argument("--states", type=int, default=200_000, help="decision states to collect (whole games)")
    ap.add_argument("--epochs", type=int, default=10, help="passes over the samples")
    ap.add_argument("--num-envs", type=int, default=64, help="games stepped together by make_vec")
    ap.add_argument("--temperature", type=float, default=1.0, help="softmax temperature of the self-play moves")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam learning rate")
    ap.add_argument("--seed", type=int, default=10**9,
                    help="rollout and fit seed; the self-play games take seeds SEED, SEED+1, ... (the default is far "
                         "from the seeds evaluations use: training.evaluate's default 0, the documented 50,000+ "
                         "and 2,000,000+)")
    ap.add_argument("--root", default=None, help="folder of index.json and the files (default: the package's, "
                                                 "monolith_envs/baselines)")
    ap.add_argument("--replace-worse", action="store_true",
                    help="write the refit even when its held-out mean squared error is not below the error before "
                         "(default: such a refit leaves the file and index.json unchanged)")
    with stop_on_signals():
        try:
            return _main(ap, ap.parse_args(argv))
        except Interrupted as e:
            end_children()
            print(_interrupted_message(e), file=sys.stderr, flush=True)
            sys.exit(e.exit_code)


def _main(ap: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    for what, value, lo, hi in (("--states", args.states, 1, 10**8), ("--epochs", args.epochs, 1, 10_000),
                                ("--num-envs", args.num_envs, 1, 4096), ("--seed", args.seed, 0, 2**63 - 1)):
        if not lo <= value <= hi:
            ap.error(f"{what} must be from {lo:,} to {hi:,}, got {value}")
    if not (0 < args.temperature <= 100 and 0 < args.lr <= 1):
        ap.error(f"--temperature must be in (0, 100] and --lr in (0, 1], got {args.temperature} and {args.lr}")
    from monolith_envs.agents.model_files import ModelFileError

    try:
        out = refit_baseline(args.name, args.states, args.epochs, args.num_envs, args.temperature, args.lr, args.seed,
                             args.root, progress=True, replace_worse=args.replace_worse)
    except OutcomeValuesError as e:
        ap.error(str(e))
    except (ModelFileError, OSError) as e:
        print(f"python -m training.outcome_values: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    before, after = out["holdout_mse_before"], out["holdout_mse_after"]
    if not out["written"]:
        note = (f"kept baseline {args.name!r} unchanged: the refit's held-out mean squared error {after:.4f} is not "
                f"below {before:.4f} (before the refit), so the file and index.json were not written "
                "(--replace-worse writes it anyway)")
    elif after < before:
        note = f"wrote baseline {args.name!r}: held-out mean squared error {before:.4f} before the refit, {after:.4f} after"
    else:
        note = (f"wrote baseline {args.name!r} although the refit's held-out mean squared error {after:.4f} is not "
                f"below {before:.4f} (before the refit): --replace-worse")
    print(note, file=sys.stderr, flush=True)
    print(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
