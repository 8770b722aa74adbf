"""Warm starts before PPO: behaviour cloning of a teacher agent, or distillation of the game's action values.

**Behaviour cloning** (``pretrain_targets = "teacher"``): fit the MaskablePPO policy to a teacher agent's
decisions.

A teacher (by default the game's heuristic) plays the learner's seat of :class:`~training.wrapper.SingleAgentEnv`
against the configured opponents; every teacher decision gives one sample ``(observation, action mask,
action, discounted return-to-go)`` seen exactly as the PPO learner would see it.  The policy is then fitted by
masked cross-entropy on the actions and the value head by mean squared error on the returns.  Sample
collection runs on worker processes.

**Value distillation** (``pretrain_targets = "values"``, :func:`collect_value_targets`,
:func:`value_distillation`): every legal action of a sampled decision state is scored with the game's
heuristic ``state_value`` of the state it leads to, and the policy is fitted to the soft target
``softmax(values / tau)`` over the legal actions.  One state gives a ranking of all its actions instead of
one teacher choice, so far fewer states are needed than for behaviour cloning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["behaviour_cloning", "collect_demonstrations", "collect_value_targets", "student_of", "value_distillation"]


_REPORT_EVERY = 256  # samples between progress reports of a collection worker


def _report(progress: Any, done: int, reported: int) -> int:
    """Send the samples collected since the last report to ``progress`` (a queue, or None); returns the new
    reported count."""
    if progress is not None and done - reported >= _REPORT_EVERY:
        progress.put(done - reported)
        return done
    return reported


def _fit_bar(progress: bool, total: int):
    from monolith_envs.core.cli import stderr_bar

    return stderr_bar(total, "fit", "batch", progress)


def _run_jobs(fn: Any, jobs: list[tuple], total: int, executor: Any, progress: bool) -> list:
    from training.progress import map_with_progress

    return map_with_progress(fn, jobs, total, "collect", "state", executor, progress)


def _student_net(student: tuple | None) -> Any:
    """The :class:`~monolith_envs.agents.baselines.net.BaselineNet` of ``student = (meta, {name: float32
    array}, prob)``, or None."""
    if student is None:
        return None
    import torch

    from monolith_envs.agents.baselines.net import BaselineNet

    net = BaselineNet(student[0])
    net.load_state_dict({k: torch.as_tensor(v) for k, v in student[1].items()})
    return net.eval()


def _collect(args: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    env_id, env_config, teacher_spec, opponent_specs, n_samples, seed, gamma, student, *rest = args
    progress, reported = (rest[0] if rest else None), 0
    import torch

    torch.set_num_threads(1)
    net = _student_net(student)
    from agents import make_agent
    from training.wrapper import SingleAgentEnv

    opps = [make_agent(s, env_id, unattended=True) for s in opponent_specs]
    rng_opp = np.random.default_rng(seed)
    env = SingleAgentEnv(env_id, lambda rng, k: [opps[int(rng_opp.integers(len(opps)))] for _ in range(k)],
                         env_config, seed=seed)
    teacher = make_agent(teacher_spec, env_id, unattended=True)
    rng = np.random.default_rng(seed + 1)
    srng = np.random.default_rng(seed + 2)  # the student's turns: the teacher's draws stay those of prob 0
    obs_l, mask_l, act_l, ret_l = [], [], [], []
    while len(act_l) < n_samples:
        obs, _ = env.reset()
        teacher.reset()
        if hasattr(teacher, "bind"):
            teacher.bind(env.aec)
        rewards = []
        done = False
        while not done:
            mask = env.action_masks()
            a = teacher.act(obs, mask, rng)
            obs_l.append(obs.astype(np.float16))
            mask_l.append(np.packbits(mask))
            act_l.append(a)
            if net is not None and srng.random() < student[2]:  # the student plays, the teacher labels
                legal = np.flatnonzero(mask)
                a = int(legal[int(np.argmax(net.logits(obs.reshape(1, -1))[0][legal]))])
            obs, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        g = 0.0
        rets = []
        for r in reversed(rewards):
            g = r + gamma * g
            rets.append(g)
        ret_l.extend(reversed(rets))
        reported = _report(progress, len(act_l), reported)
    if progress is not None and len(act_l) > reported:
        progress.put(len(act_l) - reported)
    return np.stack(obs_l), np.stack(mask_l), np.asarray(act_l, np.int64), np.asarray(ret_l, np.float32)


def collect_demonstrations(env_id: str, env_config: dict, n_samples: int, teacher: str = "heuristic",
                           opponents: Sequence[str] = ("random",), seed: int = 0, gamma: float = 0.99,
                           executor: Any = None, tasks: int = 4, progress: bool = False,
                           student: tuple | None = None) -> dict[str, np.ndarray]:
    """Teacher decisions from the learner's seat (seats rotate over episodes).

    Returns ``{"obs": float16[N, obs_size], "masks": uint8[N, ceil(n/8)]`` (bit-packed),
    ``"actions": int64[N], "returns": float32[N]}`` with ``N >= n_samples`` (whole episodes).
    ``executor``: a process pool to spread ``tasks`` collection tasks over (``None``: in this process);
    ``progress``: a tqdm bar with ETA over the samples.
    ``student``: ``(meta, {name: float32 array}, prob)``, a :class:`~monolith_envs.agents.baselines.net.BaselineNet`
    (:func:`student_of`); at each decision, with probability ``prob``, the student's most probable legal
    action is played instead of the teacher's (DAgger: the teacher still labels the state), so the samples
    come from the states the student reaches.  ``None``: the teacher plays every decision.
    """
    per = math.ceil(n_samples / tasks)
    jobs = [(env_id, dict(env_config), teacher, list(opponents), per, seed * 7919 + 104729 * i, gamma, student)
            for i in range(tasks)]
    parts = _run_jobs(_collect, jobs, per * tasks, executor, progress)
    return {
        "obs": np.concatenate([p[0] for p in parts]), "masks": np.concatenate([p[1] for p in parts]),
        "actions": np.concatenate([p[2] for p in parts]), "returns": np.concatenate([p[3] for p in parts]),
    }


def student_of(policy: Any, env_id: str, env_config: dict, prob: float) -> tuple:
    """The ``student`` argument of :func:`collect_demonstrations` for an SB3 ``MaskableActorCriticPolicy`` with
    a piece encoder (``features = "pieces"``): its plain-tensor form (as ``training.export_baseline``
    writes it) and the probability ``prob`` that it plays a decision."""
    import monolith_envs
    from training.export_baseline import meta_of, weights_of

    game = monolith_envs.make_game(env_id, **env_config)
    return meta_of(policy, game, "student"), {k: v.numpy() for k, v in weights_of(policy).items()}, float(prob)


def behaviour_cloning(policy: Any, data: dict[str, np.ndarray], n_actions: int, epochs: int = 5,
                      batch_size: int = 256, lr: float = 1e-3, vf_coef: float = 0.5, seed: int = 0,
                      progress: bool = False) -> dict:
    """Fit ``policy`` (a ``MaskableActorCriticPolicy``) to the demonstrations in place.

    Loss per minibatch: ``-log pi(a | obs, mask) + vf_coef * (V(obs) - return)^2``.  Uses a fresh Adam
    optimiser with learning rate ``lr``.  Returns ``{"loss": [...], "accuracy": float}`` where accuracy is
    the share of samples whose teacher action is the policy's most probable legal action (last epoch).
    ``progress``: a tqdm bar with ETA over the minibatches.
    """
    import torch

    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    obs_all = data["obs"]
    masks_all = np.unpackbits(data["masks"], axis=1, count=n_actions).astype(bool)
    acts_all = data["actions"]
    rets_all = data["returns"]
    n = len(acts_all)
    losses, correct = [], 0
    policy.set_training_mode(True)
    bar = _fit_bar(progress, epochs * math.ceil(n / batch_size))
    for _epoch in range(epochs):
        order = rng.permutation(n)
        correct = 0
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            obs = torch.as_tensor(obs_all[idx].astype(np.float32))
            masks = masks_all[idx]
            acts = torch.as_tensor(acts_all[idx])
            rets = torch.as_tensor(rets_all[idx])
            dist = policy.get_distribution(obs, action_masks=masks)
            logp = dist.log_prob(acts)
            values = policy.predict_values(obs).flatten()
            loss = -logp.mean() + vf_coef * torch.nn.functional.mse_loss(values, rets)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            losses.append(float(loss.detach()))
            with torch.no_grad():
                correct += int((dist.distribution.probs.argmax(dim=1) == acts).sum())
            bar.update(1)
    bar.close()
    policy.set_training_mode(False)
    return {"loss": losses, "accuracy": correct / max(1, n), "samples": n}


# ---------------------------------------------------------------------------------------------- value targets
def _collect_values(args: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    env_id, env_config, n_samples, seed, label_prob, *rest = args
    progress, reported = (rest[0] if rest else None), 0
    import monolith_envs
    from agents.heuristics import rollout_policy_for, value_fn_for

    game = monolith_envs.make_game(env_id, **env_config)
    value, strong_policy = value_fn_for(env_id), rollout_policy_for(env_id)
    n_players, n_actions = game.num_players, game.layout.n
    rng = np.random.default_rng(seed)
    obs_l, mask_l, val_l = [], [], []
    while len(obs_l) < n_samples:
        state = game.initial_state(rng)
        strong = int(rng.integers(n_players + 1))  # this seat plays the heuristic policy (n_players: none)
        while not game.is_terminal(state) and len(obs_l) < n_samples:
            seat = game.current_player(state)
            mask = game.legal_mask(state)
            legal = np.flatnonzero(mask)
            if legal.size > 1 and rng.random() < label_prob:
                vals = np.zeros(n_actions, np.float16)
                for a in legal:
                    child = game.clone(state)
                    game.apply(child, int(a), rng)
                    vals[a] = float(value(game, child)[seat])
                obs_l.append(np.asarray(game.observe(state, seat), np.float16))
                mask_l.append(np.packbits(mask.astype(bool)))
                val_l.append(vals)
                reported = _report(progress, len(obs_l), reported)
            if seat == strong:
                a = int(strong_policy(game, game.resample_hidden(state, seat, rng), seat, rng))
                if not mask[a]:
                    a = int(legal[rng.integers(legal.size)])
            else:
                a = int(legal[rng.integers(legal.size)])
            game.apply(state, a, rng)
    if progress is not None and len(obs_l) > reported:
        progress.put(len(obs_l) - reported)
    return np.stack(obs_l), np.stack(mask_l), np.stack(val_l)


def collect_value_targets(env_id: str, env_config: dict, n_samples: int, seed: int = 0, label_prob: float = 0.25,
                          executor: Any = None, tasks: int = 4, progress: bool = False) -> dict[str, np.ndarray]:
    """Decision states labelled with the game's value of every legal action (for :func:`value_distillation`).

    States come from games in which one seat (drawn per game, or none) plays the game's fast heuristic
    policy (``rollout_policy_for(env_id)``, after ``resample_hidden``) and the others play uniformly at
    random; each decision with more than one legal action is labelled with probability ``label_prob``: every
    legal action is applied to a clone and scored by the game's ``state_value`` hook
    (``value_fn_for(env_id)``) for the acting seat.

    Returns ``{"obs": float16[N, obs_size], "masks": uint8[N, ceil(n/8)]`` (bit-packed),
    ``"values": float16[N, n]}`` (0 at illegal actions), ``N = n_samples`` rounded up to ``tasks`` parts.
    ``executor``: a process pool for the ``tasks`` collection tasks (``None``: in this process); ``progress``:
    a tqdm bar with ETA over the states.
    """
    per = math.ceil(n_samples / tasks)
    jobs = [(env_id, dict(env_config), per, seed * 7919 + 104729 * i + 17, float(label_prob)) for i in range(tasks)]
    parts = _run_jobs(_collect_values, jobs, per * tasks, executor, progress)
    return {"obs": np.concatenate([p[0] for p in parts]), "masks": np.concatenate([p[1] for p in parts]),
            "values": np.concatenate([p[2] for p in parts])}


def value_distillation(policy: Any, data: dict[str, np.ndarray], n_actions: int, tau: float = 0.02,
                       epochs: int = 5, batch_size: int = 256, lr: float = 1e-3, holdout: float = 0.1,
                       seed: int = 0, progress: bool = False) -> dict:
    """Fit ``policy``'s action distribution to ``softmax(values / tau)`` over the legal actions, in place.

    Loss per minibatch: the cross-entropy ``-sum_a q(a) log pi(a | obs, mask)`` with the soft target ``q``;
    a fresh Adam optimiser with learning rate ``lr``.  A ``holdout`` share of the states is kept out of the
    fit and scored at the end.  ``progress``: a tqdm bar with ETA over the minibatches.

    Returns:
        ``{"loss": [...], "samples": int, "holdout_agreement": share of held-out states whose most probable
        action is a best-valued one, "holdout_value_gain": mean of (value of the policy's most probable action
        - mean legal value) / (best - mean legal value) over held-out states where actions differ}``.
    """
    import torch

    rng = np.random.default_rng(seed)
    n = len(data["obs"])
    order = rng.permutation(n)
    n_hold = int(round(n * holdout))
    hold, fit = order[:n_hold], order[n_hold:]
    masks_all = np.unpackbits(data["masks"], axis=1, count=n_actions).astype(bool)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    losses: list[float] = []

    def batch(idx: np.ndarray):
        obs = torch.as_tensor(data["obs"][idx].astype(np.float32))
        masks = masks_all[idx]
        vals = torch.as_tensor(data["values"][idx].astype(np.float32))
        return obs, masks, vals, torch.as_tensor(masks)

    policy.set_training_mode(True)
    bar = _fit_bar(progress, epochs * math.ceil(len(fit) / batch_size))
    for _epoch in range(epochs):
        perm = fit[rng.permutation(len(fit))]
        for start in range(0, len(perm), batch_size):
            obs, masks, vals, m = batch(perm[start:start + batch_size])
            target = torch.softmax(torch.where(m, vals / tau, torch.full_like(vals, -1e9)), dim=1)
            logits = policy.get_distribution(obs, action_masks=masks).distribution.logits
            logp = torch.log_softmax(logits, dim=1)
            loss = -(target * torch.where(m, logp, torch.zeros_like(logp))).sum(dim=1).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            losses.append(float(loss.detach()))
            bar.update(1)
    bar.close()
    policy.set_training_mode(False)
    agree, gains = [], []
    with torch.no_grad():
        for start in range(0, n_hold, 1024):
            obs, masks, vals, m = batch(hold[start:start + 1024])
            best = policy.get_distribution(obs, action_masks=masks).distribution.probs.argmax(dim=1)
            got = vals.gather(1, best[:, None])[:, 0]
            top = torch.where(m, vals, torch.full_like(vals, -1e9)).max(dim=1).values
            mean = (vals * m).sum(dim=1) / m.sum(dim=1)
            agree.extend((got >= top - 1e-3).tolist())
            spread = top - mean
            ok = spread > 1e-3
            gains.extend(((got - mean)[ok] / spread[ok]).tolist())
    return {"loss": losses, "samples": int(n), "holdout_agreement": float(np.mean(agree)) if agree else float("nan"),
            "holdout_value_gain": float(np.mean(gains)) if gains else float("nan")}
