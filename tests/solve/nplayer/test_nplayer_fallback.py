"""The N-player default never gives up where a simpler method works (issue 41, item 3).

When the float guide or its exact finish fails, :func:`exactpoker.solve.nplayer.fallback.simpler_methods`
tries pure equilibria, then support enumeration; every answer is certified exactly and a failure names what
was tried.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from exactpoker.certify import verify
from exactpoker.core.tree import compile_tree
from exactpoker.errors import CertificationError
from exactpoker.formats import load_game
from exactpoker.formats.nfg import read_nfg
from exactpoker.solve import solve_game
from exactpoker.solve.nplayer.fallback import simpler_methods
from exactpoker.solve.nplayer.pipeline import pure_equilibria_n
from tests.paths import DATA



def normal_form(arrays):
    """A strategic game from one payoff array per player, through the .nfg reader (player 1 fastest)."""
    shape = arrays[0].shape
    cells = []
    for index in itertools.product(*(range(s) for s in reversed(shape))):
        cells += [str(int(a[index[::-1]])) for a in arrays]
    players = " ".join(f'"P{p + 1}"' for p in range(len(shape)))
    text = f'NFG 1 R "random" {{ {players} }} {{ {" ".join(map(str, shape))} }}\n' + " ".join(cells)
    return compile_tree(read_nfg(text).tree)


def games(shape, scales=(1, 1000)):
    """Random payoff arrays of ``shape`` with entries in -3..3, times a scale (large payoffs make the
    regularised guide stiff: the case the fallback exists for)."""
    cells = int(np.prod(shape))
    return st.tuples(st.lists(st.lists(st.integers(-3, 3), min_size=cells, max_size=cells),
                              min_size=len(shape), max_size=len(shape)),
                     st.sampled_from(scales)).map(
        lambda drawn: [np.array(row).reshape(shape) * drawn[1] for row in drawn[0]])


def assert_solved(compiled):
    result = solve_game(compiled)
    assert len(result.equilibria) == 1
    equilibrium = result.equilibria[0]
    assert equilibrium.certified
    assert verify(compiled, equilibrium.profile).holds


def test_m3_four_pure_equilibria_the_guide_fails_on():
    """A 2x2x2 game with four pure equilibria on which the regularised guide does not converge: the first pure
    equilibrium is returned, certified, and the note says why."""
    loaded = load_game(str(DATA / "m3.nfg"))
    compiled = compile_tree(loaded.tree)
    result = solve_game(compiled)
    assert "pure equilibria by exhaustive best responses (the first of 4)" in result.method
    assert "float guide" in result.notes[0] and "no convergence" in result.notes[0]
    pure = pure_equilibria_n(compiled)
    assert len(pure) == 4
    strategy = tuple(tuple(row[0]) for row in result.equilibria[0].profile.strategies)
    assert strategy in {tuple(tuple(int(a == c[0]) for a in range(2)) for c in p.choices) for p in pure}


def test_failure_names_what_was_tried():
    """A game too large for both simpler methods: the message keeps the guide's failure and names both limits."""
    loaded = load_game("library:leduc(players=3,ranks=2)")
    compiled = loaded.compile() if loaded.compile is not None else compile_tree(loaded.tree)
    with pytest.raises(CertificationError) as error:
        simpler_methods(compiled, "the guide failed (a test)", pure_equilibria_n)
    message = str(error.value)
    assert message.startswith("the guide failed (a test); then ")
    assert "pure equilibria not enumerated" in message and "support enumeration not run" in message


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games((2, 2, 2)))
def test_random_2x2x2_always_certified(arrays):
    assert_solved(normal_form(arrays))


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(games((3, 3, 2)), games((2, 2, 2, 2)), games((3, 3, 3))))
def test_random_small_games_always_certified(arrays):
    """3x3x2, 2x2x2x2 and 3x3x3: the default solve always returns a certified equilibrium."""
    assert_solved(normal_form(arrays))


# -- the structured path gives up: the compiled game's methods -------------------------------------


def test_a_structured_path_that_gives_up_falls_back_to_the_compiled_game():
    """Three-player poker (seed 000 section 4) at b = 1/100: no support near the order-of-cards search's guide
    certifies, but the compiled game's float guide and exact finish answer (the default once refused)."""
    from fractions import Fraction

    from exactpoker.games.papers import three_player as tp

    with pytest.raises(CertificationError):
        solve_game(tp.game(5, Fraction(1, 100)), method="structured")
    result = solve_game(tp.game(5, Fraction(1, 100)))
    equilibrium = result.equilibria[0]
    assert equilibrium.certified and verify(tp.compiled(5, Fraction(1, 100)), equilibrium.profile).holds
    assert "free_infosets" not in result.details  # not the order-of-cards path's answer
    shown = tp.equilibrium(5, Fraction(1, 100))  # the paper's command presents it too
    assert shown.equilibria[0].values == equilibrium.values and "compiled game's methods" in shown.notes[1]


def test_when_both_give_up_the_failure_names_both(monkeypatch):
    from fractions import Fraction

    import exactpoker.solve.engine.dispatch as dispatch
    from exactpoker.games.papers import three_player as tp

    def fails(*args, **kwargs):
        raise CertificationError("nothing certifies here")

    monkeypatch.setattr(dispatch, "_solve_compiled", fails)
    with pytest.raises(CertificationError, match=r"the structured path failed \(indifference solver: .*\); then "
                                                 r"the compiled game's: nothing certifies here"):
        solve_game(tp.game(5, Fraction(1, 100)))
