"""The repository's agent commands, and the former import path of the agent library.

The agent library (random, heuristics, MCTS, MaskablePPO, RLlib agents, matches, the spec parser
``make_agent``) lives in :mod:`monolith_envs.agents`, which an installed ``monolith-envs`` ships.  This folder
keeps what runs only from the repository: ``python -m agents.play`` (:mod:`agents.play`), the terminal
renderers (:mod:`agents.terminal`), :class:`~agents.human.HumanAgent`, which it registers as the agent kind
``human``, and :class:`~agents.az_agent.AZAgent`, registered as ``az:PATH[+search:N]`` (a ``training.az``
network, alone or with its own search of N simulations).

Every former import keeps working from the repository root: ``import agents`` gives the library's names
(``agents.make_agent is monolith_envs.agents.make_agent``), and ``agents.<module>`` for a module that is not a
file of this folder is the library's module itself (``agents.mcts is monolith_envs.agents.mcts``,
``from agents.heuristics.arena import ...``), imported only when first asked for, so ``import agents`` does not
import ``agents.ppo``'s or ``agents.rllib_agent``'s heavy dependencies.  A file of this folder
(``agents/play.py``, ...) is imported as usual.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from pathlib import Path
from typing import Any

import monolith_envs.agents as _lib
from monolith_envs.agents import *  # noqa: F403  (the library's public names)
from monolith_envs.agents import __all__ as _LIB_ALL
from monolith_envs.agents import register_agent_kind

__all__ = [*_LIB_ALL, "HumanAgent"]

_HERE = Path(__file__).resolve().parent
_LIB = _lib.__name__  # "monolith_envs.agents"


def _own_file(fullname: str) -> bool:
    """True when ``agents.<x>...`` starts with a module or package that is a file of this folder."""
    first = fullname.split(".")[1]
    return (_HERE / f"{first}.py").is_file() or (_HERE / first / "__init__.py").is_file()


class _AliasLoader(importlib.abc.Loader):
    """Gives the library's module object itself for ``agents.<x>`` (no second copy, no re-execution)."""

    def __init__(self, target: str):
        self.target = target
        self._spec: Any = None

    def create_module(self, spec: Any) -> Any:
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: Any) -> None:
        module.__spec__ = self._spec  # the import system set the alias spec on it; the module keeps its own

    def get_code(self, fullname: str) -> Any:
        """The library module's code, for ``python -m agents.<module>`` (runpy runs it as ``__main__``)."""
        return importlib.util.find_spec(self.target).loader.get_code(self.target)


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Maps ``agents.<x>[.<y>...]`` to ``monolith_envs.agents.<x>[.<y>...]`` unless ``<x>`` is a file here."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if not fullname.startswith(__name__ + ".") or _own_file(fullname):
            return None
        real = _LIB + fullname[len(__name__):]
        try:
            found = importlib.util.find_spec(real)
        except ModuleNotFoundError:
            return None
        if found is None:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real),
                                               is_package=found.submodule_search_locations is not None)


if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _AliasFinder())  # before any import of this folder's files (human: from .base ...)

from .human import HumanAgent  # noqa: E402  (needs the finder: it imports agents.base)


def _make_human(rest: str, env_id: str) -> HumanAgent:
    if rest:
        raise ValueError(f"'human' takes no options, got {rest!r}")
    return HumanAgent()


register_agent_kind("human", _make_human, needs_person=True)


def _make_az(rest: str, env_id: str):
    """``az:PATH`` or ``az:PATH+search:N``: a ``training.az`` network (:mod:`agents.az_agent`), alone or with
    its own search of N simulations."""
    from .az_agent import make_az_agent

    # a ValueError becomes an AgentSpecError naming the accepted forms; another game's checkpoint an AgentError
    return make_az_agent(rest, env_id)


register_agent_kind("az", _make_az, form="az:PATH[+search:N]")


def __getattr__(name: str) -> Any:
    """``agents.<module>`` without an import statement (``agents.mcts.MCTSAgent``), as before the move."""
    if name.startswith("__"):
        raise AttributeError(name)
    if hasattr(_lib, name):  # a library name outside __all__ (mcts_for, ...) or an imported module
        return getattr(_lib, name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name not in (f"{__name__}.{name}", f"{_LIB}.{name}"):
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
