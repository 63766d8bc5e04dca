"""Duplicate matches: two strategies play the same deals from every side of the table.

Deal ``i`` is played once per seating of the game (``Game.duplicate_seatings``) with the same
seed and round key, so every play holds the same cards. In the two-team games (Nanjing,
Tientsin: RULES.md §2, §3) a deal is played twice: strategy A on team 0 (seats 0 and 2; in
Tientsin 0, 2 and 4), then on team 1. In Wu Wang (§4) the King, drawn with the deal, changes
sides every round, so a deal is played six times, with A and B in every mixed assignment to
the three players: each strategy holds each role on the same cards. A strategy's points on a
deal are the mean, over the seatings, of its players' mean round score (a team's score, or in
Wu Wang a player's side's total: points per player-round); the per-deal difference is a
paired sample whose mean and interval are the strength gap. Grand Seigneur has no teams (§5)
and is refused.

``league`` plays every pair of several strategies on the same deals (a round robin) and ranks
them by their per-deal margin averaged over all opponents.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np
import pandas as pd

from ..games import DEFAULT_GAME, GAMES, game, game_type
from ..games.simulate import simulate
from ..stats import Estimate, Paired, mean_ci, wilson
from .played_once import played_once

if TYPE_CHECKING:
    from ..games.team import TeamGame

__all__ = [
    "DuplicateResult",
    "Failed",
    "Interrupted",
    "League",
    "duplicate",
    "league",
    "markdown_report",
]


def _fmt(e: Estimate, pct: bool = False) -> str:
    return e.pct() if pct else e.pts()


STAT_COLUMNS = [
    ("points_per_round", "points/round", False),
    ("tichu_rate", "Tichu calls", True),
    ("tichu_success", "Tichu success", True),
    ("grand_tichu_rate", "Grand Tichu calls", True),
    ("grand_tichu_success", "Grand Tichu success", True),
    ("double_victories", "double victories", True),
    ("bombs_played", "plays a bomb", True),
]


def _labels(variant: str) -> list[str]:
    """Column headings: the game's victory that ends a round at once (Tientsin: a triple
    victory, RULES.md §3)."""
    kind = cast("type[TeamGame]", game_type(variant))  # a match's game: a team game
    named = {
        "double_victories": f"{kind.victory.split('_')[0]} victories",
        "points_per_round": f"points/{kind.duplicate_unit}",
    }
    return [named.get(key, label) for key, label, _ in STAT_COLUMNS]


@dataclass(frozen=True)
class DuplicateResult:
    a: str
    b: str
    deals: int
    diff: Estimate  # A minus B, points per round (per deal, the mean over its seatings)
    per_strategy: pd.DataFrame  # one row per strategy: points, calls and their success, ...
    margins: np.ndarray | None = field(default=None, repr=False)  # A minus B per deal
    points: tuple | None = field(default=None, repr=False)  # per deal, A's and B's team score
    bombs_per_round: Estimate | None = None  # bombs played, both teams, both tables
    variant: str = "nanjing"
    seconds: float = 0.0  # of play: after the compile (``played_once``)
    planned: int = 0  # the deals asked for: more than ``deals`` when interrupted
    # deals a player failed on, ``(deal, the one-line error)``: left out of the figures
    failed: tuple[tuple[int, str], ...] = ()
    stopped: str = ""  # why the match stopped before its end ("" when it did not)

    @property
    def partial(self) -> bool:
        """Whether the match stopped (Ctrl-C, or a player failing) before all its deals were
        played."""
        return self.deals + len(self.failed) < self.planned

    @property
    def unit(self) -> str:
        """What the points are per: a round (a team's score), or in Wu Wang a player-round."""
        return game_type(self.variant).duplicate_unit

    def __str__(self) -> str:
        return (
            f"{self.a} vs {self.b} over {self.deals} deals: {self.a} - {self.b} = "
            f"{self.diff} points per {self.unit}"
        )

    def to_markdown(self) -> str:
        """The match as Markdown: the difference, then one row per strategy."""
        b = self.bombs_per_round
        bombs = (
            ""
            if b is None
            else f" Bombs played per round (both teams): {b.value:.3f} [{b.low:.3f}, {b.high:.3f}]."
        )
        lines = [
            f"**{self.a} - {self.b}: {_fmt(self.diff)} points per {self.unit}** "
            f"({self.deals:,} deals, each played "
            f"{game_type(self.variant).duplicate_design}; 95% intervals).{bombs}",
            "",
            "| strategy | " + " | ".join(_labels(self.variant)) + " |",
            "|---" * (len(STAT_COLUMNS) + 1) + "|",
        ]
        for _, row in self.per_strategy.iterrows():
            cells = [_fmt(row[key], pct) for key, _, pct in STAT_COLUMNS]
            lines.append(f"| {row['strategy']} | " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"


DUPLICATE_VARIANTS = tuple(name for name in GAMES if game_type(name).duplicate_seatings)


def _teams_game(variant: str, options: dict | None = None) -> TeamGame:
    """The game ``variant`` with ``options``, refused unless it has seatings to play a deal
    with (``duplicate_seatings``)."""
    kind = game_type(variant)
    if not kind.duplicate_seatings:
        raise ValueError(
            f"duplicate matches exchange the strategies' seats: {variant} has none to "
            f"exchange, {kind.no_swap}; variants: {', '.join(DUPLICATE_VARIANTS)}"
        )
    return cast("TeamGame", game(variant, options=options))


def _player(table, spec):
    """A strategy as a match plays it: an Agent (``tichusim.Agent``, its class or its table
    ``{"agent": ...}``) built once, any other strategy resolved at ``table``."""
    from ..games.agents import as_agent, is_agent

    return as_agent(spec) if is_agent(spec) else table.resolve(spec, 1)[0]


class Failed(RuntimeError):
    """A player failed at a deal (a Python agent raised, or answered outside the legal
    choices: ``AgentError``) and the match was not told to play on (``skip_failed``): the
    message names the deal; ``result`` holds the figures of the deals played before it (a
    ``DuplicateResult`` marked partial, ``None`` when none was), ``matches`` a league's matches
    finished before it."""

    def __init__(self, message: str, result: DuplicateResult | None, matches: tuple = ()):
        super().__init__(message)
        self.result = result
        self.matches = matches


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a match or a league: ``result`` holds the figures of the deals played
    before it (a ``DuplicateResult`` with ``partial`` set; ``None`` when no deal was
    complete), ``matches`` a league's matches finished before it."""

    def __init__(self, result: DuplicateResult | None, matches: tuple = ()):
        super().__init__("interrupted")
        self.result = result
        self.matches = matches


# the columns a match reads: the rounds' key and bombs (and the victory, the game's column),
# the seats' calls, finish and bombs
_ROUND_COLUMNS = ("round", "bombs")
_SEAT_COLUMNS = ("round", "seat", "team", "grand_tichu", "tichu", "finish", "bombs_played")
_AGENT_BLOCK = 10  # deals per block when a Python agent plays: the bar moves every few seconds
_KERNEL_BLOCK = 2_000  # deals per block otherwise: a block is one fast batch of the engine


class _Table(NamedTuple):
    """A block of deals played at one seating: each player's round score ``(deals,
    players)``, the rounds' columns a match reads, and the seats' with ``side``, the index (0
    for A, 1 for B) of the strategy playing each seat row."""

    scores: np.ndarray
    rounds: pd.DataFrame
    seats: pd.DataFrame


def _block_size(players, deals: int, workers: int, seatings: int) -> int:
    from ..games.agents import Agent

    if any(isinstance(p, Agent) for p in players):
        return _AGENT_BLOCK
    per_block = _KERNEL_BLOCK * 2 // seatings  # the same rounds per block at any table
    return max(1, min(per_block, -(-deals // (4 * workers))))


class _Block(NamedTuple):
    """Deals ``start`` .. ``start + count - 1`` played: their ``tables`` (``_tables``; the
    deals a player failed on left out, ``None`` when none is left), the failures ``(deal,
    message)``, and whether the match stops at the first of them (``skip`` off)."""

    start: int
    tables: tuple | None
    failed: list[tuple[int, str]]
    stop: bool


def _block(players, start: int, count: int, played: TeamGame, common: dict, skip: bool) -> _Block:
    """``_tables`` of a block; when a player fails in it, its deals again one at a time: those
    before the failing deal kept, and those after it too when ``skip`` (a failing deal left
    out, the match playing on), else the block ends at the failure."""
    from ..games.agents import AgentError

    try:
        return _Block(start, _tables(players, start, count, played, common), [], False)
    except AgentError:
        pass  # which deal: each deal of the block alone
    kept: list[tuple] = []
    failed: list[tuple[int, str]] = []
    for deal in range(start, start + count):
        try:
            kept.append(_tables(players, deal, 1, played, common))
        except AgentError as exc:
            failed.append((deal, str(exc)))
            if not skip:
                break
    return _Block(start, _joined(kept) if kept else None, failed, bool(failed) and not skip)


def _joined(parts: list[tuple]) -> tuple:
    """Blocks' tables (one ``_Table`` per seating each) joined in deal order."""
    return tuple(
        _Table(
            np.concatenate([p[i].scores for p in parts]),
            pd.concat([p[i].rounds for p in parts], ignore_index=True),
            pd.concat([p[i].seats for p in parts], ignore_index=True),
        )
        for i in range(len(parts[0]))
    )


def _tables(players, start: int, count: int, played: TeamGame, common: dict) -> tuple:
    """Deals ``start`` to ``start + count - 1`` played at each of the game's seatings, in
    order: one ``_Table`` each."""
    out = []
    for seating in played.duplicate_seatings:
        at_table = [players[i] for i in seating]
        r, s = simulate(count, strategies=at_table, first_round=start, **common)
        side = np.asarray(seating)[played.seat_players(r, s)]
        out.append(
            _Table(
                played.player_scores(r),
                r[[*_ROUND_COLUMNS, played.victory]].reset_index(drop=True),
                s[list(_SEAT_COLUMNS)].assign(side=side).reset_index(drop=True),
            )
        )
    return tuple(out)


_BUILT: dict = {}  # a worker's players, built once per process: (spec, variant) -> player


def _worker_block(job):
    """One block in a worker process: the players rebuilt from plain data (an agent from its
    ``spec_of`` table), then ``_block``."""
    specs, start, count, threads, common, skip = job
    if threads:
        import numba

        numba.set_num_threads(threads)
    played = _teams_game(common["variant"], common["options"])
    players = []
    for spec in specs:
        key = (repr(spec), common["variant"])
        if key not in _BUILT:
            _BUILT[key] = _player(played, spec)
        players.append(_BUILT[key])
    return _block(players, start, count, played, common, skip)


def _portable(player):
    """What rebuilds ``player`` in another process: an agent's plain table, or the strategy."""
    from ..games.agents import Agent, spec_of

    return spec_of(player) if isinstance(player, Agent) else player


def _blocks_in_workers(players, blocks, workers: int, common: dict, skip: bool):
    """The ``_Block`` of every block, in the order they finish, from ``workers`` spawned
    processes (each numba single-threaded when they share the cores); Ctrl-C is the parent's
    alone, which then drops the blocks not started and waits for those under way."""
    import concurrent.futures as cf
    import multiprocessing
    import os
    import signal

    import numba

    from ..runs.shard import MASKABLE, SIGINT_ONLY, worker_init

    specs = tuple(_portable(p) for p in players)
    threads = max(1, numba.get_num_threads() // workers)
    ctx = multiprocessing.get_context("spawn")  # fork would hang after OpenMP ran
    pool = cf.ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),)
    )
    old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGINT_ONLY) if MASKABLE else None
    try:  # workers start inside submit, and inherit SIGINT blocked until worker_init
        futures = [
            pool.submit(_worker_block, (specs, a, n, threads, common, skip)) for a, n in blocks
        ]
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    try:
        for future in cf.as_completed(futures):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _points(tables, seatings) -> list[list[np.ndarray]]:
    """Per seating, A's and B's points per deal: the mean round score of its players."""
    out = []
    for table, seating in zip(tables, seatings, strict=True):
        plays = np.asarray(seating)
        out.append([table.scores[:, plays == side].mean(axis=1) for side in (0, 1)])
    return out


def _sides(tables, seatings) -> Paired:
    """Per deal, A's and B's points, each the mean over the seatings of its players' mean
    round score: the two strategies on shared deals."""
    points = _points(tables, seatings)
    return Paired(np.stack([np.mean([p[side] for p in points], axis=0) for side in (0, 1)]))


def _side_stats(name: str, side: int, tables, seatings, victory: str) -> dict:
    """Figures of strategy ``side`` (0: A, 1: B) from its rows at every seating. Its points
    pool its per-deal points of each seating; a victory or a first out counts once per team
    it played on in a round (a round of Nanjing or Tientsin: its one team)."""
    points = np.concatenate([p[side] for p in _points(tables, seatings)])
    me = pd.concat([t.seats[t.seats["side"] == side] for t in tables])
    out = {"strategy": name, "points_per_round": mean_ci(points)}
    for call in ("grand_tichu", "tichu"):
        called = me[me[call]]
        out[f"{call}_rate"] = wilson(len(called), len(me))
        out[f"{call}_success"] = wilson(int((called["finish"] == 1).sum()), len(called))
    won = first = teams = 0
    for table in tables:
        seats = table.seats
        out_first = seats.loc[seats["finish"] == 1].set_index("round")["team"]
        mine = seats.loc[seats["side"] == side, ["round", "team"]].drop_duplicates()
        firsts = mine["team"].to_numpy() == out_first.reindex(mine["round"]).to_numpy()
        victories = table.rounds.set_index("round")[victory].reindex(mine["round"]).to_numpy()
        won += int((firsts & victories).sum())
        first += int(firsts.sum())
        teams += len(mine)
    out["double_victories"] = wilson(won, teams)  # triple in Tientsin
    out["team_first_out"] = wilson(first, teams)
    # the seat-rounds in which the seat played a bomb (the engine records it, RULES.md §2.9)
    out["bombs_played"] = wilson(int((me["bombs_played"] > 0).sum()), len(me))
    return out


def _match(
    sa,
    sb,
    frames,
    played: TeamGame,
    variant: str,
    planned: int,
    seconds: float,
    failed: tuple = (),
    stopped: str = "",
):
    """The match's figures from its blocks' tables, merged in deal order."""
    tables = _joined([frames[k] for k in sorted(frames)])
    seatings = played.duplicate_seatings
    sides = _sides(tables, seatings)
    rows = [
        _side_stats(sa.name, 0, tables, seatings, played.victory),
        _side_stats(sb.name, 1, tables, seatings, played.victory),
    ]
    bombs = mean_ci(np.concatenate([t.rounds["bombs"].to_numpy() for t in tables]))
    return DuplicateResult(
        sa.name,
        sb.name,
        sides.deals,
        sides.difference(0, 1),
        pd.DataFrame(rows),
        margins=sides.differences(0, 1),
        points=(sides.values[0], sides.values[1]),
        bombs_per_round=bombs,
        variant=variant,
        seconds=seconds,
        planned=planned,
        failed=failed,
        stopped=stopped,
    )


def duplicate(
    a,
    b,
    deals: int,
    *,
    seed: int = 0,
    check: bool = False,
    variant: str = "nanjing",
    options: dict | None = None,
    workers: int = 1,
    progress: Callable[[int, int, Estimate], None] | None = None,
    skip_failed: bool = False,
) -> DuplicateResult:
    """Strategy ``a`` against ``b`` over ``deals`` duplicated deals (names, tables,
    ``Strategy`` objects or Python agents: ``tichusim.Agent``), in the game ``variant``
    (``DUPLICATE_VARIANTS``) with its rules ``options`` (``Game.options``).

    The deals are played in blocks of consecutive round keys, in ``workers`` spawned
    processes when more than one, and merged in deal order: the figures are the same for any
    ``workers``. ``check=True`` verifies RULES.md §7 after every action. ``progress(done,
    deals, margin)`` is called with ``done`` 0 once the kernels are compiled, then after each
    block with the deals played and the running margin (A minus B). Ctrl-C raises
    ``Interrupted`` carrying the figures of the deals played so far (``partial``).

    A player that fails at a deal (a Python agent raising or answering outside the legal
    choices) costs that deal, not the match: ``Failed`` names it and carries the figures of
    every deal before it; with ``skip_failed`` the match plays on without the failing deals,
    and the result lists them (``failed``)."""
    match_game = _teams_game(variant, options)
    seatings = match_game.duplicate_seatings
    sa, sb = _player(match_game, a), _player(match_game, b)
    common: dict[str, Any] = {"seed": seed, "check": check, "variant": variant, "options": options}
    played_once(
        lambda keys: simulate(len(keys), strategies=[(sa, sb)[i] for i in seatings[0]], **common),
    )
    size = _block_size((sa, sb), deals, workers, len(seatings))
    blocks = [(k, min(size, deals - k)) for k in range(0, deals, size)]
    if progress is not None:
        progress(0, deals, Estimate(float("nan"), float("nan"), float("nan"), 0))
    t0 = time.perf_counter()
    frames: dict[int, tuple] = {}
    if workers > 1 and len(blocks) > 1:
        played = _blocks_in_workers((sa, sb), blocks, workers, common, skip_failed)
    else:
        played = (_block((sa, sb), k, n, match_game, common, skip_failed) for k, n in blocks)
    margins: dict[int, np.ndarray] = {}
    failed: dict[int, str] = {}
    arrived: set[int] = set()
    stop = deals  # the first deal a player failed on when the match stops there

    def figures(why: str = ""):
        kept = {k: t for k, t in frames.items() if k < stop}
        if not kept:
            return None
        listed = tuple(sorted(failed.items())) if skip_failed else ()
        seconds = time.perf_counter() - t0
        return _match(sa, sb, kept, match_game, variant, deals, seconds, listed, why)

    try:
        for block in played:
            arrived.add(block.start)
            failed.update(block.failed)
            if block.stop:
                stop = min(stop, block.failed[0][0])
            if block.tables is not None:
                frames[block.start] = block.tables
                margins[block.start] = _sides(block.tables, seatings).differences(0, 1)
            if progress is not None and margins:
                so_far = np.concatenate([margins[k] for k in sorted(margins) if k < stop])
                progress(len(so_far), deals, mean_ci(so_far))
            if stop < deals and all(k in arrived for k, _ in blocks if k <= stop):
                break  # every deal before the failing one is in: the rest is not needed
    except KeyboardInterrupt:
        raise Interrupted(figures("interrupted")) from None
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            close()  # a pool's blocks not started are dropped
    if stop < deals:
        message = failed[stop]
        raise Failed(message, figures(f"a player failed at deal {stop}: {message}"))
    result = figures()
    if result is None:
        raise Failed(f"every deal failed; the first: {failed[min(failed)]}", None)
    return result


@dataclass(frozen=True)
class League:
    """A round robin: every pair of ``strategies`` in a duplicate match on the same deals."""

    strategies: list[str]
    deals: int
    seed: int
    matches: dict[tuple[str, str], DuplicateResult]  # (a, b) for a before b in ``strategies``
    table: pd.DataFrame  # one row per strategy, best first
    variant: str = "nanjing"
    seconds: float = 0.0  # of play, its matches' together

    def margin(self, a: str, b: str) -> Estimate:
        if (a, b) in self.matches:
            return self.matches[(a, b)].diff
        e = self.matches[(b, a)].diff
        return Estimate(-e.value, -e.high, -e.low, e.n)

    def to_markdown(self) -> str:
        """League table, then the matrix of pairwise margins (row minus column)."""
        lines = [
            "| rank | strategy | margin vs the field | W-D-L | "
            + " | ".join(_labels(self.variant))
            + " |",
            "|---" * (len(STAT_COLUMNS) + 4) + "|",
        ]
        for i, row in enumerate(self.table.to_dict("records"), 1):
            cells = [_fmt(row[key], pct) for key, _, pct in STAT_COLUMNS]
            lines.append(
                f"| {i} | {row['strategy']} | {_fmt(row['margin'])} | {row['wdl']} | "
                + " | ".join(cells)
                + " |"
            )
        order = list(self.table["strategy"])
        lines += [
            "",
            f"Pairwise margins, points per {game_type(self.variant).duplicate_unit} "
            "(row minus column, 95% intervals):",
            "",
            "| | " + " | ".join(order) + " |",
            "|---" * (len(order) + 1) + "|",
        ]
        for a in order:
            cells = ["" if a == b else _fmt(self.margin(a, b)) for b in order]
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"


def league(
    strategies,
    deals: int,
    *,
    seed: int = 0,
    check: bool = False,
    progress=None,
    variant: str = "nanjing",
    options: dict | None = None,
    workers: int = 1,
    skip_failed: bool = False,
) -> League:
    """Round robin of two or more strategies (names, tables, ``Strategy`` objects or Python
    agents; their names must differ). Every pair plays the same ``deals`` duplicated deals.

    A strategy's margin vs the field is, deal by deal, its margin averaged over all its
    opponents; its mean and interval come from those per-deal values (all matches share the
    deals, so this is paired too). W-D-L counts the matches whose interval lies above 0, spans
    it, or lies below. The other columns pool the strategy's seats over all its matches.
    ``progress(done, total)`` is called after each match, and with ``done`` 0 once the
    kernels are compiled (``played_once``). ``workers``, Ctrl-C and ``skip_failed`` as in
    ``duplicate``: ``Interrupted`` and ``Failed`` carry the matches finished and the partial
    one.
    """
    played = _teams_game(variant, options)
    resolved = [_player(played, s) for s in strategies]
    names = [s.name for s in resolved]
    if len(names) < 2:
        raise ValueError("a league needs at least two strategies")
    if len(set(names)) != len(names):
        raise ValueError(f"strategies need different names, got {', '.join(names)}")
    pairs = list(combinations(range(len(resolved)), 2))
    players = played.players
    common: dict[str, Any] = {"seed": seed, "variant": variant, "options": options}
    played_once(
        lambda keys: [  # a round of each: every engine they need
            simulate(len(keys), strategies=[s] * players, **common) for s in resolved
        ],
    )
    if progress is not None:
        progress(0, len(pairs))
    matches = {}
    for done, (i, j) in enumerate(pairs, 1):
        try:
            matches[(names[i], names[j])] = duplicate(
                resolved[i],
                resolved[j],
                deals,
                seed=seed,
                check=check,
                variant=variant,
                options=options,
                workers=workers,
                skip_failed=skip_failed,
            )
        except Interrupted as stop:
            raise Interrupted(stop.result, tuple(matches.values())) from None
        except Failed as stop:
            raise Failed(str(stop), stop.result, tuple(matches.values())) from None
        if progress is not None:
            progress(done, len(pairs))
    standings = pd.DataFrame([_standing(name, matches, deals, len(names)) for name in names])
    standings = standings.iloc[np.argsort([-r.value for r in standings["margin"]], kind="stable")]
    return League(
        names,
        deals,
        seed,
        matches,
        standings.reset_index(drop=True),
        variant,
        seconds=sum(m.seconds for m in matches.values()),
    )


def _standing(name: str, matches: dict, deals: int, entrants: int) -> dict:
    """Strategy ``name``'s row of a league's standings from its matches: its margin vs the
    field deal by deal, its wins-draws-losses, its pooled rates and its points per round."""
    per_deal = np.zeros(deals)
    points = np.zeros(deals)
    wdl = [0, 0, 0]
    side_rows = []
    for (a, b), m in matches.items():
        if name not in (a, b):
            continue
        sign = 1 if a == name else -1
        assert m.margins is not None and m.points is not None  # ``duplicate`` keeps them
        per_deal += sign * m.margins
        points += m.points[0 if sign == 1 else 1]
        wdl[1 - sign * m.diff.sign] += 1  # its margin's interval above 0: a win
        side_rows.append(m.per_strategy.iloc[0 if sign == 1 else 1])
    row = {
        "strategy": name,
        "margin": mean_ci(per_deal / (entrants - 1)),
        "wdl": "-".join(map(str, wdl)),
    }
    row.update(_pool(side_rows))
    row["points_per_round"] = mean_ci(points / (entrants - 1))
    return row


def _pool(rows: list[pd.Series]) -> dict:
    """Pool one strategy's rates over its matches by adding successes and trials (recovered
    from each Wilson estimate). The matches share their deals, so these intervals, which
    treat the trials as independent, are somewhat narrow; margins and points are computed per
    deal and are not affected."""
    out = {}
    for key, _, pct in STAT_COLUMNS:
        if pct:
            es = [r[key] for r in rows]
            out[key] = wilson(sum(round(e.value * e.n) for e in es if e.n), sum(e.n for e in es))
    return out


def _table_name(variant: str) -> str:
    return "" if variant == DEFAULT_GAME else f"{variant}, "


def markdown_report(result: DuplicateResult | League, command: str) -> str:
    """A match or league as a Markdown document that says how to regenerate it."""
    if isinstance(result, League):
        title = (
            f"# League of {len(result.strategies)} strategies ({_table_name(result.variant)}"
            "duplicate round robin, "
            f"{result.deals:,} deals per match, seed {result.seed})"
        )
        body = result.to_markdown()
        note = (
            "Margin vs the field: per deal, the strategy's point margin averaged over its "
            "opponents, then its mean over the deals. W-D-L: matches whose 95% interval is "
            "above 0, spans 0, below 0. Rates pool the strategy's seats over all its "
            "matches (these share deals, so their intervals are a little narrow). Success "
            "means the caller went out first. The bomb column is the share of seat-rounds "
            "in which the seat played a bomb."
        )
    else:
        title = (
            f"# {result.a} vs {result.b} ({_table_name(result.variant)}duplicate match, "
            f"{result.deals:,} deals)"
        )
        if result.partial:
            why = "interrupted" if result.stopped in ("", "interrupted") else "stopped"
            title = (
                f"# PARTIAL: {result.a} vs {result.b} ({_table_name(result.variant)}duplicate "
                f"match {why} after {result.deals:,} of {result.planned:,} deals)"
            )
            if why == "stopped":
                title += f"\n\nStopped: {result.stopped}"
        body = result.to_markdown()
        if result.failed:
            listed = "; ".join(f"deal {deal}: {message}" for deal, message in result.failed)
            body += (
                f"\n{len(result.failed):,} deal(s) left out, a player failing at them "
                f"(--skip-failed): {listed}\n"
            )
        design = game_type(result.variant).duplicate_design
        note = (
            f"Each deal is played {design}, so both strategies hold the same cards; the "
            "difference is per deal. Success means the caller went "
            "out first. The bomb column is the share of seat-rounds in which the seat "
            "played a bomb."
        )
    return f"{title}\n\nRegenerate: `{command}`\n\n{note}\n\n{body}"
