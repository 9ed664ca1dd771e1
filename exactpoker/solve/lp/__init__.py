"""Two players, zero-sum: the sequence-form LP, from a float guide to an exact finish (stages: guide -> finish).

``sequence_form``  the LP (Koller, Megiddo and von Stengel 1996).
``float_guide``    the guide: HiGHS on the LP (floats only, never returned).
``zerosum``        the method: support, basis or simplex path, with the certificate.
``support``        exact finish from the guide's support (an exact linear system).
``basis``          exact finish from the guide's optimal basis (exact vertex, optimality, exact pivots).
``sparse_exact``   exact sparse LU in block triangular form.
``simplex``        an exact rational simplex method (also for matrix games and any LP).
``reconstruct``    an LP optimum read off the float vertex by rational reconstruction, then checked.
``optimal_set``    every optimal strategy of a player, as exact vertices.
``sign_games_lp``  the card-by-card LP of a game decided by the higher card (O(n)).
``strategic``      the strategic form solved as a matrix game (every or given pure strategies; ``strategic``).
``per_card``       player I's LP against II's pure choices per card (seed 000's djnMNE; ``per-card``).
``nearest``        the optimal strategy nearest a target: an exact LP over the optimal set (``nearest=``).
``coalitions``     what each coalition of a zero-sum game can guarantee (the characteristic function).
"""
