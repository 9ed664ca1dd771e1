"""Strategies in and out against the independent tools (issue 42, item 7): Gambit reads what convert writes
and its exact solvers agree; pygambit profiles and OpenSpiel policies are certified exactly, a wrong one
refuted with the regrets the tools themselves compute."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactpoker.cli import main
from exactpoker.formats.certify_profile import certify_profile
from exactpoker.formats.nfg import read_nfg
from exactpoker.solve.engine.dispatch import solve_game
from tests.paths import DATA


def convert(capsys, spec: str, path: Path) -> Path:
    assert main(["convert", spec, "-o", str(path)]) == 0, capsys.readouterr().err
    return path


def rational(value) -> Fraction:
    return Fraction(str(value))


# ---------------------------------------------------------------- Gambit


def gambit_profile(gbt, efg, spec: str):
    """Our equilibrium of ``spec`` as a pygambit profile of ``efg`` (its convert), through Gambit's order."""
    from exactpoker.formats import game_tree, load_game
    from exactpoker.formats.gambit_order import behaviour_numbers, infoset_order
    from exactpoker.solve.engine.dispatch import guarded_compiled

    loaded = load_game(spec)
    order = infoset_order(game_tree(loaded), guarded_compiled(loaded))
    profile = efg.mixed_behavior_profile(rational=True)
    actions = [a for p in efg.players for i in p.infosets for a in i.actions]
    numbers = behaviour_numbers(solve_game(loaded).equilibria[0].profile, order)
    assert len(actions) == len(numbers)
    for action, number in zip(actions, numbers):
        profile[action] = gbt.Rational(number.numerator, number.denominator)
    return profile


@pytest.mark.gambit
@pytest.mark.parametrize("spec, solvers, table", [
    ("library:kuhn", True, True), ("library:vn(n=4,b=2)", True, True), ("library:kuhn(bet=2)", True, True),
    ("library:three(n=3,b=2)", True, False), ("library:ladder(n=3,sizes=1,rake=1/10)", True, False),
    ("library:leduc(ranks=2,suits=false)", False, False),  # Gambit's LP and its max_regret: gigabytes
    pytest.param("library:dice(sides=2)", True, False, marks=pytest.mark.slow),  # 6 s
])
def test_gambit_reads_what_convert_writes_and_its_exact_solvers_agree(spec, solvers, table, capsys, tmp_path):
    gbt = pytest.importorskip("pygambit")
    ours = list(solve_game(spec).equilibria[0].values)
    efg = gbt.read_efg(str(convert(capsys, spec, tmp_path / "game.efg")))
    profile = gambit_profile(gbt, efg, spec)  # our equilibrium, evaluated (and checked) by Gambit's arithmetic
    assert [rational(profile.payoff(p)) for p in efg.players] == ours
    assert not solvers or profile.max_regret() == 0
    if solvers and len(efg.players) == 2 and efg.is_const_sum:  # Gambit's own exact LP: the same value
        found = gbt.nash.lp_solve(efg, rational=True).equilibria[0]
        assert [rational(found.payoff(p)) for p in efg.players] == ours
    elif solvers and len(efg.players) == 2:
        found = gbt.nash.lcp_solve(efg, rational=True).equilibria
        assert len(found) != 1 or [rational(found[0].payoff(p)) for p in efg.players] == ours
    if table:  # its reduced strategic form (Kuhn: 27 x 64 strategies), by Gambit's exact LP
        nfg = gbt.read_nfg(str(convert(capsys, spec, tmp_path / "game.nfg")))
        found = gbt.nash.lp_solve(nfg, rational=True).equilibria[0]
        assert [rational(found.payoff(p)) for p in nfg.players] == ours


@pytest.mark.gambit
def test_our_strategic_form_is_gambits_own(capsys, tmp_path):
    gbt = pytest.importorskip("pygambit")
    efg = gbt.read_efg(str(convert(capsys, "library:kuhn", tmp_path / "kuhn.efg")))
    ours = gbt.read_nfg(str(convert(capsys, "library:kuhn", tmp_path / "kuhn.nfg")))
    for mine, theirs in zip(ours.players, efg.players):
        assert [s.label for s in mine.strategies] == [s.label for s in theirs.strategies]
    leaves = lambda text: [n.payoffs for n in read_nfg(text).tree.nodes() if not hasattr(n, "actions")  # noqa: E731
                           and not hasattr(n, "outcomes")]
    assert leaves((tmp_path / "kuhn.nfg").read_text()) == leaves(efg.to_nfg())


@pytest.mark.gambit
def test_a_pygambit_equilibrium_is_certified_and_a_wrong_one_refuted_as_gambit_measures_it(capsys, tmp_path):
    gbt = pytest.importorskip("pygambit")
    path = convert(capsys, "library:kuhn", tmp_path / "kuhn.efg")
    game = gbt.read_efg(str(path))
    found = gbt.nash.lcp_solve(game, rational=True).equilibria[0]
    report = certify_profile(game, found, source="lcp_solve")
    assert report.holds and [c.payoff for c in report.checks[0].certificate.checks] == \
        [rational(found.payoff(p)) for p in game.players]
    wrong = game.mixed_behavior_profile(rational=True)  # uniform: not an equilibrium
    [check] = certify_profile(path, wrong).checks
    assert not check.holds
    assert check.certificate.max_regret == rational(wrong.max_regret())  # 13/24, by Gambit's own arithmetic
    assert [c.payoff for c in check.certificate.checks] == [rational(wrong.payoff(p)) for p in game.players]
    assert {d.player for d in check.deviations} == {0, 1}
    # the library game itself (not its file): matched by Gambit's order of its tree, the same certificate
    [again] = certify_profile("library:kuhn", wrong).checks
    assert again.certificate == check.certificate and again.deviations == check.deviations


@pytest.mark.gambit
def test_a_pygambit_mixed_strategy_profile_of_a_tree_and_of_a_table(capsys, tmp_path):
    gbt = pytest.importorskip("pygambit")
    game = gbt.read_efg(str(convert(capsys, "library:vn(n=4,b=2)", tmp_path / "vn.efg")))
    mixed = gbt.nash.lcp_solve(game, use_strategic=True, rational=True).equilibria[0]
    report = certify_profile(game, mixed)
    assert report.holds
    assert report.checks[0].certificate.payoffs == solve_game("library:vn(n=4,b=2)").equilibria[0].exact_values
    table = gbt.read_nfg(str(DATA / "bos.nfg"))
    for equilibrium in gbt.nash.enummixed_solve(table, rational=True).equilibria:
        assert certify_profile(DATA / "bos.nfg", equilibrium).holds


@pytest.mark.gambit
def test_pygambit_profiles_follow_gambits_numbers_not_the_file_order(capsys):
    # odd_numbers.efg lists information set 7 before 2: pygambit and Gambit's lines agree on the file order
    gbt = pytest.importorskip("pygambit")
    game = gbt.read_efg(str(DATA / "odd_numbers.efg"))
    profile = game.mixed_behavior_profile(rational=True)
    first, second = game.players
    (bet_high, check_high), (bet_low, check_low) = (infoset.actions for infoset in first.infosets)
    [(call, fold)] = (infoset.actions for infoset in second.infosets)
    for action, probability in ((bet_high, 1), (check_high, 0), (bet_low, Fraction(1, 3)),
                                (check_low, Fraction(2, 3)), (call, Fraction(2, 3)), (fold, Fraction(1, 3))):
        profile[action] = gbt.Rational(probability.numerator, probability.denominator)
    assert profile.max_regret() == 0
    assert certify_profile(game, profile).holds
    assert main(["solve", str(DATA / "odd_numbers.efg"), "--format", "gambit"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.split(",")[1:] == [str(profile[a]) for p in game.players for i in p.infosets for a in i.actions]


@pytest.mark.gambit
def test_solve_game_takes_a_pygambit_game():
    gbt = pytest.importorskip("pygambit")
    assert solve_game(gbt.read_efg(str(DATA / "matching_pennies.efg"))).value == 0
    table = gbt.read_nfg(str(DATA / "bos.nfg"))
    assert {eq.exact_values for eq in solve_game(table, all_equilibria=True).equilibria} == \
        {tuple(rational(eq.payoff(p)) for p in table.players)
         for eq in gbt.nash.enummixed_solve(table, rational=True).equilibria}


# ---------------------------------------------------------------- OpenSpiel


@pytest.mark.openspiel
def test_an_openspiel_policy_is_refuted_with_the_regrets_nash_conv_measures(capsys, tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.policy import TabularPolicy

    game = pyspiel.load_game("kuhn_poker")
    policy = TabularPolicy(game)  # uniform random: not an equilibrium
    report = certify_profile(game, policy)
    [check] = report.checks
    regrets = [c.regret for c in check.certificate.checks]
    assert not check.holds and all(r > 0 for r in regrets)
    assert abs(float(sum(regrets)) - exploitability.nash_conv(game, policy)) < 1e-12
    # the same policy written as TabularPolicy.to_dict() (floats) and read by the command line
    path = tmp_path / "uniform.json"
    path.write_text(json.dumps({key: [[int(a), float(p)] for a, p in row] for key, row in policy.to_dict().items()}))
    assert main(["certify", "openspiel:kuhn_poker", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [Fraction(c["regret"]) for c in data["profiles"][0]["certificate"]["players"]] == regrets
    deviation = data["profiles"][0]["best_deviations"][0]
    assert deviation["player"] == "0" and deviation["changes"] and deviation["gain"] == str(regrets[0])


@pytest.mark.openspiel
def test_our_equilibrium_as_an_openspiel_policy_is_certified_from_its_floats(capsys, tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from exactpoker.formats.openspiel import to_tabular_policy

    game = pyspiel.load_game("kuhn_poker")
    policy = to_tabular_policy(game, solve_game(game).equilibria[0].strategies)  # floats: 1/3 as 0.333...
    arrays = tmp_path / "policy.json"
    arrays.write_text(json.dumps({"action_probability_array": policy.action_probability_array.tolist()}))
    assert main(["certify", "openspiel:kuhn_poker", str(arrays)]) == 2  # the rows do not add up to 1 exactly
    assert "--decimals fractions" in capsys.readouterr().err
    assert main(["certify", "openspiel:kuhn_poker", str(arrays), "--decimals", "fractions", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["equilibria"][0]["values"] == ["-1/18", "1/18"]
    assert certify_profile(game, policy, decimals="fractions").holds


@pytest.mark.openspiel
def test_openspiel_games_through_efg_keep_their_exact_value(capsys, tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    for name in ("kuhn_poker", "kuhn_poker(players=3)"):
        path = convert(capsys, f"openspiel:{name}", tmp_path / "game.efg")
        assert solve_game(path).equilibria[0].values == solve_game(f"openspiel:{name}").equilibria[0].values
    assert solve_game(pyspiel.load_game("kuhn_poker")).value == Fraction(-1, 18)


@pytest.mark.openspiel
@pytest.mark.slow
def test_leduc_through_efg_keeps_its_exact_value(capsys, tmp_path):
    pytest.importorskip("pyspiel")
    path = convert(capsys, "openspiel:leduc_poker", tmp_path / "leduc.efg")
    assert solve_game(path).value == solve_game("openspiel:leduc_poker").value
