"""Integer multilinear polynomials on a 0/1 box (exactpoker.solve.algebra.multilinear_box), against direct evaluation."""

from fractions import Fraction
from itertools import product

import numpy as np
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.solve.algebra.multilinear_box import bitmask_poly, positive_on_open_box, vertex_values

N = 4  # variables x0..x3
X = sympy.symbols(f"x0:{N}")
polys = st.dictionaries(st.integers(0, (1 << N) - 1), st.integers(-5, 5), max_size=8)


def _evaluate(poly, point):
    return sum(c * np.prod([point[k] for k in range(N) if m >> k & 1]) for m, c in poly.items())


@settings(max_examples=80, deadline=None)
@given(polys, st.lists(st.sampled_from(["0", "1", "free", "open"]), min_size=N, max_size=N))
def test_vertex_values_are_the_values_at_the_vertices(poly, kinds):
    """Entry ``[a, b]`` is the polynomial at the vertex whose free coordinates (ascending) read ``a``, open ones ``b``."""
    zeros = sum(1 << k for k, kind in enumerate(kinds) if kind == "0")
    ones = sum(1 << k for k, kind in enumerate(kinds) if kind == "1")
    interior = sum(1 << k for k, kind in enumerate(kinds) if kind == "open")
    [values] = vertex_values([poly], zeros, ones, interior)
    present = 0
    for m in poly:
        present |= 0 if m & zeros else m & ~ones
    outer = [k for k in range(N) if present >> k & 1 and kinds[k] == "free"]
    inner = [k for k in range(N) if present >> k & 1 and kinds[k] == "open"]
    assert values.shape == (1 << len(outer), 1 << len(inner))
    for a, b in product(range(1 << len(outer)), range(1 << len(inner))):
        point = [1 if kind == "1" else 0 for kind in kinds]
        for j, k in enumerate(outer):
            point[k] = a >> j & 1
        for j, k in enumerate(inner):
            point[k] = b >> j & 1
        assert values[a, b] == _evaluate(poly, point)


@settings(max_examples=60, deadline=None)
@given(polys, st.lists(st.sampled_from([Fraction(1, 7), Fraction(1, 2), Fraction(6, 7)]), min_size=N, max_size=N))
def test_positive_on_the_open_box_holds_at_interior_points(poly, point):
    """When the open box is declared positive, the polynomial is positive at points inside it (exactly)."""
    [values] = vertex_values([poly], 0, 0, (1 << N) - 1)
    if positive_on_open_box(values):
        assert _evaluate(poly, point) > 0


def test_a_factor_that_vanishes_only_on_a_face():
    """``1 - x0`` is 0 at the face x0 = 1, positive on the open box; ``x0 - x1`` changes sign inside."""
    one_minus = bitmask_poly(1 - X[0], X)
    assert one_minus == {0: 1, 1: -1}
    [values] = vertex_values([one_minus], 0, 0, 1)
    assert positive_on_open_box(values) and not np.all(values > 0)
    [values] = vertex_values([bitmask_poly(X[0] - X[1], X)], 0, 0, 3)
    assert not positive_on_open_box(values) and not positive_on_open_box(-values)


def test_bitmask_poly_round_trip():
    expr = 3 * X[0] * X[2] - 2 * X[1] + 5
    poly = bitmask_poly(expr, X)
    assert poly == {0b101: 3, 0b010: -2, 0: 5}
    assert sympy.expand(sum(c * sympy.Mul(*[X[k] for k in range(N) if m >> k & 1]) for m, c in poly.items())) == expr
