"""``--format gambit`` (``solve``, ``certify``): equilibria as the ``NE,`` lines Gambit's tools print.

One line per equilibrium: ``NE,`` and the behaviour profile's probabilities,
player after player, each information set in Gambit's order (the order of the
``.efg`` file ``exactpoker convert`` writes, and of a ``.efg`` file read:
first appearance) and each action in the file's order; for a ``.nfg`` game that
is each player's mixed strategy (:mod:`exactpoker.formats.gambit_order`).
Numbers are exact rationals; an irrational equilibrium is refused (a decimal
would not be it), ``--json`` keeps it exactly.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Sequence

from exactpoker.errors import CertificationError, InvalidParameterError

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.core.profile import BehaviourProfile
    from exactpoker.formats import LoadedGame

__all__ = ["add_format", "wants_gambit", "gambit_lines"]


def add_format(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--format text|gambit``; ``what`` says which profiles the Gambit lines are."""
    parser.add_argument("--format", choices=("text", "gambit"), default="text",
                        help=f"gambit: {what} as Gambit's NE,p1,p2,... lines (exact rationals; behaviour profiles, "
                             "information sets in Gambit's order; a .nfg game's mixed strategies)")


def wants_gambit(args: argparse.Namespace) -> bool:
    """Whether ``--format gambit`` was asked (refused together with ``--json``)."""
    if args.format != "gambit":
        return False
    if args.json:
        raise InvalidParameterError("--format gambit prints Gambit's lines, --json the JSON: give one of them")
    return True


def gambit_lines(loaded: "LoadedGame", profiles: Sequence["BehaviourProfile"]) -> str:
    """One ``NE,`` line per profile of ``loaded`` (each checked again exactly on the game it is laid out on)."""
    from exactpoker.certify import verify
    from exactpoker.formats import game_tree
    from exactpoker.formats.gambit_order import infoset_order, ne_line
    from exactpoker.solve.engine.dispatch import guarded_compiled

    compiled = guarded_compiled(loaded)
    order = infoset_order(game_tree(loaded), compiled)
    lines = []
    for profile in profiles:
        line = ne_line(profile, order)  # refuses an irrational profile before the check below
        if not verify(compiled, profile).holds:
            raise CertificationError("--format gambit: an equilibrium failed the exact check on the game written "
                                     "in Gambit's order; nothing is printed")
        lines.append(line)
    return "\n".join(lines)
