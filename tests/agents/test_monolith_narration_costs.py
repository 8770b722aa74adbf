"""The Monolith's narration says what an action cost in warriors: a fate move paid with anger (docs §4.6:
a free fate move, else 1 anger to limbo) and a sacrifice (a warrior to anger) say the anger and limbo
counts (the fate move said only the hearts' zones), and the terminal menu says the fate move's cost."""

from __future__ import annotations

import numpy as np

from monolith_envs import make_game
from monolith_envs.the_monolith.narration import narrate
from tests.agents.random_steps import random_game_steps


def test_fate_and_sacrifice_say_the_anger_and_limbo_they_moved():
    g = make_game("the_monolith_v0", num_players=3)
    seen = {"fate": 0, "sacrifice": 0}
    for before, s, a, p in random_game_steps(g, range(12)):
        fam = g.layout.split(a)[0]
        if fam not in seen:
            continue
        text = " ".join(" ".join(narrate(g, before, s, a, p)).split())
        for name in ("anger", "limbo"):
            old, new = getattr(before, name)[p], getattr(s, name)[p]
            if old != new:
                assert f"{name} {old} -> {new}" in text, text
                seen[fam] += 1
    assert seen["fate"] >= 4 and seen["sacrifice"] >= 2


def test_the_menu_names_the_fate_move_cost():
    from agents.terminal.the_monolith import _FAMILIES

    assert _FAMILIES["fate"].endswith("a free fate move pays, else 1 warrior from anger to limbo)")


def test_a_power_option_says_its_cost_before_it_is_chosen():
    from agents.terminal.the_monolith import TheMonolithPieces
    from monolith_envs.the_monolith.effects import power

    g, pieces = make_game("the_monolith_v0", num_players=3), TheMonolithPieces()
    costs = set()
    for seed in range(10):
        rng, choose = np.random.default_rng(seed), np.random.default_rng(seed + 1)
        s = g.initial_state(rng)
        while not g.is_terminal(s):
            legal = np.flatnonzero(g.legal_mask(s))
            for a in legal:
                fam, idx = g.layout.split(int(a))
                if fam == "use_power":
                    _window, cost, amount, _eff, _card = power(g, s, s.current, idx[0])
                    text = pieces.option(g, s, "use_power", "k", idx[0])
                    want = {"discard": "; the card is discarded)",
                            "anger": f"; {amount} warrior{'s' if amount > 1 else ''} from anger to limbo)"}.get(cost)
                    assert want is None or text.endswith(want), text
                    costs.add(cost)
            g.apply(s, int(choose.choice(legal)), rng)
    assert {"discard", "anger"} <= costs
