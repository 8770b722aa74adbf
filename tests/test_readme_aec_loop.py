"""The README's AEC loop example, read from README.md itself, runs on every env id of its table."""

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
ENV_IDS = ("monolith_arena_v0", "monolith_strategy_v0", "the_monolith_v0")
_ID_LINE = 'env_id = "monolith_arena_v0"  # or "monolith_strategy_v0", "the_monolith_v0"'


def aec_loop_block() -> str:
    """The first ```python block of the README section "The AEC loop with action masks"."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## The AEC loop with action masks", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the README's AEC loop section has no python block"
    return blocks[0]


def test_the_block_names_every_env_id_of_the_table():
    block = aec_loop_block()
    assert block.count(_ID_LINE) == 1
    text = README.read_text(encoding="utf-8")
    table_ids = re.findall(r"^\| `(\w+_v\d+)` \|", text, flags=re.M)
    assert tuple(table_ids) == ENV_IDS


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_readme_aec_loop_runs_to_the_end(env_id):
    code = aec_loop_block().replace(_ID_LINE, f'env_id = "{env_id}"')
    ns: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md (The AEC loop)", "exec"), ns)
    env = ns["env"]
    assert ns["env_id"] == env_id and env.unwrapped.env_id == env_id
    assert env.agents == []  # every agent played to the end and was stepped out
    game, state = env.unwrapped.game, env.unwrapped.game_state
    assert game.is_terminal(state) or env.unwrapped.num_decisions >= game.max_decisions
    returns = game.returns(state)
    assert returns.shape == (game.num_players,) and returns.dtype == np.float32
    printed = out.getvalue().rstrip("\n").splitlines()
    assert printed[-1] == f"{env_id} returns by seat: {returns}"
    assert "\n".join(printed[:-1]) == game.render_text(state)
