"""The paired "× C4" of ``benchmarks.run``: each Monolith configuration's AEC loop and connect four's play
short slices in turn, and the ratio is of decisions per CPU second over the same slices (no speed asserted)."""

from __future__ import annotations

import time

import pytest

import benchmarks.references as references
from benchmarks.interleave import measure_interleaved, paired_ratio
from benchmarks.report import _xc4, render_markdown
from benchmarks.run import main, run_benchmarks
from tests.benchmarks.conftest import TINY
from tests.dice_toy import ENV_ID as PIG_ID
from tests.toy_game import ENV_ID


def _row(result, env_id):
    return next(r for r in result["rows"] if r["env_id"] == env_id)


def _rate(side):
    return side["decisions"] / side["cpu_seconds"]


def test_monolith_row_has_paired_slices_and_their_cpu_ratio(result):
    p = _row(result, ENV_ID)["paired_c4"]
    assert p["rounds"] == TINY.pair_rounds and p["slice_seconds"] == TINY.pair_slice_seconds
    for side in ("env", "c4"):
        slices = p[side]["slices"]
        assert len(slices) == TINY.pair_rounds
        assert all(s["decisions"] > 0 and s["wall_s"] > 0 and s["cpu_s"] > 0 for s in slices)
        assert p[side]["decisions"] == sum(s["decisions"] for s in slices)
        assert p[side]["cpu_seconds"] == pytest.approx(sum(s["cpu_s"] for s in slices))
        assert p[side]["wall_seconds"] == pytest.approx(sum(s["wall_s"] for s in slices))
    env, c4 = p["env"], p["c4"]
    assert p["x_cpu"] > 0 and p["x_cpu"] == pytest.approx(_rate(env) / _rate(c4))
    assert p["x_wall"] == pytest.approx((env["decisions"] / env["wall_seconds"]) / (c4["decisions"] /
                                                                                   c4["wall_seconds"]))
    per_round = sorted((a["decisions"] / a["cpu_s"]) / (b["decisions"] / b["cpu_s"])
                       for a, b in zip(env["slices"], c4["slices"]))
    assert p["x_rounds"]["min"] == pytest.approx(per_round[0])
    assert p["x_rounds"]["median"] == pytest.approx(per_round[len(per_round) // 2])
    assert p["x_rounds"]["max"] == pytest.approx(per_round[-1])


def test_the_x_c4_of_a_monolith_row_is_the_paired_cpu_ratio_everywhere(result):
    toy = _row(result, ENV_ID)
    x = toy["paired_c4"]["x_cpu"]
    assert toy["ratios"]["aec_x_c4"] == x and toy["ratios_cpu"]["aec_x_c4"] == x
    assert toy["ratios"]["aec_x_c4_method"] == "paired_cpu"
    assert toy["ratios"]["aec_x_c4_wall"] == toy["paired_c4"]["x_wall"]
    assert toy["targets"]["aec_x_c4"]["value"] == x
    assert toy["ref_ratios"]["AEC ÷ C4"] == x
    # the absolute AEC figure is still the row's own measurement; connect four's row is not paired
    assert toy["aec"]["decisions_per_s"] > 0 and toy["aec"]["decisions_per_s_all"]
    c4 = _row(result, "connect_four_v3")
    assert c4["paired_c4"] is None and c4["ratios"]["aec_x_c4"] == pytest.approx(1.0)
    assert c4["ratios"]["aec_x_c4_method"] == "unpaired_wall"
    assert result["references"]["x_c4_paired"] is True


def test_report_shows_the_paired_column_and_says_how_it_was_measured(result):
    md = render_markdown(result)
    toy = _row(result, ENV_ID)
    p = toy["paired_c4"]
    assert (f"× C4 of the Monolith rows is paired: the configuration's AEC loop and connect four's played "
            f"{TINY.pair_rounds} rounds of {TINY.pair_slice_seconds:g} s slices in turn") in md
    throughput = md.split("## Throughput", 1)[1].split("\n## ", 1)[0]
    assert "| AEC dec/s | × C4 | × C4 per round |" in throughput
    toy_line = next(line for line in throughput.splitlines() if line.startswith(f"| {ENV_ID}"))
    cells = [c.strip() for c in toy_line.strip("|").split("|")]
    assert cells[5] == f"{p['x_cpu']:.2f}×"
    assert cells[6] == f"{p['x_rounds']['min']:.2f}–{p['x_rounds']['max']:.2f}"
    targets = md.split("## Targets", 1)[1]
    assert f"{p['x_cpu']:.2f}× (wall {p['x_wall']:.2f}×)" in targets
    summary = md.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert f"| {toy['name']} | {toy['aec']['decisions_per_s']:,.0f} | {p['x_cpu']:.2f}× |" in summary


def test_a_reference_rows_unpaired_ratio_is_marked():
    chess = {"env_id": "chess", "ratios": {"aec_x_c4": 2.5, "aec_x_c4_method": "unpaired_wall"}}
    c4 = {"env_id": "connect_four_v3", "ratios": {"aec_x_c4": 1.0, "aec_x_c4_method": "unpaired_wall"}}
    mono = {"env_id": ENV_ID, "ratios": {"aec_x_c4": 2.5, "aec_x_c4_method": "paired_cpu"}}
    none = {"env_id": ENV_ID, "ratios": {"aec_x_c4": None, "aec_x_c4_method": None}}
    assert [_xc4(r) for r in (chess, c4, mono, none)] == ["2.50×*", "1.00×", "2.50×", "—"]


def test_one_connect_four_runner_serves_every_configuration(monkeypatch):
    made = []

    def counting(env_id, seed=0):
        made.append(env_id)
        return real(env_id, seed)

    real = references.pettingzoo_runner
    monkeypatch.setattr(references, "pettingzoo_runner", counting)
    res = run_benchmarks(TINY, env_ids=[ENV_ID, PIG_ID], imports=("tests.conftest",), refs=["connect_four_v3"],
                         train=False, quiet=True)
    assert made == ["connect_four_v3"]
    mono = [r for r in res["rows"] if r["kind"] == "monolith"]
    assert [r["env_id"] for r in mono][0] == ENV_ID and {r["env_id"] for r in mono} == {ENV_ID, PIG_ID}
    assert all(r["paired_c4"]["x_cpu"] > 0 and r["errors"] == [] for r in mono)


def test_no_refs_run_has_no_ratio(capsys):
    res = main(["--budget", "smoke", "--import", "tests.conftest", "--env", ENV_ID, "--no-refs", "--no-train",
                "--no-write", "--quiet"])
    toy = _row(res, ENV_ID)
    assert [r["env_id"] for r in res["rows"]] == [ENV_ID]
    assert toy["paired_c4"] is None and toy["errors"] == []
    assert toy["ratios"]["aec_x_c4"] is None and toy["ratios"]["aec_x_c4_method"] is None
    assert toy["targets"]["aec_x_c4"]["met"] is None and res["references"]["x_c4_paired"] is False
    out = capsys.readouterr().out
    assert "× C4: not measured (connect_four_v3 was not part of this run)." in out
    toy_line = next(line for line in out.split("## Throughput", 1)[1].splitlines() if line.startswith(f"| {ENV_ID}"))
    assert [c.strip() for c in toy_line.strip("|").split("|")][5:7] == ["—", "—"]


class _Burner:
    """A runner that burns CPU for each slice and counts its decisions as 1,000 per call."""

    def __init__(self, name, log):
        self.name, self.log = name, log

    def run(self, seconds):
        self.log.append(self.name)
        t0 = time.perf_counter()
        c0 = time.process_time()
        while time.process_time() - c0 < min(seconds, 0.002):
            pass
        return 1000, 1, time.perf_counter() - t0


def test_measure_interleaved_plays_each_runner_once_per_round_alternating():
    log = []
    out = measure_interleaved({"a": _Burner("a", log), "b": _Burner("b", log)}, 0.01, 3, 0.0, alternate=True)
    assert log == ["a", "b"] + ["a", "b", "b", "a", "a", "b"]  # warm-up, then A B, B A, A B
    for name in "ab":
        assert len(out[name]["slices"]) == 3 and out[name]["decisions"] == 3000
        assert out[name]["cpu_seconds"] > 0 and out[name]["decisions_per_cpu_s"] > 0
    log.clear()
    measure_interleaved({"a": _Burner("a", log), "b": _Burner("b", log)}, 0.01, 2, 0.0)
    assert log == ["a", "b", "a", "b", "a", "b"]


@pytest.mark.parametrize("runners, repeats, seconds", [({}, 1, 0.1), ({"a": None}, 0, 0.1), ({"a": None}, 1, 0.0)])
def test_measure_interleaved_refuses_bad_arguments(runners, repeats, seconds):
    with pytest.raises(ValueError, match="measure_interleaved"):
        measure_interleaved(runners, seconds, repeats, 0.0)


def test_paired_ratio_of_known_slices():
    def side(slices):
        return {"slices": [{"decisions": d, "wall_s": w, "cpu_s": c} for d, w, c in slices],
                "decisions": sum(s[0] for s in slices), "wall_seconds": sum(s[1] for s in slices),
                "cpu_seconds": sum(s[2] for s in slices)}

    env = side([(1000, 0.2, 0.1), (3000, 0.4, 0.2)])
    c4 = side([(500, 0.1, 0.1), (500, 0.1, 0.1)])
    r = paired_ratio(env, c4)
    assert r["x_cpu"] == pytest.approx((4000 / 0.3) / (1000 / 0.2))  # 2.667, not the mean of 2.0 and 3.0
    assert r["x_wall"] == pytest.approx((4000 / 0.6) / (1000 / 0.2))
    assert r["x_rounds"] == pytest.approx({"min": 2.0, "median": 2.5, "max": 3.0}) and r["rounds"] == 2
    zero = paired_ratio(side([(10, 0.1, 0.0)]), side([(10, 0.1, 0.1)]))
    assert zero["x_cpu"] is None and zero["x_rounds"]["min"] is None and zero["rounds"] == 0


def test_the_secondary_loops_run_for_their_own_budget():
    from benchmarks.loops import measure_throughput
    from benchmarks.timing import BUDGETS

    assert BUDGETS["full"].secondary_seconds == 1.5 and BUDGETS["quick"].secondary_seconds == 0.5
    assert TINY.secondary_seconds == TINY.loop_seconds  # not set: the loop's own time

    class Clock:
        def __init__(self):
            self.asked, self.lengths = [], []

        def run(self, seconds):
            self.asked.append(seconds)
            return 10, 0, seconds

    clock = Clock()
    out = measure_throughput(clock, TINY, repeats=2, seconds=0.5)
    assert clock.asked == [TINY.warmup_seconds, 0.5, 0.5] and out["decisions_per_s"] == 20.0
