"""The exact open-box stages (exactpoker.solve.algebra.open_box): splits and exact zeros (and bisection agrees)."""

from fractions import Fraction

import flint
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.solve.algebra.box_exclusion import excluded_by_boxes
from exactpoker.solve.algebra.open_box import Component, groebner, off_the_faces, shape_points, split_components

CTX = flint.fmpz_mpoly_ctx.get(("x", "y"), "degrevlex")
X, Y = CTX.gens()


def test_factors_that_cannot_vanish_in_the_open_box_are_dropped():
    # (x + 1)(2x - 1) and (y - 1)(x - y): x + 1 and y - 1 never vanish inside, so x = y = 1/2
    components = split_components([(X + 1) * (2 * X - 1), (Y - 1) * (X - Y)], CTX)
    assert len(components) == 1 and components[0].zero_dimensional
    assert shape_points(components[0]) == [[Fraction(1, 2), Fraction(1, 2)]]


def test_no_zero_in_the_open_box():
    assert split_components([X + Y - 3], CTX) == []
    assert split_components([X * Y, X - Y], CTX) == []  # the only zero is the corner (0, 0)
    assert split_components([(2 * X - 1) * (Y + 2), 3 * X - 1], CTX) == []


def test_a_split_gives_one_component_per_factor():
    components = split_components([(2 * X - 1) * (3 * Y - 1), X + Y - 1], CTX)
    points = sorted(p for c in components for p in shape_points(c))
    assert points == [[Fraction(1, 2), Fraction(1, 2)], [Fraction(2, 3), Fraction(1, 3)]]


def test_irrational_zero_is_exact():
    (component,) = split_components([2 * X * Y - 1, X - Y], CTX)
    ((x, y),) = shape_points(component)
    assert isinstance(x, AlgebraicNumber) and x == y and x * x == Fraction(1, 2)


def test_a_curve_is_not_zero_dimensional():
    (component,) = split_components([X + Y - 1], CTX)
    assert not component.zero_dimensional


CTX3 = flint.fmpz_mpoly_ctx.get(("x", "y", "z"), "degrevlex")


def test_the_part_of_a_component_on_the_faces_is_taken_off():
    """The line x = 1, y = z (on a face) and the point (1/2, 1/2, 1/2): off the faces only the point is left."""
    x, y, z = CTX3.gens()
    generators = [f * g for f in (x - 1, y - z) for g in (2 * x - 1, 2 * y - 1, 2 * z - 1)]
    basis, complete = groebner(generators, CTX3)
    component = Component(tuple(basis), CTX3, complete)
    assert complete and not component.zero_dimensional
    (part,) = off_the_faces(component)
    assert part.zero_dimensional and shape_points(part) == [[Fraction(1, 2)] * 3]
    assert off_the_faces(Component((x - 1,), CTX3, True)) == []  # all of it on the face x = 1
    (curve,) = off_the_faces(Component((x + y - 1,), CTX3, True))  # a plane through the box stays
    assert not curve.zero_dimensional


fractions = st.fractions(min_value=Fraction(1, 50), max_value=Fraction(49, 50), max_denominator=50)


@settings(max_examples=40, deadline=None)
@given(fractions, fractions, st.integers(-5, 5), st.integers(-5, 5), st.integers(1, 5))
def test_a_zero_inside_is_never_excluded(x0, y0, c1, c2, c3):
    """Soundness: a system with a rational zero inside the box keeps it, in every stage."""
    p, q = x0.denominator * X - x0.numerator, y0.denominator * Y - y0.numerator
    first, second = c1 * p + c2 * q + c3 * p * q, p * (c1 * q + c3) + c2 * q * q
    components = split_components([first, second], CTX)
    assert components
    zeros = [shape_points(c) for c in components if c.zero_dimensional]
    assert any(z is None or [x0, y0] in z for z in zeros) or any(not c.zero_dimensional for c in components)
    as_dict = {0b01: c1 * x0.denominator, 0b10: c2 * y0.denominator, 0: -c1 * x0.numerator - c2 * y0.numerator}
    as_dict = {m: v for m, v in as_dict.items() if v}
    if as_dict:
        assert not excluded_by_boxes(2, [as_dict], [], budget=300)


def test_a_child_process_returns_its_result_or_is_stopped():
    import time

    from exactpoker.solve.algebra.open_box import _in_child

    assert _in_child(lambda: [41 + 1], 30) == [42]
    start = time.monotonic()
    assert _in_child(lambda: time.sleep(30), 0.5) is None
    assert time.monotonic() - start < 10


def test_groebner_complete_basis():
    from exactpoker.solve.algebra.open_box import groebner

    basis, complete = groebner([X * Y - 1, X - Y], CTX)
    assert complete and any(g.degrees() == (0, 2) for g in basis)  # y^2 - 1 eliminates x
