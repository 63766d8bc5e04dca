"""What a game is to the rest of tichusim: the ``Game`` protocol and the records it plays.

A game is one of RULES.md's games: Nanjing (§2), Tientsin (§3), Wu Wang (§4) or Grand Seigneur
(§5). It owns all that differs between tables: its players and seat rows, its options, the
strategies it takes, the records its batch kernels fill, the columns they become, the wording
of its transcripts, and which run summary and report section describe it. The rest of the
package asks the game (``tichusim.games.game(name)``) instead of comparing variant names.

Members (``Game``), the class-level ones readable before a game is configured
(``tichusim.games.game_type(name)``):

* ``name``, ``rules`` (the RULES.md section), ``option_defaults`` (name -> default),
  ``takes_players`` (the number of players is chosen: Grand Seigneur), ``team_game`` (two
  teams play to a target score, §2.15), ``duplicate_seatings`` (the seatings of two
  strategies a duplicate match plays each deal with, ``duplicate_design`` their wording and
  ``duplicate_unit`` what its points are per) and ``no_swap`` (why none, when none),
  ``chained_rounds`` (a round depends on the game's earlier rounds: §5's ranks),
  ``strategy_heading`` and ``strategy_book`` (the family's strategies), ``summary`` and
  ``report`` (which summary and report section of the analysis layer apply), ``steps`` (a
  ``Steps``, defined here: its decisions as Python sees them, for rounds stepped from Python
  and the views a seat is handed, ``games.view.View``);
* configured: ``players`` (strategies it takes), ``seats`` (seat rows per round), ``options``
  (complete and checked);
* ``check_options(options)`` and ``written_options(values, players)`` (class methods);
* ``resolve(strategies, count)`` (one strategy object per player, or ``count``),
  ``params(strategies)`` (the rows the kernels read), ``strategy_per`` (what one of a list
  is for: seat or player); how the command line's text reads against the game's
  ``strategy_book`` is ``strategy_text.strategy_specs``;
* ``records(count, games=..., first=..., seed=..., strategies=..., target=..., check=...)``:
  rounds or whole games through the one driver (``driver.play``), as ``Records``;
  ``record_parts(count, first=..., ...)`` the same independent rounds as a sequence of
  ``Records``, each played as the one before is used, and holding only until the next is
  asked for (``simulate``);
* ``columns(records)``: the table columns of its records (``arrow.tables`` builds Arrow);
* ``transcript(seed, round, game=..., strategies=...)``: one round move by move, worded by
  the game and walked by the one loop (``narrate.narrate``).
"""

from __future__ import annotations

import dataclasses
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from .. import checks
from ..kernels.tichu import rules as team_rules

if TYPE_CHECKING:
    from ..strategies.book import StrategyBook
    from .view import Event, View  # the View names its game: a circle of two, types only

__all__ = [
    "GAME_OPTIONS",
    "Game",
    "Kept",
    "Logged",
    "PlayFn",
    "Records",
    "Steps",
    "check_seed",
    "thread_scratch",
    "whole_number",
]

Kept = tuple[np.ndarray, np.ndarray, np.ndarray]  # a stepped unit's (work, public, privates)
PlayFn = Callable[..., int]  # play(kept[, log_out=...]) -> the engine's error code
Logged = Callable[[Kept], np.ndarray]  # logged(kept) -> the event log's rows

# Options that shape whole games, not independent rounds (in any game that has them)
GAME_OPTIONS = (*team_rules.WUWANG_GAMES, "game_rounds")


_thread = threading.local()


def thread_scratch(make: Callable[[], np.ndarray]) -> np.ndarray:
    """This thread's array from ``make()``, made at its first use and then reused: a kernel's
    scratch too big to make at every call (``decide``'s is half a megabyte)."""
    made = _thread.__dict__.setdefault("scratch", {})
    if make not in made:
        made[make] = make()
    return made[make]


def whole_number(value: Any, what: str) -> int:
    """``value`` as an ``int`` >= 0, or a one-line ``ValueError`` naming ``what``
    (``checks.whole``)."""
    return checks.whole(value, what)


def check_seed(seed: Any) -> int:
    """``seed`` as an ``int`` from 0 to 2**64 - 1 (``checks.seed``)."""
    return checks.seed(seed)


def check_game_rounds(name: str, value: Any, longest: int, multiple: int = 1, why: str = "") -> int:
    """The ``game_rounds`` option: a positive whole number (a multiple of ``multiple``, for
    the reason ``why``), at most ``longest``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or value <= 0
        or (value % multiple)
    ):
        what = (
            f"a positive multiple of {multiple} ({why})"
            if multiple > 1
            else ("a positive whole number")
        )
        raise ValueError(f"{name} option game_rounds: expected {what}, got {value!r}")
    if value > longest:
        raise ValueError(f"{name} option game_rounds: at most {longest}, got {value}")
    return int(value)


class Records(NamedTuple):
    """Raw results of a batch: round records, ``(rows, seats)`` seat records (rows by player:
    ``Game.columns`` says how), the players' strategies, for games each row's game id and
    round within the game (game-major), the target score, and the game that played them."""

    rounds: np.ndarray
    seats: np.ndarray
    strategies: list
    game: np.ndarray | None
    round_in_game: np.ndarray | None
    target: int
    source: Game

    @property
    def variant(self) -> str:
        return self.source.name


class Game(ABC):
    """One game of RULES.md, configured (players and options); see the module's docstring
    for the members. Instances come from ``tichusim.games.game(name, players, options)``."""

    name: ClassVar[str]
    rules: ClassVar[str]
    option_defaults: ClassVar[dict]
    takes_players: ClassVar[bool] = False
    team_game: ClassVar[bool] = False
    # duplicate matches (analysis/duplicate.py): each seating gives every player the index of
    # the strategy it plays, 0 or 1; empty where the game has none (``no_swap`` says why)
    duplicate_seatings: ClassVar[tuple[tuple[int, ...], ...]] = ()
    duplicate_design: ClassVar[str] = ""
    duplicate_unit: ClassVar[str] = "round"
    no_swap: ClassVar[str] = ""
    chained_rounds: ClassVar[bool] = False
    strategy_heading: ClassVar[str]
    strategy_book: ClassVar[StrategyBook]
    summary: ClassVar[str]
    report: ClassVar[str]
    steps: Steps  # its decisions as Python sees them (``Steps``), made in ``__init__``

    players: int
    seats: int
    options: dict

    @abstractmethod
    def __init__(self, players: int | None = None, options: Any = None) -> None:
        """Configured for ``players`` (where the game lets them be chosen) and ``options``
        (``check_options``)."""

    # -- options -----------------------------------------------------------------------

    @classmethod
    def check_options(cls, options: Any) -> dict:
        """The options with ``options`` (a mapping, or None) applied and checked."""
        values = dict(cls.option_defaults)
        if options is None:
            return values
        options = cls._shorthand(options)
        if not isinstance(options, dict):
            raise ValueError(
                f"options: expected a table of name = value{cls._shorthand_text}, got {options!r}"
            )
        for key, value in options.items():
            if key not in cls.option_defaults:
                known = ", ".join(cls.option_defaults) or "none"
                raise ValueError(f"{cls.name} option {key!r}: unknown (known: {known})")
            if isinstance(cls.option_defaults[key], bool) and not isinstance(value, bool):
                raise ValueError(f"{cls.name} option {key}: expected true or false, got {value!r}")
            values[key] = cls._check_option(key, value)
        cls._check_together(values)
        return values

    _shorthand_text: ClassVar[str] = ""  # how the options' shorthand is named in errors

    @classmethod
    def _shorthand(cls, options: Any) -> Any:
        """Options given at once by a word (Grand Seigneur's ``"russian"``)."""
        return options

    @classmethod
    def _check_option(cls, key: str, value: Any) -> Any:
        """One option's value beyond its type (a game's length, a deck count)."""
        return value

    @classmethod
    def _check_together(cls, values: dict) -> None:
        """Options that contradict each other (none unless a game says so)."""
        return None

    @classmethod
    def written_options(cls, values: dict, players: int | None) -> dict:
        """Checked options as a run saves them: defaults that follow the players written out."""
        return values

    # -- strategies --------------------------------------------------------------------

    strategy_per: ClassVar[str] = "player"  # what one strategy of a list is for

    @abstractmethod
    def resolve(self, strategies: Any, count: int | None = None) -> list:
        """One strategy object per player (or ``count`` of them), checked against this game."""

    def params(self, strategies: Any) -> np.ndarray:
        """The parameter rows the kernels read in this game, one per player."""
        return self.param_rows(self.resolve(strategies))

    def param_rows(self, chosen: list) -> np.ndarray:
        """The rows of resolved strategies in this game: a parameter's default may be the
        table's own (``StrategyBook.variant_defaults``)."""
        return np.stack([s.param_row(self.name) for s in chosen])

    # -- playing -----------------------------------------------------------------------

    @abstractmethod
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
        """``count`` independent rounds (``games=False``) or whole games numbered from
        ``first``."""

    def record_parts(
        self,
        count: int,
        *,
        first: int = 0,
        seed: int = 0,
        strategies: Any = "random",
        check: bool = False,
    ) -> Iterator[Records]:
        """The records of ``count`` independent rounds from ``first`` in parts, one after
        another, as ``records`` would give them joined (here: one part; a game may play
        them a block at a time into the same records, so a part holds only until the next
        is asked for)."""
        yield self.records(count, first=first, seed=seed, strategies=strategies, check=check)

    @abstractmethod
    def columns(self, rec: Records) -> tuple[dict, dict]:
        """The ``rounds`` and ``seats`` columns of ``rec`` (name -> array), after the ids."""

    @abstractmethod
    def transcript(
        self,
        seed: int = 0,
        round: int = 0,
        *,
        game: int | None = None,
        strategies: Any = "random",
    ) -> str:
        """One round move by move in card notation (a game may take more keywords: the team
        tables' seating)."""


class Steps(ABC):
    """How one game's decisions look in Python: the contract between a stepped unit
    (``games.steps.Unit``, ``Round``), the ``View`` and the game's engine. One object per
    configured game (``Game.steps``).

    Class attributes: ``unit_name`` (what a Round's key names), ``outside_slot`` (the strategy
    row's slot marking the decisions taken from Python), ``decisions`` (those the game asks)
    and ``per_seat`` (the view's fields with one entry per seat)."""

    unit_name: ClassVar[str]
    outside_slot: ClassVar[int]
    decisions: ClassVar[tuple[str, ...]]
    per_seat: ClassVar[frozenset[str]]
    has_history: ClassVar[bool] = True  # its views carry ``history``; agents hear round ends
    log_shape: ClassVar[tuple[int, int]]  # the engine's event log: (rows, row width)

    def __init__(self, game: Game):
        self.game = game

    @property
    def seats(self) -> int:
        """Seats at the table (positions; Grand Seigneur: players)."""
        return self.game.seats

    @property
    @abstractmethod
    def default_base(self) -> Any:
        """The strategy under a seat decided from Python (its row is never read)."""

    def renamed(self, strategy: Any, name: str) -> Any:
        """``strategy`` under another name (the tables' strategy columns)."""
        return dataclasses.replace(strategy, name=name)

    @abstractmethod
    def kept_records(self) -> Kept:
        """Fresh ``(work, public, privates)`` records a stepped unit keeps across calls."""

    def copy_kept(self, kept: Kept) -> Kept:
        """A copy of a unit's records, to replay on without touching them."""
        work, public, privates = kept
        return work.copy(), public.copy(), privates.copy()

    @abstractmethod
    def player_of(self, kept: Kept, seat: int) -> int:
        """The player deciding at position ``seat`` where the unit stands."""

    def seats_of(self, kept: Kept, player: int) -> list[int]:
        """The positions player ``player`` decides for where the unit stands."""
        return [s for s in range(self.seats) if self.player_of(kept, s) == player]

    def replay_next(self, kept: Kept) -> None:
        """Make the unit's next call replay from the deal even where its engine could go on
        from the records it left (``Unit.resume`` off); an engine that always replays has
        nothing to forget."""
        return None

    @abstractmethod
    def round_unit(
        self, seed: int, key: int, params: np.ndarray, check: bool, deal: Any = None
    ) -> tuple[PlayFn, Logged, np.ndarray, np.ndarray]:
        """How ``Round`` plays its unit: ``(play, logged, rounds, seats)``, ``play(kept)``
        filling the records ``rounds`` and ``seats``, ``logged(kept)`` the same replay with
        its event log on; ``deal`` (a ``record.Deal``): the round dealt so, not from the
        seed (``deal_into`` puts it in the unit's records)."""

    # -- rounds played from their records (``games/record.py``): the team games' ----------

    def deal_into(self, kept: Kept, deal: Any) -> None:
        """Lay ``deal`` in a unit's records, for ``round_unit``'s play."""
        raise ValueError(f"{self.game.name}: a round from a given deal is a team game's (§2-§4)")

    def load_record(self, kept: Kept, actions: Any, stop: int) -> None:
        """Set a unit's records to play from its record: the actions ``actions`` answer its
        decisions, the script rewritten from them, stopping before answer ``stop``."""
        raise ValueError(f"{self.game.name}: records are kept for the team games (§2-§4)")

    def record_failure(self, kept: Kept, actions: Any) -> tuple[int, str] | None:
        """After a play from the record: ``(action index, why)`` of the action the engine
        could not take, ``None`` when it took them all."""
        return None

    def record_of(self, kept: Kept, log: np.ndarray) -> Any:
        """The round so far as a ``record.RoundRecord``, from its event log ``log``."""
        raise ValueError(f"{self.game.name}: records are kept for the team games (§2-§4)")

    def choice_of(self, answer: int, legal: Any) -> Any:
        """The choice among ``legal`` that the script's ``answer`` gives."""
        raise ValueError(f"{self.game.name}: records are kept for the team games (§2-§4)")

    def script_only(self, kept: Kept, script: int) -> None:
        """Make a unit's records replay the first ``script`` answers of its script, and no
        more (a view's history)."""
        kept[0]["script_len"] = script

    @abstractmethod
    def records(self, rounds: np.ndarray, seats: np.ndarray, chosen: list) -> Records:
        """A finished Round's records as ``simulate`` returns them."""

    @abstractmethod
    def choices(self, kept: Kept, asked: tuple[int, int, int, int]) -> Any:
        """The legal choices of the decision ``asked`` (code, seat, detail, count)."""

    @abstractmethod
    def answer_of(self, choice: Any, legal: Any) -> int:
        """The script's answer for ``choice`` among ``legal``; ``ValueError`` saying why it is
        none of them."""

    @abstractmethod
    def decide(self, row: np.ndarray, view: View, legal: Any) -> Any:
        """The choice the strategy row ``row`` makes at ``view``'s decision, as the engine
        would; the view's stream moves on as the engine's."""

    @abstractmethod
    def hand_text(self, view: View) -> str:
        """The seat's hand in card notation."""

    @abstractmethod
    def history(self, log: np.ndarray, seats: tuple[int, ...]) -> tuple[Event, ...]:
        """The public events of the event log ``log``, and the private ones of ``seats``: the
        positions of the player deciding (Wu Wang's King holds his Minister's too, §4)."""

    @abstractmethod
    def scores(self, log: np.ndarray) -> tuple[int, ...]:
        """A finished round's scores, read from its event log."""

    def next_turn(self, view: View) -> int:
        """``View.next_turn``."""
        return -1

    def trick_over(self, view: View) -> bool:
        """``View.trick_over``."""
        return False

    def encode(self, view: View, decision: int, candidates: Any) -> np.ndarray:
        """``View.encode``: the features a learned player scores, one row per candidate (the
        team games' ``TeamSteps``); ``ValueError`` in a game without an encoding."""
        raise ValueError("only the team tables' views have an encoding")

    def view_text(self, view: View) -> str:
        """``str(view)``: the decision and the fields, one per line."""
        lines = [repr(view)]
        lines += [f"  {name}: {value}" for name, value in view.fields().items()]
        return "\n".join(lines)
