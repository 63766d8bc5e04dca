"""The one error a simulation raises when a round breaks (every game, every front end)."""

__all__ = ["SimulationError"]


class SimulationError(RuntimeError):
    """A round broke an invariant of RULES.md §7 (only with ``check=True``) or a strategy
    answered outside its choices."""
