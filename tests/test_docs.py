"""The repository's own documentation: every ``docs/<game>.md §x.y`` that the code cites must exist as a
numbered heading of that file, and the README must link the docs it relies on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CITE = re.compile(r"docs/([a-z_]+\.md)\s*§\s*(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s", re.M)
SOURCES = [p for d in ("monolith_envs", "agents", "training", "benchmarks", "tests")
           for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".c", ".md", ".toml")]


def sections(doc: Path) -> set[str]:
    """The section numbers of ``doc``'s numbered headings (``## 4. Rules`` -> ``"4"``, ``### 4.7 ...`` -> ``"4.7"``)."""
    return set(HEADING.findall(doc.read_text(encoding="utf-8")))


def citations() -> list[tuple[str, str, str]]:
    """``(citing file, doc name, section)`` for every citation in the sources."""
    out = []
    for p in SOURCES:
        for doc, sec in CITE.findall(p.read_text(encoding="utf-8", errors="replace")):
            out.append((str(p.relative_to(ROOT)), doc, sec))
    return out


def test_arena_doc_keeps_the_cited_section_numbers():
    secs = sections(ROOT / "docs" / "monolith_arena.md")
    expected = {"1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4"} | {f"4.{i}" for i in range(1, 12)} | {
        "5", "5.1", "5.2", "5.3", "5.4", "6", "6.1", "6.2", "7", "8", "9", "10", "11", "12"}
    assert expected <= secs, sorted(expected - secs)


def test_every_cited_docs_section_exists():
    missing = []
    for src, doc, sec in citations():
        path = ROOT / "docs" / doc
        if not path.exists():
            missing.append(f"{src}: docs/{doc} does not exist")
        elif sec not in sections(path):
            missing.append(f"{src}: docs/{doc} has no section {sec}")
    assert not missing, "\n".join(sorted(set(missing)))


@pytest.mark.parametrize("target", ["ARCHITECTURE.md", "docs/monolith_arena.md"])
def test_readme_links_the_docs(target):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"]({target})" in readme
    assert (ROOT / target).exists()


def test_doc_images_exist():
    for doc in (ROOT / "docs").glob("*.md"):
        for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", doc.read_text(encoding="utf-8")):
            assert (doc.parent / img).exists(), f"{doc.name}: missing image {img}"
