"""Command line: ``python -m monolith_envs {list,info,fuzz,replay,check} ...`` (also installed as ``monolith-envs``)."""

from __future__ import annotations

import argparse
import json
import sys


def _config(text: str | None) -> dict:
    if not text:
        return {}
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"--config is not valid JSON: {exc.msg} at column {exc.colno}: {text!r}") from None
    if not isinstance(cfg, dict):
        raise SystemExit(f"--config must be a JSON object like '{{\"num_players\": 3}}', got {text!r}")
    return cfg


def _info_line(info) -> str:
    """``"players 2-4, zero_sum, setup_only, imperfect, teams"`` from a GameInfo."""
    players = f"{info.min_players}-{info.max_players}" if info.min_players != info.max_players else f"{info.min_players}"
    return (f"players {players}, {info.utility.value}, {info.chance.value}, {info.information.value}"
            + (", teams" if info.teams else ""))


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (1 when a fuzz run or replay found a failure)."""
    import monolith_envs
    from monolith_envs.core.game import MonolithEnvError

    parser = argparse.ArgumentParser(prog="python -m monolith_envs", description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="list the registered env ids with their players, utility, chance and information")
    i = sub.add_parser("info", help="a game's static info (GAME_INFO) and its config keys")
    i.add_argument("env_id")
    f = sub.add_parser("fuzz", help="random masked rollouts with per-step checks and invariants")
    f.add_argument("env_id")
    f.add_argument("--games", type=int, default=100)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--workers", type=int, default=2)
    f.add_argument("--config", default=None, help='game config as JSON, e.g. \'{"num_players": 3, "mode": "ffa"}\'')
    f.add_argument("--out", default="fuzz_failures", help="folder for failing episode logs")
    f.add_argument("--sample", type=int, default=8, help="legal and illegal actions tried per step")
    f.add_argument("--check-every", type=int, default=1,
                   help="run the per-step conformance checks every K decisions (0 = invariants only, fastest)")
    f.add_argument("--no-progress", action="store_true")
    r = sub.add_parser("replay", help="replay an episode log step by step with the text render")
    r.add_argument("file")
    r.add_argument("--quiet", action="store_true", help="print only the actions, not the board")
    r.add_argument("--html", default=None, metavar="OUT.html",
                   help="write one self-contained HTML page (picture of every decision, slider, step buttons, "
                        "decoded actions and chance events) instead of printing")
    c = sub.add_parser("check", help="run the conformance suite (check_env)")
    c.add_argument("env_id")
    c.add_argument("--config", default=None)
    c.add_argument("--games", type=int, default=10)
    c.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    try:
        if args.cmd == "list":
            for e in monolith_envs.available_envs():
                try:
                    print(f"{e:24s} {_info_line(monolith_envs.game_class(e).GAME_INFO)}")
                except ImportError as exc:  # a registered module that does not import: still listed
                    print(f"{e:24s} (not importable: {exc})")
            return 0
        if args.cmd == "info":
            info = monolith_envs.game_class(args.env_id).GAME_INFO
            print(f"{info.env_id}: {info.name}\n  {_info_line(info)}\n  max_length {info.max_length}\nconfig keys:")
            for k in info.config_keys:
                print(f"  {k.name} = {json.dumps(k.default, default=str)}  ({k.doc})")
            return 0
        if args.cmd == "fuzz":
            from monolith_envs.core.fuzz import run_fuzz

            n = run_fuzz(monolith_envs.game_class(args.env_id), args.games, args.seed, args.workers, _config(args.config), args.out,
                         sample=args.sample, progress=not args.no_progress, check_every=args.check_every)
            return 1 if n else 0
        if args.cmd == "replay":
            from monolith_envs.core.replay import load_log, replay_steps

            log = load_log(args.file)
            if args.html:
                from monolith_envs.core.html_replay import write_html_replay

                out = write_html_replay(log, args.html, lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg))
                print(f"wrote {out} ({len(log.actions) + 1} steps of {log.env_id} seed {log.seed})")
                return 0
            print(f"replay {log.env_id} seed={log.seed} config={json.dumps(log.config)} "
                  f"actions={len(log.actions)}" + (f"\nnote: {log.note.splitlines()[0]}" if log.note else ""))
            env = None
            prev = None
            for step, action, env in replay_steps(log, lambda eid, **cfg: monolith_envs.make(eid, wrapped=False, **cfg)):
                if prev is not None:
                    for ev in env.episode_log.chance_at(prev):
                        print(f"    chance: {ev}")
                if not args.quiet:
                    print(env.game.render_text(env.game_state))
                if action is not None:
                    print(f"--- step {step}: {env.agent_selection} plays {env.game.layout.decode(action)} [{action}]")
                prev = step
            if env is not None:
                if log.chance is not None:
                    print(f"chance events checked: {len(log.chance)} (the replayed draws are the logged ones)")
                g, s = env.game, env.game_state
                print(f"end: terminal={g.is_terminal(s)} returns={[round(float(x), 4) for x in g.returns(s)]}")
                try:
                    g.check_invariants(s)
                except MonolithEnvError as exc:
                    print(f"invariant violated at the end: {exc}")
                    return 1
            return 0
        if args.cmd == "check":
            from monolith_envs.core.testing import check_env

            rep = check_env(monolith_envs.env_module(args.env_id).raw_env, _config(args.config), games=args.games,
                            seed=args.seed)
            print(f"{args.env_id}: {len(rep.checks)} checks passed over {rep.episodes} episodes, "
                  f"{rep.decisions} decisions")
            return 0
    except MonolithEnvError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
