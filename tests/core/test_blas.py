"""exactpoker.blas: the guide's dense solves run on one BLAS thread, and the limit is lifted afterwards."""

import numpy as np
import scipy.linalg
from threadpoolctl import threadpool_info

from exactpoker.blas import one_thread
from exactpoker.solve.nplayer.continuation import newton


def _blas_threads():
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_one_thread_inside_and_the_previous_limit_after():
    np.linalg.solve(np.eye(3), np.ones(3))
    scipy.linalg.lu_factor(np.eye(3))  # numpy's and scipy's BLAS both loaded
    before = _blas_threads()
    with one_thread():
        assert set(_blas_threads()) == {1}
        with one_thread():  # nested: nothing changes
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {1}
    assert _blas_threads() == before


def test_newton_runs_on_one_thread_and_restores_the_limit():
    before = _blas_threads()
    seen = []

    def fun(X):
        seen.extend(_blas_threads())
        return np.array([X[0] ** 2 - 2.0]), np.array([[2.0 * X[0], 0.0]])

    root = newton(fun, np.array([1.0, 0.0]))
    assert abs(root[0] - 2 ** 0.5) < 1e-12
    assert set(seen) == {1} and _blas_threads() == before
