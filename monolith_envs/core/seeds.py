"""One seed bound for every entry point: envs, fuzz, replay, training, evaluation, benchmarks and play.

A seed is an integer from 0 to ``MAX_SEED`` (2**128 - 1, the largest value numpy's ``SeedSequence`` keeps
whole and the bound that episode logs are checked against), so any seed that a command accepts is written
into a log that ``replay`` reads back.
"""

from __future__ import annotations

import argparse

from .config import plain_int, short_repr

MAX_SEED = 2**128 - 1
#: seeds derived from a seed (``seed + k``, the k-th game of a vector slot, ...) wrap around modulo this, so
#: any seed from 0 to ``MAX_SEED`` gives valid seeds for every game derived from it
SEED_MODULUS = MAX_SEED + 1


def seed_plus(seed: int, k: int = 0) -> int:
    """``(seed + k) % 2**128``: the seed ``k`` after ``seed``, wrapped into 0 to ``MAX_SEED``."""
    return (int(seed) + int(k)) % SEED_MODULUS


def seed_text(seed: int) -> str:
    """``seed`` for a message: its digits, or ``"an integer of N digits"`` beyond 40 of them."""
    text = str(seed)
    return text if len(text) <= 40 else f"an integer of {len(text)} digits"


def check_seed(value: object, name: str = "seed") -> int:
    """Return ``value`` as a seed, or raise an error naming ``name`` and the allowed range.

    Accepts a Python ``int`` (or numpy integer) from 0 to ``MAX_SEED``; ``bool``, floats and strings are
    refused, as actions are.

    Raises:
        TypeError: ``value`` is not an integer (a ``bool``, a float, a string, ...), as the AEC env's
            ``reset(seed=...)`` raises.
        ValueError: an integer below 0 or above ``MAX_SEED``.
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer from 0 to 2**128-1, got {type(value).__name__} {short_repr(value)}")
    seed = int(value.__index__())
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name} must be an integer from 0 to 2**128-1, got {seed_text(seed)}")
    return seed


def seed_arg(text: str) -> int:
    """``argparse`` type for a ``--seed`` option: a decimal integer from 0 to ``MAX_SEED``.

    Raises ``argparse.ArgumentTypeError`` (argparse turns it into one ``error:`` line and exit status 2).
    """
    try:
        value = plain_int(text.strip())  # ASCII digits only: int() also reads "1_0" and other scripts' digits
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to 2**128-1, got {text[:40]!r}")
    try:
        return check_seed(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).replace("seed must be ", "expected ")) from None


def seed_arg_below(high: int, high_text: str, why: str):
    """An ``argparse`` type like :func:`seed_arg` for a program whose seed goes to a library that takes less
    than ``MAX_SEED`` (``torch.manual_seed``: 2**64-1; numpy's legacy ``np.random.seed``: 2**32-1): a decimal
    integer from 0 to ``high``; the error names ``high_text`` and ``why``
    (``"expected an integer from 0 to 2**64-1 (torch.manual_seed takes no more), got '-3'"``)."""

    def parse(text: str) -> int:
        try:
            value = plain_int(text.strip())
        except ValueError:
            value = -1
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"expected an integer from 0 to {high_text} ({why}), got {text[:40]!r}")
        return value

    return parse
