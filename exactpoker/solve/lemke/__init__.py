"""Two players, general-sum: Lemke's method on the sequence form, exactly (stage: guide -> finish).

``lcp``     the game's LCP and the dense fraction-free Lemke path; :func:`~exactpoker.solve.lemke.lcp.solve_lemke`.
``sparse``  the revised path in floating point first, then an exact basis and exact pivots where needed.
``bases``   the path's basis: a sparse LU updated by eta vectors, in floats or exactly.
"""
