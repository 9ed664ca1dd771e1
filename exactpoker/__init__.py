"""exactpoker: exact, certified solutions of the small poker models of game theory."""
