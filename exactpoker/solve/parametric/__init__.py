"""Over a parameter (``--over``): exact pieces with exact breakpoints, each certified on every point.

``game``            a two-player zero-sum game over an interval: pieces, maximum.
``lp``              an LP whose matrix is polynomial in the parameter: bases over Q(r), piece by piece.
``sign_intervals``  the largest interval around a point on which polynomial sign conditions hold.
``matrix_game``     the value of a matrix game linear in a parameter, as a piecewise function.
``branch``          general-sum and many-player games: certified points joined by a continuation branch.
"""
