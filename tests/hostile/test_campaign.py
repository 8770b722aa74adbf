"""The hostile-input campaign with a bounded, seeded budget: mutated states (from_dict), mutated position
texts (parse_position) and in-schema content mutants, on all three games. Every mutant is refused with
one of the package's own errors or gives a state the engine can play (tests/hostile/campaign.py).

About 10 s on an idle core; ``python -m tests.hostile.campaign SCALE SEED`` runs a larger campaign."""

from tests.hostile.campaign import Tally, run_content, run_positions, run_states

SEED = 20261201


def _report(t: Tally) -> str:
    return "\n".join(str(f) for f in t.findings[:5])


def test_mutated_states_are_refused_or_playable():
    t = Tally()
    run_states(t, 360, SEED)
    assert t.tried == 360
    assert not t.findings, _report(t)
    assert t.refused > t.tried // 2 and t.loaded > 10  # the mutants reach both outcomes


def test_mutated_position_texts_are_refused_or_playable():
    t = Tally()
    run_positions(t, 180, SEED)
    assert t.tried == 180
    assert not t.findings, _report(t)
    assert t.refused > 20 and t.loaded > 20


def test_content_mutants_are_refused_or_play_a_checked_game(tmp_path):
    t = Tally()
    run_content(t, 14, SEED, tmp_path, max_steps=80)
    assert t.tried == 14
    assert not t.findings, _report(t)
    assert t.refused + t.loaded == 14 and t.loaded >= 2
