"""Fixes from a user's trial of the pictures: Arena's Monolith segment labels (``S1``) keep off the Banner's
bars and ring and every other mark of their hex, its pending line is in words (not ``unfold_queue=71,73``);
The Monolith's seat panels stay inside the picture, their rows are at least 10.5 units high, and the brown
lines stop well short of a space's name and kind line."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import monolith_envs
from monolith_envs.arena.render import _tables
from monolith_envs.arena.render_svg import _R, hex_center, pending_line, status_lines
from monolith_envs.arena.render_svg import draw as arena_draw
from monolith_envs.arena.state import INSTANCES_PER_SEAT as PER_SEAT
from monolith_envs.arena.state import Sub
from monolith_envs.core.drawing import text_width
from monolith_envs.the_monolith.render_svg import ROW_SIZE
from monolith_envs.the_monolith.render_svg import draw as monolith_draw


def _walk(items):
    for it in items:
        if it.kind == "g":
            yield from _walk(it.children)
        else:
            yield it


def _text_box(it) -> tuple:
    x, y, s = it.geo
    w = it.style["fit"] or text_width(s, it.style["size"], it.style["bold"])
    left = {"start": x, "middle": x - w / 2, "end": x - w}[it.style["anchor"]]
    return left, y - it.style["size"] * 0.6, left + w, y + it.style["size"] * 0.6


def _seg_dist(p, a, b) -> float:
    vx, vy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / (vx * vx + vy * vy or 1e-12)))
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


def _points(x0, y0, x1, y1, n=12):
    return [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * j / n) for i in range(n + 1) for j in range(n + 1)]


def _arena_states(cfg: dict, seeds=(11, 3), steps=160):
    """States of random games with an unfolded Monolith on the board."""
    env = monolith_envs.make("monolith_arena_v0", wrapped=False, **cfg)
    for seed in seeds:
        env.reset(seed=seed)
        game, rng = env.game, np.random.default_rng(1)
        for _ in range(steps):
            s = env.game_state
            if game.is_terminal(s):
                break
            if any(not s.mono_folded[p] and s.seg_hex[p][0] >= 0 for p in range(s.num_players)):
                yield game, s
            env.step(int(rng.choice(np.flatnonzero(game.legal_mask(s)))))


@pytest.mark.parametrize("cfg", [{"monolith_module": True},
                                 {"num_players": 4, "mode": "ffa", "monolith_module": True}])
def test_arena_segment_labels_keep_off_every_mark_of_their_hex(cfg):
    labels = 0
    for game, s in _arena_states(cfg):
        sc = arena_draw(game, s)
        for grp in (it for it in sc._root if it.kind == "g" and (it.style["id"] or "").startswith("hex-")):
            items = list(_walk(grp.children))
            tags = [k for k, it in enumerate(items) if it.kind == "text" and re.fullmatch(r"S\d", it.geo[2])]
            if not tags:
                continue
            cx, cy = hex_center(int(grp.style["id"][4:]))
            for k in tags:
                tab = items[k - 1]  # the label's tab, just under it
                assert tab.kind == "rect"
                x, y, w, hh = tab.geo
                pts = _points(x, y, x + w, y + hh)
                for px, py in pts:  # inside the segment's outline (radius _R - 4), or on it, inside the hex
                    for d in range(6):
                        a = math.radians(-60 + 60 * d)
                        assert (px - cx) * math.cos(a) + (py - cy) * math.sin(a) < (_R - 1) * math.sqrt(3) / 2 - 1
                for it in items[:k - 1]:
                    st = it.style
                    if it.kind == "polyline":  # attack bars, armour bars, netting
                        assert min(_seg_dist(p, *it.geo) for p in pts) > st["sw"] / 2, (it.geo, tab.geo)
                    elif it.kind == "polygon" and len(it.geo) == 3:  # the front wedge, by its bounding box
                        xs, ys = [q[0] for q in it.geo], [q[1] for q in it.geo]
                        assert x + w < min(xs) or x > max(xs) or y + hh < min(ys) or y > max(ys), (it.geo, tab.geo)
                    elif it.kind == "circle":
                        ccx, ccy, r = it.geo
                        half = st["sw"] / 2 if st.get("stroke") else 0
                        dists = [math.hypot(px - ccx, py - ccy) for px, py in pts]
                        if st["fill"] is None:  # the Banner's ring: the label inside or outside, not on it
                            assert max(dists) < r - half or min(dists) > r + half, (it.geo, tab.geo)
                        else:  # wound and poison pips
                            assert min(dists) > r + half
                    elif it.kind in ("rect", "text"):  # the tabs, the name
                        bx = (it.geo[0], it.geo[1], it.geo[0] + it.geo[2], it.geo[1] + it.geo[3]) \
                            if it.kind == "rect" else _text_box(it)
                        assert x + w <= bx[0] or bx[2] <= x or y + hh <= bx[1] or bx[3] <= y, (it.geo, tab.geo)
                labels += 1
    assert labels >= 10


def test_the_banner_label_of_the_trial_is_off_its_ring_and_bars():
    """The tester's picture: 4 seats, ffa, the Monolith module, seed 11, random play: P2's Monolith unfolded
    around its Banner, whose ``S1`` was drawn over the Banner's dark bar and ring."""
    found = False
    for game, s in _arena_states({"num_players": 4, "mode": "ffa", "monolith_module": True}, seeds=(11,)):
        p = next(p for p in range(s.num_players) if not s.mono_folded[p] and s.seg_hex[p][0] >= 0)
        h = s.seg_hex[p][0]  # the Banner's hex: segment 1
        grp = next(it for it in arena_draw(game, s)._root if it.kind == "g" and it.style["id"] == f"hex-{h}")
        items = list(_walk(grp.children))
        k = next(k for k, it in enumerate(items) if it.kind == "text" and it.geo[2] == "S1")
        x, y, w, hh = items[k - 1].geo
        cx, cy = hex_center(h)
        assert (x, y) != (cx + 18 - w / 2, cy + 24 - hh / 2)  # not where it was
        ring = next(it for it in items if it.kind == "circle" and it.style["fill"] is None)
        corners = [math.hypot(px - cx, py - cy) for px in (x, x + w) for py in (y, y + hh)]
        assert max(corners) < ring.geo[2] - 1.25 or min(corners) > ring.geo[2] + 1.25
        found = True
        break
    assert found


def test_arena_pending_unfold_is_in_words():
    env = monolith_envs.make("monolith_arena_v0", wrapped=False, num_players=4, mode="ffa", monolith_module=True)
    lines = []
    for seed in range(11, 20):
        env.reset(seed=seed)
        game, rng = env.game, np.random.default_rng(1)
        while not game.is_terminal(env.game_state):
            s = env.game_state
            if s.sub_phase == Sub.UNFOLD_FACING and s.unfold_queue:
                line = status_lines(game, s)[3]
                assert line == pending_line(_tables(game), s)
                assert "unfold_queue" not in line and "A=" not in line and "B=" not in line
                assert line.startswith(f"Pending: P{s.turn_seat} unfolds the Monolith: segment 2 on hex {s.p_a:02d}, "
                                       f"segment 3 on hex {s.p_b:02d} · facings still to choose: ")
                tb = _tables(game)
                for i in s.unfold_queue:  # the tiles still to face, by owner, name and hex
                    assert f"P{i // PER_SEAT} {tb.name_of[s.itype[i]]} on hex {s.hexof[i]:02d}" in line
                svg = game.render_svg(s)  # the whole line is in the picture, on as many rows as it needs
                words = " ".join(" ".join(re.findall(r">([^<]*)</text>", svg)).split())
                assert " ".join(line.split()) in words
                lines.append(line)
                break
            env.step(int(rng.choice(np.flatnonzero(game.legal_mask(s)))))
        if lines:
            break
    assert lines


@pytest.mark.parametrize("n", [3, 4])
def test_monolith_seat_panels_stay_inside_the_picture_with_readable_rows(n):
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=n)
    env.reset(seed=11)
    game, rng = env.game, np.random.default_rng(1)
    for step in range(80):
        if step % 20 == 0:
            sc = monolith_draw(game, env.game_state)
            panels = [it for it in sc._root if it.kind == "g" and (it.style["id"] or "").startswith("seat-")]
            assert len(panels) == n
            for grp in panels:
                rect = grp.children[0]
                x, y, w, hh = rect.geo
                assert rect.kind == "rect" and x + w + rect.style["sw"] / 2 + rect.style["rx"] <= sc.width - 4
                rows = [it for it in grp.children if it.kind == "text"][1:]
                assert len(rows) == 6
                for it in rows:
                    assert it.style["size"] == ROW_SIZE >= 10.5
                    x0, y0, x1, y1 = _text_box(it)
                    assert x < x0 and x1 < x + w and y < y0 and y1 < y + hh  # inside its panel
            texts = [it for it in _walk(sc._root) if it.kind == "text"]
            legend_y = max(it.geo[1] for it in texts if it.geo[2].startswith("Fill:"))
            assert all(it.geo[1] + it.style["size"] < sc.height for it in texts) and legend_y < sc.height
        env.step(int(rng.choice(np.flatnonzero(game.legal_mask(env.game_state)))))


def test_monolith_brown_lines_stop_short_of_the_space_texts():
    """Every point of a brown line within 4 units (left and right) or 3 (above and below) of a space's name
    or kind line is covered by a backing of the space's fill drawn after the lines."""
    env = monolith_envs.make("the_monolith_v0", wrapped=False, num_players=4)
    env.reset(seed=11)
    sc = monolith_draw(env.game, env.game_state)
    items = list(_walk(sc._root))
    lines = [it for it in items if it.kind == "polyline" and it.style["stroke"] == (165, 125, 75)]
    last = max(items.index(it) for it in lines)
    checked = 0
    for k, it in enumerate(items):
        if it.kind != "text" or k <= last or not re.match(r"\d+ \w", it.geo[2]) or it.style["size"] < 9:
            continue
        for tk in (k, k - 2):  # the name, and its kind line drawn just before it (halo, text)
            txt = items[tk]
            if txt.kind != "text":
                continue
            x0, y0, x1, y1 = _text_box(txt)
            box = (x0 - 4, y0 - 3, x1 + 4, y1 + 3)
            backs = [b for b in items[last:tk] if b.kind == "rect" and b.style["fill"] == items[tk - 1].style["fill"]
                     and b.style.get("stroke") is None]
            for ln in lines:
                (ax, ay), (bx, by) = ln.geo
                for t in np.linspace(0, 1, 200):
                    px, py = ax + (bx - ax) * t, ay + (by - ay) * t
                    if box[0] <= px <= box[2] and box[1] <= py <= box[3]:
                        assert any(b.geo[0] <= px <= b.geo[0] + b.geo[2] and b.geo[1] <= py <= b.geo[1] + b.geo[3]
                                   for b in backs), (txt.geo, (px, py))
                        checked += 1
    assert checked > 20
