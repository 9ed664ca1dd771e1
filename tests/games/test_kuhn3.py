"""Three-player Kuhn poker with N cards and pot P (seed 003, Billingham): game, SKP, exact equilibria, CLI."""

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.algebraic import AlgebraicNumber
from exactpoker.certify import verify
from exactpoker.certify_sequential import verify_sequential
from exactpoker.cli import main
from exactpoker.errors import InvalidParameterError
from exactpoker.games.papers import kuhn3, kuhn3_branch
from exactpoker.games.papers import kuhn3_skp as skp
from exactpoker.solve.nplayer.continuation import g
from exactpoker.solve.nplayer.family import symbolic_gains
from exactpoker.solve.nplayer.finish import exact_gains, profile_of


# -- the game from its rules (section 2) -------------------------------------------------------


def test_tree_players_and_perfect_recall():
    """Section 2: each player controls four nodes; players 1 and 2 act twice on a branch."""
    c = kuhn3.compiled(4, 3)
    assert [lay.labels for lay in c.layouts] == [("1", "4", "8", "9"), ("2", "5", "6", "10"), ("3", "7", "11", "12")]
    # nodes 4, 8, 9 follow player 1's check at node 1; nodes 5, 6 follow player 2's check at node 2
    assert c.layouts[0].parent == (None, (0, 0), (0, 0), (0, 0))
    assert c.layouts[1].parent == (None, (0, 0), (0, 0), None)
    assert c.layouts[2].parent == (None,) * 4
    assert sum(lay.num_infosets for lay in c.layouts) == 12 * 4


def test_payoff_polynomials_zero_sum_and_multilinear():
    """Section 2: E_1 + E_2 + E_3 = 0, each E_k linear in each of the 12N frequencies."""
    c = kuhn3.compiled(4, 3)
    assert c.is_zero_sum
    E = c.payoff_polynomials()
    assert sympy.expand(E[0] + E[1] + E[2]) == 0
    symbols = sorted(set().union(*(e.free_symbols for e in E)), key=str)
    assert len(symbols) == 48
    for e in E:
        assert max(sympy.Poly(e, *symbols).degree_list()) == 1


@pytest.mark.slow
def test_extra_differentiation_removes_own_reach():
    """Section 3: the gain at node 4 (player 1, card c) has no factor 1 - x_{1,c} of node 1."""
    symbols, gains, _payoffs = symbolic_gains(kuhn3.compiled(4, 3))
    c = kuhn3.compiled(4, 3)
    for card in range(1, 5):
        node4 = gains[kuhn3.variable_index(c, 4, card)]
        node1 = symbols[kuhn3.variable_index(c, 1, card)]
        assert node1 not in node4.free_symbols


@pytest.mark.parametrize("n", [4, 5, 7])
def test_dominated_strategies_from_the_rules(n):
    """Section 2: card N bets/calls at 3-12, card 1 folds at 4-12, card 2 folds at 6, 9, 12: 22 choices."""
    fixings = kuhn3.dominated_fixings(n)
    assert sum(len(v) for v in fixings.values()) == 22
    assert set(fixings[3]) == {n} and set(fixings[6]) == {1, 2, n} and set(fixings[4]) == {1, n}
    proofs = kuhn3.dominance_proofs(n, Fraction(5, 2))
    assert len(proofs) == 22 and all(p.dominates for p in proofs)


def test_node_numbering_against_the_dominance_statements():
    """Card 2 folds at 6, 9, 12 (two others in) but not at the single-opponent nodes 4, 5, 7, 8, 10, 11."""
    for node in (4, 5, 7, 8, 10, 11):
        assert not kuhn3.dominance_proof(5, 3, node, 2, 0).dominates
    for node in (6, 9, 12):
        assert kuhn3.dominance_proof(5, 3, node, 2, 0).strict


def test_p_min():
    """Section 2: P_min = 2/(N-3)."""
    assert [kuhn3.p_min(n) for n in (4, 5, 6, 13)] == [2, 1, Fraction(2, 3), Fraction(1, 5)]


@pytest.mark.parametrize("bad", [{"cards": 3, "pot": 1}, {"cards": "x", "pot": 1}, {"cards": 4, "pot": 0},
                                 {"cards": 4, "pot": -2}, {"cards": 4, "pot": 0.5}, {"cards": 4, "pot": "abc"}])
def test_bad_input(bad):
    with pytest.raises(InvalidParameterError):
        kuhn3.game(**bad)


# -- the regularised system (section 3) -----------------------------------------------------


def test_float_gains_match_the_exact_ones():
    """The float system's f and Jacobian agree with exact counterfactual gains and exact differences."""
    n, pot = 5, Fraction(9, 2)
    system = kuhn3.gain_system(n)
    rng = np.random.default_rng(0)
    xs = [Fraction(int(v), 97) for v in rng.integers(0, 98, system.num_vars)]
    x = np.array([float(v) for v in xs])
    f, J = system.gains(x, float(pot), jacobian=True)
    exact = exact_gains(kuhn3.compiled(n, pot), xs)
    assert np.allclose(f, [float(v) for v in exact], atol=1e-14)
    for col in range(system.num_vars):
        hi, lo = x.copy(), x.copy()
        hi[col], lo[col] = 1, 0
        assert np.allclose(J[:, col], system.gains(hi, 4.5)[0] - system.gains(lo, 4.5)[0], atol=1e-14)
    # df/dt: the gains are affine in the pot; f, df/dx and df/dt in one pass agree with the above
    f2, J2, ft = system.evaluate(x, float(pot))
    later = exact_gains(kuhn3.compiled(n, pot + 1), xs)
    assert np.allclose(ft, [float(b - a) for a, b in zip(exact, later)], atol=1e-14)
    assert np.array_equal(f2, f) and np.array_equal(J2, J)
    assert np.allclose(system.payoffs(x, float(pot)),
                       [float(v) for v in verify(kuhn3.compiled(n, pot), profile_of(kuhn3.compiled(n, pot), xs)).payoffs],
                       atol=1e-14)


def test_continuation_follows_a_fold_and_regrows_its_steps():
    """Arc-length continuation (eq. 7) round the fold of x^2 + lam^2 = 1; after a tiny start the steps regrow."""
    from exactpoker.solve.nplayer.continuation import continue_branch

    def circle(X):
        return np.array([X[0] ** 2 + X[1] ** 2 - 1]), np.array([[2 * X[0], 2 * X[1]]])

    start = np.array([1.0, 0.0])
    points = list(continue_branch(circle, start, np.array([np.sqrt(1 - 1e-18), 1e-9]), lambda X: X[0] < -0.99,
                                  eps=1e-6, delta=1e-9))
    assert all(abs(np.hypot(*X) - 1) < 1e-12 for X in points)
    assert points[-1][0] < -0.99 and max(abs(X[1]) for X in points) > 0.99  # went round, lam turned back
    steps = [np.linalg.norm(b - a) for a, b in zip(points, points[1:])]
    assert max(steps) > 0.09 and len(points) < 100  # from 1e-9 to delta_max = 0.1 in a few dozen steps


def test_guide_followed_below_the_reliable_epsilon_or_kept_there(monkeypatch):
    """The guide goes on from RELIABLE_EPSILON down to EPSILON, and the solution at RELIABLE_EPSILON is its
    trend; if that continuation fails, the solution at RELIABLE_EPSILON is the guide (and there is no trend)."""
    from exactpoker.errors import DegenerateSystemError
    from exactpoker.solve.nplayer import continuation

    system = kuhn3.gain_system(5)
    reliable = system.full(continuation.trace_epsilon(system, 3.0, eps_end=continuation.RELIABLE_EPSILON))
    deeper, trend = kuhn3.float_guide(5, 3)
    assert np.array_equal(trend.x, reliable) and trend.factor == continuation.RELIABLE_EPSILON / kuhn3.EPSILON
    assert kuhn3.EPSILON < continuation.RELIABLE_EPSILON
    # at the smaller epsilon the variables at an end sit ~100 times nearer it
    ends = [k for k in system.free if min(reliable[k], 1 - reliable[k]) < 1e-3]
    assert ends and all(min(deeper[k], 1 - deeper[k]) < 0.05 * min(reliable[k], 1 - reliable[k]) for k in ends)
    original = continuation.trace_epsilon

    def failing_below(system, t, *, eps_end, **options):
        if eps_end < continuation.RELIABLE_EPSILON:
            raise DegenerateSystemError("continue_branch(): step size underflow")
        return original(system, t, eps_end=eps_end, **options)

    monkeypatch.setattr(continuation, "trace_epsilon", failing_below)
    kept, trend = kuhn3.float_guide(5, 3)
    assert np.array_equal(kept, reliable) and trend is None  # no trend to read the support by


def test_regularising_function():
    """Eq. (4): g(0) = 1/2, g -> 0, 1 like -1/(pi y), 1 - 1/(pi y)."""
    assert g(np.array(0.0)) == 0.5
    assert abs(g(np.array(-1e6)) * np.pi * 1e6 - 1) < 1e-6


# -- SKP (section 4, Appendix A) --------------------------------------------------------------

def test_skp_conditions_in_the_claims_catalog():
    """`exactpoker verify --paper 003` lists eq. (13)'s f_1 .. f_11, in the seed's order of the eleven."""
    from exactpoker.claims import catalog

    claims = [c for c in catalog("003") if c.kind == "kuhn3.skp-condition"]
    assert [c.quantity for c in claims] == [f"f{k}" for k in range(1, 12)]
    assert [c.params["condition"] for c in claims] == list(range(1, 12))
    assert all(c.up_to_positive_factor for c in claims)


@pytest.mark.slow
def test_skp_conditions_are_eq_13_up_to_positive_factors():
    """Appendix A, eq. (13): f_1 .. f_11 derived from the rules equal the seed's times a positive constant."""
    from dataclasses import replace

    from exactpoker.claims import catalog, check

    claims = [c for c in catalog("003") if c.kind == "kuhn3.skp-condition"]
    for claim in claims:
        assert check(claim).verdict == "exact", claim.id
    # a misprint (wrong sign, a missing term, a factor that is not positive) disagrees
    for wrong in ("2*a1 - P*b1", "P*b1 - a1", "P*b1", "(P - 2)*(P*b1 - 2*a1)", "a1*(P*b1 - 2*a1)"):
        assert check(replace(claims[0], printed=wrong)).verdict == "disagrees", wrong


def test_skp_solution_one():
    """Eq. (14): b3 = 2/(P+1), d2 = (2P-4)/(P+1), (2P-4)/(P+1) <= c2+d3, c3+d1 <= 2/(P+1)."""
    P = skp.P
    s = skp.solution_one()
    assert sympy.simplify(s["b3"] - 2 / (P + 1)) == 0
    assert sympy.simplify(s["d2"] - (2 * P - 4) / (P + 1)) == 0
    for pair in ("c2+d3", "c3+d1"):
        assert sympy.simplify(s[pair + " min"] - (2 * P - 4) / (P + 1)) == 0
        assert sympy.simplify(s[pair + " max"] - 2 / (P + 1)) == 0


@pytest.mark.parametrize("pot", [2, Fraction(9, 4), Fraction(5, 2), Fraction(14, 5), 3])
@pytest.mark.parametrize("share", [0, Fraction(1, 3), 1])
def test_skp_solution_one_certified(pot, share):
    """Solution 1 at rational P in [2, 3] with the calls anywhere in their ranges is an SKP equilibrium."""
    assert skp.certify_solution_one(pot, share).holds


def test_skp_solution_one_needs_skp_restriction():
    """At P = 5/2 solution 1 is an SKP equilibrium; whether card 1 may deviate is part of the question."""
    cert = skp.certify_solution_one(Fraction(5, 2))
    assert cert.holds and "forced" in cert.scope
    with pytest.raises(InvalidParameterError):
        skp.certify_solution_one(4)


def test_skp_equilibrium_matches_solution_one():
    r = skp.equilibrium(Fraction(5, 2))
    s = r.equilibria[0].strategies
    assert s["3"][1] == sympy.Rational(4, 7) and s["5"][2] == sympy.Rational(2, 7)
    assert r.equilibria[0].certified


# -- exact equilibria (section 5) --------------------------------------------------------------


def test_n4_below_3_only_player_3_bets_and_nodes_7_to_12_unreached():
    """Section 5.1: for P < 3 players 1 and 2 check everything; nodes 7-12 are not reached."""
    for pot in (Fraction(5, 2), Fraction(11, 4)):
        r = kuhn3.equilibrium(4, pot)
        eq = r.equilibria[0]
        assert all(v == 0 for v in eq.strategies["1"] + eq.strategies["2"])
        c = kuhn3.compiled(4, pot)
        reach = kuhn3.reach_probabilities(c, kuhn3.profile_from_nodes(c, eq.exact_strategies))
        assert all(reach[node] == 0 for node in range(7, 13))
        assert all(reach[node] > 0 for node in range(1, 7))
        # bluff catching only with card 3, value with card 4 (section 2)
        assert eq.strategies["5"][2] == sympy.Rational(2 * pot - 4, pot + 1)


def test_n4_matches_skp_below_3():
    """For 2 < P < 3 the full game's equilibrium has SKP solution 1's values."""
    pot = Fraction(5, 2)
    full = kuhn3.equilibrium(4, pot).equilibria[0].values
    assert full == skp.equilibrium(pot).equilibria[0].values
    assert full == (sympy.Rational(-1, 84), sympy.Rational(-1, 84), sympy.Rational(1, 42))


@pytest.mark.slow
def test_n4_p3_family_player_2_fixed():
    """Section 5.1 / Szafron et al. 2013: at N = 4, P = 3 a range of equilibria; E_2 = -1/48 throughout."""
    fam = kuhn3.equilibrium_family(4, 3)
    assert fam.values[1] == sympy.Rational(-1, 48)
    params = set().union(*(v.free_symbols for v in fam.values))
    assert len(params) == 1  # players 1's and 3's values move with one parameter
    (b,) = params
    assert sympy.simplify(fam.values[0] + fam.values[2] - 1 / sympy.Integer(48)) == 0
    assert fam.values[0].subs(b, 0) != fam.values[0].subs(b, sympy.Rational(1, 4))


@pytest.mark.parametrize("n", [4, 5, 6])
def test_p_min_no_profit_below_player_3_above(n):
    """Section 2: E = 0 for P <= P_min; E_3 > 0 just above."""
    pm = kuhn3.p_min(n)
    for pot in (pm / 2, pm):
        assert kuhn3.equilibrium(n, pot).equilibria[0].values == (0, 0, 0)
    above = kuhn3.equilibrium(n, pm * Fraction(11, 10)).equilibria[0].values
    assert above[2] > 0


def test_condition_one_and_sequential_certificate():
    r = kuhn3.equilibrium(4, Fraction(7, 2))
    eq = r.equilibria[0]
    verdicts = kuhn3.condition_one(4, Fraction(7, 2), eq.strategies)
    assert not any("violated" in row for row in verdicts.values())
    c = kuhn3.compiled(4, Fraction(7, 2))
    profile = kuhn3.profile_from_nodes(c, eq.exact_strategies)  # the seed's rules, compiled on their own
    assert verify(c, profile).holds and verify_sequential(c, profile).holds
    # a non-credible threat: card 4 folds at node 4, where player 3's bet is still possible
    table = {k: list(v) for k, v in eq.strategies.items()}
    table["4"][3] = 0
    assert not verify_sequential(c, kuhn3.profile_from_nodes(c, table)).holds


pots4 = st.fractions(min_value=Fraction(1, 10), max_value=8, max_denominator=12)


@settings(deadline=None, max_examples=6)
@given(pots4)
def test_property_n4(pot):
    """Random rational P, N = 4: certified, values sum to 0, dominated actions never played."""
    _check(4, pot)


@settings(deadline=None, max_examples=4)
@given(st.sampled_from([5, 6]), st.fractions(min_value=Fraction(1, 10), max_value=Fraction(11, 10), max_denominator=10))
def test_property_n5_n6(n, scale):
    """N = 5, 6 at P <= 11/10 P_min (where the equilibria found are rational; above, irrational ones appear)."""
    _check(n, kuhn3.p_min(n) * scale)


def _check(n, pot):
    r = kuhn3.equilibrium(n, pot)
    eq = r.equilibria[0]
    assert eq.certified and sum(eq.values) == 0
    for node, cards in kuhn3.dominated_fixings(n).items():
        for card, v in cards.items():
            assert eq.strategies[str(node)][card - 1] == v


def test_n5_irrational_equilibrium_certified():
    """N = 5, P = 5/2 (about 1.7 P_min): no rational point on the support; the exact equilibrium is
    algebraic of degree 14, certified sequentially rational, zero-sum, and renders as JSON."""
    r = kuhn3.equilibrium(5, Fraction(5, 2))
    eq = r.equilibria[0]
    assert eq.certified and sum(eq.values) == 0
    irrational = [v for strategy in eq.profile.strategies for mix in strategy for v in mix
                  if isinstance(v, AlgebraicNumber) and not v.is_rational]
    assert irrational and all(v.field.degree == 14 for v in irrational)
    assert r.details["field"]["degree"] == 14
    assert [round(float(v), 6) for v in eq.values] == [-0.040318, 0.004429, 0.03589]
    g = kuhn3.compiled(5, Fraction(5, 2))
    assert verify_sequential(g, kuhn3.profile_from_nodes(g, eq.exact_strategies)).holds
    out = json.loads(json.dumps(r.to_dict()))
    assert "CRootOf" in out["equilibria"][0]["strategies"]["1"][1]


def test_solve_near_exact_cubic_field():
    """solve_near: the exact solution next to a float point of a system with a cubic irrational root."""
    import flint

    from exactpoker.solve.algebra.elimination import evaluate, solve_near

    ctx = flint.fmpq_mpoly_ctx.get(("a", "b"), "lex")
    a, b = ctx.gens()
    equations = [a * b - 1, a * a + b - 3]  # a^3 - 3a + 1 = 0, b = 1/a
    values = solve_near(equations, ctx, [0.35, 2.9])
    assert all(evaluate(e, dict(enumerate(values))) == 0 for e in equations)
    assert values[0].field.degree == 3 and abs(float(values[0]) - 0.3472963553) < 1e-9


def test_algebraic_finish_reports_its_pins(monkeypatch):
    """Columns the algebraic finish pins (gains that vanish once the others are exact) are listed as pinned.

    At N = 4, P = 5/2 nodes 7 to 12 are never reached; with a Jacobian that
    hides it (the identity) and no rational refinement, the algebraic finish
    finds those gains identically zero and pins their variables itself.
    """
    import exactpoker.solve.nplayer.finish as support
    from exactpoker.errors import CertificationError

    def no_rational(*args, **kwargs):
        raise CertificationError("refinement switched off")

    monkeypatch.setattr(support, "_refine", no_rational)
    n, p = 4, Fraction(5, 2)
    system = kuhn3.gain_system(n)
    g = kuhn3.compiled(n, p)
    sol = support.solve_exact(g, kuhn3.float_equilibrium(n, p), lambda z: np.eye(len(z)), system.fixed)
    unreached = kuhn3.variable_index(g, 10, 2)
    assert sol.certificate.holds and unreached in sol.interior and unreached in sol.pinned
    assert set(sol.pinned) < set(sol.interior)
    assert all(sol.x[k].denominator <= 10 for k in sol.pinned)


# -- branch and CLI -------------------------------------------------------------------------


def test_branch_csv_and_exact_point(tmp_path):
    points = kuhn3_branch.branch(4, Fraction(5, 2), Fraction(27, 10))
    assert points[0].at == 2.5 and points[-1].at >= 2.7
    path = tmp_path / "b.csv"
    kuhn3_branch.write_csv(points, str(path), 4)
    head = path.read_text().splitlines()[0].split(",")
    assert head[:4] == ["P", "E1", "E2", "E3"] and len(head) == 4 + 48
    exact = kuhn3_branch.exact_on_branch(4, points, Fraction(13, 5))
    assert exact.equilibria[0].certified


def test_a_pot_off_the_branch_is_refused():
    points = kuhn3_branch.branch(4, Fraction(5, 2), Fraction(27, 10))
    with pytest.raises(InvalidParameterError, match="pot must lie on the branch"):
        kuhn3_branch.exact_on_branch(4, points, 3)


def test_the_papers_branch_is_the_engines_branch_of_the_library_game():
    """The seed's gain system and the library game's compiled one (independent), followed by one continuation."""
    from exactpoker.core.parametric import compile_parametric
    from exactpoker.games.library import parametric
    from exactpoker.solve.nplayer.gain_system import GainSystem
    from exactpoker.solve.parametric.branch import follow_branch

    papers = kuhn3_branch.branch(4, 3, Fraction(31, 10))
    game = compile_parametric(parametric("kuhn3(cards=4)", "pot"), [Fraction(3), Fraction(7, 2), Fraction(4)])
    system = GainSystem.from_games((3.0, game.at(Fraction(3))), (4.0, game.at(Fraction(4))))
    engines = follow_branch(system, 3.0, 3.1)
    for mine, theirs in ((papers[0], engines[0]), (papers[-1], engines[-1])):
        assert abs(mine.at - theirs[-1]) < 0.01
        assert np.allclose(mine.values, system.payoffs(system.full(theirs[:-1]), theirs[-1]), atol=2e-3)


def test_cli_json(capsys):
    assert main(["kuhn3", "--cards", "4", "--pot", "5/2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    eq = out["equilibria"][0]
    assert sorted(eq["strategies"], key=int) == [str(i) for i in range(1, 13)]
    assert len(eq["values"]) == 3 and eq["certified"] is True
    assert main(["kuhn3", "skp", "--pot", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "kuhn3-skp"


@pytest.mark.slow
def test_cli_irrational_equilibrium(capsys):
    """The CLI renders an algebraic equilibrium: exact strings in JSON, 10 digits as text."""
    assert main(["kuhn3", "--cards", "5", "--pot", "5/2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["details"]["field"]["degree"] == "14" and out["equilibria"][0]["certified"] is True
    assert main(["kuhn3", "--cards", "5", "--pot", "5/2"]) == 0
    text = capsys.readouterr().out
    assert "irrational equilibrium, certified True" in text and "values: ≈ -0.04031849089" in text
    assert "legend: strategies keyed by node number" in text and "  12: player 3, player 1 bet, player 2 called" in text
    assert " ~ " not in text  # no bare float: certified decimals are marked ≈
    eq = out["equilibria"][0]
    assert eq["approx"]["values"][0] == "-0.04031849089" and eq["approx"]["strategies"]["1"][1].startswith("0.")


def test_cli_bad_input(capsys):
    assert main(["kuhn3", "--cards", "3", "--pot", "1"]) == 2
    assert "cards" in capsys.readouterr().err
    assert main(["kuhn3", "--cards", "4", "--pot", "0"]) == 2
    assert main(["kuhn3", "--cards", "4", "--pot", "abc"]) == 2
