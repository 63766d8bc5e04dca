"""A game at a team table between people and bots: rounds one after the other, each stepped
through the engine (``steps.Round``), the teams' scores added up to the target (RULES.md
§2.15), the people's answers kept so that the game replays.

``TableGame(seed, strategies)`` seats a strategy name at each bot's seat and ``None`` at each
person's (a person is asked every decision of that seat); the bots answer inside
``advance``, at once. Each round is dealt from the game's seed and the round's number
(``deal_of``: a shuffle by NumPy's generator seeded ``[seed, number]``), the first drawer
being seat 0 in the first round and then the seat that went out first in the round before
(§2.15); the round's ``key`` is its number, which seeds the seats' own streams. So a game is
its settings and its people's answers: ``to_dict()`` holds them, ``from_dict`` plays them
again to the same place, card for card.

An answer is given as ``act(choice)`` (one of ``legal()``, as ``Round.act`` takes it) or as
its plain form ``answer(value)``: the index of the choice in ``legal()``, or, for the
passing, the cards given in the receivers' order (``["5j", "Ks", "Dr"]``). Both record the
plain form. A bot that fails (an engine error, a strategy's error) stops the game: ``error``
says it in one line and every later answer is refused with it (``TableStopped``); nothing is
raised past the game.

Nanjing (§2) and Tientsin (§3) are played; Wu Wang's King changes seat with the round (§4),
which this table does not follow yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..cards import notation as cards
from .errors import one_line
from .record import Deal, GameRecord, RoundRecord
from .registry import game as game_named
from .steps import IllegalChoice, Round
from .team_steps import Gifts
from .view import Event, View

if TYPE_CHECKING:
    from .team import TeamGame

__all__ = [
    "GAMES",
    "MAX_ROUNDS",
    "FinishedRound",
    "TableGame",
    "TableStopped",
    "deal_of",
]

GAMES = ("nanjing", "tientsin")  # the tables a TableGame seats (Wu Wang: the module docstring)
MAX_ROUNDS = 256  # a game still undecided is stopped there (RULES.md §2.15)


class TableStopped(RuntimeError):
    """The game is stopped (a bot failed, or the game is over): no answer is taken."""


def deal_of(variant: str, seed: int, number: int, first_drawer: int = 0) -> Deal:
    """Round ``number``'s deal in a game of seed ``seed``: the 56 cards shuffled by NumPy's
    generator seeded ``[seed, number]``, then dealt seat by seat from seat 0, each seat its
    hand's size by its place in the draw from ``first_drawer`` (Tientsin: the first two
    drawers hold 10, §3), the first 8 (Tientsin 6) of a hand being those seen before Grand
    Tichu (§2.2)."""
    game = cast("TeamGame", game_named(variant))
    deck = cards.cards_of(cards.DECK)
    order = np.random.default_rng([seed, number]).permutation(len(deck))
    hands, first = [], []
    at = 0
    for seat in range(game.seats):
        size = game.hand_size((seat - first_drawer) % game.seats)
        dealt = [deck[i] for i in order[at : at + size]]
        at += size
        hands.append(sum(dealt))
        first.append(sum(dealt[: game.grand_tichu_cards]))
    return Deal(tuple(hands), tuple(first), first_drawer)


@dataclass(frozen=True)
class FinishedRound:
    """A round played to its end: its ``number`` (from 0), ``record`` (the deal and every
    seat's actions, its score: ``Round.record``), the two teams' ``score`` (§2.14), the seat
    out first (``first_out``, -1 if none), the teams' ``totals`` after it, and its public
    record as the people's first seat saw it at the end (``events``)."""

    number: int
    record: RoundRecord
    score: tuple[int, int]
    first_out: int
    totals: tuple[int, int]
    events: tuple[Event, ...]


class TableGame:
    """A game between people (``None`` in ``strategies``) and bots (a strategy's name, or an
    ``Agent``, by seat) at the table ``variant``, to ``target`` points (the module
    docstring)."""

    def __init__(
        self,
        seed: int,
        strategies: Sequence[Any],
        *,
        variant: str = "nanjing",
        target: int = 1000,
    ):
        if variant not in GAMES:
            raise ValueError(
                f"variant: a table played here ({', '.join(GAMES)}), not {variant!r} "
                "(Wu Wang's King changes seat with the round: not seated yet)"
            )
        game = cast("TeamGame", game_named(variant))
        strategies = list(strategies)
        if len(strategies) != game.seats:
            raise ValueError(
                f"strategies: {game.seats} for {variant}, one per seat, not {len(strategies)}"
            )
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise ValueError(f"target: a whole number of points, at least 1, not {target!r}")
        self.seed = int(seed)
        self.variant = variant
        self.game = game
        self.strategies = strategies
        self.target = target
        self.people = tuple(s for s, spec in enumerate(strategies) if spec is None)
        self.rounds: list[FinishedRound] = []
        self.answers: list[Any] = []  # every person's answer, in order, in its plain form
        self.error: str | None = None
        self.round: Round | None = None
        self.number = 0  # the round in play (from 0)
        self.first_drawer = 0
        self._start_round()

    # -- the game as data ----------------------------------------------------------------

    @property
    def names(self) -> list[str | None]:
        """Each seat's strategy by name (an Agent's ``name``), ``None`` for a person."""
        return [
            s if s is None or isinstance(s, str) else str(getattr(s, "name", s))
            for s in self.strategies
        ]

    def to_dict(self) -> dict[str, Any]:
        """The game's settings and the people's answers: ``from_dict`` plays it again (a
        game with an ``Agent`` seated names it, and replays only where that name is a
        strategy)."""
        return {
            "variant": self.variant,
            "seed": self.seed,
            "strategies": self.names,
            "target": self.target,
            "answers": list(self.answers),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableGame:
        """The game ``to_dict`` wrote, played again answer by answer; ``ValueError`` (one
        line) for data that is no such game or an answer that is not legal where it comes."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a game: an object, not {type(data).__name__}")
        unknown = sorted(set(data) - {"variant", "seed", "strategies", "target", "answers"})
        if unknown:
            raise ValueError(f"a game: unknown key {unknown[0]!r}")
        answers = data.get("answers", [])
        if not isinstance(answers, list):
            raise ValueError("a game: answers is a list")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a game: seed is a whole number, not {seed!r}")
        strategies = data.get("strategies")
        if not isinstance(strategies, list) or not all(
            s is None or isinstance(s, str) for s in strategies
        ):
            raise ValueError("a game: strategies is a list of names (null: a person)")
        table = cls(
            seed,
            strategies,
            variant=str(data.get("variant", "nanjing")),
            target=data.get("target", 1000),
        )
        for i, value in enumerate(answers):
            try:
                table.answer(value)
            except (IllegalChoice, TableStopped) as exc:
                raise ValueError(f"a game: answer {i + 1}: {exc}") from None
        return table

    def record(self, *, unfinished: bool = False) -> GameRecord:
        """The game's rounds as a record (``games.record``; ``tichusim.logs.write_game``
        writes it): the finished ones, and the round in play as far as it went with
        ``unfinished``. The players are named by their strategies (``you`` for a person)."""
        rounds = [r.record for r in self.rounds]
        if unfinished and self.round is not None and self.round.decisions:
            rounds.append(self.round.record())
        names = tuple("you" if s is None else s for s in self.names)
        return GameRecord(tuple(rounds), names, self.variant)

    # -- where the game stands -----------------------------------------------------------

    @property
    def totals(self) -> tuple[int, int]:
        return self.rounds[-1].totals if self.rounds else (0, 0)

    @property
    def over(self) -> bool:
        """§2.15: a team has reached the target and the totals differ (or the game stopped
        at ``MAX_ROUNDS``)."""
        a, b = self.totals
        return (max(a, b) >= self.target and a != b) or len(self.rounds) >= MAX_ROUNDS

    @property
    def winner(self) -> int | None:
        """The winning team (0: seats 0, 2, ...; 1: the others), once the game is over."""
        a, b = self.totals
        return None if not self.over or a == b else int(b > a)

    @property
    def to_act(self) -> int | None:
        """The person's seat whose decision is awaited (``None``: the game is over or
        stopped)."""
        if self.error is not None or self.round is None or self.round.done:
            return None
        return self.round.to_act

    @property
    def decision(self) -> str | None:
        return None if self.to_act is None else self.round.decision  # type: ignore[union-attr]

    def view(self) -> View:
        """The awaited person's view (``View``)."""
        return self._need_round().view()

    def legal(self) -> Any:
        """The awaited decision's legal choices (``Round.legal``)."""
        return self._need_round().legal()

    def history(self, seat: int | None = None) -> tuple[Event, ...]:
        """The round in play's public record so far as ``seat`` (default: the first person)
        knows it (``Round.history``)."""
        if self.round is None:
            return ()
        return self.round.history(self.people[0] if seat is None else seat)

    def _need_round(self) -> Round:
        if self.error is not None:
            raise TableStopped(self.error)
        if self.round is None or self.round.done:
            raise TableStopped("the game is over")
        return self.round

    # -- answering -----------------------------------------------------------------------

    def act(self, choice: Any) -> None:
        """Answer the awaited decision with one of ``legal()`` (``IllegalChoice`` if none);
        the bots then play on to the next person's decision."""
        r = self._need_round()
        legal = r.legal()
        value = _plain(choice, legal)
        r.act(choice)
        self.answers.append(value)
        self._play_on()

    def answer(self, value: Any) -> None:
        """Answer with the plain form (the module docstring); ``IllegalChoice`` names what is
        legal when it is not."""
        r = self._need_round()
        self.act(_choice(value, r.legal(), r.decision or ""))

    def _start_round(self) -> None:
        deal = deal_of(self.variant, self.seed, self.number, self.first_drawer)
        try:
            self.round = Round(
                self.seed, self.number, self.strategies, variant=self.variant, deal=deal
            )
        except Exception as exc:  # noqa: BLE001 - a bot's failure stops this game only
            self._stop(exc)
            return
        self._play_on()

    def _play_on(self) -> None:
        """The bots play until a person decides; a finished round is scored and the next
        dealt unless the game is over."""
        r = self.round
        assert r is not None
        try:
            r.advance()
            if not r.done:
                return
            record = r.record()
            events = r.history(self.people[0] if self.people else 0)
        except Exception as exc:  # noqa: BLE001 - a bot's failure stops this game only
            self._stop(exc)
            return
        assert record.score is not None
        score = (int(record.score[0]), int(record.score[1]))
        first_out = next((e.seat for e in events if e.kind == "out" and e.value == 1), -1)
        a, b = self.totals
        self.rounds.append(
            FinishedRound(
                self.number, record, score, first_out, (a + score[0], b + score[1]), events
            )
        )
        if self.over:
            return
        self.number += 1
        self.first_drawer = first_out if first_out >= 0 else self.first_drawer
        self._start_round()

    def _stop(self, exc: BaseException) -> None:
        where = f"round {self.number + 1}"
        self.error = one_line(f"the table stopped in {where}: {type(exc).__name__}: {exc}")


def _plain(choice: Any, legal: Any) -> Any:
    """The plain form of ``choice`` among ``legal`` (the module docstring)."""
    if isinstance(legal, Gifts):
        if choice not in legal:
            raise IllegalChoice(f"pass: {choice!r} is not one distinct hand card per receiver")
        return [cards.format(int(c)) for c in choice]
    for i, option in enumerate(legal):
        if option is choice:
            return i
    for i, option in enumerate(legal):
        if (
            option == choice
            and isinstance(option, bool) == isinstance(choice, bool)
            and getattr(option, "combo", None) == getattr(choice, "combo", None)
        ):
            return i
    raise IllegalChoice(f"{choice!r} is not a legal choice; legal: {legal!r}")


def _choice(value: Any, legal: Any, decision: str) -> Any:
    """The choice among ``legal`` that the plain form ``value`` names."""
    if isinstance(legal, Gifts):
        n = len(legal.receivers)
        if (
            not isinstance(value, list)
            or len(value) != n
            or not all(isinstance(v, str) for v in value)
        ):
            raise IllegalChoice(f"pass: {n} cards, one per receiver in turn order, not {value!r}")
        try:
            gift = tuple(cards.parse(v) for v in value)
        except ValueError as exc:
            raise IllegalChoice(f"pass: {exc}") from None
        if gift not in legal or any(bin(c).count("1") != 1 for c in gift):
            raise IllegalChoice(
                f"pass: {' '.join(value)} is not {n} distinct cards of the hand "
                f"{cards.format(legal.hand)}"
            )
        return gift
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalChoice(f"{decision}: the index of a legal choice, not {value!r}")
    if not 0 <= value < len(legal):
        raise IllegalChoice(
            f"{decision}: choice {value} of {len(legal)} (0..{len(legal) - 1}) does not exist"
        )
    return legal[value]
