"""Solvers: exact LP, zero-sum games, pure equilibria."""
