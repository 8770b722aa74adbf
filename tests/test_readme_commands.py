"""The README's test command is the one CI runs, and the training README names the extras the install has."""

import re
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def test_readme_test_command_is_the_ci_command_and_shows_skip_reasons():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("**Tests**", 1)[1]
    command = _bash_blocks(section)[0].strip()
    assert command == "python -m pytest -q -rs -n 2 --dist loadfile"
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]["dev"]
    assert any(dep.startswith("pytest-xdist") for dep in dev)  # -n 2 needs it, and [dev] is what the README installs
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert ci[-1] == command
    head = section.split("##", 1)[0]
    assert "chromium" in head  # the browser dependency is stated
    assert re.search(r"\(([\d,]+); `\.ci/run` on a fresh clone took \d+ s of pytest", head)  # count and duration


def test_training_readme_extras_match_the_install_line():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = re.search(r'pip install -e "\.\[([\w,]+)\]"', readme).group(1).split(",")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert "dev" in install and any("[train" in dep for dep in extras["dev"])  # [dev] pulls in [train]
    first = (ROOT / "training" / "README.md").read_text(encoding="utf-8").split("\n\n")[1]
    assert f'pip install -e ".[{",".join(install)}]"' in first and "`[dev]` includes the `[train]` extra" in first
