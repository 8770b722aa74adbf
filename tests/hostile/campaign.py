"""A seeded hostile-input campaign over the three games: mutated states, position texts and content files.

Each surface gets mutants from a seeded generator; each mutant must either be refused with one of the
package's own errors (a :class:`~monolith_envs.core.game.MonolithEnvError`) or load into a state that the
engine can read: the mask is legal (non-empty exactly when the game is not over), every seat's observation
is finite and inside the observation space, the returns are finite, and a legal action applies.

``python -m tests.hostile.campaign [scale] [seed]`` runs a larger campaign (60 x scale states, 20 x scale
position texts, scale / 2 content mutants; scale 40 takes about 30 s) and prints every finding.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from monolith_envs import make_game
from monolith_envs.core.game import MonolithEnvError

# (env id, config) of the corpus: the main configs of each game, with a score mode where the game has one
CONFIGS: tuple[tuple[str, dict], ...] = (
    ("monolith_arena_v0", {}),
    ("monolith_arena_v0", {"num_players": 4, "mode": "teams", "monolith_module": True, "reward_mode": "score"}),
    ("monolith_strategy_v0", {"num_players": 2, "player_powers": True}),
    ("monolith_strategy_v0", {"num_players": 1}),
    ("the_monolith_v0", {"num_players": 4, "reward_mode": "score"}),
    ("the_monolith_v0", {"num_players": 2, "shaman_assignment": "draft"}),
)

_HOSTILE = (-1, 0, 1, 2, 7, 19, 999, 999999999999, 2**31, 2**63, 2**200, -2**200, 1.5, -0.5, True, False, None,
            "x", "", [], {}, [0], {"__float__": "nan"}, {"__float__": "inf"}, {"__state__": 3})


@dataclass
class Finding:
    """One mutant that broke the contract: the surface, the mutant and what went wrong."""

    surface: str
    env_id: str
    what: str
    mutant: str

    def __str__(self) -> str:
        return f"[{self.surface} {self.env_id}] {self.what}\n  mutant: {self.mutant[:600]}"


@dataclass
class Tally:
    """Counts per surface: mutants tried, refused with a package error, loaded and checked."""

    tried: int = 0
    refused: int = 0
    loaded: int = 0
    findings: list = field(default_factory=list)


# ---------------------------------------------------------------------------------------------- checks
def check_loaded(game: Any, s: Any) -> str | None:
    """``None`` when the engine reads ``s`` soundly, else what is wrong (non-finite values, a live state
    without a legal action, an observation outside its space, a legal action that fails)."""
    n = game.num_players
    terminal = game.is_terminal(s)
    cp = game.current_player(s)
    mask = np.asarray(game.legal_mask(s))
    if mask.dtype != np.bool_ or mask.shape != (game.layout.n,):
        return f"legal_mask is {mask.dtype}{mask.shape}"
    if terminal:
        if mask.any() or cp != -1:
            return f"a finished game has current_player {cp} and {int(mask.sum())} legal actions"
    elif not (0 <= cp < n and mask.any()):
        return f"a live game has current_player {cp} and {int(mask.sum())} legal actions"
    spec = game.obs_spec
    for p in range(n):
        o = np.asarray(game.observe(s, p))
        bad = np.flatnonzero(~np.isfinite(o) | (o < spec.low) | (o > spec.high))
        if o.shape != (spec.size,) or bad.size:
            i = int(bad[0]) if bad.size else -1
            piece = next((pc.name for pc in spec.pieces if pc.offset <= i < pc.stop), "?")
            return f"observe(s, {p}) shape {o.shape}, value {o[i] if bad.size else ''} out of bounds in {piece}"
    r = np.asarray(game.returns(s), np.float64)
    if r.shape != (n,) or not np.isfinite(r).all():
        return f"returns {r.tolist()}"
    if not terminal:
        c = game.clone(s)
        game.apply(c, int(np.flatnonzero(mask)[0]), np.random.default_rng(0))
        r = np.asarray(game.returns(c), np.float64)
        if not np.isfinite(r).all():
            return f"returns {r.tolist()} after a legal action"
    return None


def _judge(tally: Tally, surface: str, env_id: str, mutant: str, load: Callable[[], tuple]) -> None:
    """Load one mutant and record the result in ``tally``."""
    tally.tried += 1
    try:
        game, s = load()
    except MonolithEnvError:
        tally.refused += 1
        return
    except Exception as exc:  # noqa: BLE001 - any other exception is a finding
        tally.findings.append(Finding(surface, env_id, f"load raised {exc!r}\n{_tb()}", mutant))
        return
    tally.loaded += 1
    try:
        why = check_loaded(game, s)
    except Exception as exc:  # noqa: BLE001
        why = f"a loaded state raised {exc!r}\n{_tb()}"
    if why is not None:
        tally.findings.append(Finding(surface, env_id, why, mutant))


def _tb() -> str:
    return "".join(traceback.format_exc().splitlines(True)[-6:])


# ---------------------------------------------------------------------------------------------- corpus
_GAMES: dict = {}


def game_for(env_id: str, config: dict) -> Any:
    """A cached game of ``env_id`` with ``config``."""
    key = (env_id, json.dumps(config, sort_keys=True))
    if key not in _GAMES:
        _GAMES[key] = make_game(env_id, **config)
    return _GAMES[key]


def corpus_states(game: Any, seed: int, k: int) -> list:
    """Up to ``k`` states spread over one seeded random game (its first and last state included)."""
    rng = np.random.default_rng(seed)
    s = game.initial_state(rng)
    seen = [game.clone(s)]
    steps = 0
    while not game.is_terminal(s) and steps < game.max_decisions:
        legal = np.flatnonzero(game.legal_mask(s))
        game.apply(s, int(rng.choice(legal)), rng)
        steps += 1
        seen.append(game.clone(s))
    idx = np.unique(np.linspace(0, len(seen) - 1, k).astype(int))
    return [seen[i] for i in idx]


# ---------------------------------------------------------------------------------------------- mutators
def _nodes(data: Any, path: tuple = ()) -> list:
    out = [path]
    if isinstance(data, dict):
        for key, v in data.items():
            out.extend(_nodes(v, path + (key,)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_nodes(v, path + (i,)))
    return out


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _get(data, path[:-1])[path[-1]] = value
    return data


def mutate_state(data: dict, rng: np.random.Generator) -> dict:
    """One to three random edits of a serialised state (a JSON tree): a nudged or hostile scalar, a list
    item dropped, repeated or swapped, a dict key dropped or added."""
    data = copy.deepcopy(data)
    for _ in range(int(rng.integers(1, 4))):
        nodes = _nodes(data)
        path = nodes[int(rng.integers(len(nodes)))]
        v = _get(data, path)
        op = int(rng.integers(6))
        if isinstance(v, list) and v and op < 3:
            i, j = (int(x) for x in rng.integers(len(v), size=2))
            if op == 0:
                v.pop(i)
            elif op == 1:
                v.insert(i, copy.deepcopy(v[j]))
            else:
                v[i], v[j] = v[j], v[i]
        elif isinstance(v, dict) and v and op < 3:
            keys = list(v)
            key = keys[int(rng.integers(len(keys)))]
            if op == 0:
                del v[key]
            else:
                v["zz_extra" if op == 1 else key] = _HOSTILE[int(rng.integers(len(_HOSTILE)))]
        elif type(v) is int and op < 3:
            data = _set(data, path, v + int(rng.choice([-2, -1, 1, 2, 5])))
        elif type(v) is int and op == 3:
            data = _set(data, path, int(rng.integers(-1, 32)))  # another member of a small enum
        elif type(v) is bool and op < 3:
            data = _set(data, path, not v)
        else:
            data = _set(data, path, copy.deepcopy(_HOSTILE[int(rng.integers(len(_HOSTILE)))]))
    return data


_TOKEN = re.compile(r"-?\d+|[A-Za-z_][\w.]*|[^\s\w]")
_NOISE = ("999999999999", "-1", "0", "1.5", "18446744073709551616", "P9", "P-1", "{", "}", ":", "=", ",", "[",
          "]", '"', "#", "@", "none", "nan", "x", "-")


def mutate_text(text: str, rng: np.random.Generator) -> str:
    """One to three random edits of a position text: a line dropped, repeated or swapped, a token replaced
    (by a number, a seat, punctuation or another token of the text), dropped or doubled."""
    lines = text.splitlines()
    for _ in range(int(rng.integers(1, 4))):
        if not lines:
            break
        i = int(rng.integers(len(lines)))
        op = int(rng.integers(8))
        if op == 0:
            lines.pop(i)
        elif op == 1:
            lines.insert(i, lines[int(rng.integers(len(lines)))])
        elif op == 2:
            j = int(rng.integers(len(lines)))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            toks = list(_TOKEN.finditer(lines[i]))
            if not toks:
                continue
            m = toks[int(rng.integers(len(toks)))]
            if op in (3, 4):
                new = _NOISE[int(rng.integers(len(_NOISE)))]
            elif op == 5 and m.group().lstrip("-").isdigit():
                new = str(int(m.group()) + int(rng.choice([-3, -1, 1, 2, 9])))
            elif op == 6:
                all_toks = _TOKEN.findall(text)
                new = all_toks[int(rng.integers(len(all_toks)))]
            else:
                new = m.group() * 2 if rng.random() < 0.5 else ""
            lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    return "\n".join(lines)


_NUMBER = re.compile(r"(?<![\w.\"])-?\d+(?:\.\d+)?(?![\w.\"])")
_STRING = re.compile(r'"[^"\n]*"')
_CONTENT_NUMBERS = ("0", "1", "-1", "2", "3", "5", "6", "7", "12", "18", "19", "64", "100", "0.5")


def mutate_content(text: str, rng: np.random.Generator) -> str:
    """An in-schema edit of a content TOML text: a number set to another small value, or a quoted string
    swapped with another of the file (so the file still parses and most fields keep their types)."""
    for _ in range(int(rng.integers(1, 3))):
        pat = _NUMBER if rng.random() < 0.7 else _STRING
        hits = list(pat.finditer(text))
        if not hits:
            continue
        m = hits[int(rng.integers(len(hits)))]
        if pat is _NUMBER:
            new = _CONTENT_NUMBERS[int(rng.integers(len(_CONTENT_NUMBERS)))]
        else:
            new = hits[int(rng.integers(len(hits)))].group()
        text = text[:m.start()] + new + text[m.end():]
    return text


# ---------------------------------------------------------------------------------------------- surfaces
def _positions_api(env_id: str):
    if env_id == "monolith_arena_v0":
        from monolith_envs.arena.positions_text import parse_position, position_to_text

        return (lambda g, s: position_to_text(g, s)), (lambda g, text: parse_position(text))
    if env_id == "monolith_strategy_v0":
        from monolith_envs.strategy.positions import format_position, parse_position

        return format_position, (lambda g, text: parse_position(text))
    from monolith_envs.the_monolith.positions import format_position, parse_position

    return format_position, (lambda g, text: parse_position(text))


def run_states(tally: Tally, budget: int, seed: int, per_game: int = 6) -> None:
    """``budget`` mutated serialised states, spread over :data:`CONFIGS`."""
    rng = np.random.default_rng([seed, 1])
    for c, (env_id, cfg) in enumerate(CONFIGS):
        game = game_for(env_id, cfg)
        datas = [json.loads(json.dumps(game.to_dict(s))) for s in corpus_states(game, seed + c, per_game)]
        for _ in range(budget // len(CONFIGS)):
            m = mutate_state(datas[int(rng.integers(len(datas)))], rng)
            _judge(tally, "state", env_id, json.dumps(m), lambda game=game, m=m: (game, game.from_dict(m)))


def run_positions(tally: Tally, budget: int, seed: int, per_game: int = 4) -> None:
    """``budget`` mutated position texts (written by each game's formatter), spread over :data:`CONFIGS`."""
    rng = np.random.default_rng([seed, 2])
    for c, (env_id, cfg) in enumerate(CONFIGS):
        game = game_for(env_id, cfg)
        fmt, parse = _positions_api(env_id)
        texts = [fmt(game, s) for s in corpus_states(game, seed + c, per_game)]
        for _ in range(budget // len(CONFIGS)):
            t = mutate_text(texts[int(rng.integers(len(texts)))], rng)
            _judge(tally, "position", env_id, t, lambda parse=parse, game=game, t=t: parse(game, t))


def _content_targets() -> list:
    import monolith_envs

    root = Path(monolith_envs.__file__).parent
    return [
        ("monolith_arena_v0", root / "arena/data/dragon_empire.toml",
         lambda p: {"faction_files": [str(p)] + [str(root / f"arena/data/{f}.toml") for f in
                                                 ("guardians_of_the_realm", "harbingers_of_the_forest",
                                                  "lords_of_the_abyss")]}),
        ("monolith_strategy_v0", root / "strategy/data/reference.toml", lambda p: {"content": str(p),
                                                                                    "num_players": 2}),
        ("the_monolith_v0", root / "the_monolith/data/map.toml", lambda p: {"map_file": str(p)}),
        ("the_monolith_v0", root / "the_monolith/data/shamans.toml", lambda p: {"shaman_file": str(p)}),
        ("the_monolith_v0", root / "the_monolith/data/divinations.toml", lambda p: {"divination_file": str(p)}),
        ("the_monolith_v0", root / "the_monolith/data/events.toml", lambda p: {"event_file": str(p)}),
        ("the_monolith_v0", root / "the_monolith/data/objectives.toml", lambda p: {"objective_file": str(p)}),
    ]


def play_checked(game: Any, seed: int, max_steps: int) -> str | None:
    """A seeded random game of at most ``max_steps`` decisions, :func:`check_loaded` at each state."""
    rng = np.random.default_rng(seed)
    s = game.initial_state(rng)
    for _ in range(max_steps):
        why = check_loaded(game, s)
        if why is not None or game.is_terminal(s):
            return why
        game.apply(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))), rng)
    return None


def run_content(tally: Tally, budget: int, seed: int, tmp: Path, max_steps: int = 150) -> None:
    """``budget`` in-schema content mutants; each that loads plays one checked random game."""
    rng = np.random.default_rng([seed, 3])
    targets = _content_targets()
    for k in range(budget):
        env_id, path, cfg_of = targets[k % len(targets)]
        text = mutate_content(path.read_text(), rng)
        out = tmp / f"mutant_{k}_{path.name}"
        out.write_text(text)
        tally.tried += 1
        try:
            game = make_game(env_id, **cfg_of(out))
        except MonolithEnvError:
            tally.refused += 1
            continue
        except Exception as exc:  # noqa: BLE001
            tally.findings.append(Finding("content", env_id, f"{exc!r}\n{_tb()}",
                                          f"{path.name}: {_diff(path.read_text(), text)}"))
            continue
        tally.loaded += 1
        try:  # content that loads must play: any exception here is a finding, the package's own included
            why = play_checked(game, seed + k, max_steps)
        except Exception as exc:  # noqa: BLE001
            why = f"{exc!r}\n{_tb()}"
        if why is not None:
            tally.findings.append(Finding("content", env_id, why, f"{path.name}: {_diff(path.read_text(), text)}"))


def _diff(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    return "; ".join(f"line {i + 1}: {x!r} -> {y!r}" for i, (x, y) in enumerate(zip(la, lb)) if x != y)


def main(argv: list[str]) -> int:
    """Run a larger campaign (``argv``: scale, seed); print the counts and the findings; 1 if any."""
    import tempfile

    scale = max(1, int(argv[0])) if argv else 40
    seed = int(argv[1]) if len(argv) > 1 else 0
    t0 = time.perf_counter()
    tallies = {"state": Tally(), "position": Tally(), "content": Tally()}
    run_states(tallies["state"], 60 * scale, seed)
    print(f"states {time.perf_counter() - t0:.1f}s", flush=True)
    run_positions(tallies["position"], 20 * scale, seed)
    print(f"positions {time.perf_counter() - t0:.1f}s", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        run_content(tallies["content"], max(7, scale // 2), seed, Path(tmp))
    print(f"content {time.perf_counter() - t0:.1f}s", flush=True)
    for name, t in tallies.items():
        print(f"{name}: tried {t.tried}, refused {t.refused}, loaded {t.loaded}, findings {len(t.findings)}")
        for f in t.findings[:40]:
            print(f)
    return 1 if any(t.findings for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
