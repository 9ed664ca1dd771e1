"""Games as exact piecewise functions of a parameter: ``exactpoker solve GAME --over NAME=FROM..TO`` (issue 28).

Cross-checks: the piecewise value at random rationals equals the exact LP value
of the game solved there on its own (``library:kuhn(bet=...)``), and the
piece's strategies pass :func:`exactpoker.certify.verify`; Kuhn's published
value -1/18 at bet 1 (Kuhn 1950); the Euler notes' simple poker piecewise value
(the matrix-game code) equals the sequence-form pieces of the same game; von
Neumann poker's value in b at points equals ``von_neumann.equilibrium``.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from flint import fmpq_poly
from hypothesis import given, settings
from hypothesis import strategies as st

from exactpoker.algebraic import RealAlgebraic
from exactpoker.certify import verify
from exactpoker.cli import main
from exactpoker.core.parametric import ParametricGame, compile_parametric, interpolate
from exactpoker.errors import InvalidGameError, NotZeroSumError
from exactpoker.games.papers import simple_poker, von_neumann
from exactpoker.formats import load_game
from exactpoker.games.library import parametric
from exactpoker.core.tree import compile_tree
from exactpoker.solve import solve_game
from exactpoker.solve.parametric.matrix_game import parametric_value
from exactpoker.solve.parametric.game import ParametricSolution, solve_over, value_at_point

B = sympy.Symbol("bet")
LOWER, UPPER = Fraction(1, 4), Fraction(8)


@pytest.fixture(scope="module")
def kuhn_over() -> ParametricSolution:
    game = compile_parametric(parametric("kuhn", "bet"), [Fraction(1), Fraction(2), Fraction(3)])
    return solve_over(game, LOWER, UPPER)


def test_kuhn_piecewise_value(kuhn_over):
    """Kuhn poker, ante 1, bet b on [1/4, 8]: three formulas, breakpoints 1 and 2; -1/18 at b = 1 (Kuhn 1950)."""
    pieces = [(str(s), str(e), sympy.factor(v)) for s, e, v in kuhn_over.value_pieces()]
    assert pieces == [("1/4", "1", sympy.factor(-B**2 / (6 * (B + 2)))),
                      ("1", "2", sympy.factor(B * (B - 2) / (6 * (B + 2)))),
                      ("2", "8", 0)]
    assert kuhn_over.value_at(1) == sympy.Rational(-1, 18)
    assert [str(b) for b in kuhn_over.breakpoints()] == ["1", "2"]


def test_kuhn_every_piece_certified(kuhn_over):
    assert kuhn_over.pieces[0].start.same(RealAlgebraic.rational(LOWER))
    assert kuhn_over.pieces[-1].end.same(RealAlgebraic.rational(UPPER))
    for left, right in zip(kuhn_over.pieces, kuhn_over.pieces[1:]):
        assert left.end.same(right.start)
    for piece in kuhn_over.pieces:
        assert piece.certificate.holds and piece.contains(RealAlgebraic.rational(piece.sample))


@settings(max_examples=15, deadline=None)
@given(st.fractions(min_value=LOWER, max_value=UPPER, max_denominator=50))
def test_kuhn_pieces_equal_point_solves(kuhn_over, bet):
    """At a random rational bet: the formula equals the LP of library:kuhn(bet=...), and the strategies certify."""
    compiled = compile_tree(load_game(f"library:kuhn(bet={bet})").tree)
    assert kuhn_over.value_at(bet) == solve_game(compiled).value
    assert verify(compiled, kuhn_over.profile_at(bet)).holds


def test_kuhn_maximize(kuhn_over):
    """P2's value b^2/(6(b+2)), then -b(b-2)/(6(b+2)): largest, 1/18, at b = 1; P1's is 0, flat on [2, 8]."""
    second = kuhn_over.maximize(1)
    assert second.value.same(RealAlgebraic.rational(Fraction(1, 18))) and [str(a) for a in second.at] == ["1"]
    first = kuhn_over.maximize(0)
    assert first.value.same(RealAlgebraic.rational(Fraction(0)))
    assert [(str(s), str(e)) for s, e in first.flat] == [("2", "8")]


def test_maximize_at_an_algebraic_point():
    """[[3, -1 - r], [-2 - r, -2 + 2r]]: on [1/3, 3] the value -(r^2 - 3r + 8)/(4(r + 1)) peaks at r = 2 sqrt(3) - 1."""
    pv = parametric_value([[3, -1], [-2, -2]], [[0, -1], [-1, 2]], lower=0, upper=3)
    best = ParametricSolution(pv.lower, pv.upper, pv.pieces, pv.symbol).maximize(0)
    (where,) = best.at
    assert sympy.simplify(where.to_sympy() - (2 * sympy.sqrt(3) - 1)) == 0
    r = 2 * sympy.sqrt(3) - 1
    assert sympy.simplify(best.value.to_sympy() + (r**2 - 3 * r + 8) / (4 * (r + 1))) == 0


def test_value_at_point_algebraic():
    """x / (x + 1) at sqrt(2): the root of x^2 - 4x + 2 near 0.586, exactly."""
    root = RealAlgebraic(Fraction(1), Fraction(2), fmpq_poly([-2, 0, 1]), 1)
    value = value_at_point(fmpq_poly([0, 1]), fmpq_poly([1, 1]), root)
    assert sympy.simplify(value.to_sympy() - (2 - sympy.sqrt(2))) == 0


def test_simple_poker_matrix_and_sequence_form_agree():
    """The Euler notes' value in r = B/A (m = 2, all tactics: the matrix game) = the sequence-form pieces of the tree."""
    game = ParametricGame("simple", "r", lambda r: simple_poker.compiled(2, 1, r), degree=1)
    over = solve_over(compile_parametric(game, [Fraction(1), Fraction(2), Fraction(3)]), Fraction(1, 10), 4)
    matrix = simple_poker.piecewise_value(2, upper=4)
    r = sympy.Symbol("r")
    for point in [Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(7, 3), Fraction(4)]:
        assert over.value_at(point) == matrix.value_at(point)
    ours = [(str(s), sympy.cancel(v)) for s, _, v in over.value_pieces()]
    theirs = [(str(s), sympy.cancel(v.subs(sympy.Symbol("r"), r))) for s, e, v in matrix.value_pieces()
              if e is None or RealAlgebraic.rational(Fraction(1, 10)) < e]
    assert [v for _, v in ours] == [v for _, v in theirs]


@pytest.mark.parametrize("n", [3, 4, 6])
def test_von_neumann_value_in_b(n):
    """von Neumann poker, n cards, value in b on [1/2, 5]: equals von_neumann.equilibrium at points."""
    game = ParametricGame("vn", "b", lambda b: von_neumann.compiled(n, b), degree=1)
    over = solve_over(compile_parametric(game, [Fraction(1), Fraction(2), Fraction(3)]), Fraction(1, 2), 5)
    for b in [Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(5)]:
        assert over.value_at(b) == von_neumann.equilibrium(n, b).value
        assert over.certify_at(b).holds


# -- the compiler --------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=9), min_size=1, max_size=5))
def test_interpolate_recovers_a_polynomial(coefficients):
    poly = fmpq_poly([sympy_free(c) for c in coefficients])
    points = [Fraction(k, 3) for k in range(len(coefficients))]
    values = [Fraction(str(poly(sympy_free(p)))) for p in points]
    assert interpolate(points, values) == poly


def sympy_free(value: Fraction):
    from exactpoker.algebraic import to_fmpq

    return to_fmpq(value)


def test_wrong_degree_is_caught():
    """A payoff 1/b is no polynomial: the check point refuses the interpolation."""
    def compiled(b: Fraction):
        return compile_tree(load_game(f"library:kuhn(bet={1 / b})").tree)

    with pytest.raises(InvalidGameError, match="not polynomials"):
        compile_parametric(ParametricGame("inverse", "b", compiled, degree=1), [Fraction(1), Fraction(2), Fraction(3)])


def test_three_players_refused():
    game = compile_parametric(parametric("kuhn3", "pot"), [Fraction(3), Fraction(4), Fraction(5)])
    with pytest.raises(NotZeroSumError):
        solve_over(game, 3, 5)


# -- the command line ----------------------------------------------------------------------


def test_cli_over_json(capsys):
    assert main(["solve", "library:kuhn", "--over", "bet=1/4..8", "--maximize", "value[P2]", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"] == {"parameter": "bet", "from": "1/4", "to": "8"}
    assert [p["certified"] for p in data["pieces"]] == [True, True, True]
    assert [b["exact"] for b in data["breakpoints"]] == ["1", "2"]
    assert data["maximum"]["value"]["exact"] == "1/18" and data["maximum"]["player"] == "P2"
    assert data["pieces"][2]["value"] == ["0", "0"]


@pytest.mark.slow
def test_cli_over_text_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "kuhn.png"
    assert main(["solve", "library:kuhn(ante=2)", "--over", "bet=1..3", "--plot", str(path)]) == 0
    out = capsys.readouterr().out
    assert "certified optimal for every bet" in out and path.stat().st_size > 0


@pytest.mark.parametrize("argv, message", [
    (["library:kuhn", "--over", "bet=8..1"], "FROM < TO"),
    (["library:kuhn", "--over", "bet"], "NAME=FROM..TO"),
    (["library:kuhn", "--over", "cards=1..2"], "can vary ante, bet"),
    (["library:kuhn(bet=2)", "--over", "bet=1..2"], "also fixed"),
    (["library:kuhn", "--over", "bet=1..2", "--maximize", "value[7]"], "--maximize must be"),
    (["library:kuhn", "--maximize", "value[0]"], "go with --over"),
    (["openspiel:kuhn_poker", "--over", "bet=1..2"], "--over works on"),
])
def test_cli_over_bad_input(capsys, argv, message):
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# -- Gambit files with polynomial payoffs ----------------------------------------------------------


def _vn_file(tmp_path, n: int = 3):
    """von Neumann poker written by ``vn efg`` with the bet's payoffs 2 replaced by ``1+b``."""
    path = tmp_path / "vn.efg"
    assert main(["vn", "efg", "--n", str(n), "--b", "1", "-o", str(path)]) == 0
    text = path.read_text().replace("{ -2, 2 }", "{ -1-b, 1+b }").replace("{ 2, -2 }", "{ 1+b, -1-b }")
    path.write_text(text)
    return path


def test_parametric_efg_equals_the_model(tmp_path, capsys):
    """A .efg with payoffs 1+b gives the same pieces as von Neumann poker compiled at each b."""
    from exactpoker.formats.parametric import parametric_file

    path = _vn_file(tmp_path)
    capsys.readouterr()
    points = [Fraction(1), Fraction(2), Fraction(3)]
    from_file = solve_over(compile_parametric(parametric_file(str(path), "b", (Fraction(1, 2), Fraction(5))), points),
                           Fraction(1, 2), 5)
    model = ParametricGame("vn", "b", lambda b: von_neumann.compiled(3, b), degree=1)
    direct = solve_over(compile_parametric(model, points), Fraction(1, 2), 5)
    assert [(str(s), str(e), v) for s, e, v in from_file.value_pieces()] == \
        [(str(s), str(e), v.subs(sympy.Symbol("b"), sympy.Symbol("b"))) for s, e, v in direct.value_pieces()]


def test_parametric_nfg(tmp_path):
    """[[r, 1], [1, 0]] as a .nfg: 1/(2 - r) up to r = 1, then 1 (the matrix-game doctest)."""
    from exactpoker.formats.parametric import parametric_file

    path = tmp_path / "m.nfg"
    path.write_text('NFG 1 R "m" { "1" "2" } { 2 2 }\n\nr -r 1 -1 1 -1 0 0\n')
    over = solve_over(compile_parametric(parametric_file(str(path), "r"), [Fraction(1, 3), Fraction(2, 3),
                                                                            Fraction(4, 3)]), 0, 3)
    matrix = parametric_value([[0, 1], [1, 0]], [[1, 0], [0, 0]], lower=0, upper=3)
    assert [(str(s), str(v)) for s, _, v in over.value_pieces()] == \
        [(str(s), str(v)) for s, _, v in matrix.value_pieces()]


@pytest.mark.parametrize("text, parameter, message", [
    ('NFG 1 R "m" { "1" "2" } { 2 2 }\n\n1/r 0 1 -1 1 -1 0 0\n', "r", "not a polynomial"),
    ('NFG 1 R "m" { "1" "2" } { 2 2 }\n\n1 -1 1 -1 1 -1 0 0\n', "r", "no payoff that depends on r"),
    ('NFG 1 R "m" { "1" "2" } { 2 2 }\n\n1 -1 1 -1 1 -1 0 0\n', "p", "identifier other than"),
])
def test_parametric_file_errors(tmp_path, text, parameter, message):
    from exactpoker.formats.parametric import parametric_file

    path = tmp_path / "bad.nfg"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        parametric_file(str(path), parameter)


def test_parameter_in_a_chance_probability_is_refused(tmp_path):
    from exactpoker.formats.parametric import parametric_file

    path = tmp_path / "chance.efg"
    path.write_text('EFG 2 R "g" { "1" "2" }\n""\n\nc "" 1 "" { "a" q "b" 1-q } 0\n'
                    't "" 1 "" { 1, -1 }\nt "" 2 "" { -1, 1 }\n')
    with pytest.raises(ValueError, match="chance probabilities depend on q"):
        parametric_file(str(path), "q")


# -- general-sum and many players: certified points on a branch --------------------------------


@pytest.mark.slow
def test_kuhn3_branch_points_certified(capsys):
    """Three-player Kuhn poker (4 cards) over the pot: every printed exact point passes verify at its pot."""
    from exactpoker.solve.parametric.branch import solve_branch

    game = compile_parametric(parametric("kuhn3(cards=4)", "pot"), [Fraction(3), Fraction(7, 2), Fraction(4)])
    branch = solve_branch(game, 3, 4, count=3)
    assert [p.at for p in branch.points] == [3, Fraction(7, 2), 4]
    for point in branch.points:
        assert point.equilibrium is not None and point.equilibrium.certified
        assert verify(game.at(point.at), point.equilibrium.profile).holds
    assert branch.branch[0].at == 3.0 and branch.branch[-1].at >= 4 - 1e-6


@pytest.mark.slow
def test_cli_branch_json(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    from exactpoker.schema import schema

    assert main(["solve", "library:kuhn3(cards=4)", "--over", "pot=3..7/2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not list(jsonschema.Draft202012Validator(schema()).iter_errors(data))
    assert all(p["certified"] and p["equilibrium"]["certificate"]["holds"] for p in data["points"])
    assert not any(b["certified"] for b in data["branch"])


@pytest.mark.slow
def test_leduc_second_bet_against_point_solves():
    """Leduc Hold'em (no suits, ranks 2) in the second-round bet on [2, 4]: the pieces agree with point LPs."""
    game = compile_parametric(parametric("leduc(suits=false,ranks=2)", "bet2"), [Fraction(5, 2), Fraction(3),
                                                                                  Fraction(7, 2)])
    over = solve_over(game, 2, 4)
    assert [str(b) for b in over.breakpoints()] == ["CRootOf(x**3 + 16*x**2 + 20*x - 150, 2)", "3"]
    for bet in [Fraction(2), Fraction(9, 4), Fraction(13, 5), Fraction(4)]:
        compiled = compile_tree(load_game(f"library:leduc(suits=false,ranks=2,bet2={bet})").tree)
        assert over.value_at(bet) == solve_game(compiled).value
        assert verify(compiled, over.profile_at(bet)).holds


@pytest.fixture(scope="module")
def kuhn_by_ante() -> ParametricSolution:
    game = compile_parametric(parametric("kuhn", "ante"), [Fraction(1), Fraction(2), Fraction(3)])
    return solve_over(game, Fraction(1, 4), 8)


@settings(max_examples=10, deadline=None)
@given(st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=30))
def test_kuhn_ante_is_the_bet_rescaled(kuhn_over, kuhn_by_ante, ante):
    """Scaling all stakes scales the value: v(ante=a, bet=1) = a v(ante=1, bet=1/a) (two independent --over runs)."""
    assert kuhn_by_ante.value_at(ante) == sympy.Rational(ante.numerator, ante.denominator) * kuhn_over.value_at(1 / ante)


def test_cli_over_parametric_efg(tmp_path, capsys):
    path = _vn_file(tmp_path)
    capsys.readouterr()
    assert main(["solve", str(path), "--over", "b=1/2..5", "--maximize", "value[I]", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["over"]["parameter"] == "b" and all(p["certified"] for p in data["pieces"])
    assert data["maximum"]["player"] == "I"
