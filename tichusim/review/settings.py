"""How a review is made, kept with its result (gnubg's ``analysis.c`` stores the same): the
effort (how many candidates and deals a decision gets), the flags' thresholds, the rollout
player, the seed and the version of tichusim that made it.

The **efforts** (``EFFORTS``), each a ``Effort``:

* ``candidates``: the most answers a decision weighs: what was played, the strong player's
  own choice, then the best others by its network's scores (plays, bombs) or by its own
  ways (passes, wishes); every answer where they are this few or fewer;
* ``screen``: the deals every candidate plays to find the best one (the first stage);
* ``measure``: the fresh deals on which what was played and the best found are compared (the
  second stage), when the best is not what was played: the loss is measured on deals that
  did not choose it, so it carries no bias from the choosing (``weigh.py``);
* ``agree``: the network's margin (points) beyond which a play or bomb the strong player
  makes too is taken as right without rollouts (``None``: always rolled out);
* ``par``: the deals' playouts by the strong player at every seat (``par.py``).

The **thresholds** (``Thresholds``) flag a decision by the points it lost, the round's
score margin of the seat's team (``docs/review.md`` says why these).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .. import __version__, checks

__all__ = ["EFFORTS", "FLAGS", "Effort", "Settings", "Thresholds", "effort_named"]

FLAGS = ("inaccuracy", "mistake", "blunder")  # mildest first


@dataclass(frozen=True)
class Thresholds:
    """The points of round margin lost from which a decision is flagged (each at least the
    one before). A decision is flagged only when its loss's 95% interval lies above 0 too:
    a loss the rollouts cannot tell from none is never flagged."""

    inaccuracy: float = 20.0
    mistake: float = 50.0
    blunder: float = 100.0

    def __post_init__(self) -> None:
        values = (self.inaccuracy, self.mistake, self.blunder)
        if not all(isinstance(v, (int, float)) and v > 0 for v in values):
            raise ValueError(f"thresholds: positive points, not {values}")
        if not values[0] <= values[1] <= values[2]:
            raise ValueError(f"thresholds: inaccuracy <= mistake <= blunder, not {values}")

    def flag(self, loss: float, low: float) -> str:
        """The flag of a loss (its value and its interval's low end): "" when none."""
        if not low > 0:
            return ""
        for name in reversed(FLAGS):
            if loss >= getattr(self, name):
                return name
        return ""


@dataclass(frozen=True)
class Effort:
    """How much a decision is weighed (the module's docstring)."""

    name: str
    candidates: int
    screen: int
    measure: int
    agree: float | None
    par: int

    def __post_init__(self) -> None:
        checks.whole(self.candidates, "candidates", 2)
        checks.whole(self.screen, "screen", 2)
        checks.whole(self.measure, "measure", 2)
        checks.whole(self.par, "par", 1)


EFFORTS = {
    "quick": Effort("quick", candidates=3, screen=32, measure=64, agree=15.0, par=8),
    "normal": Effort("normal", candidates=4, screen=80, measure=240, agree=40.0, par=16),
    "deep": Effort("deep", candidates=6, screen=160, measure=480, agree=None, par=32),
}


def effort_named(effort: str | Effort) -> Effort:
    """An ``Effort`` by name (``EFFORTS``), or as given."""
    if isinstance(effort, Effort):
        return effort
    if effort not in EFFORTS:
        raise ValueError(f"effort: {', '.join(EFFORTS)}, not {effort!r}")
    return EFFORTS[effort]


@dataclass(frozen=True)
class Settings:
    """What a review was made with: its effort, thresholds, rollout player (the strong
    player: every seat after a decision, and the par), the seed, the tremble of the par's
    playouts and the version of tichusim."""

    effort: Effort
    thresholds: Thresholds = field(default_factory=Thresholds)
    rollout: str = "learned"
    seed: int = 0
    tremble: float = 0.05
    version: str = __version__

    def to_dict(self) -> dict:
        return asdict(self)
