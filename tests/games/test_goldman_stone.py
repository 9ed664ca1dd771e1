"""Goldman--Stone symmetric poker (seed 002): continuous solution, finite deck, CLI, claims."""

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.certify import verify
from exactpoker.claims.compare import compare
from exactpoker.claims.computers_goldman_stone import COMPUTERS
from exactpoker.continuous import goldman_stone as cgs
from exactpoker.continuous import von_neumann as cvn
from exactpoker.core import BehaviourProfile
from exactpoker.games.papers import goldman_stone as gs

a, b = cgs.a, cgs.b

# a > b > 1 as (b, a) = (1 + s, 1 + s + t)
gaps = st.fractions(min_value=Fraction(1, 12), max_value=Fraction(6), max_denominator=12)


@st.composite
def bet_pairs(draw):
    s, t = draw(gaps), draw(gaps)
    return 1 + s + t, 1 + s


def same(x, y):
    return sympy.simplify(sympy.sympify(x) - sympy.sympify(y)) == 0


# -- the continuous game: the paper's results as expectations -------------------------


def test_figures_1_and_2_from_the_rules():
    """Seed 002, section 2, figures 1 and 2."""
    high, low = cgs.payoff_tables()
    assert high == sympy.Matrix([[0, -1, -1, -1], [1, b, b, -b], [1, b, b, a], [1, b, a, a]])
    assert low == sympy.Matrix([[0, -1, -1, -1], [1, -b, -b, -b], [1, -b, -b, -a], [1, b, -a, -a]])


def test_lemma8_strategy_and_lemma4_values():
    """Seed 002, lemmas 4, 5, 6, 8 and the theorem."""
    s = cgs.solve_symbolic()
    assert same(s.g, (b - 1) / b) and same(s.g_prime, (a - 1) / a)
    assert same(s.mix[1], a / (a + b)) and same(s.mix[3], b / (a + b)) and s.mix[0] == 0 == s.mix[2]
    assert same(s.R[0], (b - 1) / b)
    assert same(s.R[1], (a - b) / (b * (a + b)))
    assert s.R[2] == 0
    assert same(s.R[3], 2 / (a + b))
    assert s.value == 0 and s.certified


def test_payoff_functions_match_formulas_2_2_to_2_5():
    """G_i from (2.2)-(2.5) with r piecewise constant, evaluated by hand at the strategy."""
    s = cgs.solve_symbolic()
    R1, R2, R4 = s.R[0], s.R[1], s.R[3]
    # (2.2): G_1 = R_2 + R_3 + R_4 everywhere
    for j in range(3):
        assert same(s.G[0][j], R2 + R4)
    # (5.1) G_2 - G_1 = (b-1) - b R_1 - 2b int_0^z r_2, at z = g' (int_0^g' r_2 = R_2)
    assert same((s.G[1][1] - s.G[0][1]).subs(cgs.z, s.g_prime), (b - 1) - b * R1 - 2 * b * R2)
    # (5.6) G_4 - G_3 = -2b R_2 + 2b int_0^z r_2: equals -2bR_2 on [0, g]
    assert same(s.G[3][0] - s.G[2][0], -2 * b * R2)
    # lemma 3: G_2(0) = G_1(0) = G_4(0)
    assert same(s.G[1][0].subs(cgs.z, 0), s.G[0][0]) and same(s.G[3][0].subs(cgs.z, 0), s.G[0][0])


def test_lemma9_r3_strictly_worse_on_low_hands():
    """Lemma 9: on [0, g] the coefficient of r*_3 is positive (for all a > b > 1)."""
    s = cgs.solve_symbolic()
    diff = s.G[2][0] - s.G[0][0]
    for point in (0, s.g):
        assert cgs.positive_on_region(diff.subs(cgs.z, point), strict=True)


def test_positive_on_region_is_sound():
    assert cgs.positive_on_region(a - b, strict=True)
    assert cgs.positive_on_region((a - 1) * (b - 1) / (a + b), strict=True)
    assert not cgs.positive_on_region(b - a)
    assert not cgs.positive_on_region(a - 2)  # negative at a = 3/2
    assert cgs.positive_on_region(sympy.Integer(0)) and not cgs.positive_on_region(sympy.Integer(0), strict=True)


def test_b_equal_1_limit_is_symmetric_von_neumann():
    """Section 7: b = 1 gives g = 0 and, after r_4 -> rho_1, a -> a/b, von Neumann's symmetric solution."""
    limit = cgs.von_neumann_limit()
    assert limit["g"] == 0
    assert same(limit["g'"], (a - 1) / a) and same(limit["b-fold"], a / (a + 1)) and same(limit["a"], 1 / (a + 1))
    # TGEB 19.10 in its own variables (high a, low b): high above (a-b)/a, below it high w.p. b/(a+b)
    A, B = sympy.symbols("A B", positive=True)
    assert same(limit["g'"].subs(a, A / B), (A - B) / A)
    assert same(limit["a"].subs(a, A / B), B / (A + B))


def test_b_equal_1_limit_against_the_sequential_von_neumann_module():
    """exactpoker.continuous.von_neumann solves the *sequential* variant (seed 000: I bets, II calls/folds).

    Goldman--Stone's b = 1 limit is von Neumann's *symmetric* game (TGEB 19.4-19.10), a
    different game: with the same stakes (low 1, high a = b_vn + 1) the
    high-betting thresholds differ, and the sequential game's value is not 0.
    Both solutions share the qualitative shape: the top hands always bet high,
    some low hands bluff high, and the bet-high-always region shrinks as the bet grows.
    """
    vn = cvn.solve_symbolic()
    bvn = vn.b
    limit = cgs.von_neumann_limit()
    threshold_gs = limit["g'"].subs(a, bvn + 1)  # b_vn/(b_vn+1)
    assert not same(threshold_gs, vn.B)
    assert vn.value != 0 and limit["value"] == 0
    # both thresholds lie in (0, 1) and tend to 1 as the bet grows
    assert sympy.limit(threshold_gs, bvn, sympy.oo) == 1 == sympy.limit(vn.B, bvn, sympy.oo)
    # at the symmetric game's b = 1 limit nobody drops; in the sequential game nobody "drops" either (I checks)
    assert limit["g"] == 0


@settings(deadline=None, max_examples=8)
@given(bet_pairs())
def test_symbolic_check_at_random_rationals(pair):
    A, B = pair
    s = cgs.solve(A, B)  # derived and checked exactly at these numbers
    assert s.certified and s.value == 0
    sa, sb = sympy.Rational(A.numerator, A.denominator), sympy.Rational(B.numerator, B.denominator)
    assert s.g == (sb - 1) / sb and s.g_prime == (sa - 1) / sa
    general = cgs.solve_symbolic()
    sub = {a: sa, b: sb}
    assert same(general.g_prime.subs(sub), s.g_prime) and same(general.mix[1].subs(sub), s.mix[1])
    for row, row_general in zip(s.G, general.G):
        for e, e_general in zip(row, row_general):
            assert same(e, e_general.subs(sub))


# -- the finite game -----------------------------------------------------------------------


def test_finite_payoffs_are_the_figures():
    """Two cards, pure profiles: payoffs are the averages of the figures' entries."""
    g = gs.compiled(2, 5, 3)
    high, low = cgs.payoff_tables(5, 3)
    for k1 in range(4):
        for k2 in range(4):
            for l1 in range(4):
                for l2 in range(4):
                    unit = lambda k: [int(i == k) for i in range(4)]  # noqa: E731
                    tables = [{"choose": [unit(k1), unit(k2)]}, {"choose": [unit(l1), unit(l2)]}]
                    cert = verify(g, BehaviourProfile.from_tables(g, tables))
                    expected = Fraction(1, 2) * (int(low[k1, l2]) + int(high[k2, l1]))
                    assert cert.payoffs[0] == expected


@settings(deadline=None, max_examples=15)
@given(st.integers(2, 8), bet_pairs())
def test_finite_value_is_exactly_zero(n, pair):
    A, B = pair
    r = gs.equilibrium(n, A, B)
    eq = r.equilibria[0]
    assert r.value == 0 and eq.values == (0, 0)
    assert eq.certified and verify(gs.compiled(n, A, B), eq.profile).holds
    for table in eq.strategies.values():
        assert len(table) == n and all(sum(row) == 1 and min(row) >= 0 for row in table)


def test_simplex_method_agrees():
    r = gs.equilibrium(5, 3, 2, method="simplex")
    assert r.value == 0 and r.equilibria[0].certified


def test_discretised_lemma8_and_nearest_optimum():
    d = gs.discretised_lemma8(10, 3, 2)
    assert d.table[0] == [1, 0, 0, 0] and d.table[-1] == [0, 0, 0, 1]
    assert all(sum(row) == 1 for row in d.table)
    assert d.exploitability > 0 and d.certificate.payoffs == (0, 0)
    mid = gs.discretised_lemma8(10, 3, 2, rule="midpoint")
    assert all(sum(row) == 1 for row in mid.table)
    near = gs.nearest_optimum(10, 3, 2)
    assert near.equilibria[0].certified and near.details["distance"] >= 0
    assert near.details["distance"] == Fraction(2, 25)  # recorded: exact LP optimum at n = 10, a = 3, b = 2
    by_basis = gs.nearest_optimum(10, 3, 2, method="basis")  # the LP started from HiGHS's basis: the same optimum
    assert by_basis.details["distance"] == near.details["distance"] and by_basis.equilibria[0].certified
    rows = gs.convergence_table((6, 10), 3, 2)
    assert [r.n for r in rows] == [6, 10] and rows[1].distance == near.details["distance"]


# -- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: gs.equilibrium(4, 2, 2), "a"),
        (lambda: gs.equilibrium(4, 2, 3), "a"),
        (lambda: gs.equilibrium(4, 3, 1), "b"),
        (lambda: gs.equilibrium(4, 3, Fraction(1, 2)), "b"),
        (lambda: gs.equilibrium(1, 3, 2), "n"),
        (lambda: gs.equilibrium(4, 3.0, 2), "a"),
        (lambda: gs.equilibrium(4, 3, 2.0), "b"),
        (lambda: gs.equilibrium(4.0, 3, 2), "n"),
        (lambda: gs.discretised_lemma8(1, 3, 2), "n"),
        (lambda: cgs.solve(2, 2), "a"),
        (lambda: cgs.solve(3, 1), "b"),
        (lambda: cgs.solve(3.5, 2), "a"),
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call()


# -- command line and claims --------------------------------------------------------------


def _run(argv, capsys):
    import argparse

    from exactpoker.commands import goldman_stone as command

    parser = argparse.ArgumentParser()
    command.add_commands(parser.add_subparsers())
    args = parser.parse_args(argv)
    args.run(args)
    return capsys.readouterr().out


def test_cli_finite_json(capsys):
    data = json.loads(_run(["goldman-stone", "--a", "3", "--b", "2", "--n", "4", "--json"], capsys))
    assert data["game"] == "goldman-stone" and data["params"] == {"n": "4", "a": "3", "b": "2"}
    eq = data["equilibria"][0]
    assert eq["values"] == ["0", "0"] and eq["certified"] is True and len(eq["strategies"]["I"]) == 4


def test_cli_continuous(capsys):
    data = json.loads(_run(["goldman-stone", "--a", "3", "--b", "2", "--json"], capsys))
    assert data["cuts"] == {"g": "1/2", "g'": "2/3"} and data["value"] == "0" and data["certified"] is True
    assert "drop if z <= g = 1/2" in _run(["goldman-stone", "--a", "3", "--b", "2"], capsys)


def test_every_claim_of_seed_002_is_exact():
    from importlib import resources

    data = json.loads(resources.files("exactpoker.claims").joinpath("data/002.json").read_text())
    assert data["paper"] == "002"
    cache = {}
    for claim in data["claims"]:
        key = (claim["kind"], json.dumps(claim["params"], sort_keys=True))
        if key not in cache:
            cache[key] = COMPUTERS[claim["kind"]](claim["params"])
        assert compare(claim["printed"], cache[key][claim["quantity"]]) == "exact", claim["id"]
