"""The engine: the one way in, and the choice of method from the game (stage: rules -> method).

``dispatch``         :func:`~exactpoker.solve.engine.dispatch.solve_game`, the one public entry: the game's own path,
                     else compile, guard and choose the method from the compiled game's shape; :data:`METHODS`,
                     the one ``method`` vocabulary.
``loaded``           :class:`~exactpoker.solve.engine.loaded.LoadedGame`: what every door asks a game (rules, a tree,
                     a compiled game, rules that compile themselves) to get it ready.
``restricted``       a smaller game the rules declare, solved; its equilibrium lifted and certified on the full game.
``structured``       the structured (O(n)) paths of a one-card betting game, chosen from its rules.
``structured_tree``  a game tree that is a one-card betting game, solved on its structured path.
``tables``           how a certified profile is laid out in a result (``strategies``, ``labelled_strategies``).
"""
