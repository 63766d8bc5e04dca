"""What an import's worker runs: one shard of played games read, replayed and tabled
(``imports.py`` cuts an import into shards of files and writes what this returns).

A shard's files come as bytes (the importing process read them: no shared filesystem is
needed); each is read as a Brettspielwelt log or a tichusim game record
(``tichusim.logs``), its rounds laid as the kernels' action rows once, all of them played
through the engine one kernel call a round (``games.recorded.play_records``), and the four
tables built from the whole shard's records at once: ``rounds`` and ``seats`` by the game's
own ``columns`` (the simulator's tables), ``moves`` from the action rows, ``problems`` from
what could not be read or played. Its bytes are a pure function of its task.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import chain
from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from ..cards import notation as cards
from ..games import game as game_named
from ..games.arrow import constant, names, strings, table, text
from ..games.base import Records
from ..games.record import ACTIONS, MOMENTS, RoundRecord
from ..games.recorded import action_rows, play_records
from ..games.team import TeamGame
from ..logs import Problem, read_text
from ..logs.bsw import decode, looks_like_tch, read_tch
from . import parquet
from .shard import ShardResult, worker_name

__all__ = ["IMPORT_TABLES", "KEY_STRIDE", "STAGES", "ImportTask", "import_shard"]

IMPORT_TABLES = ("rounds", "seats", "moves", "problems")
KEY_STRIDE = 65536  # a round's key: its game (file) * KEY_STRIDE + its index in the file
STAGES = ("read", "replay")  # where a problem was met: reading the file, or the engine
# who played, by what a file is: a BSW log is played by people; a game record does not say
PLAYED_BY = {True: "human", False: "recorded"}
_GIVE = ACTIONS.index("give") + 1  # the kernels' code of a passing (``REC_*``)
_MASK = (1 << 64) - 1  # a row's signed cards as the mask


@dataclass(frozen=True)
class ImportTask:
    """One shard of an import: the files ``first .. first + len(names)`` of its inputs, each
    file's name (the ``source`` column) and bytes (or why it could not be read), the table
    the games are read for (``variant`` and its Options)."""

    run_id: str
    index: int
    first: int
    names: tuple[str, ...]
    data: tuple[bytes | str, ...]
    variant: str
    options: tuple[tuple[str, Any], ...]
    threads: int | None  # numba threads in the worker; None leaves numba's default


class _Shard:
    """The rounds read from a shard's files, with where each stands, and its problems."""

    def __init__(self, task: ImportTask):
        self.task = task
        self.game = cast(TeamGame, game_named(task.variant, options=dict(task.options) or None))
        self.records: list[RoundRecord] = []
        self.rows: list[np.ndarray] = []  # each record's action rows (``action_rows``)
        self.file: list[int] = []  # each record's file, its index in the shard
        self.number: list[int] = []  # its number in the file, 1 the first
        self.line: list[int] = []  # its first line in the file (0: a game record)
        self.players: list[tuple[str, ...]] = []  # each file's players' names
        self.human: list[bool] = []  # each file's: a BSW log (played by people)
        self.problems: list[tuple[int, int, Problem, str]] = []  # (file, round, problem, stage)

    def problem(self, at: int, problem: Problem, stage: str) -> None:
        self.problems.append((at, problem.round, problem, stage))

    def read(self, at: int, name: str, data: bytes | str) -> None:
        """Read file ``at`` of the shard; its rounds join ``records``."""
        self.players.append(())
        self.human.append(False)
        if isinstance(data, str):  # it could not be read
            self.problem(at, Problem(name, 0, f"cannot read it ({data})"), "read")
            return
        text = decode(data)
        human = looks_like_tch(text)
        try:
            read = read_tch(text, name) if human else read_text(text, name)
        except ValueError as exc:
            why = str(exc).removeprefix(f"{name}: ")
            self.problem(at, Problem(name, 1, why), "read")
            return
        for problem in read.problems:
            self.problem(at, problem, "read")
        played = read.game
        if not played.rounds:
            return
        first = played.rounds[0]
        same = first.variant == self.task.variant and first.options == self.task.options
        table = self.game if same else first.game  # a game per file only when it may differ
        if table.name != self.game.name or table.options != self.game.options:
            said = self.game.name + (f" {dict(self.task.options)}" if self.task.options else "")
            why = f"a {table.name} game; this import reads {said} games (--variant)"
            self.problem(at, Problem(name, 0, why), "read")
            return
        self.players[at] = played.players
        self.human[at] = human
        for record, (number, line) in zip(played.rounds, read.rounds_at, strict=True):
            try:
                rows = action_rows(self.game, record.actions)
            except ValueError as exc:
                problem = Problem(name, line, f"round {number}: {exc}", number)
                self.problem(at, problem, "replay")
                continue
            self.records.append(record)
            self.rows.append(rows)
            self.file.append(at)
            self.number.append(number)
            self.line.append(line)

    def refused(self, i: int, index: int, why: str) -> None:
        """Record ``i`` refused by the engine at its action ``index``."""
        record, at, number = self.records[i], self.file[i], self.number[i]
        lines = record.lines
        line = lines[min(index, len(lines) - 1)] if lines else self.line[i]
        said = f", {record.actions[index]}" if index < len(record.actions) else ""
        problem = Problem(self.task.names[at], line, f"round {number}{said}: {why}", number)
        self.problem(at, problem, "replay")


def import_shard(task: ImportTask) -> ShardResult:
    """Read, replay and table one shard of an import (a pure function of ``task``)."""
    if task.threads:
        import numba

        numba.set_num_threads(task.threads)
    t0 = time.perf_counter()
    shard = _Shard(task)
    for at, (name, data) in enumerate(zip(task.names, task.data, strict=True)):
        shard.read(at, name, data)
    # every action's row once: the engine's input and the moves table's columns
    counts = np.array([len(r) for r in shard.rows], np.int64)
    rows = np.concatenate([np.zeros((0, 4), np.int64), *shard.rows])
    starts = np.concatenate([[0], np.cumsum(counts)])
    t1 = time.perf_counter()
    played = play_records(shard.game, shard.records, rows=shard.rows)
    for i, (index, why) in sorted(played.failed.items()):
        shard.refused(i, index, why)
    t2 = time.perf_counter()
    kept = np.array([i for i in range(len(shard.records)) if i not in played.failed], np.int64)
    tables = {
        "rounds": None,
        "seats": None,
        "moves": _moves(shard, kept, rows, starts, counts),
        "problems": _problems(shard),
    }
    tables["rounds"], tables["seats"] = _rounds_and_seats(shard, kept, played)
    files, rows_of = {}, {}
    for name, built in tables.items():
        files[name] = parquet.encode(built)
        rows_of[name] = built.num_rows
    seconds = {"read": t1 - t0, "replay": t2 - t1, "tables": time.perf_counter() - t2}
    return ShardResult(
        task.index,
        files,
        rows=rows_of,
        seconds={k: round(v, 4) for k, v in seconds.items()},
        worker=worker_name(),
    )


def _ids(task: ImportTask, game: np.ndarray, in_game: np.ndarray) -> dict:
    """The columns that lead every table, one row per ``game`` (the file: its index in the
    import's inputs) and ``in_game`` (the round's index in its file): the import, its shard,
    the round's key, its game and its index in the game."""
    rows = len(game)
    return {
        "run_id": constant(task.run_id, rows),
        "variant": constant(task.variant, rows),
        "shard": np.full(rows, task.index, np.int32),
        "round": game * KEY_STRIDE + in_game,
        "game": game,
        "round_in_game": in_game,
    }


def _rounds_and_seats(shard: _Shard, kept: np.ndarray, played: Any) -> tuple[Any, Any]:
    """The simulator's two tables of the rounds played (the game's ``columns``), with where
    each was read and who played it."""
    game, task = shard.game, shard.task
    n, k = len(kept), game.seats
    rounds, seats = game.by_player(played.rounds[kept, 0], played.seats[kept, 0])
    by = SimpleNamespace(name="")  # the strategies' columns are written below
    r, s = game.columns(Records(rounds, seats, [by] * game.players, None, None, 0, game))
    file = np.array(shard.file, np.int64)[kept]
    in_game = np.array(shard.number, np.int64)[kept] - 1
    human = np.array(shard.human, np.int8)[file] if n else np.zeros(0, np.int8)
    who = list(PLAYED_BY.values())
    lead = _ids(task, task.first + file, in_game)
    lead["source"] = names(list(task.names), file)
    lead["source_line"] = np.array(shard.line, np.int64)[kept]
    for p in range(game.players):
        r[f"strategy{p}"] = text(who, 1 - human)
    # each seat row's player's name, in the log's (or record's) order of players
    listed = [name for players in shard.players for name in _padded(players, game.players)]
    player = file[:, None] * game.players + game.row_players(rounds)
    ranked: dict = {}
    for name, values in s.items():
        ranked[name] = values
        if name == "strategy":
            ranked[name] = text(who, np.repeat(1 - human, k))
            ranked["player_name"] = names(listed, player.reshape(n * k))
    options = {key: v for key, v in game.options.items() if v != game.option_defaults.get(key)}
    seat_ids = _ids(task, np.repeat(task.first + file, k), np.repeat(in_game, k))
    return table(lead | r, options), table(seat_ids | ranked, options)


def _padded(players: tuple[str, ...], count: int) -> tuple[str, ...]:
    return tuple(players[p] if p < len(players) else "" for p in range(count))


def _moves(
    shard: _Shard, kept: np.ndarray, rows: np.ndarray, starts: np.ndarray, counts: np.ndarray
) -> Any:
    """One row per action of the rounds played, made of their action rows: its index in the
    round, seat, kind, the cards it shows or gives, its value, its text and its line."""
    task = shard.task
    per = counts[kept]
    played = np.zeros(len(counts), bool)
    played[kept] = True
    at = np.flatnonzero(np.repeat(played, counts))  # the kept rounds' rows
    moved = rows[at]
    kind = moved[:, 1]
    file = np.array(shard.file, np.int64)[kept]
    in_game = np.array(shard.number, np.int64)[kept] - 1
    lines = [shard.records[i].lines or (0,) * int(counts[i]) for i in kept]
    unique, which = _unique(moved)  # each different action's text made once: a dictionary
    texts = [_text(a, b, c, d, shard.game.seats) for a, b, c, d in unique.tolist()]
    return table(
        _ids(task, np.repeat(task.first + file, per), np.repeat(in_game, per))
        | {
            "action": at - np.repeat(starts[kept], per),
            "seat": moved[:, 0],
            "kind": text(list(ACTIONS), kind - 1),
            "mask": moved[:, 2].view(np.uint64),
            "value": np.where(kind == _GIVE, 0, moved[:, 3]),
            "text": names(texts, which),
            "line": np.fromiter(chain.from_iterable(lines), np.int64, len(at)),
        }
    )


def _unique(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The different rows of action rows, and each row's index among them (``np.unique``
    along an axis, which sorts the rows as bytes, is far slower): sorted by two keys, the
    cards and the rest packed in one number (a passing's value takes 6 bits a receiver)."""
    cards_of, rest = rows[:, 2], rows[:, 0] | rows[:, 1] << 4 | rows[:, 3] << 8
    order = np.lexsort((cards_of, rest))
    a, b = cards_of[order], rest[order]
    first = np.ones(len(rows), bool)
    first[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    which = np.empty(len(rows), np.int64)
    which[order] = np.cumsum(first) - 1
    return rows[order[first]], which


_SHOWN: dict[int, str] = {}  # card notation of the masks met (plays repeat across rounds)


def _shown(mask: int) -> str:
    shown = _SHOWN.get(mask)
    if shown is None:
        if len(_SHOWN) > 1 << 18:  # a bound on a long import's memory
            _SHOWN.clear()
        shown = _SHOWN[mask] = cards.format(mask)
    return shown


def _text(seat: int, code: int, mask: int, value: int, seats: int) -> str:
    """The text of the action of a row (``str(Action)``, which ``Action.parse`` reads back;
    a passing's cards in the order of the seats they reach)."""
    kind = ACTIONS[code - 1]
    if kind in ("play", "bomb"):
        return f"{seat} {kind} {_shown(mask & _MASK)}"
    if kind == "give":
        gifts = [
            f"{(seat + d) % seats}:{_shown(1 << ((value >> (6 * (d - 1)) & 63) - 1))}"
            for d in range(1, seats)
            if value >> (6 * (d - 1)) & 63
        ]
        return f"{seat} give " + " ".join(gifts)
    if kind == "wish":
        return f"{seat} wish {cards.RANK_CHARS[value - 2] if value else 'none'}"
    if kind in ("dragon", "dog"):
        return f"{seat} {kind} {value}"
    if kind == "tichu" and value:
        return f"{seat} tichu {MOMENTS[value - 1]}"
    return f"{seat} {kind}"


def _problems(shard: _Shard) -> Any:
    """One row per problem, in the order of the files and of their rounds."""
    task = shard.task
    listed = sorted(shard.problems, key=lambda p: (p[0], p[1], p[2].line))
    n = len(listed)
    return table(
        {
            "run_id": constant(task.run_id, n),
            "variant": constant(task.variant, n),
            "shard": np.full(n, task.index, np.int32),
            "game": np.array([task.first + at for at, *_ in listed], np.int64),
            "round_in_game": np.array([number - 1 for _, number, *_ in listed], np.int64),
            "source": names(list(task.names), np.array([at for at, *_ in listed], np.int64)),
            "line": np.array([p.line for _, _, p, _ in listed], np.int64),
            "stage": text(list(STAGES), np.array([STAGES.index(s) for *_, s in listed], np.int8)),
            "why": strings([p.why for _, _, p, _ in listed]),
        }
    )
