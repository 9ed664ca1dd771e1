"""The continuous-deck engine: one-card betting rules with hands uniform on [0, 1], solved and certified exactly."""

from exactpoker.solve.continuous.engine import NoCertifiedShape, solve_continuous

__all__ = ["solve_continuous", "NoCertifiedShape"]
