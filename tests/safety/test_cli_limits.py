"""Huge numbers are refused with the limit named (issue 29): one line, exit 2, before any float guide sees them."""

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from exactpoker.cli import main
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import MAX_EXPONENT, MAX_PARAMETER, parse_int, parse_positive, to_fraction

BIG = {k: "1" + "0" * k for k in (20, 30, 40, 50)}  # 10^k as a user types it


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv, message", [
    (["vn", "mixed", "--n", "4", "--b", BIG[30]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["vn", "mixed", "--n", "4", "--b", "1e400"], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["vn", "mixed", "--n", "4", "--b", "1/" + BIG[20]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["vn", "mixed", "--n", "4", "--b", "1e99999999"], "--b must be a rational number such as 2, 5/2 or 2.5, "
                                                         "with a decimal exponent of at most 1000"),
    (["vn", "mixed", "--n", BIG[30], "--b", "2"], "--n must be an integer >= 2 and <= 10^12"),
    (["newman", "mixed", "--n", "4", "--b", BIG[20]], "--b must be an integer >= 1 and <= 10^12"),
    (["newman", "mixed", "--n", "4", "--b", str(MAX_PARAMETER + 1)], "--b must be an integer >= 1 and <= 10^12"),
    (["three", "mixed", "--n", "5", "--b", BIG[40]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["kuhn3", "--cards", BIG[30], "--pot", "3"], "--cards must be an integer >= 4 and <= 10^12"),
    (["kuhn3", "--cards", "4", "--pot", BIG[30]], "--pot must be a rational p/q > 0 with p and q at most 10^12"),
    (["solve", f"library:ladder(n=3,sizes=1;{BIG[40]})"], "sizes must be a rational p/q > 0 with p and q at most 10^12"),
    (["simple", "--m", "3", "--bet", BIG[50]], "--bet must be a rational p/q > 0 with p and q at most 10^12"),
    (["simple", "--m", "3", "--ante", BIG[50], "--bet", "1"], "--ante must be a rational p/q > 0 with p and q at most 10^12"),
    (["nash-shapley", "--a", "1", "--b", BIG[30]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["goldman-stone", "--a", BIG[30], "--b", "2", "--n", "10"], "--a must be a rational p/q > 0 with p and q at most 10^12"),
    (["goldman-stone", "--a", "3", "--b", "2", "--n", BIG[30]], "--n must be an integer >= 2 and <= 10^12"),
    (["kuhn3", "branch", "--cards", "4", "--pot-min", "1", "--pot-max", BIG[30], "--csv", "/dev/null"],
     "--pot-max must be a rational p/q > 0 with p and q at most 10^12"),
    (["three", "continuous", "--b", BIG[30]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["vn", "continuous", "--b", BIG[30]], "--b must be a rational p/q > 0 with p and q at most 10^12"),
    (["newman", "saturation", "--n", BIG[30]], "--n must be an integer >= 2 and <= 10^12"),
])
def test_a_huge_number_is_refused_with_its_limit(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"exactpoker: error: {message}; got "), err
    assert len(err) < 200  # the number itself is shortened


def test_the_limit_itself_is_accepted(capsys):
    status, out, _ = run(capsys, "vn", "mixed", "--n", "4", "--b", str(MAX_PARAMETER), "--json")
    assert status == 0 and '"certified": true' in out


@given(st.integers(1, MAX_PARAMETER), st.integers(1, MAX_PARAMETER))
def test_parse_positive_takes_every_rational_within_the_limit(p, q):
    assert parse_positive(f"{p}/{q}", "b") == Fraction(p, q)


@given(st.integers(1, MAX_PARAMETER), st.integers(MAX_PARAMETER + 1, 10**400), st.booleans())
def test_parse_positive_refuses_a_numerator_or_denominator_past_the_limit(small, big, big_on_top):
    text = f"{big}/{small}" if big_on_top else f"{small}/{big}"
    assume(max(Fraction(text).numerator, Fraction(text).denominator) > MAX_PARAMETER)  # not reduced into range
    with pytest.raises(InvalidParameterError, match=r"^b must be a rational p/q > 0 with p and q at most 10\^12; got "):
        parse_positive(text, "b")


@given(st.integers(-(10**30), 10**30))
def test_parse_int_without_a_maximum_stops_at_the_limit(n):
    if 2 <= n <= MAX_PARAMETER:
        assert parse_int(str(n), "n", 2) == n
    else:
        with pytest.raises(InvalidParameterError, match=r"^n must be an integer >= 2") as caught:
            parse_int(str(n), "n", 2)
        assert ("<= 10^12" in str(caught.value)) == (n > MAX_PARAMETER)


@given(st.integers(-(10**9), 10**9))
def test_a_decimal_exponent_past_the_limit_is_refused_at_once(exponent):
    text = f"3e{exponent}"
    if abs(exponent) <= MAX_EXPONENT:
        assert to_fraction(text, "x") == 3 * Fraction(10) ** exponent
    else:
        with pytest.raises(InvalidParameterError, match="decimal exponent of at most 1000"):
            to_fraction(text, "x")
