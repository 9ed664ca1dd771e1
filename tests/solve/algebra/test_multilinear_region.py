"""The exact region where multilinear inequalities hold in the open unit box (solve/algebra/multilinear_region.py)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.solve.algebra.multilinear_region import box_region, value_at

HALF = Fraction(1, 2)


def test_a_condition_in_one_unknown_is_a_bound():
    region = box_region(2, [{0: -4, 1: 5}, {0: 3, 2: -4}])  # 5 x - 4 >= 0, 3 - 4 y >= 0
    assert region.low == (Fraction(4, 5), 0) and region.high == (1, Fraction(3, 4))
    assert region.conditions == ()


def test_a_face_factor_is_divided_out():
    """(1 - x)(7 y - 2) >= 0 is 7 y >= 2 where x < 1: the open box's faces do not count."""
    region = box_region(2, [{0: -2, 2: 7, 1: 2, 3: -7}])
    assert region.low == (0, Fraction(2, 7)) and region.high == (1, 1)


def test_what_the_box_settles_is_dropped_and_the_rest_is_kept():
    # x y + 1 >= 0 holds everywhere; x + y - 1 >= 0 is kept (two unknowns)
    region = box_region(2, [{3: 1, 0: 1}, {1: 1, 2: 1, 0: -1}])
    assert region.conditions == ({1: 1, 2: 1, 0: -1},)
    assert region.contains((Fraction(3, 4), HALF)) and not region.contains((Fraction(1, 4), HALF))
    assert (1, 1) in region.corners() and (0, 0) not in region.corners()


def test_a_bound_dropping_a_condition_found_earlier():
    """Once x >= 4/5, 18 x y - 13 x - 18 y + 14 >= 0 holds on the whole box (its vertex values are >= 0)."""
    region = box_region(2, [{3: 18, 1: -13, 2: -18, 0: 14}, {0: -4, 1: 5}])
    assert region.low == (Fraction(4, 5), 0) and region.conditions == ()


@pytest.mark.parametrize("conditions", [
    [{1: 1, 2: 1, 0: -3}],  # x + y >= 3
    [{1: 1, 0: -1}],  # x >= 1: only the face x = 1, outside the open box
    [{1: -1}],  # x <= 0
    [{1: 2, 0: -1}, {1: -3, 0: 1}],  # x >= 1/2 and x <= 1/3
    [{0: -1}],  # a negative constant
])
def test_an_empty_region_is_proved_empty(conditions):
    assert box_region(2, conditions) is None


def test_too_many_unknowns_is_refused():
    with pytest.raises(ValueError, match="n must be at most"):
        box_region(20, [])


coefficient = st.integers(-6, 6)
unit = st.fractions(min_value=0, max_value=1, max_denominator=12).filter(lambda x: 0 < x < 1)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.dictionaries(st.integers(0, (1 << n) - 1), coefficient, min_size=1, max_size=4), min_size=1, max_size=4),
    st.lists(unit, min_size=n, max_size=n))))
def test_the_region_has_exactly_the_points_that_meet_the_conditions(data):
    """At a rational point of the open box: in the region exactly when every condition holds there."""
    n, conditions, point = data
    holds = all(value_at(g, point) >= 0 for g in conditions)
    region = box_region(n, conditions)
    if region is None:
        assert not holds
    else:
        assert region.contains(point) == holds
