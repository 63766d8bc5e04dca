"""Any scripted strategy asked for one decision (``strategy(name).decide``), and the replay
command an agent's failure ends with. Agents themselves are strategies
(``tichusim.games.agents``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .agents import AgentError

if TYPE_CHECKING:
    from .view import View

__all__ = ["Scripted", "strategy", "with_replay"]


class Scripted:
    """A scripted strategy (a name, a table or a strategy object) asked for one decision."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self._rows: dict[str, np.ndarray] = {}  # the kernels' row in each game, made once

    def decide(self, view: View, legal: Any) -> Any:
        """The choice the engine would make with this strategy at ``view``'s decision, among
        ``legal``; the view's random stream moves on exactly as the engine's would."""
        game = view.game
        row = self._rows.get(game.name)
        if row is None:
            row = self._rows[game.name] = game.param_rows(game.resolve(self.spec, 1))[0]
        return game.steps.decide(row, view, legal)

    def __repr__(self) -> str:
        return f"strategy({self.spec!r})"


def strategy(spec: Any) -> Scripted:
    """``strategy("heuristic").decide(view, legal)``: the engine's choice for that strategy."""
    return Scripted(spec)


def with_replay(step: Any, units: Any, hint: Any) -> Any:
    """``steps.stepper``'s ``step`` whose ``AgentError`` ends with ``hint(key)`` (the command
    replaying that unit's deal, e.g. ``tichusim show --seed S --round K``) and carries
    ``key``: the unit is found again from the one line."""
    if step is None:
        return None

    def run(i: int, play: Any) -> None:
        try:
            step(i, play)
        except AgentError as exc:
            key = int(units[i])
            exc.key = key
            text = hint(key)
            if text and text not in str(exc):
                exc.args = (f"{exc}; replay the deal: {text}",)
            raise

    return run
