"""Readable transcripts of single rounds of the team games (any of them), from the engine's
event log: the game words each event (``TeamGame.transcript``), one loop walks the log
(``narrate``). Grand Seigneur's are ``tichusim.games.seigneur.transcript``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .registry import TEAM_GAMES, game

if TYPE_CHECKING:
    from .team import TeamGame

__all__ = ["play_with_log", "transcript"]


def _team_table(variant: str, options: Any) -> TeamGame:
    """The team game ``variant`` with ``options``: these replays take a team game's seating
    (``first_drawer``, ``king``); Grand Seigneur's are its game's own."""
    if variant not in TEAM_GAMES:
        raise ValueError(
            f"variant must be a team game ({', '.join(TEAM_GAMES)}), not {variant!r}: "
            "Grand Seigneur's transcripts are game('grand-seigneur', players).transcript(...)"
        )
    return cast("TeamGame", game(variant, options=options))


def play_with_log(
    seed: int = 0,
    round: int = 0,
    *,
    strategies: Any = "random",
    first_drawer: int = 0,
    check: bool = True,
    variant: str = "nanjing",
    king: int | None = None,
    options: Any = None,
) -> Any:
    """Replay round ``round`` of the run seeded ``seed``: ``(round record, seat records, log)``.

    The log has one row per event: ``(event, seat, cards, code, extra)`` (codes in
    ``tichusim.kernels.tichu.records``). Seats are the engine's positions: in Wu Wang the King
    at 0, the Minister at 2 (``round record['king']`` names the King, drawn at random as in a
    first round unless ``king`` is given). ``options``: the variant's switches, as in
    ``simulate`` (those that shape whole games do not change a round).
    """
    return _team_table(variant, options).play_with_log(
        seed, round, strategies=strategies, first_drawer=first_drawer, king=king, check=check
    )


def transcript(
    seed: int = 0,
    round: int = 0,
    *,
    strategies: Any = "random",
    first_drawer: int = 0,
    variant: str = "nanjing",
    king: int | None = None,
    options: Any = None,
) -> str:
    """The round move by move, in card notation (``options`` as in ``play_with_log``)."""
    return _team_table(variant, options).transcript(
        seed, round, strategies=strategies, first_drawer=first_drawer, king=king
    )
