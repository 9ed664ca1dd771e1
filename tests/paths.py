"""Where the tests find the repository and their data files, wherever a test module sits in tests/."""

from pathlib import Path

#: The repository's root (the folder holding pyproject.toml).
ROOT = Path(__file__).resolve().parent.parent
#: The test data: Gambit files, reference values.
DATA = ROOT / "tests" / "data"
