"""Exact algebra under the finishes: roots, polynomial systems, boxes (used by every stage that solves exactly).

``polynomial_system``   the one exact solver of a polynomial system (rational, shape position, roots, box).
``linear``              a maximal set of independent rows of a rational matrix, in order.
``rational_reconstruction``  a vector's common denominator and numerators by modular rational reconstruction.
``roots``               exact real roots of univariate polynomials; arithmetic over one real number field.
``elimination``         the real solution of a square polynomial system near a float point, exactly.
``krawczyk``            proved isolating boxes of square systems (the interval-Newton test).
``box_exclusion``       proof that a multilinear system has no solution in the open unit box.
``open_box``            zeros of a multilinear system in the open unit box, found or ruled out.
``multilinear_box``     vertex values and strict signs of integer multilinear polynomials on a 0/1 box.
``multilinear_region``  the set where multilinear inequalities hold in the open unit box.
"""
