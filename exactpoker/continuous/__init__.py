"""The papers' continuous-deck games: von Neumann (seed 000 s. 1), three-player poker (s. 4) and Goldman--Stone
(seed 002) presented on the continuous engine (:mod:`exactpoker.solve.continuous`), and Newman's game (s. 3),
whose continuum of bet sizes the engine's finite actions cannot express, derived on its own."""
