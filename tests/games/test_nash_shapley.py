"""Nash--Shapley three-person poker (seed 001): rules, discriminants, equilibrium points, ranges, coalitions."""

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.claims import catalog
from exactpoker.claims.computers import COMPUTERS
from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers.nash_shapley import payoffs as ns
from exactpoker.games.papers.nash_shapley import regions as nr
from exactpoker.games.papers.nash_shapley.equilibria import certify_point, equilibria

a, b = ns.a, ns.b
G = ns.SYMBOLS
HIGH_CALLS = ["gamma", "eta", "iota", "lambda", "omicron", "rho", "tau", "phi", "psi", "nu"]
LATER = ["beta", "delta", "theta", "kappa", "pi", "chi", "sigma", "mu", "upsilon", "omega"]


def bar(x):
    return 1 - x


def reduced(name, zero):
    subs = {G[n]: 1 for n in HIGH_CALLS}
    subs.update({G[n]: 0 for n in zero})
    return sympy.expand(ns.discriminants()[name].subs(subs))


def r_I_value(t):
    return (-t**2 / (8 * (t + 1)), -t**2 / (8 * (t + 1)), t**2 / (4 * (t + 1)))


# -- section 3 and 4: the rules ---------------------------------------------------------


def test_thirteen_bid_sequences_and_104_plays():
    """Seed 001, section 3."""
    sequences = ns.bid_sequences()
    assert sorted(sequences) == sorted("BBB BPB PBBB PBPB PPBBB PPBPB PPP BBP BPP PBBP PBPP PPBBP PPBPP".split())
    assert len(sequences) * 8 == 104


def test_payoff_vectors_up_to_permutation():
    """Seed 001, section 3: six payoff vectors and their permutations."""
    expected = {(2 * a, -a, -a), (a / 2, a / 2, -a), (2 * a + b, -a, -a - b), (a / 2 + b / 2, a / 2 + b / 2, -a - b),
                (2 * a + 2 * b, -a - b, -a - b), (0, 0, 0)}
    canon = {tuple(sorted(map(sympy.sympify, v), key=sympy.default_sort_key)) for v in expected}
    assert set(ns.payoff_vectors()) == canon


def test_pure_strategy_counts():
    """Seed 001, section 4: 81, 100, 256; 18, 20, 32 when folding on High is forbidden."""
    assert ns.strategy_counts() == (81, 100, 256)
    assert ns.strategy_counts(fold_on_high=False) == (18, 20, 32)


def test_payoffs_are_zero_sum_and_multilinear():
    polys = ns.payoff_polynomials()
    assert sympy.expand(sum(polys)) == 0
    for poly in polys:
        assert all(degree <= 1 for degree in sympy.Poly(poly, *G.values()).degree_list())


def test_irrelevance_convention_and_reach():
    """Seed 001, section 5: with alpha = beta = 1, epsilon and zeta never matter."""
    reach = ns.situation_reach()
    assert sympy.expand(reach["epsilon"].subs({G["alpha"]: 1, G["beta"]: 1})) == 0
    assert ns.irrelevance_value("epsilon") == 1 and ns.irrelevance_value("zeta") == 0


# -- sections 8 and 9: discriminants against the print ------------------------------------


def test_section_8_discriminants():
    """Seed 001, section 8, as printed."""
    al, de, ze, ep, mu, xi, up = (G[n] for n in ("alpha", "delta", "zeta", "epsilon", "mu", "xi", "upsilon"))
    assert reduced("delta", ["beta"]) == sympy.expand(-4 * al * b)
    assert reduced("theta", ["beta"]) == sympy.expand(-2 * al * (1 + de) * b)
    assert reduced("kappa", ["beta"]) == sympy.expand(-2 * al * (1 - de) * b)
    zero = ["beta", "delta", "theta", "kappa"]
    assert reduced("pi", zero) == sympy.expand(2 * (ze * mu * a - ze * b - ep * mu * b - ep * b))
    assert reduced("chi", zero) == sympy.expand(2 * bar(ze) * (xi * up * a - up * b - bar(al) * xi * b - bar(al) * b))


def test_section_9_discriminants():
    """Seed 001, section 9: the four discriminants of systems (I) and (II), as printed."""
    al, ep, ze, xi = (G[n] for n in ("alpha", "epsilon", "zeta", "xi"))
    printed = {
        "alpha": (a + b) * bar(ep) * bar(xi) + (4 * a + 2 * b) * bar(xi) * bar(ze) - b * bar(ep) + b * bar(ze) - 3 * b,
        "epsilon": (a + b) * bar(xi) * bar(al) + (4 * a + 2 * b) * bar(xi) - b * bar(al) - 2 * b,
        "zeta": -2 * a * bar(xi) * bar(al) - 2 * a * bar(xi) - 4 * b * bar(al) + 6 * a - 2 * b,
        "xi": -2 * (a + b) * (bar(al) * bar(ep) + bar(al) * bar(ze) + bar(ep)) + 4 * a * bar(ze),
    }
    for name, expr in printed.items():
        assert reduced(name, LATER) == sympy.expand(expr), name


# -- equilibrium points at rational a/b ----------------------------------------------------


def test_R_I_point_and_value():
    """Seed 001, section 9: at a/b = 1/2 the unique point of system (I), value -a^2/(8(a+b)), ..."""
    result = equilibria(Fraction(1, 2), 1)
    assert len(result.equilibria) == 1
    eq = result.equilibria[0]
    assert eq.certified
    assert tuple(eq.values) == r_I_value(sympy.Rational(1, 2))
    S = sympy.sqrt(sympy.Rational(5, 3))
    assert sympy.simplify(eq.strategies["1"]["alpha"] - (2 - S)) == 0
    assert sympy.simplify(eq.strategies["3"]["xi"] - (1 - 1 / (sympy.Rational(3, 2) * S))) == 0


def test_point_at_a_equal_b_matches_print():
    """Seed 001, section 9: at a/b = 1, alpha = .308, epsilon = .8257, xi = .6354; V = (-.0735, -.0479, .1214) a."""
    eq = equilibria(1, 1).equilibria[0]
    coefficients = {k: v for table in eq.strategies.values() for k, v in table.items()}
    assert eq.certified
    assert [round(float(coefficients[k]), 4) for k in ("alpha", "epsilon", "xi")] == [0.3084, 0.8257, 0.6354]
    assert [round(float(v), 4) for v in eq.values] == [-0.0735, -0.0479, 0.1214]
    assert sympy.simplify(sum(eq.values)) == 0


def test_R_III_family_has_one_value():
    """Seed 001, section 10: in R_III the points form a family (upsilon free) with one value."""
    result = equilibria(Fraction(21, 20), 1)
    assert all(eq.certified for eq in result.equilibria)
    assert len({eq.values for eq in result.equilibria}) == 1
    family = result.details["families"][0]
    assert family["parameter"] == "upsilon" and family["range"][0] == 0 < family["range"][1]


@pytest.mark.parametrize("ratio", [4, 5, Fraction(17, 2)])
def test_value_zero_for_large_ante(ratio):
    """Seed 001, footnote 18: for a >= 4b the value is zero for every player."""
    result = equilibria(ratio, 1)
    assert all(v == 0 for v in result.equilibria[0].values)


def test_section_7_dominance_is_not_an_equilibrium_shortcut():
    """(C) alone is not enough: a point that satisfies (C) may fail the certificate (section 6)."""
    g = ns.compiled(1, 2)
    point = {n: sympy.Integer(1) if n in HIGH_CALLS else sympy.Integer(0) for n in G}
    certificate, _ = certify_point(g, point)
    assert not certificate.holds


@pytest.mark.parametrize("bad", [{"a": 0, "b": 1}, {"a": 1, "b": -1}, {"a": "x", "b": 1}, {"a": 0.5, "b": 1}])
def test_bad_input(bad):
    with pytest.raises(InvalidParameterError):
        equilibria(**bad)


@pytest.mark.slow
@settings(deadline=None, max_examples=3)
@given(st.fractions(min_value=Fraction(1, 10), max_value=Fraction(7, 10), max_denominator=20))
def test_property_R_I(t):
    """At random a/b in R_I: one certified point, values sum to 0 and equal the paper's formula."""
    result = equilibria(t, 1)
    assert len(result.equilibria) == 1 and result.equilibria[0].certified
    values = result.equilibria[0].values
    assert sum(values) == 0
    assert tuple(values) == r_I_value(sympy.Rational(t.numerator, t.denominator))


@pytest.mark.slow
@settings(deadline=None, max_examples=2)
@given(st.fractions(min_value=Fraction(104, 100), max_value=Fraction(112, 100), max_denominator=50))
def test_property_R_III(t):
    """At random a/b in R_III: every returned point certified, values sum to 0, one value."""
    result = equilibria(t, 1)
    assert all(eq.certified and sympy.simplify(sum(eq.values)) == 0 for eq in result.equilibria)
    assert len({eq.values for eq in result.equilibria}) == 1


@pytest.mark.slow
def test_case_search_keeps_the_systems_and_fixes_the_dominations():
    """The exact case search at a/b = 1/4 (sections 6-7): every allowed case calls with High
    (the dominations of section 7 come out of the search), and system (I)'s case is among them."""
    from exactpoker.games.papers.nash_shapley.cases import ONE, cases
    from exactpoker.games.papers.nash_shapley.equilibria import system_case

    found = cases(Fraction(1, 4))
    assert system_case("I") in found
    assert all(case[n] == ONE for case in found for n in HIGH_CALLS if n != "nu")


@pytest.mark.slow
def test_case_search_beyond_the_paper_keeps_system_VI():
    """At a/b = 2 the search (interior coefficients on open intervals) still lists system VI's case,
    whose point is certified (test_gap_points_certified), among its (at most) 4694 cases."""
    from exactpoker.games.papers.nash_shapley.cases import cases
    from exactpoker.games.papers.nash_shapley.equilibria import system_case

    found = cases(Fraction(2))
    assert system_case("VI") in found and len(found) <= 4694


# -- beyond the paper: A3 < a/b < 3 ---------------------------------------------------------


def gap_value(t):
    """Derived by hand for system VIII (Player 1 always opens, 2 always calls, 3 calls on High only)."""
    return (-(3 - t) / 16, -(3 - t) / 16, (3 - t) / 8)


@pytest.mark.parametrize("t, system", [
    (Fraction(7, 5), "IV"), pytest.param(Fraction(8, 5), "V", marks=pytest.mark.slow),
    pytest.param(Fraction(2), "VI", marks=pytest.mark.slow), pytest.param(Fraction(9, 4), "VII", marks=pytest.mark.slow),
    (Fraction(27, 10), "VIII")])
def test_gap_points_certified(t, system):
    """Between A3 and 3 none of the paper's systems holds; the gap's systems give certified points."""
    from exactpoker.games.papers.nash_shapley.cases import solve_case
    from exactpoker.games.papers.nash_shapley.equilibria import THREATS, system_case, threat_corners

    result = equilibria(t, 1)
    assert result.equilibria and "case by case" in result.method
    for eq in result.equilibria:
        assert eq.certified and sympy.simplify(sum(eq.values)) == 0
    coefficients = [{k: v for table in eq.strategies.values() for k, v in table.items()} for eq in result.equilibria]
    points = threat_corners(t, system)[0] if system in THREATS else [s.values for s in solve_case(t, system_case(system))]
    assert any(all(sympy.simplify(c[k] - p[k]) == 0 for k in G) for c in coefficients for p in points)


@pytest.mark.slow
def test_gap_paper_systems_do_not_hold():
    """At a/b = 2 no point of the paper's systems (I), (II), (III), beyond A3 is certified."""
    from exactpoker.games.papers.nash_shapley.cases import solve_case
    from exactpoker.games.papers.nash_shapley.equilibria import SYSTEMS, system_case

    t = Fraction(2)
    g = ns.compiled(2, 1)
    for name in SYSTEMS:
        for solution in solve_case(t, system_case(name)):
            if solution.parameter is None:
                assert not certify_point(g, solution.values)[0].holds, name


def test_gap_threat_family_value_and_two_values_at_five_halves():
    """System VIII: one value for the whole family, (-(3b-a)/16, -(3b-a)/16, (3b-a)/8);
    at a/b = 5/2 it coexists with the points of systems VII and XI, of other values."""
    result = equilibria(Fraction(13, 5), 1)
    assert {eq.values for eq in result.equilibria} == {gap_value(sympy.Rational(13, 5))}
    assert result.details["families"][0]["parameters"] == ["zeta", "xi"]
    values = {eq.values for eq in equilibria(Fraction(5, 2), 1).equilibria}
    assert gap_value(sympy.Rational(5, 2)) in values and len(values) == 3  # VIII, VII and XI


@pytest.mark.slow
def test_gap_boundaries():
    """The ends of the ranges beyond A3, found by elimination (not in the paper)."""
    A = sympy.Symbol("A")
    found = {bd.name: bd for bd in nr.gap_boundaries()}
    expected = {"A4": (3 * A - 4, "1.33333"), "A5": (18 * A**3 - 18 * A**2 - 17 * A + 4, "1.52403"),
                "A6": (12 * A**3 - 16 * A**2 - 11 * A + 4, "1.74855"), "A7": (12 * A**3 - 19 * A**2 - 15 * A + 4, "2.10246"),
                "A8": (12 * A**3 - 23 * A**2 - 14 * A + 8, "2.29810"), "A9": (12 * A**3 - 29 * A**2 - 8 * A + 12, "2.52382"),
                "A10": (4 * A**3 - 9 * A**2 - 3 * A + 4, "2.38872")}
    for name, (poly, decimal) in expected.items():
        assert sympy.expand(found[name].polynomial - poly) == 0 and found[name].digits(6) == decimal, name
    # system XI (found by --exhaustive) ends where its delta reaches 0: at A9, where VII ends
    assert sympy.factor(nr.edge_eliminant("XI", "delta", 0).as_expr()) == sympy.factor(
        (nr.t - 2) * found["A9"].polynomial.subs(A, nr.t))


def test_system_XI_found_by_the_exhaustive_search_at_12_5():
    """At a/b = 12/5 the exhaustive search (about 11 minutes, in the benchmark) found a point no earlier system had:
    alpha = 143/161, beta = 110/161, delta = 87/95, zeta = 13/19, xi = 5/12 (Player 2 calls on Low after B)."""
    result = equilibria(Fraction(12, 5), 1)
    xi_point = [eq for eq in result.equilibria if eq.strategies["2"]["delta"] not in (0, 1)]
    assert len(xi_point) == 1 and xi_point[0].certified
    assert xi_point[0].values == (Fraction(-13, 304), Fraction(-81, 1610), Fraction(22777, 244720))  # a = 12/5, b = 1
    assert (xi_point[0].strategies["1"]["alpha"], xi_point[0].strategies["3"]["xi"]) == (Fraction(143, 161), Fraction(5, 12))


@pytest.mark.slow
@settings(deadline=None, max_examples=4)
@given(st.fractions(min_value=Fraction(27, 20), max_value=Fraction(3), max_denominator=40))
def test_property_gap(t):
    """At random a/b in the gap: points found, every one certified, values sum to 0."""
    result = equilibria(t, 1)
    assert result.equilibria
    assert all(eq.certified and sympy.simplify(sum(eq.values)) == 0 for eq in result.equilibria)


# -- ranges and boundaries ------------------------------------------------------------------


def test_boundaries():
    """Seed 001, sections 9-10: A1 (print: 0.7058, polynomial misprinted), A2 (1.0376 printed), A3 (1.1262 printed)."""
    a1, a2, a3 = nr.boundaries()
    A = sympy.Symbol("A")
    assert a1.polynomial == 9 * A**4 + 18 * A**3 + 3 * A**2 - 10 * A - 3
    assert a1.digits(8).startswith("0.7058409")
    # the printed quartic for A2 is (3A + 2) times the minimal polynomial
    assert sympy.expand((3 * A + 2) * a2.polynomial) == 162 * A**4 + 135 * A**3 - 144 * A**2 - 150 * A - 28
    assert a2.digits(8).startswith("1.03772")
    assert a3.polynomial == 12 * A**3 - 14 * A**2 - 3 * A + 4
    assert a3.digits(8).startswith("1.1257050")
    # the printed A1 polynomial's positive root is about 0.782, not A1
    assert [round(float(r), 3) for r in sympy.Poly(A**4 + 18 * A**3 + 3 * A**2 - 10 * A - 3, A).real_roots() if r > 0] == [0.782]


def test_system_I_closed_form_and_values():
    """Seed 001, section 9: alpha = epsilon = 2 - S, zeta = 0, xi = 1 - b/((a+b)S); V in R_I."""
    closed = nr.system_I()
    assert closed["alpha"] == 2 - nr.S and closed["zeta"] == 0
    expected = (-a**2 / (8 * (a + b)), -a**2 / (8 * (a + b)), a**2 / (4 * (a + b)))
    assert all(sympy.simplify(v - e) == 0 for v, e in zip(nr.values_I(), expected))


# -- coalitions: exact LPs over joint pure strategies -----------------------------------------


def test_characteristic_function_at_a_equal_b():
    """Seed 001, section 11: v({1}) = -a/12, v({2}) = -5a/88, v({3}) = a/64 = -v({1, 2}), ... at a = b."""
    from exactpoker.games.papers.nash_shapley.coalitions import characteristic_function

    v = characteristic_function(2, 2)
    assert [v[(p,)].value for p in range(3)] == [Fraction(-1, 6), Fraction(-5, 44), Fraction(1, 32)]
    assert all(v[pair].value == -v[(p,)].value for p, pair in ((0, (1, 2)), (1, (0, 2)), (2, (0, 1))))
    assert [v[(p,)].strategies for p in range(3)] == [(81, 25600), (100, 20736), (256, 8100)]


# -- CLI and claims -------------------------------------------------------------------------


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "exactpoker", "nash-shapley", *args], capture_output=True, text=True)


def test_cli_points_json_and_bad_input():
    done = run_cli("--a", "1/2", "--b", "1", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["game"] == "nash-shapley" and payload["equilibria"][0]["values"] == ["-1/48", "-1/48", "1/24"]
    assert payload["equilibria"][0]["certified"] is True
    bad = run_cli("--a", "0", "--b", "1")
    assert bad.returncode != 0 and "a must be > 0" in bad.stderr


def test_catalog_entries_have_computers():
    claims = catalog("001")
    assert len(claims) >= 50
    assert all(c.kind in COMPUTERS for c in claims)


def test_family_at_A2():
    """Seed 001, section 10: at a/b = A2 a family from (omega = 0) to (epsilon = 1); Player 2's value fixed.

    The printed ends (alpha .2656, epsilon .8442, zeta .0491, xi .6423; zeta .0623, omega .3720) agree
    with the exact ones to about 3 decimals, as the printed A2 (1.0376) does with the exact 1.03773.
    """
    low, high = nr.family_at_A2()
    assert low.condition_C and high.condition_C
    assert low.equilibrium and high.equilibrium
    assert low.coefficients["omega"] == 0 and high.coefficients["epsilon"] == 1
    assert low.coefficients["alpha"] == high.coefficients["alpha"] and low.coefficients["xi"] == high.coefficients["xi"]
    assert low.values_per_a[1] == high.values_per_a[1]
    assert [round(float(low.coefficients[n]), 4) for n in ("alpha", "epsilon", "zeta", "xi")] == [0.2653, 0.8445, 0.0491, 0.6424]
    assert [round(float(v), 4) for v in low.values_per_a] == [-0.0755, -0.0475, 0.1230]
    assert [round(float(high.coefficients[n]), 4) for n in ("zeta", "omega")] == [0.0623, 0.3715]
    assert [round(float(v), 4) for v in high.values_per_a] == [-0.0831, -0.0475, 0.1306]


def test_evaluate_matches_certificate():
    """The multilinear payoffs agree with the compiled game's exact certificate at a rational point."""
    values = {n: Fraction(k % 5, 4) for k, n in enumerate(G)}
    certificate, _ = certify_point(ns.compiled(3, 2), {n: sympy.Rational(v.numerator, v.denominator) for n, v in values.items()})
    payoffs, _ = ns.evaluate(values, Fraction(3), Fraction(2))
    assert tuple(payoffs) == certificate.payoffs


def test_system_viii_value_is_independent_of_its_threats():
    """Beyond the paper: system VIII's value, from P_1..P_3 with its pure part put in, is free of zeta, xi."""
    from exactpoker.games.papers.nash_shapley import payoffs as ns
    from exactpoker.games.papers.nash_shapley import regions as nr

    values = nr.pure_part_values("VIII")
    assert all(not (v.free_symbols & {ns.SYMBOLS["zeta"], ns.SYMBOLS["xi"]}) for v in values)
    assert sympy.simplify(values[0] + (3 * ns.b - ns.a) / 16) == 0 and sympy.simplify(sum(values)) == 0


@settings(deadline=None, max_examples=6)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=6), min_size=24, max_size=24),
       st.sampled_from([(3, 2), (1, 1), (5, 2)]))
def test_best_deviation_gains_match_the_certificate(coefficients, stakes):
    """The vertex check on P_1..P_3 (used at irrational a/b) gives each player's regret exactly as the
    compiled game's certificate does, at any point (equilibrium or not)."""
    values = dict(zip(G, coefficients))
    certificate, _ = certify_point(ns.compiled(*stakes), {n: sympy.Rational(v.numerator, v.denominator) for n, v in values.items()})
    gains = ns.best_deviation_gains(values, Fraction(stakes[0]), Fraction(stakes[1]))
    assert list(gains) == [check.regret for check in certificate.checks]


def test_threat_family_emptiness_agrees_with_its_corners():
    """System VIII's family: the exact slicing decision agrees with the corner enumeration
    (empty below A8 ~ 2.29810, not empty above, up to 3 and beyond)."""
    from exactpoker.games.papers.nash_shapley.equilibria import threat_corners, threat_family_empty

    for t in (Fraction(6, 5), Fraction(229, 100), Fraction(2299, 1000), Fraction(5, 2), Fraction(3)):
        assert threat_family_empty(t, "VIII") == (not threat_corners(t, "VIII")[0]), t
    assert threat_family_empty(Fraction(229, 100), "VIII") and not threat_family_empty(Fraction(2299, 1000), "VIII")


# -- completeness by machine: every case of (C) decided ----------------------------------------


def _complete(t):
    from exactpoker.games.papers.nash_shapley.exhaustive import exhaustive

    result = exhaustive(t, 1)
    assert result.details["cases"]["undecided"] == [], result.details["cases"]
    assert result.notes[-1].startswith("complete")
    default = equilibria(t, 1)
    assert [e.values for e in result.equilibria] == [e.values for e in default.equilibria]
    return result


def test_the_default_run_says_what_is_known_of_completeness():
    assert equilibria(Fraction(3, 4), 1).notes[-1].startswith("complete: the paper proves")
    assert "only if --exhaustive says so" in equilibria(Fraction(6, 5), 1).notes[-1]


def test_exhaustive_proves_the_R_I_point_is_the_only_one():
    result = _complete(Fraction(1, 2))
    assert len(result.equilibria) == 1 and result.equilibria[0].certified
    cases = result.details["cases"]
    assert cases["cases"] == (cases["systems"] + cases["no_zero"] + cases["no_solution"] + cases["solved"]
                              + len(cases["families"])) > 1


@pytest.mark.slow
@pytest.mark.parametrize("t", [Fraction(3, 4), Fraction(1)])
def test_exhaustive_proves_sections_7_and_8_by_machine(t):
    """The paper proves by hand that (I) and (II) give every point for b >= a; the case search proves it again."""
    result = _complete(t)
    assert len(result.equilibria) == 1


@pytest.mark.slow
def test_a_face_just_outside_the_open_box_is_blown_up():
    """A case at a/b = 2 that was reported undecided before the blow-up charts; now two proofs decide it.

    Its equations of epsilon, zeta, mu, xi, pi, upsilon and chi vanish on the whole face alpha = beta = 1 (Player 1
    always opens), which lies just outside the open box; on the two charts of that face bisection clears the box.
    Dividing out the factors beta - 1 (of Delta_pi, Delta_upsilon) also lets plain bisection clear it.
    """
    from exactpoker.games.papers.nash_shapley.cases import VARIABLES, Case
    from exactpoker.games.papers.nash_shapley.exhaustive import BOX_BUDGET, case_system
    from exactpoker.solve.algebra.box_exclusion import excluded_by_boxes, excluded_by_charts, vanishing_faces

    case = Case(tuple(zip(VARIABLES, "ii10ii10111i1i1i111i1i10")))
    system = case_system(Fraction(2), case)
    n = len(system.unknowns)
    assert system.unknowns == ("alpha", "beta", "epsilon", "zeta", "mu", "xi", "pi", "upsilon", "chi")
    assert vanishing_faces(n, system.equations)[0] == (0, 1, 1, 1)
    assert excluded_by_charts(n, system.equations, system.conditions, BOX_BUDGET)
    assert excluded_by_boxes(n, system.equations, system.conditions, BOX_BUDGET)


def test_cli_exhaustive():
    done = run_cli("--a", "1", "--b", "2", "--exhaustive", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["details"]["cases"]["undecided"] == [] and payload["notes"][-1].startswith("complete")


def test_family_points_are_told_apart_exactly():
    """--exhaustive drops a certified zero of another case that is a point already listed (a family's end)."""
    from exactpoker.games.papers.nash_shapley.exhaustive import _same_point

    ends = equilibria(Fraction(11, 10), 1).equilibria
    assert len(ends) == 3
    assert all(_same_point(p, p) for p in ends)
    assert not any(_same_point(p, q) for i, p in enumerate(ends) for q in ends[i + 1:])


# -- regions of free coefficients (a/b > 3), and the exact equilibrium conditions --------------------------------


def _case(kinds):
    from exactpoker.games.papers.nash_shapley.cases import VARIABLES, Case

    return Case(tuple(zip(VARIABLES, kinds)))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("01i"), min_size=24, max_size=24),
       st.lists(st.fractions(min_value=0, max_value=1, max_denominator=9), min_size=24, max_size=24),
       st.fractions(min_value=Fraction(1, 4), max_value=5, max_denominator=6))
def test_the_deviation_conditions_hold_exactly_at_the_equilibria(kinds, interior, t):
    """All of them >= 0 at a point of a case exactly when no player gains by any change (best_deviation_gains)."""
    from exactpoker.games.papers.nash_shapley.families import deviation_conditions
    from exactpoker.solve.algebra.multilinear_region import value_at

    case = _case(kinds)
    values = {n: (interior[k] if kind == "i" else Fraction(int(kind))) for k, (n, kind) in enumerate(case.kinds)}
    point = [values[n] for n in case.interior]
    conditions = deviation_conditions(t, case)
    gains = ns.best_deviation_gains(values, t.numerator, t.denominator)
    assert all(value_at(g, point) >= 0 for g in conditions) == all(gain <= 0 for gain in gains)


IX = "1i111i111011111110111110"  # Player 1 opens on Low with beta, Player 2 after P with zeta: all else bets
X = "1i111i1110111i1110111110"  # and Player 3 after PP with xi


def test_beyond_a_equals_3b_the_points_form_a_region_of_free_coefficients():
    """At a/b = 7/2 (found by --exhaustive): beta, zeta in [4/5, 1], xi in [2/7, 1], every point of value 0."""
    result = equilibria(7, 2)
    families = {f["system"]: f for f in result.details["families"]}
    assert families["IX"]["bounds"] == {"beta": [Fraction(4, 5), 1], "zeta": [Fraction(4, 5), 1]}
    assert families["X"]["bounds"] == {"beta": [Fraction(4, 5), 1], "zeta": [Fraction(4, 5), 1],
                                       "xi": [Fraction(2, 7), 1]}
    assert families["IX"]["conditions"] == families["X"]["conditions"] == []
    assert len(result.equilibria) == 1 + 5 + 9 - 4  # always bet, corners and centres (IX's corners are X's with xi = 1)
    assert all(e.certified and e.values == (0, 0, 0) for e in result.equilibria)
    corner = {n: Fraction(int(k)) if k != "i" else None for n, k in _case(X).kinds}
    corner.update(beta=Fraction(4, 5), zeta=Fraction(4, 5), xi=Fraction(2, 7))
    assert certify_point(ns.compiled(7, 2), {n: sympy.Rational(v) for n, v in corner.items()})[0].holds
    corner["xi"] = Fraction(1, 4)  # just outside the region
    assert not certify_point(ns.compiled(7, 2), {n: sympy.Rational(v) for n, v in corner.items()})[0].holds


@settings(max_examples=12, deadline=None)
@given(st.fractions(min_value=2, max_value=12, max_denominator=20))
def test_the_region_of_free_coefficients_is_a_box_from_a_equals_3b_on(t):
    """Its sides, measured from the region the code finds: beta, zeta >= 2b/(a - b) and xi >= b/a; none for a <= 3b."""
    from exactpoker.games.papers.nash_shapley.families import case_family

    family, wider = case_family(t, _case(IX)), case_family(t, _case(X))
    if t <= 3:
        assert family is None and wider is None
        return
    side = 2 / (t - 1)
    assert family.region.low == (side, side) and family.region.high == (1, 1) and family.region.conditions == ()
    assert wider.region.low == (side, side, 1 / t) and wider.region.conditions == ()


@pytest.mark.slow
@pytest.mark.parametrize("kinds, decided", [
    (IX, "family"), (X, "family"),
    ("1i11ii101010111011101011", "boxes"),  # epsilon = (21 zeta - 9)/4 by its equation, zeta = 9/25 by deviations
    ("1i11ii111010111011101011", "boxes"),
])
def test_the_cases_left_undecided_at_7_2_are_decided(kinds, decided):
    """Under (C) alone these four cases were undecided at a/b = 7/2; the exact equilibrium conditions decide them."""
    from exactpoker.games.papers.nash_shapley.exhaustive import decide_case

    kind, points = decide_case(Fraction(7, 2), _case(kinds))
    assert kind == decided
    assert (len(points) == (5 if kinds == IX else 9)) if decided == "family" else points == []


def test_a_coefficient_never_reached_does_not_make_another_point():
    """At a/b = 11/5 system VII has sigma = 1 where its situation never arises; sigma = 0 (the convention) is the same point."""
    from exactpoker.games.papers.nash_shapley.exhaustive import _certified, _same_point

    t = Fraction(11, 5)
    (point,) = equilibria(t, 1).equilibria
    values = {n: v for p in point.strategies.values() for n, v in p.items()}
    assert values["sigma"] == 1
    g = ns.compiled(11, 5)
    values_as_fractions = {n: Fraction(str(v)) for n, v in values.items()}
    twin = _certified(g, {**values_as_fractions, "sigma": Fraction(0)}, Fraction(1, 5))
    assert twin is not None and _same_point(point, twin)
    other = _certified(g, {**values_as_fractions, "sigma": Fraction(1, 2)}, Fraction(1, 5))
    assert other is not None and _same_point(point, other)
    strategies = {**point.strategies, "2": {**point.strategies["2"], "gamma": sympy.Rational(1, 2)}}
    assert not _same_point(point, dataclasses.replace(point, strategies=strategies))  # Player 2 calls on High: reached


def test_a_system_whose_solutions_lie_outside_the_open_box_is_decided_like_any_case():
    """At a/b = 4 the system beyond A3 has solutions of two parameters, but all on faces (zeta = 1): sympy's solve
    counts them as a family it leaves out; the case is then decided by the open-box algebra (no zero inside)."""
    from exactpoker.games.papers.nash_shapley.cases import solve_case_counted
    from exactpoker.games.papers.nash_shapley.equilibria import system_case
    from exactpoker.games.papers.nash_shapley.exhaustive import decide_case

    case = system_case("beyond A3")
    assert "".join(kind for _, kind in case.kinds) == "ii101i101i101i10101i101i"
    assert solve_case_counted(Fraction(4), case)[1] > 0
    assert decide_case(Fraction(4), case) == ("algebra", [])


@pytest.mark.slow
def test_a_component_lying_on_the_faces_but_for_one_point_is_decided():
    """At a/b = 4 this case's Groebner basis has solutions of positive dimension, all on the faces alpha = 1 or
    zeta = 1 (where the region of free coefficients lies) but one point, outside the box (xi = -6): taken off the
    faces (Rabinowitsch), the case has no zero in the open box."""
    from exactpoker.games.papers.nash_shapley.exhaustive import decide_case

    assert decide_case(Fraction(4), _case("ii1i1i1i11111i11101i1i11")) == ("boxes", [])
