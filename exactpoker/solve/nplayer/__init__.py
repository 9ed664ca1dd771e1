"""Three or more players: guide -> support -> exact finish -> certificate.

``pipeline``               the one staged entry point (dominance, guide, support, exact finish).
``gain_system``            the guide's counterfactual gains and Jacobian, in floats.
``continuation``           the regularised system followed down in epsilon (seed 003 section 3).
``regret``                 counterfactual regret minimisation on the vectorised walk (DCFR, CFR+, ...).
``support_newton``         regret's play purified, completed and polished by Newton on its support.
``regret_route``           the large games' route: regret -> purify/complete/polish -> exact finish.
``fallback``               pure equilibria, then support enumeration, when the guide's route fails.
``finish``                 the exact finish on the guide's support (rational, algebraic, isolating box).
``square_system``          the square system of a support's interior gains.
``family``                 the equilibria on one support as functions of its free variables.
``ordered_solve``          three players decided by the order of the cards: the O(n) support search.
``support_search``         supports near a float guide, solved and certified in turn.
``indifference``           indifference equations on a guessed support.
``indifference_families``  families through a located equilibrium.
"""
