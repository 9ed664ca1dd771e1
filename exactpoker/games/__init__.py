"""The games as rules: one module per game of the seeds (and the shipped library), data only.

A module here builds a game (``von_neumann.game(n, b)``: a
:class:`~exactpoker.core.game.BettingGame`; ``liars_dice.liars_dice(...)``:
rules that compile themselves) from :mod:`exactpoker.core`; any of them is
solved by :func:`exactpoker.solve.solve_game`.  What a paper computes from its
game and how it shows the answer (its named procedures, tables, advice texts,
legends) lives in :mod:`exactpoker.games.papers`, one module per paper.
"""
