"""Three-player Kuhn poker (seed 003) where the equilibrium is irrational of high degree: isolating boxes.

N = 5, P = 3 has no minimal polynomial of degree <= 48 at 10000 digits; the
equilibrium is the unique zero of the support's indifference system in a box
proved by Krawczyk's test, certified in ball arithmetic (certify_balls).
"""

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest

from exactpoker.certify_balls import BallCertificate, BallEquilibrium, CertifiedReal, certify_box
from exactpoker.cli import main
from exactpoker.errors import CertificationError, InvalidParameterError
from exactpoker.games.papers import kuhn3
from exactpoker.solve.nplayer.continuation import Trend
from exactpoker.solve.nplayer.finish import _rank_tolerances, classify, exact_gains, guide_accuracy


@pytest.fixture(scope="module")
def n5_p3():
    x = kuhn3.float_equilibrium(5, 3)
    return x, kuhn3.exact_from_guide(5, Fraction(3), x)


def test_n5_p3_is_an_isolating_box_certified_on_balls(n5_p3):
    x_float, solution = n5_p3
    assert solution.box is not None and isinstance(solution.certificate, BallCertificate)
    certificate = solution.certificate
    assert certificate.holds and certificate.box.verify() and certificate.places == 30
    assert len(solution.unknowns) == len(solution.equations) == 18
    assert certificate.zero_sum  # E_1 + E_2 + E_3 is the zero polynomial: the values sum to 0 exactly
    # the float guide's payoffs lie within its regularisation error of the certified values
    guide = kuhn3.gain_system(5).payoffs(x_float, 3.0)
    assert all(abs(float(c.payoff) - v) < 1e-4 for c, v in zip(certificate.checks, guide))
    assert abs(sum(c.payoff.mid for c in certificate.checks)) < Fraction(1, 10**25)
    assert [round(float(c.payoff), 6) for c in certificate.checks] == [-0.038327, -0.000066, 0.038394]


def test_n5_p3_exact_gains_at_the_box_centre_agree(n5_p3):
    """Exact rational gains at the box's centre: the system's gains tiny, the others of the claimed signs."""
    _, solution = n5_p3
    g = kuhn3.compiled(5, 3)
    centre = dict(zip(solution.unknowns, solution.box.centres))
    x = [centre.get(k, v) for k, v in enumerate(solution.x)]
    gains = exact_gains(g, x)
    assert all(abs(gains[r]) < Fraction(1, 10**40) for r in solution.equations)
    for k, v in enumerate(x):
        if v == 0:
            assert gains[k] < 0
        elif v == 1:
            assert gains[k] > 0


def test_same_equilibrium_from_a_guide_perturbed_by_rounding_noise(n5_p3):
    """The exact finish does not depend on the guide's last bits (BLAS threads, platform): the same support,
    the same pins and the same certified digits from a guide moved by 1e-12 (relative)."""
    x_float, solution = n5_p3
    noise = 1 + 1e-12 * np.random.default_rng(3).standard_normal(len(x_float))
    again = kuhn3.exact_from_guide(5, Fraction(3), x_float * noise)
    assert (again.zeros, again.ones, again.pinned, again.unknowns) == (solution.zeros, solution.ones,
                                                                        solution.pinned, solution.unknowns)
    assert [str(v) for v in again.x] == [str(v) for v in solution.x]


def test_dominated_actions_never_played_and_node_keys(n5_p3):
    _, solution = n5_p3
    r = kuhn3.result_of(5, Fraction(3), solution, "test")
    eq = r.equilibria[0]
    assert isinstance(eq, BallEquilibrium) and eq.certified
    assert sorted(eq.strategies, key=int) == [str(i) for i in range(1, 13)]
    for node, cards in kuhn3.dominated_fixings(5).items():
        for card, v in cards.items():
            assert eq.strategies[str(node)][card - 1] == v
    mixed = [v for row in eq.strategies.values() for v in row if isinstance(v, CertifiedReal)]
    assert len(mixed) == 18 and all(0 < v.mid - v.rad and v.mid + v.rad < 1 for v in mixed)


def test_perturbed_box_or_wrong_support_is_refused(n5_p3):
    _, solution = n5_p3
    g = kuhn3.compiled(5, 3)
    box = solution.box
    x = list(solution.x)
    certify_box(g, x, solution.unknowns, solution.equations, box)  # the genuine box passes
    shifted = dataclasses.replace(box, centres=tuple(c + 4 * r for c, r in zip(box.centres, box.radii)))
    with pytest.raises(CertificationError, match="Krawczyk"):
        certify_box(g, x, solution.unknowns, solution.equations, shifted)
    with pytest.raises(CertificationError, match="equations"):  # the box is not of these gains
        certify_box(g, x, solution.unknowns, solution.equations[::-1], box)
    wrong = list(x)
    zero = next(k for k in solution.zeros)
    wrong[zero] = Fraction(1)  # a strictly dominated-on-the-box choice played: the system changes too
    with pytest.raises(CertificationError):
        certify_box(g, wrong, solution.unknowns, solution.equations, box)
    with pytest.raises(CertificationError, match="digits"):
        certify_box(g, x, solution.unknowns, solution.equations, box, places=box.digits + 1)


def test_cli_text_and_json_show_the_certificate(capsys):
    assert main(["kuhn3", "--cards", "5", "--pot", "3"]) == 0
    text = capsys.readouterr().out
    assert "interval-Newton isolating box, 30 digits certified" in text
    assert "values: -0.038327258717" in text
    assert main(["kuhn3", "--cards", "5", "--pot", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    eq = out["equilibria"][0]
    assert eq["certified"] is True and eq["certificate"].items() >= {"kind": "interval-Newton isolating box", "digits": 30,
                                                                 "holds": True}.items()
    assert sorted(eq["strategies"], key=int) == [str(i) for i in range(1, 13)]
    assert all(v.endswith("±1e-30") for v in eq["values"])
    box = out["details"]["isolating_box"]
    assert len(box["equations"]) == len(box["box"]) == 18
    for lo, hi in box["box"].values():
        assert 0 < Fraction(lo) < Fraction(hi) < 1 and Fraction(hi) - Fraction(lo) < Fraction(1, 10**30)


def test_cli_digits_sets_the_certified_places(capsys):
    """--digits D: the box and the values certified to D decimal places, and the certificate says so."""
    assert main(["kuhn3", "--cards", "5", "--pot", "3", "--digits", "45", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    eq = out["equilibria"][0]
    assert eq["certified"] is True and eq["certificate"].items() >= {"kind": "interval-Newton isolating box", "digits": 45,
                                                                 "holds": True}.items()
    assert all(v.endswith("±1e-45") for v in eq["values"]) and eq["values"][0].startswith("-0.038327258717")
    for lo, hi in out["details"]["isolating_box"]["box"].values():
        assert 0 < Fraction(hi) - Fraction(lo) < Fraction(1, 10**45)


@pytest.mark.parametrize("digits", ["0", "-3", "2.5", "x", "1001"])
def test_bad_digits_are_refused_before_solving(digits, capsys):
    assert main(["kuhn3", "--cards", "5", "--pot", "3", "--digits", digits]) == 2
    assert "digits" in capsys.readouterr().err
    with pytest.raises(InvalidParameterError, match="digits"):
        kuhn3.equilibrium(5, 3, digits=digits)


@pytest.mark.slow
def test_n6_well_above_p_min():
    """N = 6, P = 5 (7.5 P_min): no minimal polynomial of degree <= 24; certified on an isolating box."""
    r = kuhn3.equilibrium(6, 5)
    eq = r.equilibria[0]
    assert eq.certified and "isolating_box" in r.details
    assert abs(sum(v.mid for v in eq.values)) < Fraction(1, 10**25) and eq.certificate.zero_sum
    assert float(eq.values[2]) > 0  # player 3 profits above P_min
    assert np.isclose([float(v) for v in eq.values], kuhn3.gain_system(6).payoffs(
        kuhn3.float_equilibrium(6, 5), 5.0), atol=1e-4).all()


@pytest.mark.slow
def test_n7_support_corrected_on_the_box():
    """N = 7, P = 3: the float guide misreads the side of some variables; the box finish moves them and
    certifies (ties proved as combinations of the equations)."""
    r = kuhn3.equilibrium(7, 3)
    eq = r.equilibria[0]
    assert eq.certified and isinstance(eq, BallEquilibrium) and eq.certificate.zero_sum
    assert [round(float(v), 6) for v in eq.values] == [-0.048604, -0.004086, 0.05269]


def test_rank_tolerances_add_the_guide_accuracy_when_coarser():
    x = np.array([1e-6, 0.5, 1 - 3e-4, 0.2])
    assert guide_accuracy(x, [0], [2]) == pytest.approx(3e-4)
    assert _rank_tolerances(1e-5, 3e-4) == (1e-5, 3e-4)
    assert _rank_tolerances((1e-9, 1e-5), 1e-6) == (1e-9, 1e-5)  # a finer accuracy adds nothing
    assert guide_accuracy(x, [], []) == 0.0


@pytest.mark.slow
def test_n13_p46_5_support_read_at_the_small_epsilon():
    """N = 13, P = 46/5: player 1 calls at node 8 with card 5 with a gain of only ~2e-5, so at epsilon = 1e-7
    the guide puts it 1.6e-3 from 1 (read as mixed, and its gain forced to 0: the corrections went round in a
    cycle); at epsilon = 1e-9 it is read at 1 and the isolating box is certified at once."""
    x = kuhn3.float_equilibrium(13, Fraction(46, 5))
    g = kuhn3.compiled(13, Fraction(46, 5))
    call = kuhn3.variable_index(g, 8, 5)
    assert 1 - x[call] < 1e-4
    solution = kuhn3.exact_from_guide(13, Fraction(46, 5), x)
    assert solution.box is not None and solution.certificate.zero_sum and call in solution.ones
    guide = kuhn3.gain_system(13).payoffs(x, 9.2)
    assert all(abs(float(c.payoff) - v) < 1e-4 for c, v in zip(solution.certificate.checks, guide))
    assert solution.certificate.checks[2].payoff.mid > 0


@pytest.mark.slow
def test_n12_p4_guide_goes_on_below_the_reliable_epsilon():
    """N = 12, P = 4: player 3's calls at node 7 with cards 3..6 (equal gains of about -3e-5) sit 1.05e-3 from 0
    at epsilon = 1e-7, read as mixed (no certificate then); the continuation goes on from there to 1e-9 (its
    starting Newton solves at the continuation's tolerance) and puts them ~100 times nearer 0."""
    x = kuhn3.float_equilibrium(12, 4)
    g = kuhn3.compiled(12, 4)
    assert all(x[kuhn3.variable_index(g, 7, card)] < 1e-4 for card in (3, 4, 5, 6))


def test_trend_reads_the_support_by_how_each_gain_shrank():
    """The guide at epsilon and at 100 epsilon: a gain that shrank like epsilon is interior, however near 0 it
    sits; one that held (x moved ~100 times nearer its end, or onto it from the middle) is at that end."""
    fine = np.array([6.5e-4, 1.8e-5, 0.9929, 0.3, 1 - 2e-6, 0.0029])
    coarse = np.array([6.4e-4, 2.1e-3, 0.8155, 0.31, 1 - 2e-4, 0.0029])
    free = range(len(fine))
    assert classify(fine, free, 1e-3, Trend(coarse, 100.0)) == ([1], [2, 4], [0, 3, 5])
    assert classify(fine, free, 1e-3) == ([0, 1], [4], [2, 3, 5])  # the tolerance misreads 0 and 2


@pytest.mark.slow
def test_n26_p4_support_read_by_the_trend():
    """N = 26, P = 4: player 2 bets at node 2 with card 15 at 6.5e-4 (interior: its gain shrinks with epsilon),
    and player 1's call at node 4 with card 15 sits at 0.993 with a gain of 3.9e-8 that does not shrink (at 1).
    Read by a tolerance, both were wrong and the isolating box's corrections went round in a cycle."""
    x, trend = kuhn3.float_guide(26, 4)
    assert trend is not None
    g = kuhn3.compiled(26, 4)
    bluff, call = kuhn3.variable_index(g, 2, 15), kuhn3.variable_index(g, 4, 15)
    assert 1e-4 < x[bluff] < 1e-3 and 1e-3 < 1 - x[call] < 1e-2
    solution = kuhn3.exact_from_guide(26, Fraction(4), x, trend=trend)
    assert bluff in solution.interior and call in solution.ones
    assert solution.certificate.holds and solution.certificate.zero_sum
    guide = kuhn3.gain_system(26).payoffs(x, 4.0)
    assert all(abs(float(c.payoff) - v) < 1e-4 for c, v in zip(solution.certificate.checks, guide))
