"""The Monolith in the browser: a space that may be clicked is outlined in gold over every mark of the board,
its controller's coloured outline included, in headless Chromium (skipped without ``chromium`` /
``chromedriver``, as the other browser tests)."""

from __future__ import annotations

import base64
import io

import numpy as np

from .helpers import Served
from .test_web_browser import WAIT_READY, _async, driver  # noqa: F401 - the fixture

GOLD = (255, 194, 26)

#: per target: its outline's classes and colours, whether every mark of its space comes before the outline,
#: the stroke of the space's own shape (the union of its cells), and the screen point in the middle of the
#: outline's first gold piece
PROBE = """
return [...document.querySelectorAll('#board [data-target].target')].map(el => {
  const hl = document.getElementById('outline-' + el.id);
  if (!hl) return {target: el.dataset.target, hl: false};
  const outer = hl.querySelector(':scope > polyline'), inner = hl.querySelector(':scope > g > polyline');
  const sid = el.id.split('-')[1];
  const marks = [...document.querySelectorAll('#board svg g')].filter(g => g !== el && g.firstElementChild &&
    g.firstElementChild.tagName === 'title' && g.firstElementChild.textContent.startsWith('space ' + sid + ': '));
  const last = marks.flatMap(g => [...g.querySelectorAll('*')]).pop();
  const pts = inner.getAttribute('points').split(' ').map(p => p.split(',').map(Number));
  const m = inner.getScreenCTM(), svg = inner.ownerSVGElement;
  const pt = svg.createSVGPoint();
  pt.x = (pts[0][0] + pts[1][0]) / 2; pt.y = (pts[0][1] + pts[1][1]) / 2;
  const at = pt.matrixTransform(m);
  return {target: el.dataset.target, hl: true, cls: [...hl.classList], outlined: el.classList.contains('outlined'),
          inner: [getComputedStyle(inner).stroke, getComputedStyle(inner).strokeWidth],
          outer: [getComputedStyle(outer).stroke, getComputedStyle(outer).strokeWidth],
          over: marks.length > 0 && !!(last.compareDocumentPosition(hl) & Node.DOCUMENT_POSITION_FOLLOWING),
          cell: getComputedStyle(el.querySelector('polygon, rect')).stroke, x: at.x, y: at.y,
          dpr: window.devicePixelRatio};
});
"""


def test_clickable_spaces_are_outlined_in_gold_over_every_mark(driver, tmp_path):  # noqa: F811
    from PIL import Image

    served = Served("the_monolith_v0", {"num_players": 2, "num_days": 1}, 2, tmp_path)
    wd = driver
    try:
        wd.cmd("POST", "/url", {"url": served.url})
        assert _async(wd, WAIT_READY) == "ready"
        for _ in range(80):  # reach a decision that names spaces
            probe = wd.js(PROBE)
            if probe:
                break
            wd.click("#options button.opt")
            assert _async(wd, WAIT_READY) == "ready"
        assert probe and all(p["target"].startswith("space:") for p in probe), probe
        shot = np.asarray(Image.open(io.BytesIO(base64.b64decode(wd.cmd("GET", "/screenshot")))).convert("RGB"))
        for p in probe:
            assert p["hl"] and p["cls"] == ["hl-target"] and p["outlined"], p
            assert p["inner"] == ["rgb(255, 194, 26)", "4px"] and p["outer"] == ["rgb(42, 28, 0)", "8px"], p
            assert p["over"], p  # drawn after the controller's outline and every other mark of the space
            assert p["cell"] == "none", p  # the page's gold outline, not a gold stroke of the space's own shape
            x, y = round(p["x"] * p["dpr"]), round(p["y"] * p["dpr"])
            assert np.abs(shot[y, x].astype(int) - GOLD).sum() < 90, (p, shot[y, x])  # seen on the screen
        assert wd.js("return document.querySelectorAll('#board .hl-target').length") == len(probe)
        wd.click(f'#board [data-target="{probe[0]["target"]}"]')  # the choice is made: the outlines go
        assert _async(wd, WAIT_READY) in ("ready", "over")
        lit = wd.js("return [...document.querySelectorAll('#board .hl-target')].map(e => e.id)")
        targets = wd.js("return [...document.querySelectorAll('#board .target')].map(e => 'outline-' + e.id)")
        assert sorted(lit) == sorted(t for t in targets if t.startswith("outline-space-"))
    finally:
        served.close()
