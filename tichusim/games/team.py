"""The team games, played by one engine: Nanjing (RULES.md §2), Tientsin (§3), Wu Wang (§4).

``TeamGame`` is a ``base.Game`` whose variant is a field (``variant_code``, the kernels'
code for it); the three small subclasses hold each variant's facts. Nanjing: 4 seats,
partners opposite. Tientsin: 6 seats, teams {0, 2, 4} and {1, 3, 5}. Wu Wang: three players
0..2 and the Minister (seat 3 in the tables); team 0 is the King's side that round, team 1
the two opponents. The engine plays Wu Wang by *position* (King at 0, Minister at 2), so ``WuWang``
maps its records back to players.

Card sets are ``uint64`` masks in the layout of ``tichusim.cards``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from ..cards import notation as cards
from ..kernels.errors import ERRORS
from ..kernels.tichu import batch, variants
from ..kernels.tichu import records as engine_records
from ..kernels.tichu import rules as team_rules
from ..kernels.tichu.columns import derive
from ..strategies import tichu as tichu_strategies
from .agents import strategies_text
from .arrow import PLACES, Field, Masked, constant, text
from .base import GAME_OPTIONS, Game, Records, check_game_rounds, check_seed, whole_number
from .driver import Batch, play, play_parts
from .errors import SimulationError
from .narrate import Wording, narrate
from .scripted import with_replay
from .steps import Unit, seated, stepper
from .team_steps import TeamSteps

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Nanjing", "TeamGame", "Tientsin", "WuWang"]

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
_POINT = {0: "before passing", 1: "after passing", 2: "before playing", 3: "before its bomb"}
# the text columns of what a seat did, by the engine's codes (kernels/tichu/records.py)
# code + 1; a call right before a bomb out of turn is a seat's decided from Python (§2.3)
TICHU_WHEN = ("none", "before_passing", "after_passing", "before_first_play", "before_bomb")
PHOENIX_AS = ("none", "held", "led", "on_single", "in_combination")  # PHOENIX_* + 1
DRAGON = ("none", "played", "given")  # DRAGON_*
BOMB_KINDS = ("none", "four_of_a_kind", "straight_flush")
_TEAMS_BLOCK = 128  # games per kernel call: bounds the scratch arrays (256 rounds each)
# rounds per kernel call of ``record_parts``, every block played into the same records (784
# bytes a round in the 4-player game); a block's columns are made in one pass over its
# records, so a larger block costs no cache misses more while it shares out the fixed cost of
# a block (the kernel call's scratch, the columns' Python) over more rounds; its chunks (one
# on one thread) take at least ``_ROUNDS_CHUNK`` rounds each
ROUNDS_BLOCK = 16384
_ROUNDS_CHUNK = 4096


class TeamGame(Game):
    """A game of the team engine; subclasses set the class attributes."""

    variant_code: ClassVar[int]  # the kernels' variant code (kernels.tichu.variants)
    # players (that bring a strategy) and seats (seat rows per round, Wu Wang: the Minister
    # too) are set by each variant's class
    victory: ClassVar[str] = "double_victory"  # rounds column of a round won at once (§2.13)
    titled: ClassVar[bool] = True  # a transcript names the game (not the default game's)
    # given_/received_ columns by offset - 1: the next seat is the right-hand opponent (§2.1)
    sides: ClassVar[tuple] = ((0, "right"), (1, "partner"), (2, "left"))
    # the rules Options every game of the team engine has (kernels/tichu/rules.py), all off
    option_defaults: ClassVar[dict] = dict.fromkeys(team_rules.EVERY_TABLE, False)
    strategy_heading = "Tichu (nanjing, tientsin, wuwang)"
    strategy_book = tichu_strategies.BOOK
    summary = "team"
    report = "team"

    def __init__(self, players: int | None = None, options: Any = None) -> None:
        self.options = self.check_options(options)
        self.rules_record = team_rules.record(self.options)  # the Options as the kernels read them
        self.steps = TeamSteps(self)  # its decisions as Python sees them (stepped rounds)
        if players is not None and players != self.players:
            raise ValueError(
                f"players: {self.name} is played by {self.players}; only "
                "grand-seigneur takes a number of players"
            )

    def resolve(self, strategies: Any, count: int | None = None) -> list:
        return tichu_strategies.resolve(strategies, count or self.players, variant=self.name)

    # -- duplicate matches (analysis/duplicate.py) -----------------------------------------

    # two teams alternating around the table (§2.1, §3): each deal twice, seats swapped
    duplicate_design: ClassVar[str] = "twice, with the teams' seats swapped"

    def player_scores(self, rounds: pd.DataFrame) -> np.ndarray:
        """Each player's round score, ``(rounds, players)``: his team's (§2.14)."""
        teams = [rounds[f"score_team{t}"].to_numpy(np.float64) for t in (0, 1)]
        return np.stack([teams[p % 2] for p in range(self.players)], axis=1)

    def seat_players(self, rounds: pd.DataFrame, seats: pd.DataFrame) -> np.ndarray:
        """The player whose strategy plays each of ``seats``' rows: the seat's own."""
        return seats["seat"].to_numpy()

    def row_players(self, rounds: np.ndarray) -> np.ndarray:
        """``seat_players`` of round records (``by_player``'s): the player who plays each
        seat row of each round, ``(rounds, seats)``."""
        return np.tile(np.arange(self.seats), (len(rounds), 1))

    # -- the variant's facts, as the engine knows them (kernels/tichu/variants.py) ---------

    # in the analyses' fixed deals the first drawer argument names the King (Wu Wang, §4)
    drawer_is_king: ClassVar[bool] = False

    @property
    def grand_tichu_cards(self) -> int:
        """Cards seen before a Grand Tichu call: 8 (§2.2), Tientsin 6 (§3)."""
        return _dealing(self.variant_code)[0]

    def hand_size(self, draw_position: int) -> int:
        """Cards dealt to the seat ``draw_position`` places after the first drawer: 14,
        Tientsin 10 for the first two, then 9 (§3)."""
        return _dealing(self.variant_code)[1][draw_position]

    def passes_to(self, giver: int, receiver: int) -> bool:
        """Whether seat ``giver`` passes a card to seat ``receiver`` (§2.4, §3, §4)."""
        offset = (receiver - giver) % self.seats
        return offset != 0 and bool(variants.pass_offsets(self.variant_code, giver) >> offset & 1)

    def may_call_grand(self, seat: int) -> bool:
        """Whether seat ``seat`` may call Grand Tichu (Wu Wang: not the King's side, §4)."""
        return bool(variants.may_call_grand(self.variant_code, seat))

    # -- records -------------------------------------------------------------------------

    def records(
        self,
        count: int,
        *,
        games: bool = False,
        first: int = 0,
        seed: int = 0,
        strategies: Any = "random",
        target: int = 1000,
        check: bool = False,
    ) -> Records:
        count = whole_number(count, "games" if games else "rounds")
        first = whole_number(first, "first_game" if games else "first_round")
        if games:
            return self._games(
                count, first, seed, strategies, whole_number(target, "target"), check
            )
        return self.rounds(
            np.arange(first, first + count, dtype=np.int64),
            seed=seed,
            strategies=strategies,
            check=check,
        )

    def first_drawers_of(self, keys: np.ndarray) -> np.ndarray:
        """Seat 0 draws first in every independent round."""
        return np.zeros(len(keys), np.int64)

    def record_parts(
        self,
        count: int,
        *,
        first: int = 0,
        seed: int = 0,
        strategies: Any = "random",
        check: bool = False,
    ) -> Iterator[Records]:
        """``records(count, first=first, ...)`` of independent rounds in parts of at most
        ``ROUNDS_BLOCK`` rounds, each played into the records of the one before: a part holds
        until the next is asked for (``driver.play_parts``' ``reuse``)."""
        count = whole_number(count, "rounds")
        first = whole_number(first, "first_round")
        keys = np.arange(first, first + count, dtype=np.int64)
        yield from self._round_parts(keys, seed, strategies, check, ROUNDS_BLOCK, reuse=True)

    def rounds(
        self,
        keys: np.ndarray,
        *,
        seed: int = 0,
        strategies: Any = "random",
        check: bool = False,
        first_drawers: np.ndarray | None = None,
        fixed: Any = None,
        fixed_seat: int = 0,
    ) -> Records:
        """Independent rounds ``keys``; ``first_drawers`` (one per key, default
        ``first_drawers_of(keys)``); ``fixed = (exact_mask, rank_counts)`` deals ``fixed_seat``
        those first 8 cards (the 4-player game only: ``cards.parse_pattern``)."""
        keys = np.asarray(keys, np.int64)
        parts = self._round_parts(
            keys, seed, strategies, check, max(1, len(keys)), first_drawers, fixed, fixed_seat
        )
        return next(parts)  # one block: one part

    def _round_parts(
        self,
        keys: np.ndarray,
        seed: Any,
        strategies: Any,
        check: bool,
        block: int,
        first_drawers: np.ndarray | None = None,
        fixed: Any = None,
        fixed_seat: int = 0,
        reuse: bool = False,
    ) -> Iterator[Records]:
        """``rounds``' records, ``block`` keys at a time (one block when ``first_drawers`` is
        given: they are read by a key's place in it); ``reuse``: each block into the records
        of the one before (``driver.play_parts``)."""
        seed = check_seed(seed)
        chosen, params, agents = seated(self, strategies)
        given = strategies_text(strategies) if agents is not None else None
        if first_drawers is not None:
            block = max(1, len(keys))
        run = self.batch_settings(seed, check)
        if fixed is not None:
            exact, ranks = fixed
            run = run._replace(
                fixed_seat=fixed_seat,
                fixed_cards=np.uint64(exact),
                fixed_ranks=np.asarray(ranks, np.int64),
            )

        def call(block: Any, r_out: Any, s_out: Any, played: Any, chunks: Any) -> None:
            r_out, s_out = r_out.reshape(len(block)), s_out.reshape(len(block), self.seats)
            firsts = (
                self.first_drawers_of(block)
                if first_drawers is None
                else np.asarray(first_drawers, np.int64)
            )
            step = stepper(self, agents, seed, block)
            if fixed is None and first_drawers is None:  # simulate's rounds: show replays them
                step = with_replay(step, block, lambda key: self.show_command(seed, key, given))
            batch.play_rounds(run, block, firsts, params, r_out, s_out, chunks, stepper=step)

        least = _ROUNDS_CHUNK if block == ROUNDS_BLOCK else 1
        parts = play_parts(self._batch(1, block, call, least), keys, check, reuse=reuse)
        for done in parts:
            rounds, seats = self.by_player(done.rounds, done.seats)
            yield Records(rounds, seats, chosen, None, None, 0, self)

    def batch_settings(self, seed: int, check: bool = False) -> batch.Run:
        """The settings of a batch call at this table: its variant and rules Options."""
        return batch.Run(self.variant_code, seed, check, self.rules_record)

    def show_command(self, seed: int, key: int, strategies: str | None = None) -> str:
        """The command printing round ``key`` of ``simulate``'s rounds played by
        ``strategies`` (``--strategies`` text; ``None``: the deal, with show's default)."""
        text = f"tichusim show --seed {seed} --round {key}"
        if strategies:
            text += f" --strategies {strategies}"
        if self.name != "nanjing":
            text += f" --variant {self.name}"
        for option, value in self.options.items():
            if option not in GAME_OPTIONS and value != self.option_defaults.get(option):
                text += f" --option {option}={str(value).lower()}"
        return text

    def _games(
        self, count: Any, first: Any, seed: Any, strategies: Any, target: Any, check: Any
    ) -> Records:
        seed = check_seed(seed)
        chosen, params, agents = seated(self, strategies)
        game_rounds = self.options.get("game_rounds", 0)
        longest = batch.MAX_GAME_ROUNDS if self.team_game else game_rounds
        run = self.batch_settings(seed, check)._replace(target=target, game_rounds=game_rounds)

        def call(block: Any, r_out: Any, s_out: Any, played: Any, chunks: Any) -> None:
            step = stepper(self, agents, seed, block, "game")
            batch.play_games(run, block, params, r_out, s_out, played, chunks, stepper=step)

        ids = np.arange(first, first + count, dtype=np.int64)
        done = play(self._batch(longest, _TEAMS_BLOCK, call), ids, check)
        rounds, seats = self.by_player(done.rounds, done.seats)
        return Records(rounds, seats, chosen, done.unit, done.round_in_unit, target, self)

    def _batch(self, rounds_per_unit: int, block: int, call: Any, least: int = 1) -> Batch:
        return Batch(
            engine_records.ROUND,
            engine_records.SEAT,
            self.seats,
            rounds_per_unit,
            block,
            call,
            ERRORS,
            lambda r: f"round key {r['round']}",
            least,
        )

    def by_player(self, rounds: np.ndarray, seats: np.ndarray) -> Any:
        """Records from the engine's positions to the tables' rows (the same but in Wu Wang)."""
        return rounds, seats

    # -- columns -------------------------------------------------------------------------

    def _teams(self, rounds: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """Each seat row's team: the two sides alternate around the table."""
        return seat % 2

    def columns(self, rec: Records) -> tuple[dict, dict]:
        """Rounds and seats columns (seat rows by seat; Wu Wang by player 0..2, then the
        Minister)."""
        rounds, seats = rec.rounds, rec.seats
        n, k = len(rounds), seats.shape[1]
        flat = seats.reshape(n * k)
        seat = np.tile(np.arange(k, dtype=np.int8), n)
        team = self._teams(rounds, seat)
        names = [s.name for s in rec.strategies]

        r: dict = self._king_column(rounds)
        r["first_drawer"] = Field(rounds, "first_drawer")
        for p in range(self.players):
            r[f"strategy{p}"] = constant(names[p], n)
        d = _derived(seats)
        for i in range(k):
            r[f"call{i}"] = d.calls[:, i]
        for p in range(self.players):  # the Minister neither gives nor receives (§4)
            r[f"passed{p}"] = d.passed[:, p]
        out = d.order
        for place in range(1, k):
            r[f"{PLACES[place - 1]}_out"] = out[:, place]
        r["last_out"] = out[:, k]
        r[self.victory] = Field(rounds, "double_victory")
        for t in (0, 1):
            r[f"card_points_team{t}"] = Field(rounds, "card_points", t)
        for t in (0, 1):
            r[f"score_team{t}"] = Field(rounds, "score", t)
        r |= self._player_scores(rounds, team.reshape(n, k))
        for name in (
            "tricks",
            "bombs",
            "bombs_out_of_turn",
            "wish",
            "wish_fulfilled_by",
            "dragon_to",
            "hand_points_left",
            "table_points_left",
        ):
            r[name] = Field(rounds, name)
        if rec.game is not None:  # ``_totals`` reads the scores' values
            values = {name: v.values() if isinstance(v, Field) else v for name, v in r.items()}
            r |= self._totals(values, rec.game, rec.target)

        s: dict = {"seat": seat, "team": team}
        s |= self._seat_strategies(rounds, seat, names)
        for name in ("hand8", "hand14", "hand_passed"):
            s[name] = Field(flat, name)
        for direction in ("given", "received"):
            for j, side in self.sides:
                s[f"{direction}_{side}"] = Field(flat, direction, j)
        s["grand_tichu"] = Field(flat, "grand_tichu")
        s["tichu"] = Field(flat, "tichu")
        s["call_success"] = Masked(d.success.reshape(n * k), ~d.called.reshape(n * k))
        for name in ("finish", "card_points", "points"):
            s[name] = Field(flat, name)
        s |= _seat_doings(flat, d)
        return r, s

    def _king_column(self, rounds: np.ndarray) -> dict:
        return {}

    def _player_scores(self, rounds: np.ndarray, team: np.ndarray) -> dict:
        return {}

    def _seat_strategies(self, rounds: np.ndarray, seat: np.ndarray, names: list) -> dict:
        return {"strategy": text(names, seat)}

    def _totals(self, r: dict, game: np.ndarray, target: int) -> dict:
        """Running team totals and whether a game ended (decided, §2.15) at that row."""
        totals = _running_totals(np.column_stack([r["score_team0"], r["score_team1"]]), game)
        _, last = _game_bounds(game)
        decided = (totals.max(axis=1) >= target) & (totals[:, 0] != totals[:, 1])
        return {
            "total_team0": totals[:, 0],
            "total_team1": totals[:, 1],
            "game_over": last & decided,
        }

    # -- transcripts ---------------------------------------------------------------------

    def _first(self, first_drawer: int, king: Any) -> int:
        """The engine's first drawer of a replayed round (``king``: Wu Wang's)."""
        if not 0 <= first_drawer < self.seats:
            raise ValueError(
                f"first_drawer must be a seat 0..{self.seats - 1}, not {first_drawer!r}"
            )
        return first_drawer

    def play_with_log(
        self,
        seed: int = 0,
        round: int = 0,
        *,
        strategies: Any = "random",
        first_drawer: int = 0,
        king: int | None = None,
        check: bool = True,
    ) -> Any:
        """Replay round ``round``: ``(round record, seat records, log)``; seat records and log
        rows by the engine's positions (``transcript.play_with_log``)."""
        seed = check_seed(seed)
        _, params, agents = seated(self, strategies)
        first = self._first(first_drawer, king)
        if agents is None:
            rnd, seats, log, err = batch.play_logged(
                self.batch_settings(seed, check), round, first, params
            )
        else:
            rnd, seats, log, err = self._logged_with_agents(
                seed, round, first, params, agents, check
            )
        if err:
            raise SimulationError(f"round {round}: {ERRORS[err]}")
        return rnd[0], seats, log

    def _logged_with_agents(
        self, seed: Any, key: Any, first: Any, params: Any, agents: Any, check: Any
    ) -> Any:
        """``batch.play_logged`` with Python agents: the round stepped as ``simulate`` plays
        it (``steps.Unit``), the log of its last, complete replay kept (``show`` replays a
        round an agent played, or failed in)."""
        logged: list[tuple] = []
        args = (self.batch_settings(seed, check), key, first, params)

        def play(kept: Any, log_out: Any = None) -> Any:
            logged[:] = [batch.play_logged(*args, kept=kept)]
            return logged[0][3]

        def log(kept: Any) -> Any:
            return batch.play_logged(*args, kept)[2]

        Unit(self, play, agents, f"seed {seed} round key {key}", seed, key, log).advance()
        return logged[0]

    def _labels(self, rnd: Any) -> list[str]:
        """How each position is named in a transcript."""
        return [f"seat {s}" for s in range(self.seats)]

    def _header(self, seed: Any, round: Any, rnd: Any, first_drawer: Any, names: Any) -> list[str]:
        title = f" ({self.name.capitalize()}, {self.seats} seats)" if self.titled else ""
        return [
            f"Round {round} of seed {seed}{title}; first drawer: seat {first_drawer}",
            "Strategies: " + ", ".join(f"seat {i} {s.name}" for i, s in enumerate(names)),
        ]

    def _side(self, seat: int) -> str:
        """The deal's lines name each seat's side."""
        return f" (team {seat % 2})"

    def _hand_to(self, who: Any, seat: Any, hand: Any, code: Any, extra: Any) -> str:
        return (
            f"{who[seat]} is last: hand {hand} ({code} points) to team {extra % 2}; its "
            "tricks to the first player out"
        )

    def _end(self, who: Any, rnd: Any, seat: Any, points: Any, code: Any, extra: Any) -> list[str]:
        return [f"End: first out seat {seat}; {points}; score team 0: {code}, team 1: {extra}"]

    def transcript(
        self,
        seed: int = 0,
        round: int = 0,
        *,
        game: int | None = None,
        strategies: Any = "random",
        first_drawer: int = 0,
        king: int | None = None,
    ) -> str:
        """The round move by move, in card notation (``game``: Grand Seigneur only)."""
        if game is not None:
            raise ValueError(f"game: {self.name} rounds replay alone (a round key)")
        names = seated(self, strategies)[0]
        rnd, seats, log = self.play_with_log(
            seed, round, strategies=strategies, first_drawer=first_drawer, king=king
        )
        who = self._labels(rnd)
        header = self._header(seed, round, rnd, first_drawer, names)
        header += [
            f"Rules: {team_rules.SAID[k]}" for k in team_rules.OPTIONS if self.options.get(k)
        ]
        victory = self.victory.split("_")[0]

        def read(row: Any) -> tuple:
            event, seat, mask, code, extra = row
            return event, seat, cards.format(int(np.uint64(np.int64(mask)))), code, extra

        def say(row: Any) -> list[str]:
            event, seat, hand, code, extra = read(row)
            if event == engine_records.EV_DEAL8:
                return [f"{who[seat]}{self._side(seat)} first {len(hand.split())}: {hand}"]
            if event == engine_records.EV_GRAND_TICHU:
                return [f"{who[seat]} calls GRAND TICHU"]
            if event == engine_records.EV_DEAL14:
                return [f"{who[seat]} holds {len(hand.split())}: {hand}"]
            if event == engine_records.EV_TICHU:
                return [f"{who[seat]} calls TICHU ({_POINT[code]})" + self._tichu_note(seat)]
            if event == engine_records.EV_GIVE:
                return [f"{who[seat]} gives {hand} to {who[extra]}"]
            if event == engine_records.EV_SHOW:
                return [f"{who[seat]}'s hand is laid face up: {hand}"]
            if event == engine_records.EV_OUT:
                return [f"  {who[seat]} is out ({_ORDINAL[code]})"]
            if event == engine_records.EV_DOG:
                return [f"  the Dog passes the lead to {who[extra]}"]
            if event == engine_records.EV_DRAGON:
                return [f"  {who[seat]} gives the Dragon's trick to {who[extra]}"]
            if event == engine_records.EV_TRICK:
                return [f"  {who[seat]} wins the trick ({code} points) -> pile of {who[extra]}"]
            if event == engine_records.EV_HAND_TO:
                return [self._hand_to(who, seat, hand or "-", code, extra)]
            if event == engine_records.EV_TRICKS_TO:
                return [f"{who[seat]} gives its tricks ({code} points) to {who[extra]}"]
            if event == engine_records.EV_END:
                won = f" ({victory} victory)" if rnd["double_victory"] else ""
                points = f"card points {rnd['card_points'][0]} / {rnd['card_points'][1]}{won}"
                return self._end(who, rnd, seat, points, code, extra)
            return []

        return narrate(
            header,
            log,
            Wording(
                engine_records.EV_PLAY,
                engine_records.EV_BOMB,
                engine_records.EV_PASS,
                engine_records.EV_WISH,
                engine_records.EV_WISH_DONE,
                frozenset((engine_records.EV_DOG, engine_records.EV_TRICK)),
                read,
                who.__getitem__,
                say,
            ),
        )

    def _tichu_note(self, seat: int) -> str:
        return ""


class Nanjing(TeamGame):
    """The 4-player game (RULES.md §2): partners opposite, to a target score (§2.15)."""

    name = "nanjing"
    rules = "RULES.md §2"
    variant_code = variants.NANJING
    players = 4
    seats = 4
    strategy_per = "seat"
    titled = False
    team_game = True
    duplicate_seatings = ((0, 1, 0, 1), (1, 0, 1, 0))


class Tientsin(TeamGame):
    """Six players in two teams of three, {0, 2, 4} and {1, 3, 5} (RULES.md §3)."""

    name = "tientsin"
    rules = "RULES.md §3"
    variant_code = variants.TIENTSIN
    players = 6
    seats = 6
    team_game = True
    duplicate_seatings = ((0, 1, 0, 1, 0, 1), (1, 0, 1, 0, 1, 0))
    victory = "triple_victory"  # three of a team out first (§3)
    sides = ((1, "partner1"), (3, "partner2"))  # the partners 2 and 4 places on (§3)

    def _hand_to(self, who: Any, seat: Any, hand: Any, code: Any, extra: Any) -> str:
        return f"{who[seat]} is last: hand {hand} ({code} points) to team {extra % 2}"


# Wu Wang: the position (0 King, 1, 2 Minister, 3) of each player 0..2 and the Minister (3),
# by King, and the player at each position; the engine plays positions (kernels/tichu/variants.py)
_WW_PLAYER = np.array([[variants.wuwang_player(k, pos) for pos in range(4)] for k in range(3)])
_WW_POSITION = np.argsort(_WW_PLAYER, axis=1)
_MINISTER_ROW = 3  # the Minister's seat row in the tables


class WuWang(TeamGame):
    """Three players and the Minister, the dummy hand the King plays (RULES.md §4). Team 0 is
    the King's side that round (the King and the Minister), team 1 the two opponents; the
    King's strategy also plays the Minister. Games last ``game_rounds`` rounds."""

    name = "wuwang"
    rules = "RULES.md §4"
    variant_code = variants.WUWANG
    players = 3
    seats = 4
    # the King changes sides every round (§4): each deal is played with every mixed seating
    # of the two strategies, so that each holds every role on the same cards
    duplicate_seatings = tuple(s for s in product((0, 1), repeat=3) if len(set(s)) == 2)
    duplicate_design = (
        "six times, the two strategies in every mixed assignment to the three players "
        "(the King's side and the opponents)"
    )
    duplicate_unit = "player-round"
    report = "wuwang"
    drawer_is_king = True
    # the Wu Wang Options (kernels/tichu/rules.py) before the others; game_rounds: a game's
    # length (§4: 9, or another multiple of 3)
    option_defaults = {
        **dict.fromkeys(team_rules.WUWANG_GAMES, False),
        "game_rounds": 9,
        **TeamGame.option_defaults,
    }

    @classmethod
    def _check_option(cls, key: str, value: Any) -> Any:
        if key == "game_rounds":  # Wu Wang games fill the team engine's game buffers
            return check_game_rounds(
                cls.name,
                value,
                batch.MAX_GAME_ROUNDS,
                3,
                "RULES.md §4: each player is King as often",
            )
        return value

    def first_drawers_of(self, keys: np.ndarray) -> np.ndarray:
        """A Wu Wang King is drawn per round (-1), as in a first round (§4)."""
        return np.full(len(keys), -1, np.int64)

    def player_scores(self, rounds: pd.DataFrame) -> np.ndarray:
        """Each player's round score, ``(rounds, players)``: his side's total (§4)."""
        return np.stack(
            [rounds[f"score_player{p}"].to_numpy(np.float64) for p in range(self.players)], axis=1
        )

    def seat_players(self, rounds: pd.DataFrame, seats: pd.DataFrame) -> np.ndarray:
        """The player whose strategy plays each of ``seats``' rows: the Minister's row that
        round's King's (§4)."""
        player = seats["seat"].to_numpy().copy()
        minister = player == _MINISTER_ROW
        king = rounds.set_index("round")["king"]
        player[minister] = king.loc[seats["round"].to_numpy()[minister]].to_numpy()
        return player

    def row_players(self, rounds: np.ndarray) -> np.ndarray:
        """The Minister's row is the King's (§4)."""
        out = super().row_players(rounds)
        out[:, _MINISTER_ROW] = rounds["king"]
        return out

    def by_player(self, rounds: np.ndarray, seats: np.ndarray) -> Any:
        """Seat rows ordered players 0, 1, 2, then the Minister; ``first_drawer`` (the King),
        ``first_out`` and ``dragon_to`` as players."""
        king = rounds["king"]
        rounds = rounds.copy()
        rounds["first_drawer"] = king
        rounds["first_out"] = _WW_PLAYER[king, rounds["first_out"]]
        for name in ("dragon_to", "wish_fulfilled_by"):
            given = rounds[name] >= 0
            rounds[name][given] = _WW_PLAYER[king[given], rounds[name][given]]
        seats = np.take_along_axis(seats, _WW_POSITION[king], axis=1)
        return rounds, seats

    def _teams(self, rounds: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """§4: team 0 is the King's side (the King and the Minister) this round."""
        king = np.repeat(rounds["king"], self.seats)
        return np.where((seat == king) | (seat == _MINISTER_ROW), 0, 1)

    def _king_column(self, rounds: np.ndarray) -> dict:
        return {"king": rounds["king"]}

    def _player_scores(self, rounds: np.ndarray, team: np.ndarray) -> dict:
        """§4: scores per player; the Minister's column is the King's side's total."""
        per_seat = rounds["score"][np.arange(len(rounds))[:, None], team]
        out = {f"score_player{p}": per_seat[:, p] for p in range(3)}
        out["score_minister"] = per_seat[:, _MINISTER_ROW]
        return out

    def _seat_strategies(self, rounds: np.ndarray, seat: np.ndarray, names: list) -> dict:
        king = np.repeat(rounds["king"], self.seats)
        roles = np.where(seat == _MINISTER_ROW, 2, np.where(seat == king, 0, 1))
        return {
            "role": text(["king", "opponent", "minister"], roles),
            "strategy": text(names, np.where(seat == _MINISTER_ROW, king, seat)),
        }  # the
        # King plays both

    def _totals(self, r: dict, game: np.ndarray, target: int) -> dict:
        """Running totals per player and the Minister (§4), and on a game's last round the
        winner: the highest total (3 the Minister), -1 for a tie."""
        names = ["player0", "player1", "player2", "minister"]
        totals = _running_totals(np.column_stack([r[f"score_{m}"] for m in names]), game)
        _, last = _game_bounds(game)
        top = totals.max(axis=1)
        alone = (totals == top[:, None]).sum(axis=1) == 1
        out = {f"total_{m}": totals[:, j] for j, m in enumerate(names)}
        out["game_over"] = last
        out["winner"] = np.where(last & alone, totals.argmax(axis=1), -1)
        return out

    def _first(self, first_drawer: int, king: Any) -> int:
        """The King (drawn at random as in a first round unless given) sits at position 0."""
        if king is not None and king not in (0, 1, 2):
            raise ValueError(f"king must be player 0, 1 or 2, not {king!r}")
        return -1 if king is None else king

    def _labels(self, rnd: Any) -> list[str]:
        """The players and the Minister, by position."""
        king = int(rnd["king"])
        names = []
        for pos in range(self.seats):
            player = variants.wuwang_player(king, pos)
            names.append(
                "the Minister"
                if player == 3
                else f"player {player}{' (King)' if pos == variants.KING else ''}"
            )
        return names

    def _header(self, seed: Any, round: Any, rnd: Any, first_drawer: Any, names: Any) -> list[str]:
        k = int(rnd["king"])
        return [
            f"Round {round} of seed {seed} (Wu Wang); King: player {k}, the Minister opposite",
            "Strategies: "
            + ", ".join(f"player {i} {s.name}" for i, s in enumerate(names))
            + " (the King's also plays the Minister)",
        ]

    def _side(self, seat: int) -> str:
        """A label already says King or Minister; the opponents are named."""
        return " (opponent)" if seat % 2 else ""

    def _tichu_note(self, seat: int) -> str:
        return " (called by the King)" if seat == variants.MINISTER else ""

    def _hand_to(self, who: Any, seat: Any, hand: Any, code: Any, extra: Any) -> str:
        side = "the King's side" if extra % 2 == 0 else "the opponents"
        return (
            f"{who[seat]} is last: hand {hand} ({code} points) to {side}; its tricks to "
            "the first player out"
        )

    def _end(self, who: Any, rnd: Any, seat: Any, points: Any, code: Any, extra: Any) -> list[str]:
        k = int(rnd["king"])
        per = {
            variants.wuwang_player(k, pos): (code if pos % 2 == 0 else extra) for pos in range(4)
        }
        return [
            f"End: first out {who[seat]}; {points}; score King's side: {code}, opponents: {extra}",
            "Scores: "
            + ", ".join(f"player {p} {per[p]}" for p in range(3))
            + f", Minister {per[3]}",
        ]


@functools.cache
def _dealing(variant_code: int) -> tuple[int, tuple[int, ...]]:
    """A variant's cards seen before Grand Tichu and the hand of each draw position, asked of
    the kernels once (a jitted call from Python costs microseconds; a record's deal asks
    them for every seat)."""
    seats = int(variants.n_seats(variant_code))
    sizes = tuple(int(variants.hand_size(variant_code, p)) for p in range(seats))
    return int(variants.gt_cards(variant_code)), sizes


class _Derived(NamedTuple):
    """What ``kernels.tichu.columns.derive`` makes of a block's ``(rounds, k)`` seat records."""

    calls: np.ndarray
    passed: np.ndarray
    order: np.ndarray
    bomb_kind: np.ndarray
    bomb_rank: np.ndarray
    success: np.ndarray
    called: np.ndarray


def _derived(seats: np.ndarray) -> _Derived:
    """The columns of several seat fields each, made in one pass (``columns.derive``):
    ``order`` a round's seats by finishing place (1..k-1 order out, k the last, 0 still
    holding after a victory)."""
    seats = np.ascontiguousarray(seats)
    n, k = seats.shape
    d = _Derived(
        np.empty((n, k), np.int8),
        np.empty((n, k), np.uint64),
        np.empty((n, k + 1), np.int8),  # seats fit (the columns' type)
        np.empty((n, k), np.int8),
        np.empty((n, k), np.int8),
        np.empty((n, k), bool),
        np.empty((n, k), bool),
    )
    derive(seats, *d)
    return d


def _seat_doings(flat: np.ndarray, d: _Derived) -> dict:
    """What each seat did in the round, recorded by the engine (docs/schema.md, seats)."""
    return {
        "bombs_played": Field(flat, "bombs_played"),
        "bombs_out_of_turn": Field(flat, "bombs_out_of_turn"),
        "first_bomb_kind": text(list(BOMB_KINDS), d.bomb_kind.reshape(-1)),
        "first_bomb_rank": d.bomb_rank.reshape(-1),
        "first_bomb_trick": Field(flat, "first_bomb_trick"),
        "tricks_won": Field(flat, "tricks_won"),
        "card_points_won": Field(flat, "card_points_won"),
        "tichu_when": Field(flat, "tichu_when", words=TICHU_WHEN, shift=1),
        "tichu_cards": Field(flat, "tichu_cards"),
        "tichu_trick": Field(flat, "tichu_trick"),
        "phoenix_as": Field(flat, "phoenix_as", words=PHOENIX_AS, shift=1),
        "dragon": Field(flat, "dragon", words=DRAGON),
        "dog_led": Field(flat, "dog_led"),
        "mahjong_wish": Field(flat, "mahjong_wish"),
        "wish_fulfilled": Field(flat, "wish_fulfilled"),
        "cards_left": Field(flat, "cards_left"),
    }


def _game_bounds(game: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows that start and end a game (rows are game-major, each game whole)."""
    change = game[1:] != game[:-1]
    return np.r_[True, change], np.r_[change, True]


def _running_totals(scores: np.ndarray, game: np.ndarray) -> np.ndarray:
    """Cumulative sums of ``scores`` (rows x columns) restarting with each game."""
    start, _ = _game_bounds(game)
    totals = np.cumsum(scores, axis=0)
    before = np.vstack([np.zeros((1, scores.shape[1]), totals.dtype), totals[:-1]])
    first_row = np.maximum.accumulate(np.where(start, np.arange(len(game)), 0))
    return totals - before[first_row]
