"""Strategies by name: what each seat plays with (the engine's decision policies)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .kernels import policies
from .kernels.engine import N_PARAMS

__all__ = ["STRATEGIES", "Strategy", "resolve"]


@dataclass(frozen=True)
class Strategy:
    """A named strategy: a policy family for the kernels and its parameters."""

    name: str
    kind: int
    description: str
    params: tuple[float, ...] = field(default=())

    def param_row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, np.float64)
        row[: len(self.params)] = self.params
        return row


STRATEGIES = {
    "random": Strategy(
        "random", policies.RANDOM,
        "a uniformly random legal choice at every decision (calls, passes, plays, bombs, wish, "
        "Dragon)",
    ),
    "lowest": Strategy(
        "lowest", policies.LOWEST,
        "always the lowest legal play (bombs only when forced), never calls, never bombs out of "
        "turn, passes its three lowest cards, no wish, Dragon to the left opponent",
    ),
}  # fmt: skip


def resolve(strategies: str | Strategy | list | tuple, seats: int = 4) -> list[Strategy]:
    """One strategy per seat from a name, a ``Strategy``, or a list of either (one per seat)."""
    if isinstance(strategies, (str, Strategy)):
        strategies = [strategies] * seats
    if not isinstance(strategies, (list, tuple)) or len(strategies) != seats:
        raise ValueError(f"strategies: give one name or a list of {seats}, one per seat")
    out = []
    for s in strategies:
        if isinstance(s, Strategy):
            out.append(s)
        elif isinstance(s, str) and s in STRATEGIES:
            out.append(STRATEGIES[s])
        else:
            known = ", ".join(sorted(STRATEGIES))
            raise ValueError(f"unknown strategy {s!r} (known: {known})")
    return out
