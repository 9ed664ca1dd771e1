"""The engine: finite decks -> shape hypotheses -> exact system -> certificate, for one game with a continuous deck.

:func:`solve_continuous` is the whole pipeline for rules with rational
parameters:

1. the rules become a model (:mod:`~exactpoker.solve.continuous.model`);
2. the same rules are solved exactly on finite decks of growing size
   (:mod:`~exactpoker.solve.continuous.readings`) and their card-by-card
   strategies read as shapes (:mod:`~exactpoker.solve.continuous.shapes`);
   a larger deck is read only when no shape of the smaller ones certifies;
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

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

from exactpoker.core.continuous_deck import continuous_deck
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.solve.continuous.attempt import FAMILY, Attempt, try_shape
from exactpoker.solve.continuous.model import BettingModel, betting_model
from exactpoker.solve.continuous.profile import Shape
from exactpoker.solve.continuous.readings import Reading, default_decks, read_decks
from exactpoker.solve.continuous.shapes import absorbed, hypotheses, runs_of, shape_of

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.continuous.result import ContinuousResult

__all__ = ["NoCertifiedShape", "solve_continuous", "search", "try_families", "simplify", "borrowed", "MAX_SHAPES"]

#: Shapes tried at most before giving up.
MAX_SHAPES = 60
#: Seconds of trying shapes (the finite decks' solves not counted) after which no new shape is tried.
SECONDS = 60.0


class NoCertifiedShape(CertificationError):
    """No shape read from the finite decks gave a certified equilibrium; ``attempts`` says what was tried."""

    def __init__(self, message: str, attempts: Sequence[Attempt], readings: Sequence[Reading]) -> None:
        super().__init__(message)
        self.attempts = tuple(attempts)
        self.readings = tuple(readings)


def search(model: BettingModel, readings: Sequence[Reading], *, max_shapes: int = MAX_SHAPES,
           tried: set | None = None, deadline: float = float("inf")) -> tuple[list[Attempt], list[Shape]]:
    """Shapes from ``readings`` (not in ``tried``) tried until one is certified (then the last attempt).

    The first ``max_shapes`` new hypotheses are tried with the fewest
    unknowns first (the simplest description of an equilibrium is the one
    wanted).  Shapes whose system is a family are not solved here but
    returned (second list), for :func:`try_families` once every deck is read.
    """
    exact = model.exact()
    tried = set() if tried is None else tried
    fresh = []
    for shape in hypotheses(readings):
        if len(fresh) >= max_shapes:
            break
        if (shape.segments, shape.order) not in tried:
            tried.add((shape.segments, shape.order))
            fresh.append(shape)
    fresh = [shape for _size, _k, shape in sorted((len(s.unknowns()), k, s) for k, s in enumerate(fresh))]
    attempts: list[Attempt] = []
    families = []
    for shape in fresh:
        if time.monotonic() > deadline:
            break
        attempt = try_shape(model, exact, shape, families=False)
        if attempt.outcome == FAMILY:
            families.append(shape)
            continue
        attempts.append(attempt)
        if attempt.solved is not None:
            break
    return attempts, families


def try_families(model: BettingModel, shapes: Sequence[Shape], deadline: float = float("inf")) -> list[Attempt]:
    """Shapes whose system is a family, their free unknowns fixed near the readings, until one is certified (or
    the ``deadline`` of :func:`time.monotonic` passes)."""
    exact = model.exact()
    attempts: list[Attempt] = []
    for shape in shapes:
        if time.monotonic() > deadline:
            break
        attempts.append(try_shape(model, exact, shape))
        if attempts[-1].solved is not None:
            break
    return attempts


def _in_ties(solved: Attempt) -> set[tuple[int, int]]:
    """The segments ``(h, k)`` lying wholly where their information set earns the same with another action: the
    only ones a member of the same family can do without."""
    shape, certificate = solved.solved.shape, solved.solved.certificate  # type: ignore[union-attr]
    tied = {(tie.infoset, tie.interval) for tie in certificate.ties}
    breaks = solved.solved.profile.breaks  # type: ignore[union-attr]
    wide = [i for i in range(len(breaks) - 1) if breaks[i] < breaks[i + 1]]
    segments = set()
    for h, segs in enumerate(shape.segments):
        for k in range(len(segs)):
            inside = [i for i in wide if shape.segment_of(h, i) == k]
            if inside and all((h, i) in tied for i in inside):
                segments.add((h, k))
    return segments


def simplify(model: BettingModel, solved: Attempt, tried: set, deadline: float = float("inf")) -> list[Attempt]:
    """Simpler shapes than a certified one, tried in turn: each segment lying in a tie merged into a neighbour; a
    simpler shape that is certified replaces it (the equilibrium found may be one member of a family whose
    simplest member has fewer cut points)."""
    exact = model.exact()
    attempts: list[Attempt] = []
    current = solved
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        runs = runs_of(current.solved.shape, current.solved.values,  # type: ignore[union-attr]
                       [len(infoset.actions) for infoset in model.infosets])
        removable = _in_ties(current)
        candidates = (shape_of(runs[:h] + [absorbed(runs[h], k)] + runs[h + 1:], together, reverse_ties=reverse)
                      for h, k in sorted(removable) if len(runs[h]) > 1
                      for together, reverse in ((1e-12, False), (0.0, False), (0.0, True)))  # equal cuts: one point,
        # or each its own in either order
        for simpler in candidates:
            if (simpler.segments, simpler.order) in tried:
                continue
            tried.add((simpler.segments, simpler.order))
            attempt = try_shape(model, exact, simpler, families=False)
            attempts.append(attempt)
            if attempt.solved is not None:
                current, improved = attempt, True
                break
    if attempts and attempts[-1].solved is None:
        attempts.append(current)  # the simplest certified shape comes last
    return attempts


def _summary(attempts: Sequence[Attempt]) -> str:
    reasons: dict[str, int] = {}
    for attempt in attempts:
        key = attempt.outcome.split(":")[0]
        reasons[key] = reasons.get(key, 0) + 1
    return ", ".join(f"{count} {reason}" for reason, count in reasons.items())


def solve_continuous(game: object, *, decks: Sequence[int] | None = None, source: str = "",
                     max_shapes: int = MAX_SHAPES, seconds: float = SECONDS,
                     shapes_from: "Sequence[ContinuousResult] | Callable[[], Sequence[ContinuousResult]]" = ()
                     ) -> "ContinuousResult":
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
    seconds : float
        No new shape is tried after this many seconds of trying (the finite decks' solves not counted).
    shapes_from : sequence of ContinuousResult, or a function giving one
        Certified answers of the same rules at other sizes (e.g. another bet): when no shape read from the
        finite decks certifies, their shapes are tried here too (:func:`borrowed`; a function is called only
        then). A size far from the decks' reach -- a bluffing range narrower than a card of the largest deck
        -- is solved this way.

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
    readings: list[Reading] = []
    failures: list[str] = []
    attempts: list[Attempt] = []
    families: list[Shape] = []
    tried: set = set()
    spent = 0.0
    for cards in sorted(sizes):  # the small decks first: the larger ones only when no shape certifies yet
        new, failed = read_decks(continuous, model, (cards,))
        readings += new
        failures += failed
        if new and len(attempts) < max_shapes:
            started = time.monotonic()
            found, deferred = search(model, readings, max_shapes=max_shapes - len(attempts), tried=tried,
                                     deadline=started + seconds - spent)
            attempts += found
            families += deferred
            if attempts and attempts[-1].solved is not None:
                attempts += simplify(model, attempts[-1], tried, started + seconds - spent)
                return continuous_result(continuous, model, attempts, readings)
            spent += time.monotonic() - started
    attempts += try_families(model, families[:max(0, max_shapes - len(attempts))], time.monotonic() + seconds - spent)
    if attempts and attempts[-1].solved is not None:
        return continuous_result(continuous, model, attempts, readings)
    lenders = shapes_from() if callable(shapes_from) else shapes_from
    lent, lender = borrowed(model, lenders)
    attempts += lent
    if lender is not None:
        return continuous_result(continuous, model, attempts, readings, lent_by=lender)
    name = source or continuous.name
    if not readings:
        raise NoCertifiedShape(f"{name} with a continuous deck: no finite deck was solved ({'; '.join(failures)})",
                               attempts, readings)
    others = f" nor any of {', '.join(r.game for r in lenders)}'s" if lenders else ""
    raise NoCertifiedShape(f"{name} with a continuous deck: no shape read from the finite decks "
                           f"n = {', '.join(str(r.cards) for r in readings)}{others} certifies ({len(attempts)} "
                           f"tried: {_summary(attempts)})", attempts, readings)


def borrowed(model: BettingModel, results: Sequence["ContinuousResult"]) -> tuple[list[Attempt], str | None]:
    """The certified shapes of ``results`` (those with ``model``'s information sets and actions) tried on
    ``model`` in turn until one is certified; the attempts, and the game whose shape was certified (or ``None``).

    A shape says which actions each information set takes on which segment and the order of the cut points; the
    system solved here is ``model``'s own, and the certificate too: of the other game nothing is kept but its
    certified values of the unknowns, which only order several exact solutions (a shape the decks read here is
    tried again with them).
    """
    exact = model.exact()
    attempts: list[Attempt] = []
    for result in results:
        if result.model.infosets != model.infosets:
            continue
        solved = result.solved
        shape = replace(solved.shape, guesses={u: float(v) for u, v in solved.values.items()})
        attempts.append(try_shape(model, exact, shape))
        if attempts[-1].solved is not None:
            return attempts, result.game
    return attempts, None
