"""Bad input gets a clear error naming what was wrong and what is allowed."""

import json

import numpy as np
import pytest

import monolith_envs
from monolith_envs import ConfigError, IllegalActionError, MonolithEnvError, UnknownEnvError
from monolith_envs.__main__ import main
from monolith_envs.core.replay import EpisodeLog, LogError, load_log, replay_steps

TOY = "toy_tictactoe_v0"


def raw(**cfg):
    return monolith_envs.make(TOY, wrapped=False, **cfg)


def test_unknown_env_id_lists_the_valid_ones():
    with pytest.raises(UnknownEnvError) as info:
        monolith_envs.make("monolith_arena_v9")
    assert "monolith_arena_v9" in str(info.value)
    assert "monolith_arena_v0" in str(info.value) and TOY in str(info.value)


@pytest.mark.parametrize("gym_id, env_id", [("monolith_envs/MonolithArena-v0", "monolith_arena_v0"),
                                             ("monolith_envs/TheMonolith-v0", "the_monolith_v0")])
def test_a_gymnasium_id_given_to_make_names_the_aec_env_id(gym_id, env_id):
    with pytest.raises(UnknownEnvError) as info:
        monolith_envs.make(gym_id)
    msg = str(info.value)
    assert f"unknown env id {gym_id!r}" in msg and f"gymnasium.make({gym_id!r}" in msg
    assert f"the AEC env is {env_id!r}" in msg


def test_unknown_config_key_lists_valid_keys():
    with pytest.raises(ConfigError, match=r"unknown config key\(s\) 'max_decision'.*valid keys: max_decisions, extra_turn_face"):
        raw(max_decision=10)


@pytest.mark.parametrize("value", [0, -3, "40", 2.5, True])
def test_bad_config_value_names_key_value_and_allowed(value):
    with pytest.raises(ConfigError) as info:
        raw(max_decisions=value)
    msg = str(info.value)
    assert f"max_decisions={value!r}" in msg and "an integer >= 1" in msg


def test_numpy_integers_are_accepted_as_actions_and_config():
    env = raw(max_decisions=np.int64(30))
    env.reset(seed=1)
    env.step(np.int64(4))
    assert env.game_state.board[4] == 0
    env.step(np.array(0, dtype=np.int32)) if env.agent_selection == "player_0" else env.step(np.uint8(0))
    assert env.game_state.board[0] != -1


def test_unmasked_action_raises_and_names_the_legal_ones():
    env = raw()
    env.reset(seed=1)
    env.step(4)
    before = env.game_state.board.copy()
    with pytest.raises(IllegalActionError) as info:
        env.step(4)
    msg = str(info.value)
    assert "MARK(cell=4)" in msg and "cell 4 is taken" in msg and "MARK(cell=0)" in msg
    assert np.array_equal(env.game_state.board, before)


@pytest.mark.parametrize("action, fragment", [
    (2.0, "not a float"),
    ("4", "not a str"),
    (None, "not a NoneType"),
    (True, "not a bool"),
    (9, "out of range"),
    (-1, "out of range"),
    (np.float32(1), "not a float32"),
])
def test_wrong_kind_of_action(action, fragment):
    env = raw()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=fragment):
        env.step(action)
    assert (env.game_state.board == -1).all()


def play_out(env, seed=0):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.terminations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_actions())))


def test_stepping_after_the_game_ended():
    env = raw()
    play_out(env)
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(0)
    for _ in range(2):
        env.step(None)
    assert env.agents == []
    with pytest.raises(MonolithEnvError, match="call reset"):
        env.step(None)


def test_step_before_reset():
    with pytest.raises(MonolithEnvError, match="before reset"):
        raw().step(0)


def test_render_modes():
    env = monolith_envs.make(TOY, wrapped=False, render_mode="ansi")
    env.reset(seed=0)
    env.step(4)
    assert env.render().splitlines()[1] == ".X."
    env = monolith_envs.make(TOY, wrapped=False, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(4)
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (90, 90, 3) and tuple(img[45, 45]) == (200, 0, 0)
    env = monolith_envs.make(TOY, wrapped=False, render_mode="svg")
    env.reset(seed=0)
    env.step(4)
    svg = env.render()  # a game without its own drawing: its text render as SVG text lines
    assert svg.startswith("<svg") and ">.X.</text>" in svg
    with pytest.raises(ValueError, match="render_mode='video'.*'rgb_array', 'svg'"):
        monolith_envs.make(TOY, render_mode="video")


def test_penalize_policy_terminates_with_minus_one():
    env = raw(illegal_action="penalize")
    env.reset(seed=1)
    env.step(4)
    offender = env.agent_selection
    env.step(4)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0


# ---------------------------------------------------------------- episode logs
def test_log_round_trip_and_exact_replay(tmp_path):
    env = raw()
    play_out(env, seed=5)
    path = env.episode_log.save(tmp_path / "ep.json")
    log = load_log(path)
    assert log.actions == env.episode_log.actions and log.seed == 5
    *_, (n, action, env2) = replay_steps(log, lambda e, **c: monolith_envs.make(e, wrapped=False, **c))
    assert action is None and n == len(log.actions)
    assert np.array_equal(env2.game_state.board, env.game_state.board)
    assert env2.game.returns(env2.game_state).tolist() == env.game.returns(env.game_state).tolist()


def test_unseeded_reset_is_replayable_from_its_log():
    env = raw()
    env.reset()
    seed = env.episode_log.seed
    env.step(int(env.legal_actions()[0]))
    other = raw()
    other.reset(seed=seed)
    assert np.array_equal(other.game_state.cards, env.game_state.cards)


def test_truncated_log_file(tmp_path):
    env = raw()
    play_out(env)
    path = env.episode_log.save(tmp_path / "ep.json")
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    with pytest.raises(LogError, match=r"ep.json: not valid JSON at line \d+ column \d+.*truncated"):
        load_log(path)


@pytest.mark.parametrize("mutate, fragment", [
    (lambda d: d.pop("seed"), "missing field 'seed'"),
    (lambda d: d.update(actions="1,2"), "field 'actions' must be a list"),
    (lambda d: d["actions"].__setitem__(0, "x"), r"actions\[0\] = 'x' is not an integer"),
    (lambda d: d.update(format="other/9"), "field 'format'"),
])
def test_corrupted_log_fields(tmp_path, mutate, fragment):
    env = raw()
    play_out(env)
    data = env.episode_log.to_json()
    mutate(data)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    with pytest.raises(LogError, match=fragment):
        load_log(p)


def test_log_with_an_illegal_action_fails_at_its_step():
    env = raw()
    play_out(env, seed=2)
    log = env.episode_log
    bad = EpisodeLog(log.env_id, log.config, log.seed, [log.actions[0], log.actions[0]])
    with pytest.raises(LogError, match="step 1: logged action .* is not legal"):
        list(replay_steps(bad, lambda e, **c: monolith_envs.make(e, wrapped=False, **c)))


def test_replay_command_prints_steps(tmp_path, capsys):
    env = raw()
    play_out(env, seed=4)
    path = env.episode_log.save(tmp_path / "ep.json")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("--- step") == len(env.episode_log.actions)
    assert "end: terminal=True" in out


def test_replay_command_reports_a_corrupt_file(tmp_path, capsys):
    p = tmp_path / "x.json"
    p.write_text("{\"format\": ")
    assert main(["replay", str(p)]) == 2  # a malformed log is bad input (issue 11 item 5)
    assert "not valid JSON" in capsys.readouterr().err


def test_fuzz_command_summary_and_failure_report(tmp_path, capsys):
    from tests.core.test_conformance_checks import MiscountsExtraTurns
    from tests.toy_game import module_for

    assert main(["fuzz", TOY, "--games", "30", "--seed", "0", "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "games=30" in out and "failures=0" in out and "decisions/s=" in out
    mod = module_for(MiscountsExtraTurns, "toy_fuzzbad_v0")
    monolith_envs.register("toy_fuzzbad_v0", lambda: mod)
    code = main(["fuzz", "toy_fuzzbad_v0", "--games", "10", "--workers", "1", "--no-progress",
                 "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILURE [invariants] seed=" in out and "reproduce: python -m monolith_envs fuzz" in out
    logs = sorted(tmp_path.glob("*.json"))
    assert logs and load_log(logs[0]).note.startswith("[invariants]")
    failed = out.count("FAILURE [")
    # --max-failures stops the run there, with a line saying so (a game broken everywhere fails every game)
    for workers in ("1", "2"):
        cut = tmp_path / f"cut{workers}"
        code = main(["fuzz", "toy_fuzzbad_v0", "--games", "40", "--workers", workers, "--no-progress",
                     "--out", str(cut), "--max-failures", "2"])
        out = capsys.readouterr().out
        assert code == 1 and out.count("FAILURE [") == 2 and len(list(cut.glob("*.json"))) == 2
        assert "failures=2 " in out and "stopped at --max-failures 2: " in out and " of 40 games played" in out
    assert failed >= 3  # so the cut above is the option's doing
    with pytest.raises(SystemExit) as exit_info:
        main(["fuzz", "toy_fuzzbad_v0", "--max-failures", "0"])
    assert exit_info.value.code == 2 and "--max-failures: 0 is below 1" in capsys.readouterr().err


def test_set_game_state_continues_from_a_hand_built_position():
    env = raw()
    with pytest.raises(MonolithEnvError, match="before reset"):
        env.set_game_state(None)
    env.reset(seed=0)
    s = env.game.clone(env.game_state)
    s.board[[0, 1]] = 0
    s.board[[3, 4]] = 1
    s.decisions, s.player = 4, 0
    env.set_game_state(s)
    assert env.agent_selection == "player_0" and env.legal_actions().tolist() == [2, 5, 6, 7, 8]
    env.step(2)  # completes the top row: player_0 wins
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert "not replayable" in env.episode_log.note
    done = env.game.clone(env.game_state)
    with pytest.raises(MonolithEnvError, match="not terminal"):
        env.set_game_state(done)


@pytest.mark.parametrize("call, key, hint", [
    (lambda: monolith_envs.make("monolith_arena_v0", render="ansi"), "render",
     "did you mean 'render_mode' for 'render' (an argument of make())?"),
    (lambda: monolith_envs.make("the_monolith_v0", illegal="penalize"), "illegal",
     "did you mean 'illegal_action' for 'illegal' (an argument of make())?"),
    (lambda: monolith_envs.make("monolith_strategy_v0", num_player=2), "num_player",
     "did you mean 'num_players' for 'num_player'?"),
    (lambda: monolith_envs.make_vec("monolith_arena_v0", 2, num_workers=2), "num_workers",
     "did you mean 'workers' for 'num_workers' (an argument of make_vec())?"),
    (lambda: monolith_envs.make_vec("monolith_arena_v0", 2, seed=3), "seed",
     "'seed' is not a config key: seeds go to reset(seed=...)"),
])
def test_a_mistyped_argument_is_named_with_what_it_likely_meant(call, key, hint):
    with pytest.raises(monolith_envs.ConfigError) as info:
        call()
    msg = str(info.value)
    assert f"unknown config key(s) {key!r}; valid keys: " in msg and msg.endswith("; " + hint), msg


@pytest.mark.parametrize("key", ["zzz", "s", "e", "n", "mode_x_y_z"])
def test_an_unknown_key_close_to_nothing_gets_no_guess(key):
    with pytest.raises(monolith_envs.ConfigError) as info:
        monolith_envs.make("monolith_arena_v0", **{key: 1})
    assert str(info.value).endswith("valid keys: num_players, mode, monolith_module, reinforcement_variant, "
                                    "factions, faction_files, team_hp, reward_mode, max_decisions")


def _numpy_forms() -> list[tuple[str, str, object, object]]:
    """``(env id, key, numpy form, python default)`` of every int, float and list-of-scalars config key of
    the three games, from each game's own default config."""
    out = []
    for env_id in ("monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0"):
        for key, value in monolith_envs.make_game(env_id).config.items():
            if type(value) is int:
                out.append((env_id, key, np.int64(value), value))
            elif type(value) is float:
                out.append((env_id, key, np.float64(value), value))
            elif isinstance(value, list) and value and all(type(x) in (int, float, str) for x in value):
                out.append((env_id, key, np.array(value), value))
    return out


@pytest.mark.parametrize("env_id, key, numpy_value, value", _numpy_forms(), ids=lambda x: str(x)[:30])
def test_every_numeric_config_key_takes_its_numpy_form_and_stores_plain_python(env_id, key, numpy_value, value):
    """A numpy integer, float or array is the same config as its Python value (``first_player`` of The
    Monolith refused ``np.int64(1)``), and the game keeps the plain Python value (states stay JSON)."""
    config = monolith_envs.make_game(env_id, **{key: numpy_value}).config
    assert config[key] == value and type(config[key]) is type(value)
    if isinstance(value, list):
        assert [type(x) for x in config[key]] == [type(x) for x in value]


def test_arena_factions_take_a_numpy_array_of_ids():
    """A 1-D array of faction ids is the list of them (it raised numpy's ``truth value of an array is
    ambiguous``); a 2-D array or numbers are refused, naming the key."""
    ids = ["dragon_empire", "lords_of_the_abyss"]
    config = monolith_envs.make_game("monolith_arena_v0", factions=np.array(ids)).config
    assert config["factions"] == ids and all(type(x) is str for x in config["factions"])
    for bad in (np.array([ids]), np.array([1, 2])):
        with pytest.raises(ConfigError, match=r"config factions=array\(.*expected \"random\" or a list of faction ids"):
            monolith_envs.make_game("monolith_arena_v0", factions=bad)
    with pytest.raises(ConfigError, match="factions lists 1 id for 2 players"):
        monolith_envs.make_game("monolith_arena_v0", factions=ids[:1])


def test_an_episode_log_over_the_size_cap_is_refused_before_it_is_read(tmp_path):
    """The cap leaves room for the most numbers a log may hold (parsing takes some 6 times a file's size in
    memory, so it is 64 MiB, not more); a file one byte over it is refused by its size, naming the limit."""
    from monolith_envs.core.replay import MAX_LOG_BYTES, MAX_LOG_NUMBERS

    assert MAX_LOG_BYTES == 64 << 20 and MAX_LOG_NUMBERS * 8 <= MAX_LOG_BYTES
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:
        fh.truncate(MAX_LOG_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(LogError, match=f"{MAX_LOG_BYTES + 1} bytes is larger than the {MAX_LOG_BYTES}-byte limit"):
        load_log(path)


def _arena_after(decisions, **config):
    env = monolith_envs.make("monolith_arena_v0", **config)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(decisions):
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    return env.unwrapped.game_state


@pytest.mark.parametrize("into, source, decisions, named", [
    ("teams", "ffa", 0, r"state.pool = \[0, 0\]: expected both pools above 0 in a teams game that is not over"),
    ("teams", "ffa", 60, r"state.pool = \[0, 0\]: expected both pools above 0|state.hp\[\d\] = \d+: expected \d+"),
    ("ffa", "teams", 0, r"state.pool = \[30, 30\]: expected \[0, 0\]: only a teams game"),
    ("ffa", "teams", 60, r"state.pool = \[\d+, \d+\]: expected \[0, 0\]: only a teams game"),
])
def test_an_arena_state_of_another_mode_with_the_same_seats_is_refused(into, source, decisions, named):
    env = monolith_envs.make("monolith_arena_v0", num_players=4, mode=into)
    env.reset(seed=2)
    before = env.unwrapped.game.to_dict(env.unwrapped.game_state)
    with pytest.raises(MonolithEnvError, match="the state does not fit this env's game and config: " + named):
        env.unwrapped.set_game_state(_arena_after(decisions, num_players=4, mode=source))
    assert env.unwrapped.game.to_dict(env.unwrapped.game_state) == before
    own = _arena_after(60, num_players=4, mode=into)
    env.unwrapped.set_game_state(own)  # a state of its own mode goes on
    assert env.unwrapped.game_state is own
