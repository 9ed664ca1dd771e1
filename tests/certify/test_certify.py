"""The exact certificate: best-response values against brute force, and failures detected."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify, verify_matrix_game
from exactpoker.core import BehaviourProfile
from exactpoker.games import von_neumann
from exactpoker.solve.enumeration.pure import strategic_form
from tests.strategies import bets, probabilities


@settings(deadline=None, max_examples=30)
@given(n=st.integers(2, 5), b=bets, data=st.data())
def test_best_response_value_is_the_best_pure_reply(n, b, data):
    """The backward-induction best response equals the max over all pure strategies."""
    g = von_neumann.compiled(n, b)
    bet = [data.draw(probabilities) for _ in range(n)]
    call = [data.draw(probabilities) for _ in range(n)]
    certificate = verify(g, BehaviourProfile.from_tables(g, [{"open": bet}, {"facing a bet": call}]))
    rows, cols, m1, _ = strategic_form(g)
    row_weights = [np.prod([bet[k] if r[k] else 1 - bet[k] for k in range(n)]) for r in rows]
    col_weights = [np.prod([call[k] if c[k] else 1 - call[k] for k in range(n)]) for c in cols]
    against_cols = [sum(Fraction(int(m1[i, j])) * col_weights[j] for j in range(len(cols))) for i in range(len(rows))]
    against_rows = [sum(Fraction(int(m1[i, j])) * row_weights[i] for i in range(len(rows))) for j in range(len(cols))]
    first, second = certificate.checks
    assert first.best_response == max(against_cols) / g.denominator
    assert second.best_response == -min(against_rows) / g.denominator
    assert first.payoff == sum(w * v for w, v in zip(row_weights, against_cols)) / g.denominator
    assert first.regret >= 0 and second.regret >= 0


def test_a_perturbed_equilibrium_fails():
    g = von_neumann.compiled(3, 1)
    good = BehaviourProfile.from_tables(g, [{"open": [Fraction(1, 3), 0, 1]}, {"facing a bet": [0, Fraction(1, 3), 1]}])
    assert verify(g, good).holds
    bad = BehaviourProfile.from_tables(g, [{"open": [Fraction(1, 3), 0, 1]}, {"facing a bet": [0, Fraction(1, 2), 1]}])
    certificate = verify(g, bad)
    assert not certificate.holds and certificate.max_regret > 0


def test_matrix_certificate():
    pennies = [[1, -1], [-1, 1]]
    half = [Fraction(1, 2)] * 2
    assert verify_matrix_game(pennies, half, half).holds
    assert not verify_matrix_game(pennies, [Fraction(1), Fraction(0)], half).holds


@st.composite
def _layouts_and_values(draw):
    """A random player layout (each information set after the one holding its parent sequence) and coefficients:
    small integers, or integers past 64 bits (the best response's Python-number path)."""
    from exactpoker.core.compiled import TreeLayout

    actions, parents, sequences = [], [], 1
    for _ in range(draw(st.integers(0, 12))):
        parents.append(draw(st.integers(0, sequences - 1)))
        width = draw(st.integers(1, 3))
        actions.append(tuple(f"a{k}" for k in range(width)))
        sequences += width
    layout = TreeLayout(tuple(f"I{i}" for i in range(len(actions))), tuple(actions), tuple(parents))
    scale = draw(st.sampled_from([1, 2**70]))
    numerators = tuple(scale * draw(st.integers(-3, 3)) for _ in range(sequences))
    return layout, numerators


@settings(deadline=None, max_examples=80)
@given(found=_layouts_and_values(), denominator=st.integers(1, 7))
def test_best_response_by_levels_is_backward_induction(found, denominator):
    """The array best response (level by level) against a plain recursion over each information set's actions."""
    from exactpoker.core.evaluate import SequenceValues, best_response

    layout, c = found

    def worth(infoset):  # the best over the actions: own coefficient plus the worth of what follows
        return max(score(s) for s in layout.infoset_sequences(infoset))

    def score(sequence):
        return c[sequence] + sum(worth(j) for j in layout.children[sequence])

    value, optimal = best_response(layout, SequenceValues(0, c, denominator))
    assert value == Fraction(score(0), denominator)
    for infoset in range(layout.num_infosets):
        scores = [score(s) for s in layout.infoset_sequences(infoset)]
        assert optimal[infoset] == tuple(a for a, v in enumerate(scores) if v == max(scores))
