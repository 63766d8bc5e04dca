"""Grand Seigneur (RULES.md §5, 5 to 12 players): the game, and its Python entry points.

``SeigneurGame`` is a ``base.Game`` played by its own engine (``kernels.seigneur``). Its
tables (``tichusim.games.arrow``; a batch run writes the same as Parquet):

* ``rounds``, one row per round: ``variant`` ("grand-seigneur"), ``round`` (the round key),
  ``game``, ``round_in_game``, ``players``, ``deck`` ("one", "two", "russian"), ``dealer``,
  ``leader`` (who led the first trick), ``tricks``, ``bombs``, ``wish`` (0 none, -1 the Mah
  Jong unplayed), ``grand_seigneur`` (the first out: rank 1 next round), ``last``,
  ``kept_title`` (the Grand Seigneur of the previous round is first again; missing in a
  game's first round), ``leftover_a``/``leftover_b`` (cards out of play, Russian Option);
* ``seats``, one row per player per round: ``variant``, ``round``, ``game``,
  ``round_in_game``, ``player``, ``seat`` (chair in turn order, 0 = the Grand Seigneur's from
  round 2 on), ``strategy``, ``rank_before`` (missing in a game's first round), ``rank_after``
  (finishing order 1..n), ``cards`` dealt, ``dealt_a``/``dealt_b``, and the exchange's
  ``gave_a``/``gave_b``, ``got_a``/``got_b``.

Card multisets are two ``uint64`` columns ``*_a`` (held at least once) and ``*_b`` (held
twice); ``tichusim.cards.seigneur.format(a, b)`` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ..cards import seigneur as seigneur_cards
from ..kernels.errors import ERRORS
from ..kernels.seigneur import batch as gs_batch
from ..kernels.seigneur import cards as gs_cards
from ..kernels.seigneur import records as gs_records
from ..kernels.seigneur import rules as gs_rules
from ..strategies import seigneur as seigneur_strategies
from .arrow import array, constant, first_index, frames, text
from .base import Game, Records, check_game_rounds, check_seed, whole_number
from .driver import Batch, play
from .errors import SimulationError
from .narrate import Wording, narrate
from .seigneur_steps import SeigneurSteps
from .steps import seated, stepper

if TYPE_CHECKING:  # pandas loads only when a table becomes a DataFrame
    import pandas as pd

__all__ = [
    "SeigneurGame",
    "SeigneurOptions",
    "play_with_log",
    "seigneur_records",
    "simulate_seigneur",
    "transcript",
]

# the Options of §5 (the Russian edition; SeigneurOptions): the deck, and the switches the
# kernels read (kernels/seigneur/rules.py)
RULE_OPTIONS = ("russian_deck", *gs_rules.OPTIONS)
_DECK_COLUMN = {code: name for name, code in seigneur_cards.DECKS.items()}  # the deck column
_BLOCK_ROUNDS = 50_000  # rounds per kernel call: bounds memory


class SeigneurGame(Game):
    """Grand Seigneur for ``players`` (5..12): no teams, points or calls; each round's
    finishing order ranks the players, seats them and drives the exchange of the next."""

    name = "grand-seigneur"
    rules = "RULES.md §5"
    takes_players = True
    chained_rounds = True
    no_swap = "it has no teams (RULES.md §5)"
    strategy_heading = "Grand Seigneur (grand-seigneur, RULES.md §5)"
    strategy_book = seigneur_strategies.BOOK
    summary = "seigneur"
    report = "seigneur"
    # decks: 1 or 2 (None: one for 5-6 players, two for 7-12); the three Options of §5 (the
    # Russian edition; SeigneurOptions), off; game_rounds: a game's length, which §5 leaves
    # open (ranks, and so the exchange and the seating, carry over within a game)
    option_defaults = {
        "decks": None,
        **dict.fromkeys(RULE_OPTIONS, False),
        "game_rounds": 10,
    }
    _shorthand_text = " or 'russian'"

    def __init__(self, players: int | None = None, options: Any = None) -> None:
        self.options = self.check_options(options)
        if players is None:
            raise ValueError("grand-seigneur needs the number of players: players=5..12")
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players < 1:
            raise ValueError(f"players must be a whole number >= 1, not {players!r}")
        if not 5 <= players <= 12:
            raise ValueError(
                f"grand-seigneur is played by 5 to 12 players (RULES.md §5), not {players}"
            )
        self.players = self.seats = int(players)
        self.steps = SeigneurSteps(self)  # its decisions as Python sees them (stepped rounds)
        if self.options["russian_deck"]:
            self.deck = gs_cards.DECK_RUSSIAN
        else:
            decks = self.options["decks"] or (1 if players <= 6 else 2)
            self.deck = gs_cards.DECK_ONE if decks == 1 else gs_cards.DECK_TWO

    @classmethod
    def _shorthand(cls, options: Any) -> Any:
        return dict.fromkeys(RULE_OPTIONS, True) if options == "russian" else options

    @classmethod
    def _check_option(cls, key: str, value: Any) -> Any:
        if key == "game_rounds":  # a round key holds 16 bits of round
            return check_game_rounds(cls.name, value, gs_batch.GAME_KEY_STRIDE - 1)
        if (
            key == "decks"
            and value is not None
            and (isinstance(value, bool) or value not in (1, 2))
        ):
            raise ValueError(
                f"{cls.name} option decks must be 1 or 2 (or none: one deck for 5-6 "
                f"players, two for 7-12, RULES.md §5), not {value!r}"
            )
        return value

    @classmethod
    def _check_together(cls, values: dict) -> None:
        if values["russian_deck"] and values["decks"] == 1:
            raise ValueError(
                "grand-seigneur options: the Russian deck (108 cards) is two sets of "
                "ranked cards; decks = 1 contradicts it"
            )

    @classmethod
    def written_options(cls, values: dict, players: int | None) -> dict:
        """The deck count's default written out (§5: one deck for 5-6 players, two for 7-12)."""
        if values["decks"] is None:
            values = values | {"decks": 2 if values["russian_deck"] or (players or 0) > 6 else 1}
        return values

    def resolve(self, strategies: Any, count: int | None = None) -> list:
        return seigneur_strategies.resolve(strategies, count or self.players)

    def kernel_options(self) -> tuple[int, int, np.ndarray]:
        """The options every Grand Seigneur kernel takes after the parameter rows:
        ``(n_players, deck_kind, rules)``, ``rules`` the table's switches as one
        ``GS_RULES`` record (``kernels/seigneur/rules.py``)."""
        return (self.players, self.deck, gs_rules.record(self.options))

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
        """``count`` games of ``game_rounds`` rounds (``games=True``) or of one round: ``count``
        independent first rounds (random seating, no exchange). ``target`` does not apply."""
        count = whole_number(count, "games" if games else "rounds")
        first = whole_number(first, "first_game" if games else "first_round")
        seed = check_seed(seed)
        chosen, params, agents = seated(self, strategies)
        per = self.options["game_rounds"] if games else 1

        def call(block: Any, r_out: Any, s_out: Any, played: Any, chunks: Any) -> None:
            gs_batch.play_games(
                seed,
                block,
                per,
                params,
                self.kernel_options(),
                r_out.reshape(-1),
                s_out.reshape(-1, self.players),
                check,
                chunks,
                stepper=stepper(self, agents, seed, block, "game"),
            )

        batch = Batch(
            gs_records.GS_ROUND,
            gs_records.GS_SEAT,
            self.players,
            per,
            max(1, _BLOCK_ROUNDS // per),
            call,
            ERRORS,
            lambda r: f"game {r['game']} round {r['round_in_game']}",
        )
        done = play(batch, np.arange(first, first + count, dtype=np.int64), check)
        rounds = done.rounds
        return Records(rounds, done.seats, chosen, rounds["game"], rounds["round_in_game"], 0, self)

    def columns(self, rec: Records) -> tuple[dict, dict]:
        """Rounds and seats columns (seat rows by player)."""
        rounds, seats = rec.rounds, rec.seats
        n, k = len(rounds), self.players
        flat = seats.reshape(n * k)
        before = seats["rank_before"]  # 0 in a game's first round: no ranks yet
        had_title = first_index(before == 1)
        r = {
            "players": np.full(n, k),
            "deck": constant(_DECK_COLUMN[self.deck], n),
            "dealer": rounds["dealer"],
            "leader": rounds["leader"],
            "tricks": rounds["tricks"],
            "bombs": rounds["bombs"],
            "wish": rounds["wish"],
            "grand_seigneur": rounds["first_out"],
            "last": rounds["last"],
            "kept_title": array(had_title == rounds["first_out"], pa.bool_(), mask=had_title < 0),
            "leftover_a": rounds["leftover_a"],
            "leftover_b": rounds["leftover_b"],
            "bombs_out_of_turn": rounds["bombs_out_of_turn"],
        }
        player = np.tile(np.arange(k), n)
        s = {
            "player": player,
            "seat": flat["seat"],
            "strategy": text([x.name for x in rec.strategies], player),
            "rank_before": array(flat["rank_before"], pa.int8(), mask=flat["rank_before"] == 0),
            "rank_after": flat["rank_after"],
            "cards": flat["cards"],
        }
        for what in ("dealt", "gave", "got"):
            for copy in "ab":
                s[f"{what}_{copy}"] = flat[f"{what}_{copy}"]
        for name in ("bombs_played", "bombs_out_of_turn", "tricks_won", "cards_left"):
            s[name] = flat[name]  # what the player did (docs/schema.md)
        return r, s

    # -- transcripts ---------------------------------------------------------------------

    def play_with_log(
        self,
        seed: int = 0,
        game: int = 0,
        round: int = 0,
        *,
        strategies: Any = "random",
        check: bool = True,
    ) -> Any:
        """Replay round ``round`` of game ``game`` (its earlier rounds are played for the
        ranks): ``(round record, seat records by player, log)``; a log row is
        ``(event, seat, a, b, code, extra)`` (codes in ``kernels.seigneur.records``)."""
        seed = check_seed(seed)
        params = self.params(strategies)
        game = whole_number(game, "game")
        round = whole_number(round, "round")
        rnd, seats, log, err = gs_batch.play_logged(
            seed, game, round, params, self.kernel_options(), check
        )
        if err:
            raise SimulationError(f"game {game} round {round}: {ERRORS[err]}")
        return rnd[0], seats, log

    def transcript(
        self, seed: int = 0, round: int = 0, *, game: int | None = None, strategies: Any = "random"
    ) -> str:
        """Round ``round`` of game ``game`` move by move, in card notation; without ``game``
        the first round of game ``round`` (as ``records`` numbers independent rounds)."""
        game, round = (round, 0) if game is None else (game, round)
        names = self.resolve(strategies)
        rnd, seats, log = self.play_with_log(seed, game, round, strategies=strategies)
        n = self.players
        seat_player = {int(seats[p]["seat"]): p for p in range(n)}

        def who(seat: int) -> str:
            p = seat_player[seat]
            rank = int(seats[p]["rank_before"])
            return f"seat {seat} P{p}" + (f" (rank {rank})" if rank else "")

        on = [k for k in RULE_OPTIONS if self.options[k]]
        header = [
            f"Grand Seigneur, {n} players, {gs_cards.DECK_NAMES[self.deck]}"
            + (f", options: {', '.join(on)}" if on else "")
            + f"; seed {seed}, game {game}, round {round}",
            "Strategies: " + ", ".join(f"P{i} {s.name}" for i, s in enumerate(names)),
            "Turn order: "
            + " -> ".join(f"seat {s} P{seat_player[s]}" for s in range(n))
            + f"; dealer P{rnd['dealer']}",
        ]

        def read(row: Any) -> tuple:
            event, seat, a, b, code, extra = row
            return event, seat, _notation(a, b), code, extra

        def say(row: Any) -> list[str]:
            event, seat, hand, code, extra = read(row)
            if event == gs_records.EV_DEAL:
                return [f"{who(seat)} dealt {int(seats[seat_player[seat]]['cards'])}: {hand}"]
            if event == gs_records.EV_LEFTOVER:
                return [f"out of play, face up ({code}): {hand}"]
            if event == gs_records.EV_GIVE:
                return [f"{who(seat)} gives its {code} best to {who(extra)}: {hand}"]
            if event == gs_records.EV_GIVE_BACK:
                return [f"{who(seat)} gives back {code} to {who(extra)}: {hand}"]
            if event == gs_records.EV_OUT:
                return [f"  {who(seat)} is out ({_place(code)})"]
            if event == gs_records.EV_DOG:
                return [f"  the Dog gives the lead to {who(extra)}"]
            if event == gs_records.EV_TRICK:
                return [f"  {who(seat)} wins the trick"]
            if event == gs_records.EV_END:
                order = sorted(range(n), key=lambda p: int(seats[p]["rank_after"]))
                return [
                    f"End: {who(seat)} is last, holding {hand}",
                    "Finishing order (next round's ranks): "
                    + ", ".join(f"{i + 1}. P{p}" for i, p in enumerate(order)),
                ]
            return []

        return narrate(
            header,
            log,
            Wording(
                gs_records.EV_PLAY,
                gs_records.EV_BOMB,
                gs_records.EV_PASS,
                gs_records.EV_WISH,
                gs_records.EV_WISH_DONE,
                frozenset((gs_records.EV_DOG, gs_records.EV_TRICK)),
                read,
                who,
                say,
            ),
        )


_ORDINAL = {1: "first", 2: "second", 3: "third"}


def _place(k: int) -> str:
    return _ORDINAL.get(k, f"{k}th")


def _notation(a: Any, b: Any) -> str:
    return seigneur_cards.format(int(np.uint64(np.int64(a))), int(np.uint64(np.int64(b)))) or "-"


# -- the Python entry points of Grand Seigneur alone ----------------------------------------


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
    def of(cls, options: Any) -> SeigneurOptions:
        """From ``None``, an instance, ``"russian"`` (all three) or a table of the three,
        checked as every game's options are (``SeigneurGame.check_options``)."""
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        known = [f.name for f in fields(cls)]
        unknown = [k for k in options if k not in known] if isinstance(options, dict) else []
        if unknown:  # decks and game_rounds are arguments of their own here
            raise ValueError(
                f"grand-seigneur option {unknown[0]!r}: unknown (known: {', '.join(known)})"
            )
        values = SeigneurGame.check_options(options)
        return cls(**{name: values[name] for name in known})


def _game(players: Any, decks: Any, rounds_per_game: Any, options: Any) -> SeigneurGame:
    rules = SeigneurOptions.of(options)
    return SeigneurGame(
        players,
        {
            "decks": decks,
            "game_rounds": rounds_per_game,
            **{k: getattr(rules, k) for k in RULE_OPTIONS},
        },
    )


def seigneur_records(
    n: int,
    *,
    players: int,
    seed: int = 0,
    strategies: Any = "random",
    decks: Any = None,
    rounds_per_game: int = 1,
    options: Any = None,
    first_game: int = 0,
    check: bool = False,
) -> Records:
    """The records behind ``simulate_seigneur``."""
    return _game(players, decks, rounds_per_game, options).records(
        n, games=True, first=first_game, seed=seed, strategies=strategies, check=check
    )


def simulate_seigneur(
    n: int,
    *,
    players: int,
    seed: int = 0,
    strategies: Any = "random",
    decks: Any = None,
    rounds_per_game: int = 1,
    options: Any = None,
    first_game: int = 0,
    check: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n`` games of ``rounds_per_game`` rounds of Grand Seigneur; ``(rounds, seats)``.

    With ``rounds_per_game=1`` (the default) these are ``n`` independent first rounds (random
    seating, no exchange); longer games chain the ranks: each round's finishing order seats
    the next and drives its exchange of best cards (RULES.md §5). ``players`` is 5..12;
    ``decks`` 1 or 2 (None: one deck for 5-6 players, two for 7-12); ``options`` the §5
    Options (``SeigneurOptions``, a table, or ``"russian"``); ``strategies`` one for every
    player or one per player (``tichusim.strategies.seigneur``). Round ``r`` of game ``g`` is
    keyed ``g * 65536 + r``: its deal and decisions derive from ``(seed, key)`` and the ranks
    before it, so results do not depend on threads. ``check=True`` verifies the invariants
    (every card in one place, legal plays, the finishing order) after every action.
    """
    return frames(
        seigneur_records(
            n,
            players=players,
            seed=seed,
            strategies=strategies,
            decks=decks,
            rounds_per_game=rounds_per_game,
            options=options,
            first_game=first_game,
            check=check,
        )
    )


def play_with_log(
    seed: int = 0,
    game: int = 0,
    round: int = 0,
    *,
    players: int = 7,
    strategies: Any = "random",
    decks: Any = None,
    options: Any = None,
    check: bool = True,
) -> Any:
    """``SeigneurGame.play_with_log`` with the game's options given as arguments; the fourth
    element is the players' strategies."""
    played = _game(players, decks, 1, options)
    return (
        *played.play_with_log(seed, game, round, strategies=strategies, check=check),
        played.resolve(strategies),
    )


def transcript(
    seed: int = 0,
    game: int = 0,
    round: int = 0,
    *,
    players: int = 7,
    strategies: Any = "random",
    decks: Any = None,
    options: Any = None,
) -> str:
    """Round ``round`` of game ``game`` move by move, in card notation."""
    return _game(players, decks, 1, options).transcript(
        seed, round, game=game, strategies=strategies
    )
