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
  teams play to a target score, §2.15), ``symmetric_teams`` (two teams alternate around the
  table and can swap seats: duplicate matches) and ``no_swap`` (why not, when not),
  ``chained_rounds`` (a round depends on the game's earlier rounds: §5's ranks),
  ``strategy_heading`` and ``strategy_book`` (the family's strategies), ``summary`` and
  ``report`` (which summary and report section of the analysis layer apply), ``steps`` (a
  ``games.steps.Steps``: its decisions as Python sees them, for rounds stepped from Python);
* configured: ``players`` (strategies it takes), ``seats`` (seat rows per round), ``options``
  (complete and checked);
* ``check_options(options)`` and ``written_options(values, players)`` (class methods);
* ``resolve(strategies, count)`` (one strategy object per player, or ``count``),
  ``params(strategies)`` (the rows the kernels read), ``strategy_text(text)`` (how the
  command line's text reads), ``strategy_per`` (what one of a list is for: seat or player);
* ``records(count, games=..., first=..., seed=..., strategies=..., target=..., check=...)``:
  rounds or whole games through the one driver (``driver.play``), as ``Records``;
  ``record_parts(count, first=..., ...)`` the same independent rounds as a sequence of
  ``Records``, each played as the one before is used (``simulate``);
* ``columns(records)``: the table columns of its records (``arrow.tables`` builds Arrow);
* ``transcript(seed, round, game=..., strategies=...)``: one round move by move, worded by
  the game and walked by the one loop (``narrate.narrate``).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from ..strategies.book import StrategyBook
    from .steps import Steps

__all__ = ["GAME_OPTIONS", "Game", "Records", "check_seed", "thread_scratch", "whole_number"]

# Options that shape whole games, not independent rounds (in any game that has them)
GAME_OPTIONS = ("rotating_king", "game_rounds")


_thread = threading.local()


def thread_scratch(make) -> np.ndarray:
    """This thread's array from ``make()``, made at its first use and then reused: a kernel's
    scratch too big to make at every call (``decide``'s is half a megabyte)."""
    made = _thread.__dict__.setdefault("scratch", {})
    if make not in made:
        made[make] = make()
    return made[make]


def whole_number(value, what: str) -> int:
    """``value`` as an ``int`` >= 0, or a one-line ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{what} must be a non-negative whole number, not {value!r}")
    return int(value)


def check_seed(seed) -> int:
    seed = whole_number(seed, "seed")
    if seed >= 2**64:
        raise ValueError("seed must be below 2**64")
    return seed


def check_game_rounds(name: str, value, longest: int, multiple: int = 1, why: str = "") -> int:
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
    symmetric_teams: ClassVar[bool] = False
    no_swap: ClassVar[str] = ""
    chained_rounds: ClassVar[bool] = False
    strategy_heading: ClassVar[str]
    strategy_book: ClassVar[StrategyBook]
    summary: ClassVar[str]
    report: ClassVar[str]
    steps: Steps  # its decisions as Python sees them (``games.steps``), made in ``__init__``

    players: int
    seats: int
    options: dict

    @abstractmethod
    def __init__(self, players: int | None = None, options=None) -> None:
        """Configured for ``players`` (where the game lets them be chosen) and ``options``
        (``check_options``)."""

    # -- options -----------------------------------------------------------------------

    @classmethod
    def check_options(cls, options) -> dict:
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
    def _shorthand(cls, options):
        """Options given at once by a word (Grand Seigneur's ``"russian"``)."""
        return options

    @classmethod
    def _check_option(cls, key: str, value):
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
    def resolve(self, strategies, count: int | None = None) -> list:
        """One strategy object per player (or ``count`` of them), checked against this game."""

    def params(self, strategies) -> np.ndarray:
        """The parameter rows the kernels read in this game, one per player."""
        return self.param_rows(self.resolve(strategies))

    def param_rows(self, chosen: list) -> np.ndarray:
        """The rows of resolved strategies in this game: a parameter's default may be the
        table's own (``StrategyBook.variant_defaults``)."""
        return np.stack([s.param_row(self.name) for s in chosen])

    def strategy_text(self, text: str):
        """What the command line's ``--strategies`` text stands for: one strategy, or one per
        player separated by commas (``book.split_strategies``), each read by
        ``strategy_text.strategy_spec`` (a name, a composed strategy, a file, a Python agent)
        against this game's ``strategy_book``. ``ValueError`` (one line) for a bad file or
        agent."""
        from ..strategies.book import split_strategies
        from .strategy_text import strategy_spec

        parts = [strategy_spec(item, self.strategy_book) for item in split_strategies(text)]
        return parts[0] if len(parts) == 1 else parts

    # -- playing -----------------------------------------------------------------------

    @abstractmethod
    def records(
        self,
        count: int,
        *,
        games: bool = False,
        first: int = 0,
        seed: int = 0,
        strategies="random",
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
        strategies="random",
        check: bool = False,
    ) -> Iterator[Records]:
        """The records of ``count`` independent rounds from ``first`` in parts, one after
        another, as ``records`` would give them joined (here: one part; a game may play
        them a block at a time, so that a part is used before the next is played)."""
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
        strategies="random",
    ) -> str:
        """One round move by move in card notation (a game may take more keywords: the team
        tables' seating)."""
