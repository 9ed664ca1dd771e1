"""Every equilibrium (``--all``) and every pure one (``--all-pure``), each list proved complete.

``two_player``       two players: every extreme equilibrium by vertex pairs, and the maximal convex sets.
``vertices``         every vertex of a polyhedron by exact lexicographic pivoting (a table of the bases seen).
``label_branching``  past that table's limit, every complementary pair by branching on labels (EEE).
``polytope_face``    an exact face of a best-response polytope at a vertex (the label search's step).
``convex_sets``      the maximal convex sets of equilibria (maximal bicliques).
``supports``         more players: support enumeration with a per-support proof.
``decide``           one support decided exactly: its equilibria, its family, or a proof of none.
``pure``             every pure equilibrium of a two-player game by exhaustive best responses.
``sign_games_pure``  every pure equilibrium of a game decided by the higher card, by prefix counts.
"""
