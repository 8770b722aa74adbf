"""Export a training run's policy as a pretrained baseline of the package (plain tensors, no SB3 at play time).

    python -m training.export_baseline RUN_DIR --name arena_2p

reads ``RUN_DIR/final_model.zip`` (a MaskablePPO model of ``python -m training.train`` with ``features =
"pieces"``, loaded by the package's safe model-file loader) and ``RUN_DIR/report.json``, and writes
``monolith_envs/baselines/<name>.pt``: the weights (float16 by default: six networks stay under 10 MB in all;
they are cast to float32 at load) and plain-data metadata (env id and config, sizes, piece layout, the
training command, its budget and its final evaluation).  The entry of ``index.json`` next to it (name, file,
SHA-256, env id, the config values that choose it) is added or replaced: one baseline per env id and choosing
config values, so an entry of another name for the same env and config is replaced too (the command says
``replaces baseline 'OLD' (the same env and config)``) and its ``.pt`` file, when it is not the new file, is
removed, so that ``index.json`` and the files stay consistent (in the package's own folder the file stays:
the repository keeps it, and the command says so); a re-export under the same name says ``replaces baseline
'NAME' (the same name): NAME.pt rewritten``.  The new file is written beside the old one and swapped
in with the index in one step that a signal does not split.  The command then checks the written file
against the SB3 policy on observations of seeded random games and prints the largest logit difference and
how often both choose the same legal action, and the total size of the files that ``index.json`` lists.

Errors (a missing run, a model that is not a ``pieces`` MaskablePPO policy, a bad name) are one ``error:``
line and exit status 2.  A ``final_model.zip`` that cannot be read without running code from it is refused;
``--trust-model-files`` (only for a run you trust; the same as ``MONOLITH_ENVS_TRUST_MODELS=1``) lets it load.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

from monolith_envs.agents.model_files import add_trust_argument, trust_models_from_args
from monolith_envs.core.cli import ArgumentParser

__all__ = ["compare_with_policy", "export_run", "install_baseline", "main", "meta_of", "policy_logits",
           "sample_observations", "weights_of"]

_ROOT = Path(__file__).resolve().parents[1]
#: where the package's baseline files live in the repository
DEFAULT_OUT = _ROOT / "monolith_envs" / "baselines"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_]{0,63}$")


class ExportError(ValueError):
    """A run that cannot be exported (the message says what and why)."""


def weights_of(policy: Any) -> dict[str, Any]:
    """The :class:`~monolith_envs.agents.baselines.net.BaselineNet` weights of an SB3 ``MaskableActorCriticPolicy``
    whose shared features extractor is a piece encoder: a dict of names -> float32 tensors (copies).

    Raises:
        ExportError: separate features extractors, or a features extractor that is not a piece encoder.
    """
    from monolith_envs.agents.baselines.net import PieceEncoderMixin

    if not getattr(policy, "share_features_extractor", False):
        raise ExportError("the policy has separate features extractors for the policy and the value; baselines "
                          "need the shared one (SB3's default)")
    if not isinstance(policy.features_extractor, PieceEncoderMixin):
        raise ExportError(f"the features extractor is {type(policy.features_extractor).__name__}; baselines need "
                          "the piece encoder (features = \"pieces\" in the training config)")
    out = {}
    prefixes = (("features_extractor.", "encoder."), ("mlp_extractor.policy_net.", "pi."),
                ("mlp_extractor.value_net.", "vf."), ("action_net.", "action."), ("value_net.", "value."))
    for k, v in policy.state_dict().items():
        for old, new in prefixes:
            if k.startswith(old):
                out[new + k[len(old):]] = v.detach().float().clone()
    return out


def meta_of(policy: Any, game: Any, name: str) -> dict:
    """The metadata of a baseline file (:class:`~monolith_envs.agents.baselines.net.BaselineNet`) for an SB3
    ``MaskableActorCriticPolicy`` with a piece encoder, on ``game``, named ``name``.

    Raises:
        ExportError: an activation other than Tanh or ReLU.
    """
    import torch

    enc = policy.features_extractor
    acts = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    act = acts.get(policy.activation_fn)
    if act is None:
        raise ExportError(f"activation {getattr(policy.activation_fn, '__name__', policy.activation_fn)} is not one "
                          "of Tanh, ReLU")
    arch = policy.net_arch
    pi, vf = (arch.get("pi", []), arch.get("vf", [])) if isinstance(arch, dict) else (arch, arch)
    return {
        "name": name, "env_id": game.env_id, "env_config": dict(game.config), "obs_size": int(game.obs_spec.size),
        "n_actions": int(game.layout.n), "num_players": int(game.num_players),
        "pieces": [[int(x) for x in t] for t in enc.tables], "row_dim": int(enc.encoders[0][0].out_features)
        if len(enc.encoders) else 1, "features_dim": int(enc.features_dim), "pi_arch": [int(w) for w in pi],
        "vf_arch": [int(w) for w in vf], "activation": act,
    }


def sample_observations(env_id: str, env_config: dict, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the acting seat at ``count`` decisions with at least two legal actions, from
    seeded games of uniformly random legal actions: ``(float32[count, obs_size], bool[count, n_actions])``."""
    import monolith_envs

    game = monolith_envs.make_game(env_id, **env_config)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    state = game.initial_state(rng)
    while len(obs) < count:
        if game.is_terminal(state):
            state = game.initial_state(rng)
            continue
        p = game.current_player(state)
        m = np.asarray(game.legal_mask(state), bool)
        if m.sum() > 1:
            obs.append(np.asarray(game.observe(state, p), np.float32))
            masks.append(m)
        game.apply(state, int(rng.choice(np.flatnonzero(m))), rng)
    return np.stack(obs), np.stack(masks)


def policy_logits(policy: Any, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The SB3 policy's raw logits ``float32[B, n]`` and values ``float32[B]`` for ``obs float32[B, obs_size]``."""
    import torch

    with torch.no_grad():
        t = torch.as_tensor(obs, dtype=torch.float32)
        features = policy.extract_features(t, policy.pi_features_extractor)
        latent_pi, latent_vf = policy.mlp_extractor(features)
        return policy.action_net(latent_pi).numpy(), policy.value_net(latent_vf)[:, 0].numpy()


def compare_with_policy(policy: Any, net: Any, obs: np.ndarray, masks: np.ndarray) -> dict:
    """How close a baseline network is to the SB3 policy it was exported from, on ``obs`` / ``masks``:
    ``{"max_logit_diff", "max_value_diff", "same_action"}`` (the share of rows where both take the same most
    probable legal action)."""
    import torch

    lp, vp = policy_logits(policy, obs)
    with torch.no_grad():
        lb, vb = net(torch.as_tensor(obs))
    lb, vb = lb.numpy(), vb.numpy()
    neg = np.float32(-np.inf)
    same = np.argmax(np.where(masks, lp, neg), 1) == np.argmax(np.where(masks, lb, neg), 1)
    return {"max_logit_diff": float(np.abs(lp - lb).max()), "max_value_diff": float(np.abs(vp - vb).max()),
            "same_action": float(same.mean())}


def _training_record(run_dir: Path, report: dict, command: str | None, machine: str | None) -> dict:
    cfg = report.get("config") if isinstance(report.get("config"), dict) else {}
    if command is None:
        cfg_file = _ROOT / "training" / "configs" / f"{report.get('run')}.toml"
        command = (f"python -m training.train --config training/configs/{cfg_file.name}" if cfg_file.is_file()
                   else f"python -m training.train (run {report.get('run')!r}; config in {run_dir}/config.json)")
    return {
        "command": command, "run": report.get("run"), "seed": cfg.get("seed"),
        "total_timesteps": cfg.get("total_timesteps"), "learner_steps": report.get("learner_steps"),
        "pretrain_samples": cfg.get("pretrain_samples"), "init_from": cfg.get("init_from") or None,
        "wall_seconds": report.get("total_seconds"),  # a resumed run's: its last session only (resumed_from)
        "stage_seconds": report.get("stage_seconds"),
        **({"resumed_from": report["resumed_from"],
            "note": "wall_seconds is the last session's (resumed at resumed_from.steps); stage_seconds holds "
                    "its stages and the first session's warm-start stages"}
           if isinstance(report.get("resumed_from"), dict) else {}),
        "machine": machine or f"{platform.machine()} {platform.system()}, {os.cpu_count()} CPUs",
        "final_eval": {opp: {k: s.get(k) for k in ("games", "win_rate", "ci95", "wins", "draws", "losses")
                             if k in s} for opp, s in (report.get("final_eval") or {}).items() if isinstance(s, dict)},
    }


def export_run(run_dir: str | Path, name: str, out_dir: str | Path = DEFAULT_OUT, dtype: str = "float16",
               command: str | None = None, machine: str | None = None, check_states: int = 200) -> dict:
    """Export ``run_dir`` as baseline ``name`` into ``out_dir`` (see the module docstring).

    Returns ``{"path", "bytes", "sha256", "entry", "replaced", "check"}`` (``replaced``: the index entries the new
    one replaced, each ``{"name", "file", "why", "removed"}``, ``removed`` true when its file, not the new one,
    was deleted; ``check``: :func:`compare_with_policy` on ``check_states`` seeded observations, ``{}`` when 0).

    Raises:
        ExportError: a bad name or dtype, no ``final_model.zip`` / ``report.json``, or a policy that is not a
            shared piece-encoder MaskablePPO policy.
        monolith_envs.agents.model_files.ModelFileError: a model file the safe loader refuses.
    """
    import torch

    import monolith_envs
    from monolith_envs.agents.baselines.net import load_baseline_file, save_baseline_file
    from monolith_envs.agents.baselines.registry import list_baselines, select_of
    from monolith_envs.agents.ppo import load_maskable_ppo

    if not _NAME.match(name):
        raise ExportError(f"--name must be 1 to 64 lower-case letters, digits and _, starting with a letter or "
                          f"digit, got {name[:80]!r}")
    dtypes = {"float16": torch.float16, "float32": torch.float32}
    if dtype not in dtypes:
        raise ExportError(f"--dtype must be one of {sorted(dtypes)}, got {dtype!r}")
    run_dir, out_dir = Path(run_dir), Path(out_dir)
    model_path, report_path = run_dir / "final_model.zip", run_dir / "report.json"
    for p in (model_path, report_path):
        if not p.is_file():
            raise ExportError(f"{p} not found: RUN_DIR must be a finished run of python -m training.train")
    from monolith_envs.core.content import ContentError
    from monolith_envs.core.jsonfile import read_json

    try:
        report = read_json(report_path, 16 * 2**20)
    except ContentError as e:
        raise ExportError(f"not a readable JSON report: {e}") from None
    if not (isinstance(report, dict) and isinstance(report.get("env_id"), str)
            and isinstance(report.get("env_config"), dict)):
        raise ExportError(f"{report_path}: no env_id and env_config entries")
    from monolith_envs.core.outfiles import OutputPathError, check_output_dir

    try:  # after the report is read, before the work: a file in the way, a folder that cannot be written
        check_output_dir(out_dir, "--out-dir", "the baseline files")
    except OutputPathError as e:
        raise ExportError(str(e)) from None
    game = monolith_envs.make_game(report["env_id"], **report["env_config"])
    policy = load_maskable_ppo(model_path).policy
    weights = weights_of(policy)
    meta = meta_of(policy, game, name)
    meta["dtype"] = dtype
    meta["training"] = _training_record(run_dir, report, command, machine)
    json.dumps(meta)  # plain data only
    select = select_of(dict(game.config))
    old_entries = list_baselines(out_dir)  # before the write: an unreadable index stops the export here
    from monolith_envs.core.interrupt import signals_deferred

    path, new = out_dir / f"{name}.pt", out_dir / f"{name}.pt.new"
    try:
        save_baseline_file(new, meta, weights, dtypes[dtype])
        data = new.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        entry = {"name": name, "file": path.name, "sha256": digest, "env_id": game.env_id,
                 "select": select, "env_config": dict(report["env_config"])}
        with signals_deferred():  # the file, the index and the replaced files change together
            install_baseline(out_dir, new, entry)
            replaced = _remove_replaced(out_dir, old_entries, entry)
    finally:
        new.unlink(missing_ok=True)
    check: dict = {}
    if check_states > 0:
        net, _ = load_baseline_file(path, data)
        obs, masks = sample_observations(game.env_id, report["env_config"], check_states, seed=12345)
        check = compare_with_policy(policy, net, obs, masks)
    return {"path": path, "bytes": len(data), "sha256": digest, "entry": entry, "replaced": replaced, "check": check}


def install_baseline(out_dir: Path, new: Path, entry: dict) -> None:
    """Put the written file ``new`` in place as ``out_dir / entry["file"]`` and ``entry`` in ``index.json``,
    both or neither: the old file keeps a second name until the index is written (``NAME.pt`` exists at every
    moment), and comes back if the index cannot be written.  Call it inside
    :func:`~monolith_envs.core.interrupt.signals_deferred` so that a signal does not split the two.

    Raises:
        OSError: the file or the index could not be written (the folder is as it was).
    """
    from monolith_envs.agents.baselines.registry import add_to_index

    path = out_dir / entry["file"]
    backup = _backup(path)
    try:
        new.replace(path)
        try:
            add_to_index(out_dir, entry)
        except BaseException:
            if backup is not None:
                backup.replace(path)
                backup = None
            else:
                path.unlink(missing_ok=True)
            raise
    finally:
        if backup is not None:  # only the name this call made
            backup.unlink(missing_ok=True)


def _backup(path: Path) -> Path | None:
    """A new hidden name beside ``path`` for the same file (a hard link; for a symbolic link, the link itself),
    or ``None`` when there is no ``path``; a copy where the file system has no hard links."""
    import shutil
    import tempfile

    if not (path.exists() or path.is_symlink()):
        return None
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".old")
    os.close(fd)
    os.unlink(name)
    try:
        os.link(path, name, follow_symlinks=False)
    except OSError:
        shutil.copy2(path, name, follow_symlinks=False)
    return Path(name)


def _remove_replaced(out_dir: Path, old_entries: list[dict], entry: dict) -> list[dict]:
    """The entries of ``old_entries`` that ``entry`` replaced in ``out_dir/index.json`` (the same name, or the
    same env id and ``select``), each ``{"name", "file", "why", "removed"}``; the ``.pt`` file of each one
    whose file is not the new entry's and that no entry left in the index names is deleted (only a plain
    file of that name in ``out_dir``; never in the package's own folder, whose files the repository keeps)."""
    from monolith_envs.agents.baselines.registry import list_baselines

    kept = {e["file"] for e in list_baselines(out_dir)}
    out = []
    for e in old_entries:
        same_config = e["env_id"] == entry["env_id"] and e["select"] == entry["select"]
        if e["name"] != entry["name"] and not same_config:
            continue
        why = "the same env and config" if e["name"] != entry["name"] else (
            "the same name" if same_config else f"the same name; it was for {e['env_id']} {e['select']}")
        f = out_dir / e["file"]  # a plain file name (list_baselines refuses paths)
        removed = False
        shipped = out_dir.resolve() == DEFAULT_OUT.resolve()  # the package's own files (git keeps them): they stay
        if (not shipped and e["file"] not in kept and e["file"].endswith(".pt") and f.parent == out_dir
                and f.is_file() and not f.is_symlink()):
            f.unlink()
            removed = True
        out.append({"name": e["name"], "file": e["file"], "why": why, "removed": removed})
    return out


def main(argv: list[str] | None = None) -> dict:
    """The command line (see the module docstring)."""
    ap = ArgumentParser(prog="python -m training.export_baseline",
                                 description="Export a training run's policy as a pretrained baseline of the package "
                                             "(agent spec 'baseline').")
    ap.add_argument("run_dir", metavar="RUN_DIR", help="a finished run of python -m training.train (final_model.zip, "
                                                      "report.json)")
    ap.add_argument("--name", required=True, help="baseline name, e.g. arena_2p (the file is NAME.pt)")
    ap.add_argument("--out-dir", default=str(DEFAULT_OUT), help="folder of the baseline files and index.json "
                                                                "(default: monolith_envs/baselines)")
    ap.add_argument("--dtype", default="float16", choices=("float16", "float32"),
                    help="stored weight type (default float16; cast to float32 at load)")
    ap.add_argument("--command", default=None, help="the training command recorded in the file (default: "
                                                    "python -m training.train --config training/configs/RUN.toml)")
    ap.add_argument("--machine", default=None, help="the training machine recorded in the file (default: this one)")
    ap.add_argument("--check-states", type=int, default=200,
                    help="observations of seeded random games on which the export is compared with the SB3 policy "
                         "(0: no check; default 200)")
    add_trust_argument(ap)
    args = ap.parse_args(argv)
    trust_models_from_args(args)
    if not 0 <= args.check_states <= 100_000:
        ap.error(f"--check-states must be from 0 to 100000, got {args.check_states}")
    from monolith_envs import MonolithEnvError
    from monolith_envs.agents.base import AgentError

    try:
        out = export_run(args.run_dir, args.name, args.out_dir, args.dtype, args.command, args.machine,
                         args.check_states)
    except (ExportError, AgentError, MonolithEnvError, FileNotFoundError, OSError) as e:
        ap.error(str(e))
    from monolith_envs.agents.baselines.registry import list_baselines

    out_dir = Path(args.out_dir)
    indexed = [out_dir / e["file"] for e in list_baselines(out_dir)]
    total = sum(f.stat().st_size for f in indexed if f.is_file())
    c = out["check"]
    for r in out["replaced"]:
        if r["why"] == "the same name" and r["file"] == out["path"].name:  # a re-export: said, as the others
            print(f"replaces baseline {r['name']!r} (the same name): {r['file']} rewritten")
        else:
            shipped = out_dir.resolve() == DEFAULT_OUT.resolve()
            gone = (f"; removed its file {r['file']}" if r["removed"] else
                    f"; its file {r['file']} stays (the repository keeps it)"
                    if shipped and r["file"] != out["path"].name and (out_dir / r["file"]).is_file() else "")
            print(f"replaces baseline {r['name']!r} ({r['why']}){gone}")
    print(f"wrote {out['path']} ({out['bytes']:,} bytes, sha256 {out['sha256'][:16]}...) for {out['entry']['env_id']} "
          f"{out['entry']['select']}; all {len(indexed)} baseline files of index.json: {total:,} bytes")
    if c:
        print(f"check on {args.check_states} seeded states: max |logit diff| {c['max_logit_diff']:.2e}, max |value "
              f"diff| {c['max_value_diff']:.2e}, same action {100 * c['same_action']:.1f}%")
    sys.stdout.flush()
    return out


if __name__ == "__main__":
    main()
