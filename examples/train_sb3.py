"""Train your own MaskablePPO agent on a Monolith game with SB3, then evaluate it against random.

    python examples/train_sb3.py                                  # Monolith Arena duel (default)
    python examples/train_sb3.py --env monolith_strategy_v0       # Strategy, 2 players
    python examples/train_sb3.py --env the_monolith_v0            # The Monolith, 4 players (first place)
    python examples/train_sb3.py --steps 4096 --warm-start 1000 --games 20 --out runs/my_agent   # a quick look

The recipe, in four steps that each print what they do:

1. **One seat as a Gymnasium env.**  :class:`monolith_envs.wrappers.SingleAgentEnv` gives the learner one seat
   (rotating over episodes); the random agent plays every other seat inside ``step``.  ``MaskablePPO`` reads
   the legal actions from the env's ``action_masks()``.
2. **Reward shaping** (plainly on: ``--shaping 0`` turns it off).  The game pays +1 / -1 only at the end.
   Each step also pays ``gamma * phi(s') - phi(s)`` with ``phi = coef * the heuristic's state value`` of the
   learner's seat (``monolith_envs.agents.heuristics.value_fn_for``): potential-based shaping, which leaves the best
   policies of the game unchanged and makes the signal dense.
3. **A warm start** (``--warm-start N`` decisions; 0 skips it).  The policy is first fitted, by plain
   supervised learning, to N decisions of the game's heuristic (Arena: to the heuristic's value of every legal
   action, which needs fewer states).  PPO from scratch stays at 60-75% against random on Arena in budgets of
   minutes; the warm start is what puts the agent above 80% in a few minutes (``training/README.md``).
4. **MaskablePPO** (``model.learn``) with one line per rollout: learner steps, episodes finished, their win
   rate and the speed.  Then the policy plays ``--games`` games against random (seats rotating) with
   ``model.predict(obs, action_masks=..., deterministic=...)`` and the result is printed with its 95% Wilson
   interval, next to what this default run measured.  ``--play greedy`` takes the most probable action (as
   ``ppo:PATH`` in ``training.evaluate``), ``--play sample`` draws it from the policy as in training.  After
   this short training Arena and Strategy play better greedy (Arena: 96-97% greedy, about 75% sampled), The
   Monolith sampled (90-92% sampled, 79% greedy), so each game's default is its better one.

The network reads the observation's tables row by row (``monolith_envs.agents.sb3_features.PieceEncoder``: one small shared
encoder per row of each table, such as the 19 hexes of Arena), which learns much faster than a flat MLP on
thousands of inputs.  The warm-start collection runs on spawned worker processes, which import this file
again: everything below stays under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import argparse
import io
import math
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from monolith_envs.core.seeds import seed_arg_below

# Run from a checkout: the repository's training/ and agents/ folders are not installed packages, so the
# repository root goes first on the import path (also for the spawned workers, which copy it).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Per game: the config trained, the warm start, the PPO settings and what the default run measured
# (2 CPU cores; see the README section "Train your own agent with SB3").
GAMES = {
    "monolith_arena_v0": {
        "config": {"num_players": 2}, "label": "Monolith Arena duel",
        "warm_start": "values", "samples": 20_000, "steps": 16_384, "shaping": 5.0, "gamma": 0.99, "lam": 0.8,
        "play": "greedy", "expect": "about 95% against random (random against random: 50%)",
    },
    "monolith_strategy_v0": {
        "config": {"num_players": 2}, "label": "Strategy, 2 players",
        "warm_start": "teacher", "samples": 8000, "steps": 24_576, "shaping": 2.0, "gamma": 0.995, "lam": 0.9,
        "play": "greedy", "expect": "about 95-99% against random (random against random: 50%)",
    },
    "the_monolith_v0": {
        "config": {"num_players": 4}, "label": "The Monolith, 4 players (a win is first place)",
        "warm_start": "teacher", "samples": 16_000, "steps": 24_576, "shaping": 5.0, "gamma": 0.99, "lam": 0.8,
        "play": "sample", "expect": "about 90% first against three random players (random: 25%)",
    },
}


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {v}")
    return v


def non_negative_int(text: str) -> int:
    """argparse type: an int >= 0."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {v}")
    return v


MAX_SHAPING = 1e6  # the largest shaping_coef that SingleAgentEnv accepts
MAX_SEED = 2**32 - 1  # SB3 seeds numpy's legacy generator (np.random.seed) with --seed, which takes no more


def shaping_coef(text: str) -> float:
    """argparse type: a finite number from 0 (no shaping) to :data:`MAX_SHAPING`."""
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and 0 <= v <= MAX_SHAPING):
        raise argparse.ArgumentTypeError(f"expected a number from 0 (no shaping) to 1e6, got {text[:40]!r}")
    return v


#: argparse type of --seed (the envs get ``seed * 1000 + rank`` and the evaluation ``seed + 10_007``, both far
#: below the envs' bound of 2**128-1)
sb3_seed = seed_arg_below(MAX_SEED, "2**32-1", "SB3 seeds numpy's legacy generator with it")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line; defaults per game come from :data:`GAMES` (``None`` here means 'the game's')."""
    from monolith_envs.core.outfiles import (
        OutputPathError,
        check_output_dir,
        check_output_file,
        new_folders_removed_on_error,
    )

    ap = argparse.ArgumentParser(prog="python examples/train_sb3.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Per-game defaults (warm-start decisions, PPO steps, shaping coefficient, evaluation play):\n"
                                 + "\n".join(f"  {e}: {g['label']}, {g['samples']}, {g['steps']}, {g['shaping']}, plays {g['play']}"
                                             for e, g in GAMES.items()))
    ap.add_argument("--env", default="monolith_arena_v0", choices=list(GAMES), help="the game (default: Arena)")
    ap.add_argument("--steps", type=positive_int, help="MaskablePPO learner steps (default: the game's)")
    ap.add_argument("--warm-start", type=non_negative_int, help="warm-start decisions; 0 = none (default: the game's)")
    ap.add_argument("--shaping", type=shaping_coef,
                    help="shaping coefficient, 0 to 1e6; 0 = none (default: the game's)")
    ap.add_argument("--games", type=positive_int, default=100, help="evaluation games against random (default 100)")
    ap.add_argument("--play", choices=("greedy", "sample"),
                    help="how the trained policy plays the evaluation games: greedy = its most probable action "
                         "(as ppo:PATH in training.evaluate), sample = actions drawn from it as in training "
                         "(default: the game's)"),
    ap.add_argument("--workers", type=positive_int, default=2,
                    help="warm-start collection processes (spawned; default 2)")
    ap.add_argument("--seed", type=sb3_seed, default=0,
                    help="seed of the envs, the network and the games, 0 to 2**32-1 (default 0)")
    ap.add_argument("--out", help="output folder of the model (default runs/sb3_example/ENV, so that each game "
                                  "keeps its own model)")
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = f"runs/sb3_example/{args.env}"
    try:  # before the training: a path that cannot be written ends the run now, not after it
        with new_folders_removed_on_error(args.out):
            check_output_dir(args.out, "--out", "the model")
            check_output_file(Path(args.out) / "model.zip", "--out")
    except OutputPathError as err:
        ap.error(str(err))
    return args


def make_env(env_id: str, config: dict, seed: int, shaping: float, gamma: float, rank: int):
    """An env factory for ``DummyVecEnv``: one seat of ``env_id`` against random, optionally shaped."""

    def make():
        from monolith_envs.agents import RandomAgent
        from monolith_envs.agents.heuristics import value_fn_for
        from monolith_envs.wrappers import SingleAgentEnv

        value_fn = value_fn_for(env_id) if shaping > 0 else None
        return SingleAgentEnv(env_id, [RandomAgent()], config, seed=seed * 1000 + rank,
                              shaping=value_fn, shaping_coef=shaping, shaping_gamma=gamma)

    return make


def rollout_lines(total: int):
    """An SB3 callback printing one line per rollout: steps (of ``total``, the steps that ``learn`` really
    runs: whole rollouts), finished episodes, their win rate, speed."""
    from stable_baselines3.common.callbacks import BaseCallback

    class RolloutLine(BaseCallback):
        def _on_training_start(self) -> None:
            self.t0, self.wins, self.episodes = time.perf_counter(), 0, 0

        def _on_step(self) -> bool:
            for info, done in zip(self.locals["infos"], self.locals["dones"]):
                if done and "win" in info:
                    self.episodes += 1
                    self.wins += info["win"] > 0
            return True

        def _on_rollout_end(self) -> None:
            dt = time.perf_counter() - self.t0
            rate = f"{self.wins / self.episodes:.0%}" if self.episodes else "-"
            print(f"  ppo {self.num_timesteps:>7,}/{total:,} steps | {self.episodes:>4} episodes won {rate:>4} "
                  f"against random | {self.num_timesteps / max(dt, 1e-9):,.0f} steps/s", flush=True)
            self.wins = self.episodes = 0

    return RolloutLine()


def warm_start(model, env_id: str, game: dict, samples: int, seed: int, executor) -> str:
    """Fit ``model.policy`` to the heuristic (decisions, or action values on Arena); returns a summary."""
    from training import pretrain

    n = model.action_space.n
    if game["warm_start"] == "values":
        data = pretrain.collect_value_targets(env_id, game["config"], samples, seed, executor=executor, tasks=4,
                                              progress=True)
        info = pretrain.value_distillation(model.policy, data, n, tau=0.02, epochs=20, batch_size=512, lr=1e-3,
                                           seed=seed, progress=True)
        return (f"{info['samples']:,} states; on held-out states the policy's top action is the best-valued one "
                f"in {info['holdout_agreement']:.0%}")
    data = pretrain.collect_demonstrations(env_id, game["config"], samples, "heuristic", ["random"], seed,
                                           game["gamma"], executor=executor, tasks=4, progress=True)
    info = pretrain.behaviour_cloning(model.policy, data, n, epochs=10, batch_size=512, lr=1e-3, seed=seed,
                                      progress=True)
    return f"{info['samples']:,} decisions; the policy picks the heuristic's action in {info['accuracy']:.0%}"


def evaluate(model, env_id: str, config: dict, games: int, seed: int, deterministic: bool) -> dict:
    """``games`` games of ``model`` against the random agent in this process, the learner's seat rotating.

    Returns ``{"games", "wins", "draws", "losses", "win_rate", "ci95": [low, high]}`` (95% Wilson interval;
    a draw or a truncated game is not a win).
    """
    from monolith_envs.agents import RandomAgent
    from monolith_envs.wrappers import SingleAgentEnv
    from training.evaluate import wilson_interval

    env = SingleAgentEnv(env_id, [RandomAgent()], config, seed=seed + 10_007)  # not the training episodes
    wins = draws = 0
    for _ in range(games):
        obs, info = env.reset()
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=deterministic)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += info["win"] > 0
        draws += info["win"] == 0
    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "win_rate": wins / games, "ci95": [lo, hi]}


def main(argv: list[str] | None = None) -> dict:
    """Run the example; returns the evaluation summary of :func:`evaluate`."""
    args = parse_args(argv)
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    import monolith_envs
    from monolith_envs.agents import RandomAgent
    from monolith_envs.agents.baselines.net import piece_layout
    from monolith_envs.agents.sb3_features import PieceEncoder
    from monolith_envs.core.interrupt import end_executor, ignore_sigint
    from monolith_envs.core.outfiles import write_bytes_atomic
    from monolith_envs.wrappers import SingleAgentEnv

    torch.set_num_threads(1)
    env_id, game = args.env, GAMES[args.env]
    steps = args.steps if args.steps is not None else game["steps"]
    samples = args.warm_start if args.warm_start is not None else game["samples"]
    shaping = args.shaping if args.shaping is not None else game["shaping"]
    play = args.play or game["play"]
    t_start = time.perf_counter()
    print(f"{game['label']} ({env_id}, {game['config']}): warm start {samples:,} decisions or a few more "
          f"(whole games), {steps:,} PPO steps, "
          f"shaping coefficient {shaping}, {args.games} evaluation games against random", flush=True)

    # SB3's checker steps with actions drawn from the whole action space, illegal ones included; with
    # illegal_action="penalize" such an action ends the episode with -1 instead of raising. Train with the
    # default ("raise"): MaskablePPO only ever picks legal actions.
    check_env(SingleAgentEnv(env_id, [RandomAgent()], {**game["config"], "illegal_action": "penalize"}, seed=0))

    # 1-2. eight envs stepped together in this process (one batched forward pass per step), shaped rewards
    vec = VecMonitor(DummyVecEnv([make_env(env_id, game["config"], args.seed, shaping, game["gamma"], i)
                                  for i in range(8)]))
    obs_spec = monolith_envs.make_game(env_id, **game["config"]).obs_spec
    policy_kwargs = {"features_extractor_class": PieceEncoder, "net_arch": [128],
                     "features_extractor_kwargs": {"pieces": piece_layout(obs_spec), "row_dim": 32,
                                                   "features_dim": 256}}
    model = MaskablePPO("MlpPolicy", vec, learning_rate=3e-4, n_steps=256, batch_size=512, n_epochs=4,
                        gamma=game["gamma"], gae_lambda=game["lam"], ent_coef=0.0, policy_kwargs=policy_kwargs,
                        seed=args.seed, device="cpu", verbose=0)

    # 3. the warm start (collection on spawned worker processes)
    if samples > 0:
        t0 = time.perf_counter()
        what = "action values" if game["warm_start"] == "values" else "decisions"
        print(f"warm start: fitting the policy to the heuristic's {what}", flush=True)
        # the workers ignore Ctrl-C (this process stops them): they start at the first submit, inside the
        # warm start's children_ignore_sigint block, and their initializer ignores SIGINT from then on
        pool = ProcessPoolExecutor(args.workers, mp_context=get_context("spawn"), initializer=ignore_sigint)
        try:
            summary = warm_start(model, env_id, game, samples, args.seed, pool)
        except BaseException:  # Ctrl-C included: end the workers now, without waiting for their queued jobs
            end_executor(pool)
            raise
        pool.shutdown()
        print(f"warm start done in {time.perf_counter() - t0:.0f} s: {summary}", flush=True)

    # 4. PPO, one line per rollout of 8 x 256 learner steps
    t0 = time.perf_counter()
    rollout = model.n_steps * model.n_envs
    runs = -(-steps // rollout) * rollout  # learn() stops only at the end of a rollout
    print(f"MaskablePPO: {steps:,} learner steps" + (
        f" (PPO collects whole rollouts of {rollout:,} = {model.n_envs} envs x {model.n_steps}, so {runs:,})"
        if runs != steps else ""), flush=True)
    model.learn(steps, callback=rollout_lines(runs))
    print(f"MaskablePPO done in {time.perf_counter() - t0:.0f} s", flush=True)
    out = Path(args.out)  # checked (and made) by parse_args
    buf = io.BytesIO()
    model.save(buf)
    write_bytes_atomic(out / "model.zip", buf.getvalue())  # never half written, even on Ctrl-C

    t0 = time.perf_counter()
    how = "its most probable action (greedy)" if play == "greedy" else "actions sampled from it"
    print(f"evaluating: {args.games} games against random, the policy playing {how}", flush=True)
    s = evaluate(model, env_id, game["config"], args.games, args.seed, deterministic=play == "greedy")
    lo, hi = s["ci95"]
    print(f"\n{game['label']}: the agent won {s['wins']} of {s['games']} games against random = {s['win_rate']:.1%} "
          f"(95% Wilson interval {lo:.1%}-{hi:.1%}); evaluation {time.perf_counter() - t0:.0f} s, whole run "
          f"{time.perf_counter() - t_start:.0f} s")
    print(f"expected with the defaults: {game['expect']}; fewer steps or a smaller warm start give less.")
    agents = shlex.quote(f"ppo:{out / 'model.zip'},random")
    print(f"model: {out / 'model.zip'}; training.evaluate plays it with the most probable action: python -m "
          f"training.evaluate --env {env_id} --agents {agents} --games 200"
          + "".join(f" --set {shlex.quote(f'{k}={v}')}" for k, v in game["config"].items())
          + f" --out-dir {shlex.quote(str(out))}")
    return s


if __name__ == "__main__":  # required: the spawned worker processes import this module
    try:
        main()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
