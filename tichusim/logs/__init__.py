"""Played games in and out: the logs of other programs and tichusim's own game records,
read as ``tichusim.games.record.GameRecord`` s and written back.

``read_game(path)`` reads a file by what it holds: a Brettspielwelt log (``.tch``,
``bsw.py``) or a tichusim game record (JSON, ``docs/records.md``); ``write_game`` writes
either. Reading never plays a round: the engine checks each when it plays it
(``tichusim.Round.from_record``), and a round that cannot be read at all is reported with
its file and line (``bsw.Problem``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..games import game as game_named
from ..games.record import FORMAT, GameRecord
from ..games.recorded import record_of
from ..games.simulate import simulate_games
from ..games.team import TeamGame
from .bsw import Problem, Read, decode, looks_like_tch, read_tch, write_tch

__all__ = [
    "Problem",
    "Read",
    "played_game",
    "played_round",
    "read_game",
    "read_text",
    "write_game",
]


def read_text(text: str, source: str = "") -> Read:
    """A game from a log's text: a BSW log or a tichusim game record (``FORMAT``). A round
    that cannot be read is a ``Problem`` (a game record's: with its number, no line) and the
    others are read; ``ValueError`` when the text is no game log at all."""
    if looks_like_tch(text):
        return read_tch(text, source)
    if text.lstrip().startswith("{"):
        skipped: list[tuple[int, str]] = []
        game = GameRecord.from_json(text, source, skipped)
        problems = [Problem(source, 0, f"round {n}: {why}", n) for n, why in skipped]
        bad = {n for n, _ in skipped}
        numbers = [n for n in range(1, len(game.rounds) + len(bad) + 1) if n not in bad]
        return Read(game, problems, [(n, 0) for n in numbers])
    where = f"{source}: " if source else ""
    raise ValueError(f"{where}not a game log (a BSW .tch log, or a {FORMAT} JSON record)")


def read_game(path: str | Path) -> Read:
    """The game in the file ``path`` (``read_text``); ``ValueError`` in one line naming the
    file when it holds no game, ``OSError`` when it cannot be read."""
    path = Path(path)
    return read_text(decode(path.read_bytes()), str(path))


def write_game(game: GameRecord, path: str | Path) -> None:
    """Write ``game`` to ``path``: a BSW log for a ``.tch`` name (Nanjing only), else the
    JSON game record. The file is whole or absent: written aside, then renamed."""
    path = Path(path)
    text = write_tch(game) if path.suffix.lower() == ".tch" else game.to_json()
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def played_game(
    seed: int = 0,
    game: int = 0,
    *,
    strategies: Any = "random",
    variant: str = "nanjing",
    options: dict | None = None,
    target: int | None = None,
) -> GameRecord:
    """Game ``game`` of ``tichusim.simulate_games`` with these settings, as a game record
    (each round replayed with its event log and written as a record), the players named by
    their strategies: a game tichusim played, ready for ``write_game``, a review or an
    import. Team games."""
    rounds, seats = simulate_games(
        1,
        seed=seed,
        strategies=strategies,
        target=target,
        variant=variant,
        first_game=game,
        options=options,
    )
    table = _team_table(variant, options)
    records = []
    keys, drawers = rounds["round"].tolist(), rounds["first_drawer"].tolist()
    for key, drawer in zip(keys, drawers, strict=True):
        king = drawer if table.drawer_is_king else None
        first = 0 if table.drawer_is_king else drawer
        rnd, _, log = table.play_with_log(
            seed, key, strategies=strategies, first_drawer=first, king=king
        )
        records.append(record_of(table, log, int(rnd["first_drawer"]), int(rnd["king"])))
    named = seats[seats["seat"] < table.players].groupby("seat")["strategy"].first()
    names = tuple(str(named[p]) for p in range(table.players))
    return GameRecord(tuple(records), names, variant, tuple(sorted((options or {}).items())))


def played_round(
    seed: int = 0,
    key: int = 0,
    *,
    strategies: Any = "random",
    variant: str = "nanjing",
    options: dict | None = None,
) -> GameRecord:
    """Round ``key`` of ``tichusim.simulate`` with these settings (``tichusim show``'s) as a
    game record of one round, its players named by their strategies. Team games."""
    table = _team_table(variant, options)
    rnd, _, log = table.play_with_log(seed, key, strategies=strategies)
    record = record_of(table, log, int(rnd["first_drawer"]), int(rnd["king"]))
    names = tuple(getattr(s, "name", str(s)) for s in _listed(strategies, table.players))
    return GameRecord((record,), names, variant, tuple(sorted((options or {}).items())))


def _listed(strategies: Any, players: int) -> list:
    if isinstance(strategies, (list, tuple)):
        return list(strategies) if len(strategies) == players else list(strategies) * players
    return [strategies] * players


def _team_table(variant: str, options: dict | None) -> TeamGame:
    table = game_named(variant, options=options)
    if not isinstance(table, TeamGame):
        raise ValueError(f"{variant}: records are kept for the team games (§2-§4)")
    return table
