"""Hypothesis profiles for the suite.

``ci`` (the default) derandomizes: every run draws the same examples, so a red run is the code's doing,
not the draw's.  ``HYPOTHESIS_PROFILE=explore python -m pytest`` draws fresh examples each run, to look
for new counterexamples (pin one that is found with ``@example`` beside its test).
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
