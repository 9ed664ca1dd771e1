"""One small exception family for exactpoker.

Every error the library raises on purpose derives from :class:`ExactPokerError`.
Bad parameters raise :class:`InvalidParameterError`, which is also a
:class:`ValueError`, so ``except ValueError`` works as users expect.
"""

from __future__ import annotations

__all__ = [
    "ExactPokerError",
    "InvalidParameterError",
    "InvalidGameError",
    "NotZeroSumError",
    "DegenerateSystemError",
    "InfeasibleError",
    "UnboundedError",
    "CertificationError",
    "PrecisionError",
    "ResourceLimitError",
    "FigureError",
]


class ExactPokerError(Exception):
    """Base class of every error exactpoker raises on purpose."""


class InvalidParameterError(ExactPokerError, ValueError):
    """A parameter is out of its allowed range; the message names it and the range."""


class InvalidGameError(ExactPokerError, ValueError):
    """A game description is inconsistent (unknown player, empty action list, ...)."""


class NotZeroSumError(ExactPokerError, ValueError):
    """A two-player zero-sum method was asked to solve another kind of game."""


class DegenerateSystemError(ExactPokerError):
    """A linear or polynomial system on a guessed support has no unique solution."""


class InfeasibleError(ExactPokerError):
    """A linear program has no feasible point."""


class UnboundedError(ExactPokerError):
    """A linear program's objective is unbounded."""


class CertificationError(ExactPokerError):
    """An exact check of a candidate answer failed; the answer is not returned."""


class PrecisionError(ExactPokerError):
    """Ball arithmetic could not decide a sign within the allowed precision."""


class ResourceLimitError(ExactPokerError, ValueError):
    """A method would need more memory than the machine has (or than ``--max-memory`` allows)."""


class FigureError(ExactPokerError):
    """The answer was given, but the figure asked for could not be drawn (the message says which and why)."""
