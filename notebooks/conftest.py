"""The notebooks run as tests (nbmake); the longest is a slow check.

``nash_shapley.ipynb`` certifies the equilibria of seventeen ratios a/b and
runs the exhaustive search of seed 001 (about 85 s on two cores): it runs with
the slow checks (``python -m pytest -m slow``, as ``.ci/run`` does), the others
in the default run.
"""

import pytest

#: Notebooks whose run takes over a minute.
SLOW_NOTEBOOKS = {"nash_shapley.ipynb"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.name in SLOW_NOTEBOOKS:
            item.add_marker(pytest.mark.slow)
