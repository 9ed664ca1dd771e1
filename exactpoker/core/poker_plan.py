"""The plan of a poker-language game: its betting with every dealt card left out.

The betting of a :class:`~exactpoker.core.poker.PokerGame` does not depend on
the cards, so the builder's own betting rules
(:class:`~exactpoker.core.poker._Builder`) run once over the game with the
cards left out: each decision and each end of the hand remembers its
contributions, players in and history, each deal is one step per card dealt.
The compilers walk this plan once per deal
(:mod:`exactpoker.core.poker_compile`), or read a one-card game's betting tree
off it (:mod:`exactpoker.core.poker_cards`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from exactpoker.core.poker import Deal, _Builder, _State

__all__ = ["PlanCard", "PlanDecision", "PlanEnd", "Planner"]


class PlanDecision(NamedTuple):
    """A decision of the plan: ``state`` has the betting (its cards are left out), ``children`` one per action."""

    state: _State
    player: int
    actions: tuple[str, ...]
    children: tuple[Any, ...]


class PlanCard(NamedTuple):
    """One card dealt in the plan: to player ``target`` (-1: the board), then ``child``."""

    target: int
    replacement: bool
    child: Any


class PlanEnd(NamedTuple):
    """An end of the hand in the plan (``state`` has the betting, its cards left out)."""

    state: _State


class Planner(_Builder):
    """The builder with every card left out: decisions, deals and ends become plan entries."""

    def deal(self, index: int, step: Deal, targets: list[int], state: _State) -> Any:
        if not targets:
            return self.step(index + 1, state)
        return PlanCard(targets[0], step.replacement, self.deal(index, step, targets[1:], state))

    def decision(self, state: _State, player: int, actions: tuple[tuple[str, Any], ...]) -> PlanDecision:
        return PlanDecision(state, player, tuple(name for name, _ in actions), tuple(child for _, child in actions))

    def end(self, state: _State) -> Any:
        return PlanEnd(state)
