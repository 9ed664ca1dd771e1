"""Structure detected in a game before it is solved (stage: compiled game -> its structure).

``card_structure``   a one-card betting game recovered from any game tree.
``poker_structure``  a poker-language game's card structure, read from its rules.
``sign_games``       two players, decided by the higher card: the O(n) game and its certificate.
``ordered_games``    three players, decided by the order of the cards: evaluated in O(n).
``dominance``        actions range-dominated in the rules, fixed before the guide.
``symmetry``         the game's automorphisms (colour refinement, each candidate checked exactly).
``abstraction``      lossless abstraction: orbits merged, the answer lifted back.
``restricted_lift``  a profile of a game with some actions left out, lifted to the full game by names.
"""
