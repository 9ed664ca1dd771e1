"""``exactpoker certify GAME PROFILE``: the exact certificate of someone else's profile.

Exit status 0 when every profile given is a Nash equilibrium, 1 when the check
refutes one (the report says by how much and where: each failing player's
best deviation), 2 for bad input (:mod:`exactpoker.formats.certify_profile`).
"""

from __future__ import annotations

import argparse
import os

from exactpoker.commands._gambit import add_format, wants_gambit
from exactpoker.commands.common import add_json, emit

__all__ = ["add_commands"]

_PROFILE_HELP = ("a file (- for standard input) of Gambit's NE,... lines, a CSV with the columns player,"
                 "information_set,action,probability, or JSON (an OpenSpiel TabularPolicy: to_dict() or "
                 "action_probability_array [+ state_lookup]; {information set: {action: probability}}, flat or per "
                 "player; an exactpoker --json result; pygambit's nested lists); or one Gambit line NE,p1,p2,... "
                 "itself")


def _certify(args: argparse.Namespace) -> int:
    from exactpoker.commands.solve import guarded_load
    from exactpoker.formats.certify_profile import certify_profile, read_profile_file

    gambit = wants_gambit(args)
    if not os.path.isfile(args.profile) and args.profile.lstrip().upper().startswith("NE,"):
        text, source = args.profile, "PROFILE"
    else:
        text, source = read_profile_file(args.profile), args.profile
    report = certify_profile(guarded_load(args.game), text, source=source, decimals=args.decimals, kind=args.kind)
    if gambit:
        from exactpoker.commands._gambit import gambit_lines

        holding = [check.profile for check in report.checks if check.holds]
        if holding:
            print(gambit_lines(report.game.loaded, holding))
    else:
        emit(args, report.to_dict(), str(report))
    return 0 if report.holds else 1


def add_commands(games: argparse._SubParsersAction) -> None:
    """Register ``certify``."""
    certify = games.add_parser(
        "certify", help="the exact certificate of a given profile (Gambit, CSV, OpenSpiel policy)",
        description="Check someone else's strategy profile exactly: each player's payoff, best-response value and "
                    "regret as exact rationals, and where a profile fails, each failing player's best deviation "
                    "(the information sets to change, and to which action). Exit status 0 when every profile is a "
                    "Nash equilibrium, 1 when one is not, 2 for bad input.")
    certify.add_argument("game", help="the game, as solve takes it: PATH.efg, PATH.nfg, PATH.py[:NAME], "
                                      "openspiel:NAME or library:NAME")
    certify.add_argument("profile", help=_PROFILE_HELP)
    certify.add_argument("--decimals", choices=("exact", "fractions"), default="exact",
                         help="exact (default): a decimal is the number written (0.1 = 1/10) and each information "
                              "set's probabilities must add up to exactly 1; fractions: each decimal is the simplest "
                              "fraction that is the same double (0.3333333333333333 = 1/3), as float tools mean it")
    certify.add_argument("--as", dest="kind", choices=("auto", "behaviour", "mixed"), default="auto",
                         help="how a Gambit line is read: by its length (default), as a behaviour profile, or as a "
                              "mixed profile over the reduced strategic form")
    add_format(certify, "the profiles that are Nash equilibria")
    add_json(certify)
    certify.set_defaults(run=_certify)
