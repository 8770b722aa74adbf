

def test_a_deeply_nested_setting_is_a_config_error_not_a_recursion_error():
    import pytest

    from monolith_envs.core.config import ConfigError, parse_settings

    with pytest.raises(ConfigError, match="nested more than 32 brackets"):
        parse_settings(["num_players=" + "[" * 50000])
    assert parse_settings(["x=[[1, 2], [3]]"]) == {"x": [[1, 2], [3]]}


def test_a_log_path_with_a_nul_byte_is_a_log_error():
    import pytest

    from monolith_envs.core.replay import LogError, load_log

    with pytest.raises(LogError, match="NUL byte"):
        load_log("runs/a\x00b.json")


def test_booleans_on_the_command_line_read_as_toml_and_as_python_writes_them():
    from monolith_envs.core.config import parse_settings
    from training.config import apply_overrides, load_config

    got = parse_settings(["a=True", "b=False", "c=true", "d=false", "e=TRUE", "f=Trueish"])
    assert got == {"a": True, "b": False, "c": True, "d": False, "e": "TRUE", "f": "Trueish"}
    assert apply_overrides(load_config(None), ["progress_bar=False"])["progress_bar"] is False
    assert apply_overrides(load_config(None), ["progress_bar=True"])["progress_bar"] is True
    assert apply_overrides(load_config(None), ["name=True"])["name"] == "True"  # a string key keeps the text
    got = apply_overrides(load_config(None), ["env_config.monolith_module=True"])["env_config"]
    assert got["monolith_module"] is True


def test_a_boolean_given_as_text_is_refused_with_how_to_write_the_boolean():
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError

    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("monolith_strategy_v0", exalted="true")
    assert str(ei.value) == ("monolith_strategy_v0: config exalted='true' is not allowed; expected True or False "
                             "(the boolean, not the text 'true': in Python True, on a command line --set "
                             "exalted=true without quotes)")
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("monolith_strategy_v0", exalted="yes")  # other text: no hint
    assert str(ei.value).endswith("exalted='yes' is not allowed; expected True or False")
    assert monolith_envs.make("monolith_strategy_v0", exalted=False).unwrapped.game.config["exalted"] is False


def test_register_checks_the_id_and_the_module_and_keeps_the_package_ids():
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError

    for bad in ("", "x y", 5, "9lives_v0", "a" * 101):
        with pytest.raises(ConfigError, match="register: env id .* is not allowed; expected a name of letters"):
            monolith_envs.register(bad, "some.module")
    with pytest.raises(ConfigError, match="'monolith_arena_v0' is an env id of the package"):
        monolith_envs.register("monolith_arena_v0", "my.module")
    for bad in (5, "", "  ", None):
        with pytest.raises(ConfigError, match="module must be a module path"):
            monolith_envs.register("my_game_v0", bad)
    assert "my_game_v0" not in monolith_envs.available_envs()
    monolith_envs.register("monolith_arena_v0", "monolith_envs.monolith_arena_v0")  # its own entry: unchanged
    assert monolith_envs.make("monolith_arena_v0").unwrapped.env_id == "monolith_arena_v0"


def test_make_wrapped_must_be_a_bool():
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError

    with pytest.raises(ConfigError, match="make: wrapped='no' is not allowed; expected True or False"):
        monolith_envs.make("monolith_arena_v0", wrapped="no")
    from monolith_envs.core.aec import RulesAECEnv

    assert type(monolith_envs.make("monolith_arena_v0", wrapped=False)) is RulesAECEnv  # the bare env
    assert type(monolith_envs.make("monolith_arena_v0")) is not RulesAECEnv


def test_a_numpy_bool_is_a_boolean_and_is_stored_as_the_python_bool():
    import numpy as np
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError

    for env_id, key in (("monolith_arena_v0", "monolith_module"), ("monolith_strategy_v0", "player_powers")):
        for value in (np.bool_(True), np.bool_(False)):
            stored = monolith_envs.make(env_id, **{key: value}).unwrapped.game.config[key]
            assert type(stored) is bool and stored is bool(value)
    with pytest.raises(ConfigError, match="expected True or False"):
        monolith_envs.make("monolith_arena_v0", monolith_module=np.int64(1))  # a number is not a boolean


def test_a_list_given_as_comma_separated_text_is_refused_with_the_toml_form():
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError, parse_value

    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("monolith_arena_v0", factions=parse_value("dragon_empire,lords_of_the_abyss"))
    assert str(ei.value).endswith("(a list, not the text 'dragon_empire,lords_of_the_abyss': on a command line "
                                  "TOML's form, --set 'factions=[\"dragon_empire\", \"lords_of_the_abyss\"]')")
    hinted = parse_value('["dragon_empire", "lords_of_the_abyss"]')
    assert monolith_envs.make("monolith_arena_v0", factions=hinted).unwrapped.game.config["factions"] == hinted
    # integers stay integers, every item is kept, and the argument is quoted for the shell
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("the_monolith_v0", shaman_assignment="fixed", shamans=parse_value("1,2,3,4"))
    assert str(ei.value).endswith("--set 'shamans=[1, 2, 3, 4]')")
    with pytest.raises(ConfigError) as ei:
        monolith_envs.make("monolith_arena_v0", num_players=3, mode="ffa", factions="o'brien,a\"b,c")
    hint = str(ei.value).rsplit("TOML's form, --set ", 1)[1][:-1]
    import shlex

    key, value = shlex.split(hint)[0].split("=", 1)
    assert key == "factions" and parse_value(value) == ["o'brien", 'a"b', "c"]


def test_a_long_refused_value_is_cut_in_the_message():
    import pytest

    import monolith_envs
    from monolith_envs.core.config import ConfigError

    with pytest.raises(ConfigError, match=r"config mode='xxx.*\.\.\. \(100,002 characters\) is not allowed; expected one "
                                          r"of 'duel', 'ffa', 'teams'") as ei:
        monolith_envs.make("monolith_arena_v0", mode="x" * 100_000)
    assert len(str(ei.value)) < 500

