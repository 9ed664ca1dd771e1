"""A profile being read for a game (:mod:`exactpoker.formats.profiles`): the game's views, and a profile read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import GameTree
from exactpoker.formats import LoadedGame

__all__ = ["GivenProfile", "ProfileGame"]


@dataclass(frozen=True)
class GivenProfile:
    """One profile read: where it came from (``"line 2 of ne.txt"``) and the exact profile."""

    source: str
    profile: BehaviourProfile


@dataclass
class ProfileGame:
    """The game a profile is read for: the loaded game, its compiled form, and its tree when asked for."""

    loaded: LoadedGame
    compiled: CompiledGame
    tree: Callable[[], GameTree]
    _order: tuple[tuple[int, ...], ...] | None = None
    _index: dict[int, dict[str, int]] = field(default_factory=dict)

    def infoset_index(self, player: int) -> dict[str, int]:
        """The player's information sets by name (layout index)."""
        found = self._index.get(player)
        if found is None:
            layout = self.compiled.layouts[player]
            found = self._index[player] = {layout.infoset_name(i): i for i in range(layout.num_infosets)}
        return found

    def order(self) -> tuple[tuple[int, ...], ...]:
        """Gambit's order of the information sets (:func:`~exactpoker.formats.gambit_order.infoset_order`)."""
        if self._order is None:
            from exactpoker.formats.gambit_order import infoset_order

            self._order = infoset_order(self.tree(), self.compiled)
        return self._order
