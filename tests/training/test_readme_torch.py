"""The README's install note: which torch build the pin is, and the ordinary CPU install elsewhere."""

from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_readme_says_the_pin_is_this_machines_cpu_build_and_gives_the_cpu_index():
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "`torch==2.13.0` is the CPU build that this repository's reference machine keeps on disk" in quick_start
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in quick_start
