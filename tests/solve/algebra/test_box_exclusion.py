"""Proved bisection, contraction and blow-up charts (exactpoker.solve.algebra.box_exclusion)."""

from fractions import Fraction

import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactpoker.solve.algebra.box_exclusion import (excluded_by_boxes, excluded_by_charts, face_charts, vanishing_faces,
                                            without_face_factors)
from exactpoker.solve.algebra.multilinear_region import value_at

X, Y, Z, S = sympy.symbols("x y z s")
UNKNOWNS = (X, Y, Z, S)


def multilinear(expr: sympy.Expr, n: int) -> dict[int, int]:
    """A sympy polynomial, multilinear in the first ``n`` of x, y, z, s, as a bitmask dictionary."""
    poly = sympy.Poly(sympy.expand(expr), *UNKNOWNS[:n])
    out = {}
    for exponents, c in poly.terms():
        assert max(exponents) <= 1
        out[sum(1 << j for j, e in enumerate(exponents) if e)] = int(c)
    return out


def test_bisection_uses_the_conditions():
    line = multilinear(X + Y - 1, 2)  # meets the open box
    assert not excluded_by_boxes(2, [line], [])
    never = multilinear(X - Y - 2, 2)  # x - y - 2 >= 0 nowhere in the box
    assert excluded_by_boxes(2, [line], [({0: 1}, never)])
    half = multilinear(2 * X - 1, 2)  # the condition only binds where x > 1/2; the line has zeros with x < 1/2
    assert not excluded_by_boxes(2, [line], [(half, never)], budget=50)
    inside = multilinear(X, 2)  # x > 0 everywhere in the open box (the factor x is divided out): it binds
    assert excluded_by_boxes(2, [line], [(inside, never)], budget=50)
    assert excluded_by_boxes(2, [multilinear(X * Y + 1, 2)], [])


def test_contraction_cuts_what_vertex_signs_alone_cannot():
    # 2x + 2y = 3 and 10x - 10y = 9 meet at x = 6/5, outside: every sub-box along the first line straddles it
    system = [multilinear(2 * X + 2 * Y - 3, 2), multilinear(10 * X - 10 * Y - 9, 2)]
    assert excluded_by_boxes(2, system, [], budget=3)


def test_zeros_only_on_the_boundary_are_excluded_once_face_factors_go():
    # x y = 0 and x = y meet only at the corner (0, 0); without its factors, x y is 1 > 0 inside
    assert excluded_by_boxes(2, [multilinear(X * Y, 2), multilinear(X - Y, 2)], [], budget=200)


def test_face_factors_are_divided_out_with_their_sign():
    assert without_face_factors(2, multilinear(X * (2 * Y - 1), 2)) == multilinear(2 * Y - 1, 2)
    assert without_face_factors(2, multilinear((X - 1) * (2 * Y - 1), 2)) == multilinear(1 - 2 * Y, 2)  # x - 1 < 0
    assert without_face_factors(2, multilinear(X * (1 - Y), 2)) == {0: 1}
    assert without_face_factors(2, multilinear(X + Y - 1, 2)) == multilinear(X + Y - 1, 2)


SHARP = [multilinear(2 * (1 - X) - (1 - Y) * (1 + Z), 3), multilinear((1 - X) - 2 * (1 - Y), 3)]


def test_blow_up_charts_clear_a_face_where_the_equations_vanish():
    # both equations vanish on the whole edge x = y = 1, outside the open box; inside they would need z = 3
    assert not excluded_by_boxes(3, SHARP, [], budget=3000)
    assert vanishing_faces(3, SHARP)[0] == (0, 1, 1, 1)
    assert excluded_by_charts(3, SHARP, [], budget=3000)


fractions = st.fractions(min_value=Fraction(1, 40), max_value=Fraction(39, 40), max_denominator=40)
coefficients = st.integers(-6, 6)


@settings(max_examples=60, deadline=None)
@given(fractions, fractions, fractions, st.lists(coefficients, min_size=20, max_size=20))
@example(Fraction(1, 40), Fraction(1, 40), Fraction(1, 40), [0] * 17 + [-1, -6, 0])  # kept was 7 - x - 6 y
def test_a_chart_equation_is_the_equation_divided_by_the_larger_distance(x, y, z, c):
    """On the chart y_i = s y_j, each equation that vanishes on the face equals f(x) / y_j."""
    point = (x, y, z)
    g = sum(ci * m for ci, m in zip(c[:8], [1, X, Y, Z, X * Z, Y * Z, X * Y, X * Y * Z]))
    h = sum(ci * m for ci, m in zip(c[8:16], [1, X, Y, Z, X * Z, Y * Z, X * Y, X * Y * Z]))
    f = multilinear((1 - X) * g.subs(X, 1) + (1 - Y) * h.subs(X, 1).subs(Y, 1), 3)  # vanishes at x = y = 1
    # 19 > 3 * 6: on the face x = y = 1 this is (c16 + c17 + c18 + 19) + c19 z, never identically 0 (with + 7 it
    # could be, e.g. 7 - x - 6 y, and was then rightly divided like f)
    kept = multilinear(sum(ci * m for ci, m in zip(c[16:20], [1, X, Y, Z])) + 19, 3)
    first, second = face_charts(3, [f, kept], (0, 1, 1, 1))
    yi, yj = 1 - x, 1 - y
    for chart, small, large in ((first, yi, yj), (second, yj, yi)):
        s = small / large
        lifted = (*point, s)
        if any(f.values()):
            assert value_at(chart[0], lifted) * large == value_at(f, point)
        assert value_at(chart[1], lifted) == value_at(kept, point)
        assert value_at(chart[2], lifted) == 0  # y_small - s y_large


@settings(max_examples=40, deadline=None)
@given(fractions, fractions, fractions, st.lists(st.lists(coefficients, min_size=8, max_size=8), min_size=2,
                                                 max_size=3), st.lists(coefficients, min_size=4, max_size=4))
def test_a_zero_inside_is_never_excluded(x, y, z, rows, condition):
    """Soundness: a multilinear system with a rational zero in the open box (meeting the conditions) keeps it."""
    point = (x, y, z)
    monomials = [1, X, Y, Z, X * Y, X * Z, Y * Z, X * Y * Z]
    denominator = x.denominator * y.denominator * z.denominator
    equations = []
    for row in rows:
        expr = sum(ci * m for ci, m in zip(row, monomials))
        at = expr.subs({X: x, Y: y, Z: z})
        equations.append(multilinear(denominator * (expr - at), 3))
    g = sum(ci * m for ci, m in zip(condition, [1, X, Y, Z]))
    g = multilinear(denominator * (g - g.subs({X: x, Y: y, Z: z})) + 1, 3)  # g >= 0 holds at the zero
    conditions = [({0: 1}, g)]
    assert all(value_at(p, point) == 0 for p in equations)
    assert not excluded_by_boxes(3, equations, conditions, budget=400)
    assert not excluded_by_charts(3, equations, conditions, budget=200)
