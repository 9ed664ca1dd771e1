"""Continuous-deck poker models, solved symbolically with sympy."""
