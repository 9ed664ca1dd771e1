"""The engine: finite decks -> shape hypotheses -> exact system -> certificate, for one game with a continuous deck.

:func:`solve_continuous` is the whole pipeline for rules with rational
parameters:

1. the rules become a model (:mod:`~exactpoker.solve.continuous.model`);
2. the same rules are solved exactly on finite decks of growing size
   (:mod:`~exactpoker.solve.continuous.readings`) and their card-by-card
   strategies read as shapes (:mod:`~exactpoker.solve.continuous.shapes`);
3. each shape in turn (:func:`~exactpoker.solve.continuous.attempt.try_shape`)
   gets its exact system solved and its solutions certified for every hand;
4. the first certified one is the answer (:mod:`~exactpoker.solve.continuous.result`),
   with its family described where it has one
   (:mod:`~exactpoker.solve.continuous.families`).

When no shape certifies, :class:`NoCertifiedShape` (a
:class:`~exactpoker.errors.CertificationError`) lists what was tried and why
each failed; nothing uncertified is ever returned.
"""

from __future__ import annotations

from itertools import islice
from typing import Sequence

from exactpoker.core.continuous_deck import continuous_deck
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.solve.continuous.attempt import FAMILY, Attempt, try_shape
from exactpoker.solve.continuous.model import BettingModel, betting_model
from exactpoker.solve.continuous.readings import Reading, default_decks, read_decks
from exactpoker.solve.continuous.shapes import hypotheses

__all__ = ["NoCertifiedShape", "solve_continuous", "search", "MAX_SHAPES"]

#: Shapes tried at most before giving up.
MAX_SHAPES = 40


class NoCertifiedShape(CertificationError):
    """No shape read from the finite decks gave a certified equilibrium; ``attempts`` says what was tried."""

    def __init__(self, message: str, attempts: Sequence[Attempt], readings: Sequence[Reading]) -> None:
        super().__init__(message)
        self.attempts = tuple(attempts)
        self.readings = tuple(readings)


def search(model: BettingModel, readings: Sequence[Reading], *, max_shapes: int = MAX_SHAPES) -> list[Attempt]:
    """Shapes from ``readings`` tried until one is certified (then the last attempt), or all fail.

    The first ``max_shapes`` hypotheses are tried with the fewest unknowns
    first (the simplest description of an equilibrium is the one wanted);
    shapes whose system is a family come last, their free unknowns fixed at
    simple rationals near the readings.
    """
    exact = model.exact()
    shapes = list(islice(hypotheses(readings), max_shapes))
    shapes = [shape for _size, _k, shape in sorted((len(s.unknowns()), k, s) for k, s in enumerate(shapes))]
    attempts: list[Attempt] = []
    later = []
    for shape in shapes:
        attempt = try_shape(model, exact, shape, families=False)
        if attempt.outcome == FAMILY:
            later.append(shape)
            continue
        attempts.append(attempt)
        if attempt.solved is not None:
            return attempts
    for shape in later:
        attempts.append(try_shape(model, exact, shape))
        if attempts[-1].solved is not None:
            break
    return attempts


def _summary(attempts: Sequence[Attempt]) -> str:
    reasons: dict[str, int] = {}
    for attempt in attempts:
        key = attempt.outcome.split(":")[0]
        reasons[key] = reasons.get(key, 0) + 1
    return ", ".join(f"{count} {reason}" for reason, count in reasons.items())


def solve_continuous(game: object, *, decks: Sequence[int] | None = None, source: str = "",
                     max_shapes: int = MAX_SHAPES):  # noqa: ANN201 - a ContinuousResult
    """The certified equilibrium of ``game`` with hands uniform on ``[0, 1]`` (module docstring).

    Parameters
    ----------
    game : BettingGame, PokerGame or ContinuousGame
        One-card betting rules (:func:`~exactpoker.core.continuous_deck.continuous_deck`); their own
        finite deck is replaced.
    decks : sequence of int, optional
        The finite deck sizes read (default: :func:`~exactpoker.solve.continuous.readings.default_decks`).
    source : str
        The game's name in the result (e.g. ``"library:vn(b=2)"``).
    max_shapes : int
        Shapes tried at most.

    Raises
    ------
    InvalidGameError
        If ``game`` is not a one-card betting game (one line saying why).
    NoCertifiedShape
        If no shape tried gives a certified equilibrium.
    """
    from exactpoker.solve.continuous.result import continuous_result

    continuous = continuous_deck(game, source)
    model = betting_model(continuous.rules)
    sizes = tuple(decks) if decks is not None else default_decks(model.num_players)
    if not sizes or any(not isinstance(n, int) or n < model.num_players for n in sizes):
        raise InvalidParameterError(f"decks must be deck sizes >= {model.num_players}; got {list(sizes)}")
    readings, failures = read_decks(continuous, model, sizes)
    attempts = search(model, readings, max_shapes=max_shapes) if readings else []
    if attempts and attempts[-1].solved is not None:
        return continuous_result(continuous, model, attempts, readings)
    name = source or continuous.name
    if not readings:
        raise NoCertifiedShape(f"{name} with a continuous deck: no finite deck was solved ({'; '.join(failures)})",
                               attempts, readings)
    raise NoCertifiedShape(f"{name} with a continuous deck: no shape read from the finite decks "
                           f"n = {', '.join(str(r.cards) for r in readings)} certifies ({len(attempts)} tried: "
                           f"{_summary(attempts)})", attempts, readings)
