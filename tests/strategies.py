"""Hypothesis strategies shared by the tests."""

from fractions import Fraction

from hypothesis import strategies as st

bets = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(12), max_denominator=12)
probabilities = st.fractions(min_value=0, max_value=1, max_denominator=9)
