"""Chance during play in the env: apply's draws in the episode log (format /2), replay shows and checks
them, old /1 logs still read, and a rejected action never consumes the episode generator."""

import json

import numpy as np
import pytest

import monolith_envs
from monolith_envs.core.game import IllegalActionError, Outcome
from monolith_envs.core.replay import LOG_FORMAT, EpisodeLog, LogError, load_log, replay_steps
from tests.core.test_conformance_checks import RollsBeforeRejecting
from tests.toy_game import ENV_ID, module_for


def make(env_id=ENV_ID, **cfg):
    return monolith_envs.make(env_id, wrapped=False, **cfg)


def play(env, seed, pick_seed=0, illegal_every=0):
    env.reset(seed=seed)
    rng = np.random.default_rng(pick_seed)
    k = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        k += 1
        if illegal_every and k % illegal_every == 0:
            bad = np.flatnonzero(~np.asarray(env.game.legal_mask(env.game_state)))
            if bad.size:
                with pytest.raises(IllegalActionError):
                    env.step(int(bad[0]))
        env.step(int(rng.choice(env.legal_actions())))
    return env


def test_the_toy_die_is_logged_per_step():
    env = play(make(), seed=5)
    log = env.episode_log
    # the toy rolls once after every mark that does not end the game
    assert len(log.chance) == len(log.actions) - 1
    assert [e.step for e in log.chance] == list(range(len(log.actions) - 1))
    assert all(e.call == "integers" and e.args == "integers(1, 7)" and 1 <= e.value <= 6 for e in log.chance)
    # the faces are those of the seed's generator after setup (two hidden cards)
    g = np.random.default_rng(5)
    g.integers(0, 3, size=2)
    assert [e.value for e in log.chance] == [int(g.integers(1, 7)) for _ in log.chance]
    assert log.chance_at(0) == [log.chance[0]] and log.chance_at(len(log.actions)) == []


def test_log_round_trip_and_replay_checks_the_draws(tmp_path):
    env = play(make(), seed=5)
    path = env.episode_log.save(tmp_path / "ep.json")
    data = json.loads(path.read_text())
    assert data["format"] == LOG_FORMAT == "monolith_envs.episode_log/2"
    assert data["chance"][0] == env.episode_log.chance[0].to_json()
    back = load_log(path)
    assert back.chance == env.episode_log.chance
    *_, (_, last_action, last) = list(replay_steps(back, make))
    assert last_action is None and last.episode_log.chance == back.chance
    # a tampered face is found at its step
    data["chance"][2]["value"] = 7 - data["chance"][2]["value"]
    with pytest.raises(LogError, match=r"step 2: the replayed draws \['integers\(1, 7\) -> \d'\] differ from the "
                                       r"logged chance events"):
        list(replay_steps(EpisodeLog.from_json(data), make))
    # a tampered call or argument text is found too, and the message shows the call where the text hides it
    data["chance"][2]["value"] = 7 - data["chance"][2]["value"]
    for field, value, shown in (("call", "random", r"'random: integers\(1, 7\) -> \d'"),
                                ("args", "integers(1, 9)", r"'integers\(1, 9\) -> \d'")):
        bad = json.loads(json.dumps(data))
        bad["chance"][2][field] = value
        with pytest.raises(LogError, match=r"step 2: the replayed draws \['integers\(1, 7\) -> \d'\] differ from "
                                           rf"the logged chance events \[{shown}\]"):
            list(replay_steps(EpisodeLog.from_json(bad), make))


def test_format_1_logs_are_read_and_replayed_without_draw_checks():
    env = play(make(), seed=8)
    old = env.episode_log.to_json()
    old["format"] = "monolith_envs.episode_log/1"
    del old["chance"]
    log = EpisodeLog.from_json(old)
    assert log.chance is None
    steps = list(replay_steps(log, make))
    assert len(steps) == len(old["actions"]) + 1
    # a hand-built log does not know its draws either (chance None, written as null)
    hand = EpisodeLog(ENV_ID, dict(env.game.config), 8, list(old["actions"]))
    assert hand.to_json()["chance"] is None and EpisodeLog.from_json(hand.to_json()).chance is None


@pytest.mark.parametrize("bad, match", [
    ({"chance": "x"}, "field 'chance' must be a list"),
    ({"chance": [{"step": 0, "call": "integers", "args": "integers(1, 7)"}]}, r"chance\[0\]: missing field"),
    ({"chance": [{"step": 99, "call": "integers", "args": "", "value": 1}]}, "belongs to step 99, but the log has"),
    ({"chance": [{"step": 0, "call": "integers", "args": "integers(1, 7)", "value": 1, "extra": 1}]},
     r"chance\[0\]: unknown field\(s\) \['extra'\]; a chance event has exactly step, call, args and value"),
])
def test_malformed_chance_fields_are_named(bad, match):
    data = play(make(), seed=1).episode_log.to_json()
    data.update(bad)
    with pytest.raises(LogError, match=match):
        EpisodeLog.from_json(data, "ep.json")


def test_rejected_actions_consume_nothing_through_env_step():
    """Illegal actions in between change neither the state nor any later draw, also for an engine that rolls
    before it rejects (the env explains with a generator that refuses draws)."""
    for env_fn in (make, module_for(RollsBeforeRejecting, "toy_rolls_first_v0").raw_env):
        clean = play(env_fn(), seed=3)
        noisy = play(env_fn(), seed=3, illegal_every=1)
        assert noisy.episode_log.actions == clean.episode_log.actions
        assert noisy.episode_log.chance == clean.episode_log.chance
        assert noisy.game.to_dict(noisy.game_state) == clean.game.to_dict(clean.game_state)


def test_the_engine_reason_is_still_given_for_an_illegal_action():
    env = make()
    env.reset(seed=0)
    env.step(4)
    with pytest.raises(IllegalActionError, match="cell 4 is taken"):
        env.step(4)


def test_cli_replay_prints_the_chance_events(tmp_path, capsys):
    from monolith_envs.__main__ import main

    env = play(make(), seed=5)
    path = env.episode_log.save(tmp_path / "ep.json")
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("    chance: integers(1, 7) -> ") == len(env.episode_log.chance)
    assert f"chance events checked: {len(env.episode_log.chance)}" in out


def test_arena_game_info_teams_and_the_2v2_outcome():
    from monolith_envs.arena.game import ArenaGame

    info = ArenaGame.GAME_INFO
    assert (info.min_players, info.max_players, info.teams, info.max_length) == (2, 4, True, 5000)
    assert info.config_keys[0].name == "num_players"
    env = make("monolith_arena_v0", num_players=4, mode="teams")
    assert env.game.teams == ((0, 2), (1, 3))
    assert make("monolith_arena_v0", num_players=3, mode="ffa").game.teams == ((0,), (1,), (2,))
    play(env, seed=1)
    game, s = env.game, env.game_state
    assert game.is_terminal(s)
    out = game.outcome(s)
    assert out[0] == out[2] and out[1] == out[3]
    ret = game.returns(s)
    if out[0] is Outcome.WIN:
        assert out[1] is Outcome.LOSS and ret.tolist() == [0.5, -0.5, 0.5, -0.5]
    elif out[0] is Outcome.LOSS:
        assert out[1] is Outcome.WIN and ret.tolist() == [-0.5, 0.5, -0.5, 0.5]
    else:
        assert out == (Outcome.DRAW,) * 4 and ret.tolist() == [0.0] * 4
    assert env.episode_log.chance == []  # Arena draws only at setup


def test_cli_list_and_info_read_game_info(capsys):
    from monolith_envs.__main__ import main

    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "monolith_arena_v0        players 2-4, zero_sum, setup_only, imperfect, teams" in lines
    assert "toy_pig_v0               players 1-2, zero_sum, during_play, perfect" in lines
    assert main(["info", "monolith_arena_v0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("monolith_arena_v0: Monolith Arena\n") and "  max_length 5000\n" in out
    assert '  mode = "duel"  (duel (2 players), ffa (3-4), teams (exactly 4, 2v2))' in out


def test_benchmark_configs_of_an_unlisted_game_come_from_game_info():
    from benchmarks.specs import monolith_specs

    specs = monolith_specs(["toy_pig_v0", "toy_tictactoe_v0"])
    assert [(s.env_id, s.label, s.config) for s in specs] == [
        ("toy_pig_v0", "default", {}), ("toy_pig_v0", "2p", {"num_players": 2}),
        ("toy_tictactoe_v0", "default", {})]


def test_fuzz_takes_the_game_class_and_logs_the_draws_of_a_failure(tmp_path, capsys):
    from monolith_envs.core.fuzz import fuzz_rollout, run_fuzz
    from tests.toy_game import ToyGame

    ok = fuzz_rollout(ToyGame(), seed=4)
    assert ok.failure is None and ok.returns is not None
    n = run_fuzz(RollsBeforeRejecting, games=3, seed=0, workers=1, config={}, out_dir=str(tmp_path),
                 progress=False)
    out = capsys.readouterr().out
    assert n == 3 and "FAILURE [rejected_no_draw] seed=0" in out
    log = load_log(tmp_path / "toy_tictactoe_v0_seed0.json")
    # the first mark (cell 4) was applied, with its roll; the check then tried MARK(cell=4) again
    assert log.note.startswith("[rejected_no_draw] illegal MARK(cell=4) drew")
    assert log.actions == [4] and [(e.step, e.args) for e in log.chance] == [(0, "integers(1, 7)")]
    g = np.random.default_rng(0)
    g.integers(0, 3, size=2)  # the hidden cards
    assert log.chance[0].value == int(g.integers(1, 7))
    assert len(list(replay_steps(log, lambda _id, **cfg: module_for(RollsBeforeRejecting).raw_env(**cfg)))) == 2


def test_a_replay_that_cannot_go_on_says_why():
    """A log replayed under a lower max_decisions says the episode was truncated; an illegal logged action
    lists the first 10 legal actions and how many more there are."""
    arena = "monolith_arena_v0"
    data = play(make(arena), seed=3).episode_log.to_json()
    short = json.loads(json.dumps(data))
    short["config"]["max_decisions"] = 5
    with pytest.raises(LogError, match=rf"step 5: the episode was truncated at max_decisions=5 before all "
                                       rf"{len(data['actions'])} logged actions were used"):
        list(replay_steps(EpisodeLog.from_json(short), lambda eid, **cfg: make(eid, **cfg)))
    wrong = json.loads(json.dumps(data))
    first = make(arena)
    first.reset(seed=3)
    legal = first.legal_actions()
    wrong["actions"][0] = next(a for a in range(first.game.layout.n) if a not in legal)
    wrong["chance"] = []
    with pytest.raises(LogError, match=rf"step 0: logged action \d+ is not legal in the replayed state; legal: "
                                       rf"\[.*\] and {len(legal) - 10} more$"):
        list(replay_steps(EpisodeLog.from_json(wrong), lambda eid, **cfg: make(eid, **cfg)))
