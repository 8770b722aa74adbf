"""The README's "Batched stepping" section: its code runs as written, and it links the example and
the benchmark and gives the speed table."""

from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Batched stepping\n", 1)[1].split("\n## ", 1)[0]


def test_the_section_code_runs():
    code = _section().split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {"__name__": "__main__"}  # run as a script is
    exec(compile(code, "README.md (Batched stepping)", "exec"), scope)
    assert scope["critic_in"].shape == (64, 4532) and scope["critic_in"].dtype == np.float32
    assert scope["res"].final_returns.shape == (64, 2)


def test_the_section_links_the_example_the_benchmark_and_has_the_table():
    section = _section()
    assert "examples/cleanrl_ppo_vec.py" in section and (ROOT / "examples" / "cleanrl_ppo_vec.py").is_file()
    assert "python -m benchmarks.vector" in section
    assert "| monolith_arena_v0 |" in section and "VECTOR_TABLE" not in section
