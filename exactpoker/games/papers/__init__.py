"""The papers' procedures, tables and words, one module per paper, on the one engine.

A game's rules live in :mod:`exactpoker.games` (``von_neumann.game(n, b)``);
what a paper computes from them and how it shows the answer lives here: the
paper's named procedures (``vnMNE``, ``djnMNE``, ...), its tables (strategies
per card, the matrices of seed 000, the node numbers of seed 003), its advice
texts and legends.  Every equilibrium comes from the one entry point,
:func:`exactpoker.solve.solve_game`, with the one ``method`` vocabulary
(:data:`~exactpoker.solve.engine.dispatch.METHODS`); a module here imports the
rules, :mod:`exactpoker.core`, the certificate and the public names of
:mod:`exactpoker.solve`, never a solver's internals.

``von_neumann``    seed 000 sections 1-2: von Neumann poker (``vnNE``, ``vnMNE``, ``MNE``, ``vnMNEv``).
``newman``         seed 000 section 3: Newman poker (``djnMNE`` and its LP, saturation).
``simple_poker``   seed 004: the Euler notes' most simple poker (tactics, ``R``, ``game(R)``, the value over B/A).
``goldman_stone``  seed 002 on a finite deck: Lemma 8 discretised, the nearest optimum, convergence.
``three_player``   seed 000 section 4: three-player poker (``FastMNE``: the support search, ``P, Q, R``).
``nash_shapley``   seed 001, a package (one module a section): payoffs, condition (C), points, completeness, regions.
``kuhn3``          seed 003 sections 2-3: dominated choices, condition (1), the regularised system, the family.
``kuhn3_tables``   seed 003: the engine's answer in the paper's node tables (``exactpoker kuhn3``).
``kuhn3_branch``   seed 003 section 3: the branch of equilibria in the pot.
``kuhn3_skp``      seed 003 section 4: the simplified game SKP.
``kuhn3_plot``     seed 003's figures (matplotlib, imported only when asked for).
"""
