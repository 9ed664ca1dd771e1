"""All pure equilibria of a two-action game decided by the higher card, by prefix counts.

The games are the :class:`~exactpoker.solve.structure.sign_games.SignGame` with two
actions for I and one decision label for II, as von Neumann poker (seed 000,
section 1: the paper's ``vnNE``).  I's ``2^n`` pure strategies are scanned in
vectorized blocks; II's best replies and I's best-response test come from
prefix counts of the cards where each takes action 1, in integers, so ties
are exact.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from exactpoker.solve.structure.sign_games import SignGame

__all__ = ["pure_equilibria"]

_CHUNK = 1 << 14  # rows per vectorized block of the pure enumeration


def pure_equilibria(
    g: SignGame, progress: Callable[[int, int], None] | None = None
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every pure equilibrium ``(bets, calls)`` (0/1 per card), sorted, by prefix counts.

    For each of I's ``2^n`` pure strategies (in vectorized blocks), II's reply
    at card ``j`` compares ``Delta_j``, I's gain when II takes action 1 rather
    than 0, which depends on the strategy only through the numbers of cards
    below and above ``j`` where I takes action 1.  II's best replies are the
    product of her optimal actions (both where ``Delta_j = 0``); each is kept
    when I's strategy is a best response to it, again by prefix counts.
    Integer arithmetic throughout (``u`` scaled to integers), so ties are exact.
    """
    if g.num_actions != 2 or len(g.labels) > 1:
        raise ValueError(f"pure_equilibria(): the game must give I two actions and II one decision; "
                         f"it has {g.num_actions} actions and {len(g.labels)} decisions")
    n = g.n
    _, uu = g.scaled()
    ee = [uu[1][1][h] - uu[1][0][h] - uu[0][1][h] + uu[0][0][h] for h in (0, 1)]
    # above every |gain| and every gain plus the most the tied cards can add (each at most 6 and 4 n max|u|)
    bound = 16 * n * max(abs(v) for row in uu for pair in row for v in pair)
    # the narrowest integers that hold every gain: the blocks' arithmetic is memory-bound (int16 for von Neumann)
    kind = next((t for t, top in ((np.int16, 2**15), (np.int32, 2**31), (np.int64, 2**63)) if bound < top), object)
    cards = np.arange(1, n + 1).astype(kind)
    respond_base = (cards - 1) * (uu[0][1][0] - uu[0][0][0]) + (n - cards) * (uu[0][1][1] - uu[0][0][1])
    act_base = (cards - 1) * (uu[1][0][1] - uu[0][0][1]) + (n - cards) * (uu[1][0][0] - uu[0][0][0])

    def counts(choices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per row and card, how many of the cards below it and above it take action 1 (new arrays)."""
        running = np.cumsum(choices, axis=1, dtype=choices.dtype)
        return running - choices, running[:, -1:] - running

    def weighted(below: np.ndarray, above: np.ndarray, base: np.ndarray, low: int, high: int) -> np.ndarray:
        gain = below * low
        gain += above * high
        gain += base
        return gain

    def gains(choices: np.ndarray, base: np.ndarray, low: int, high: int) -> np.ndarray:
        return weighted(*counts(choices), base, low, high)

    def best_for_i(bets: np.ndarray, calls: np.ndarray) -> np.ndarray:
        gain = gains(calls, act_base, ee[1], ee[0])  # I's card i: calls below i have h = 1
        return np.all(np.where(bets == 1, gain >= 0, gain <= 0), axis=1)

    def may_be_best_for_i(bets: np.ndarray, calls: np.ndarray, ties: np.ndarray) -> np.ndarray:
        """False where no setting of the tied cards makes ``bets`` a best response (I's gains are monotone in them)."""
        forced = gains(calls, act_base, ee[1], ee[0])
        below, above = counts(ties)
        up = weighted(below, above, forced, max(ee[1], 0), max(ee[0], 0))
        down = weighted(below, above, forced, min(ee[1], 0), min(ee[0], 0))
        return np.all(np.where(bets == 1, up >= 0, down <= 0), axis=1)

    found = []
    total = 1 << n
    shifts = np.arange(n, dtype=np.int64)
    # A block holds every setting of the first `low` cards (its rows) under one setting of the others; II's gains
    # are linear in the counts of I's bets below and above each card, so they are the first cards' part, made
    # once, plus the other cards' part, one vector per block.
    low = min(n, _CHUNK.bit_length() - 1)
    first = ((np.arange(1 << low, dtype=np.int64)[:, None] >> shifts) & 1).astype(kind)
    first_delta = gains(first, respond_base, ee[0], ee[1])  # II's card j: bets below j have h = 0
    for start in range(0, total, 1 << low):
        rest = ((np.int64(start) >> shifts) & 1).astype(kind)  # zero on the first cards
        bets = first | rest
        delta = first_delta + gains(rest[None, :], np.zeros_like(respond_base), ee[0], ee[1])
        calls, ties = (delta < 0).astype(kind), delta == 0
        plain = ~ties.any(axis=1)
        for row in np.nonzero(plain & best_for_i(bets, calls))[0]:
            found.append((tuple(bets[row].tolist()), tuple(calls[row].tolist())))
        counted = np.where(plain, 0, ties.sum(axis=1))
        counted[~plain & ~may_be_best_for_i(bets, calls, ties.astype(kind))] = 0
        for t in np.unique(counted[counted > 0]).tolist():
            found += _tied_replies(bets, calls, ties, np.nonzero(counted == t)[0], t, best_for_i)
        if progress is not None:
            progress(min(total, start + (1 << low)), total)
    return sorted(found)


def _tied_replies(
    bets: np.ndarray,
    calls: np.ndarray,
    ties: np.ndarray,
    rows: np.ndarray,
    t: int,
    best_for_i: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For rows with ``t`` tied cards each: the replies setting those either way to which the row is a best response.

    Blocks of whole rows times all ``2^t`` settings, at most about ``_CHUNK`` replies each.
    """
    found = []
    per_block = max(1, _CHUNK >> t)
    for low in range(0, 1 << t, _CHUNK):  # one slice unless t > log2(_CHUNK)
        settings = (np.arange(low, min(1 << t, low + _CHUNK), dtype=np.int64)[:, None] >> np.arange(t)) & 1
        for first in range(0, len(rows), per_block):
            block = rows[first:first + per_block]
            tied = np.nonzero(ties[block])[1].reshape(len(block), t)
            replies = np.repeat(calls[block][:, None, :], len(settings), axis=1)  # (rows, settings, n)
            where = (np.arange(len(block))[:, None, None], np.arange(len(settings))[None, :, None], tied[:, None, :])
            replies[where] = settings[None, :, :].astype(replies.dtype)
            flat_replies = replies.reshape(-1, bets.shape[1])
            flat_mine = np.repeat(bets[block], len(settings), axis=0)
            for k in np.nonzero(best_for_i(flat_mine, flat_replies))[0]:
                found.append((tuple(flat_mine[k].tolist()), tuple(flat_replies[k].tolist())))
    return found
