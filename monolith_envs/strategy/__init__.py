"""Monolith: The Strategy Game (``monolith_strategy_v0``): dice placement on a board of Rune cards
(docs/monolith_strategy.md).

Public names: :class:`StrategyGame`, :func:`parse_position` / :func:`format_position` (the text position
format, docs §12), :func:`load_content` and :class:`ContentError`.
"""

from .content import ContentError, load_content
from .game import StrategyGame
from .positions import format_position, parse_position

__all__ = ["StrategyGame", "parse_position", "format_position", "load_content", "ContentError"]
