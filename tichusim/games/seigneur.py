"""Grand Seigneur from Python (RULES.md §5, 5 to 12 players): simulate games, read transcripts.

``simulate_seigneur`` validates, resolves strategies, calls the parallel kernel
(``kernels.gs_batch``) and returns two pandas DataFrames, the tables of ``tichusim.dataset``
(a batch run writes the same as Parquet):

* ``rounds``, one row per round: ``variant`` ("grand-seigneur"), ``round`` (the round key),
  ``game``, ``round_in_game``, ``players``, ``deck`` ("one", "two", "russian"), ``dealer``,
  ``leader`` (who led the first trick), ``tricks``, ``bombs``, ``wish`` (0 none, -1 the Mah
  Jong unplayed), ``grand_seigneur`` (the first out: rank 1 next round), ``last``,
  ``kept_title`` (the Grand Seigneur of the previous round is first again; missing in a
  game's first round), ``leftover_a``/``leftover_b`` (cards out of play, Russian Option);
* ``seats``, one row per player per round: ``variant``, ``round``, ``game``,
  ``round_in_game``, ``player``, ``seat`` (chair in turn order, 0 = the Grand Seigneur's from round 2
  on), ``strategy``, ``rank_before`` (missing in a game's first round), ``rank_after``
  (finishing order 1..n), ``cards`` dealt, ``dealt_a``/``dealt_b``, and the exchange's
  ``gave_a``/``gave_b``, ``got_a``/``got_b``.

Card multisets are two ``uint64`` columns ``*_a`` (held at least once) and ``*_b`` (held
twice); ``tichusim.seigneur_rules.format(a, b)`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

import numba
import numpy as np
import pandas as pd

from ..cards.notation import RANK_CHARS
from ..cards import seigneur as seigneur_rules
from ..kernels.seigneur import batch as gs_batch
from ..kernels.seigneur import cards as gc
from ..kernels.errors import ERRORS
from ..kernels.seigneur import records as E
from ..cards.combos import Combo
from ..strategies.seigneur import SeigneurStrategy, resolve
from .simulate import SEIGNEUR as VARIANT
from .simulate import SimulationError, frames, variant_options

__all__ = ["VARIANT", "SeigneurOptions", "SeigneurRecords", "play_with_log", "seigneur_records",
           "simulate_seigneur", "transcript"]  # fmt: skip

DECK_NAMES = ("one", "two", "russian")


@dataclass(frozen=True)
class SeigneurOptions:
    """The Options of RULES.md §5 (all from the Russian edition); off by default.

    ``russian_deck``: 108 cards (two sets of the 52 ranked cards and one set of specials with
    the Dog), 12 to each player, the rest face up out of play; the Dog gives the lead to the
    last-ranked player. ``distinct_triples``: a triple's cards, alone or in a full house, are of
    different suits. ``russian_seating``: the second sits at the Grand Seigneur's right (turn
    order then runs by rank). ``options="russian"`` turns all three on."""

    russian_deck: bool = False
    distinct_triples: bool = False
    russian_seating: bool = False

    @classmethod
    def of(cls, options) -> SeigneurOptions:
        """From ``None``, an instance, ``"russian"`` (all three) or a table of the three,
        checked as every variant's options are (``simulate.variant_options``)."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        known = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in known] if isinstance(options, dict) else []
        if unknown:  # decks and game_rounds are arguments of their own here
            raise ValueError(f"grand-seigneur option {unknown[0]!r}: unknown "
                             f"(known: {', '.join(known)})")  # fmt: skip
        values = variant_options(VARIANT, options)
        return cls(**{name: values[name] for name in known})


def _count(value, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{what} must be a whole number >= {low}, not {value!r}")
    return int(value)


class _Setup(NamedTuple):
    seed: int
    players: int
    deck: int
    options: SeigneurOptions
    strategies: list[SeigneurStrategy]
    params: np.ndarray


def _setup(players, seed, strategies, decks, options) -> _Setup:
    if players is None:
        raise ValueError("grand-seigneur needs the number of players: players=5..12")
    players = _count(players, "players", 1)
    if not 5 <= players <= 12:
        raise ValueError(f"grand-seigneur is played by 5 to 12 players (RULES.md §5), "
                         f"not {players}")  # fmt: skip
    seed = _count(seed, "seed")
    if seed >= 2**64:
        raise ValueError("seed must be below 2**64")
    opts = SeigneurOptions.of(options)
    decks = variant_options(VARIANT, {"decks": decks, "russian_deck": opts.russian_deck})["decks"]
    if opts.russian_deck:
        deck = gc.DECK_RUSSIAN
    else:
        deck = gc.DECK_ONE if (decks or (1 if players <= 6 else 2)) == 1 else gc.DECK_TWO
    chosen = resolve(strategies, players)
    params = np.stack([s.param_row() for s in chosen])
    return _Setup(seed, players, deck, opts, chosen, params)


class SeigneurRecords(NamedTuple):
    """Raw results: ``GS_ROUND`` records and ``(rows, players)`` ``GS_SEAT`` records, game-major."""

    rounds: np.ndarray
    seats: np.ndarray
    setup: _Setup

    @property
    def variant(self) -> str:
        return VARIANT


def _chunks(n: int) -> int:
    return max(1, min(n, numba.get_num_threads() * 8))


def seigneur_records(n: int, *, players: int, seed: int = 0, strategies="random", decks=None,
                     rounds_per_game: int = 1, options=None, first_game: int = 0,
                     check: bool = False) -> SeigneurRecords:  # fmt: skip
    """The records behind ``simulate_seigneur``; games are played in blocks that bound memory."""
    n = _count(n, "the number of games")
    rounds_per_game = _count(rounds_per_game, "rounds_per_game", 1)
    if rounds_per_game >= gs_batch.GAME_KEY_STRIDE:
        raise ValueError(f"rounds_per_game must be below {gs_batch.GAME_KEY_STRIDE}")
    first_game = _count(first_game, "first_game")
    setup = _setup(players, seed, strategies, decks, options)
    o = setup.options
    parts_r, parts_s = [], []
    step = max(1, 50_000 // rounds_per_game)
    for start in range(0, n, step):
        games = np.arange(first_game + start, first_game + min(n, start + step), dtype=np.int64)
        r_out = np.zeros(len(games) * rounds_per_game, E.GS_ROUND)
        s_out = np.zeros((len(games) * rounds_per_game, setup.players), E.GS_SEAT)
        gs_batch.play_games(setup.seed, games, rounds_per_game, setup.params, setup.players,
                            setup.deck, o.distinct_triples, o.russian_seating, r_out, s_out,
                            check, _chunks(len(games)))  # fmt: skip
        bad = np.flatnonzero(r_out["error"])
        if bad.size:
            first = r_out[bad[0]]
            raise SimulationError(f"{bad.size} round(s) failed; first: game {first['game']} "
                                  f"round {first['round_in_game']}: {ERRORS[first['error']]}")
        parts_r.append(r_out)
        parts_s.append(s_out)
    if not parts_r:
        return SeigneurRecords(np.zeros(0, E.GS_ROUND), np.zeros((0, setup.players), E.GS_SEAT),
                               setup)  # fmt: skip
    return SeigneurRecords(np.concatenate(parts_r), np.concatenate(parts_s), setup)


def simulate_seigneur(n: int, *, players: int, seed: int = 0, strategies="random", decks=None,
                      rounds_per_game: int = 1, options=None, first_game: int = 0,
                      check: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """Play ``n`` games of ``rounds_per_game`` rounds of Grand Seigneur; ``(rounds, seats)``.

    With ``rounds_per_game=1`` (the default) these are ``n`` independent first rounds (random
    seating, no exchange); longer games chain the ranks: each round's finishing order seats
    the next and drives its exchange of best cards (RULES.md §5). ``players`` is 5..12;
    ``decks`` 1 or 2 (None: one deck for 5-6 players, two for 7-12); ``options`` the §5
    Options (``SeigneurOptions``, a table, or ``"russian"``); ``strategies`` one for every
    player or one per player (``tichusim.seigneur_strategies``). Round ``r`` of game ``g`` is
    keyed ``g * 65536 + r``: its deal and decisions derive from ``(seed, key)`` and the ranks
    before it, so results do not depend on threads. ``check=True`` verifies the invariants
    (every card in one place, legal plays, the finishing order) after every action.
    """
    rec = seigneur_records(n, players=players, seed=seed, strategies=strategies, decks=decks,
                           rounds_per_game=rounds_per_game, options=options,
                           first_game=first_game, check=check)  # fmt: skip
    return frames(rec)  # the tables of tichusim.dataset, as for every variant


def play_with_log(seed: int = 0, game: int = 0, round: int = 0, *, players: int = 7,
                  strategies="random", decks=None, options=None, check: bool = True):  # fmt: skip
    """Replay round ``round`` of game ``game`` (its earlier rounds are played for the ranks):
    ``(round record, seat records by player, log, setup)``; a log row is
    ``(event, seat, a, b, code, extra)`` (codes in ``kernels.gs_engine``)."""
    setup = _setup(players, seed, strategies, decks, options)
    game = _count(game, "game")
    round = _count(round, "round")
    o = setup.options
    rnd, seats, log, err = gs_batch.play_logged(setup.seed, game, round, setup.params,
                                                setup.players, setup.deck, o.distinct_triples,
                                                o.russian_seating, check)  # fmt: skip
    if err:
        raise SimulationError(f"game {game} round {round}: {ERRORS[err]}")
    return rnd[0], seats, log, setup


_ORDINAL = {1: "first", 2: "second", 3: "third"}


def _place(k: int) -> str:
    return _ORDINAL.get(k, f"{k}th")


def _combo(code: int) -> str:
    c = Combo.from_code(code)
    if c.kind == "dog":
        return "dog"
    rank = {1: "Ma", 15: "Dr", 15.5: "Dr (second)"}.get(c.rank, c.rank)
    if isinstance(rank, float):
        rank = int(rank) if rank == int(rank) else rank
    return f"{c.kind} {rank}"


def _notation(a, b) -> str:
    return seigneur_rules.format(int(np.uint64(np.int64(a))), int(np.uint64(np.int64(b)))) or "-"


def transcript(seed: int = 0, game: int = 0, round: int = 0, *, players: int = 7,
               strategies="random", decks=None, options=None) -> str:  # fmt: skip
    """Round ``round`` of game ``game`` move by move, in card notation."""
    rnd, seats, log, setup = play_with_log(seed, game, round, players=players,
                                           strategies=strategies, decks=decks, options=options)
    n = setup.players
    seat_player = {int(seats[p]["seat"]): p for p in range(n)}

    def who(seat: int) -> str:
        p = seat_player[seat]
        rank = int(seats[p]["rank_before"])
        return f"seat {seat} P{p}" + (f" (rank {rank})" if rank else "")

    opts = [f.name for f in fields(setup.options) if getattr(setup.options, f.name)]
    lines = [
        f"Grand Seigneur, {n} players, {gc.DECK_NAMES[setup.deck]}"
        + (f", options: {', '.join(opts)}" if opts else "")
        + f"; seed {seed}, game {game}, round {round}",
        "Strategies: " + ", ".join(f"P{i} {s.name}" for i, s in enumerate(setup.strategies)),
        "Turn order: " + " -> ".join(f"seat {s} P{seat_player[s]}" for s in range(n))
        + f"; dealer P{rnd['dealer']}",
    ]
    trick = 1
    new_trick = True
    for event, seat, a, b, code, extra in log.tolist():
        if event == E.EV_DEAL:
            lines.append(f"{who(seat)} dealt {int(seats[seat_player[seat]]['cards'])}: "
                         f"{_notation(a, b)}")  # fmt: skip
        elif event == E.EV_LEFTOVER:
            lines.append(f"out of play, face up ({code}): {_notation(a, b)}")
        elif event == E.EV_GIVE:
            lines.append(f"{who(seat)} gives its {code} best to {who(extra)}: {_notation(a, b)}")
        elif event == E.EV_GIVE_BACK:
            lines.append(f"{who(seat)} gives back {code} to {who(extra)}: {_notation(a, b)}")
        elif event in (E.EV_PLAY, E.EV_BOMB, E.EV_PASS):
            if new_trick:
                lines.append(f"-- trick {trick}")
                new_trick = False
            if event == E.EV_PASS:
                lines.append(f"  {who(seat)} passes")
            else:
                verb = "BOMBS out of turn with" if event == E.EV_BOMB else "plays"
                lines.append(f"  {who(seat)} {verb} {_notation(a, b)}  [{_combo(code)}]")
        elif event == E.EV_WISH:
            lines.append(f"  {who(seat)} wishes "
                         f"{'nothing' if code == 0 else RANK_CHARS[code - 2]}")
        elif event == E.EV_WISH_DONE:
            lines.append(f"  (the wish for {RANK_CHARS[code - 2]} is "
                         "fulfilled)")  # fmt: skip
        elif event == E.EV_OUT:
            lines.append(f"  {who(seat)} is out ({_place(code)})")
        elif event == E.EV_DOG:
            lines.append(f"  the Dog gives the lead to {who(extra)}")
            trick += 1
            new_trick = True
        elif event == E.EV_TRICK:
            lines.append(f"  {who(seat)} wins the trick")
            trick += 1
            new_trick = True
        elif event == E.EV_END:
            order = sorted(range(n), key=lambda p: int(seats[p]["rank_after"]))
            lines.append(f"End: {who(seat)} is last, holding {_notation(a, b)}")
            lines.append("Finishing order (next round's ranks): "
                         + ", ".join(f"{i + 1}. P{p}" for i, p in enumerate(order)))
    return "\n".join(lines) + "\n"
