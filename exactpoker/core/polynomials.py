"""Payoffs as sympy polynomials in the behaviour probabilities.

The compiled game keeps payoffs in sequence form (integer numerators over one
denominator).  For display, for symbolic work and for the papers' formulas
(e.g. seed 000's PayOffP1P2, a bilinear form in the ``p_i`` and ``q_j``) this
module writes them out as multilinear polynomials with one variable per
player, card and decision node.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import sympy

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.compiled import CompiledGame, PlayerLayout

__all__ = ["behaviour_symbols", "payoff_polynomials"]


def _name(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_")


def behaviour_symbols(compiled: CompiledGame, player: int) -> dict[tuple[int, str], tuple[sympy.Expr, ...]]:
    """The probability of each action, per ``(card, label)``, as sympy expressions.

    A two-action node of player ``P`` at label ``L`` with card ``c`` has one
    symbol ``P_L_c``, the probability of its last action; its first action has
    probability ``1 - P_L_c``.  A node with more actions has a symbol
    ``P_L_c_a`` for every action ``a`` but the first.
    """
    layout: PlayerLayout = compiled.layouts[player]
    who = _name(compiled.player_names[player])
    table = {}
    for infoset in range(layout.num_infosets):
        card, label = layout.infoset_card_label(infoset)
        names = layout.actions[label]
        stem = f"{who}_{_name(layout.labels[label])}_{card}"
        if len(names) == 2:
            x = sympy.Symbol(stem)
            probs: tuple[sympy.Expr, ...] = (1 - x, x)
        else:
            rest = tuple(sympy.Symbol(f"{stem}_{_name(a)}") for a in names[1:])
            probs = (1 - sum(rest),) + rest
        table[(card, layout.labels[label])] = probs
    return table


def _realizations(compiled: CompiledGame, player: int) -> list[sympy.Expr]:
    layout = compiled.layouts[player]
    symbols = behaviour_symbols(compiled, player)
    weights: list[sympy.Expr] = [sympy.Integer(0)] * layout.num_sequences
    weights[0] = sympy.Integer(1)
    for infoset in range(layout.num_infosets):
        card, label = layout.infoset_card_label(infoset)
        probs = symbols[(card, layout.labels[label])]
        parent = weights[layout.parent_sequence(infoset)]
        for s, prob in zip(layout.infoset_sequences(infoset), probs):
            weights[s] = parent * prob
    return weights


def payoff_polynomials(compiled: CompiledGame) -> list[sympy.Expr]:
    """Each player's expected payoff, expanded, in the symbols of :func:`behaviour_symbols`."""
    weights = [_realizations(compiled, p) for p in range(compiled.num_players)]
    result = []
    for p in range(compiled.num_players):
        total = sympy.Integer(0)
        for seqs, coefs in zip(compiled.sequences.tolist(), compiled.coefficients[:, p].tolist()):
            if coefs:
                term = sympy.Integer(int(coefs))
                for q, s in enumerate(seqs):
                    term *= weights[q][s]
                total += term
        result.append(sympy.expand(total / compiled.denominator))
    return result
