"""A played round as a record that the engine plays back: the deal, and the seats' actions in
the order they happened (RULES.md §2–§4), with a text form that reads back.

A ``RoundRecord`` holds the table (a team game and its Options), the ``Deal`` (each seat's
dealt cards, the first 8 of them, Tientsin 6, seen before Grand Tichu, the first drawer, Wu
Wang's King) and the ``Action`` s: Grand Tichu and Tichu calls, the cards each seat passed,
plays and passes on the seat's turn, bombs out of turn (§2.9), the Mah Jong's wish, the
Dragon's gift and the Dog's lead. ``tichusim.Round.from_record`` plays it through the
engine, each action checked against the engine's own legal choices; a stepped round writes
its own (``Round.record()``), whoever played it. A ``GameRecord`` is a game's rounds with
the players' names, as one JSON document (``to_json``, ``from_json``; docs/records.md).

Seats are the engine's positions (Wu Wang: the King at 0, the Minister at 2). An action's
text is ``SEAT KIND ...``::

    0 grand_tichu            2 tichu    (or 2 tichu after_passing: the moment, §2.3)
    1 give 2:5j 3:Ks 0:Dr    (receiver:card, one card to each seat the passing reaches)
    3 play Ma 2j 3s 4p 5t    3 pass
    0 bomb 7j 7s 7p 7t       (out of turn; a bomb on the seat's own turn is a play)
    3 wish 7                 3 wish none
    1 dragon 2               0 dog 2
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol, cast

import numpy as np

from ..cards import notation as cards
from .registry import TEAM_GAMES
from .registry import game as game_named


class Table(Protocol):
    """What a record asks of its table: a team game (``games.team.Table``, which is not
    imported here: its Steps play records, and the imports would go round in a circle)."""

    @property
    def name(self) -> str: ...

    @property
    def seats(self) -> int: ...

    @property
    def players(self) -> int: ...

    @property
    def drawer_is_king(self) -> bool: ...

    @property
    def grand_tichu_cards(self) -> int: ...

    @property
    def options(self) -> dict: ...

    @property
    def option_defaults(self) -> dict: ...

    def hand_size(self, draw_position: int) -> int: ...

    def batch_settings(self, seed: int, check: bool = False) -> Any: ...


__all__ = ["ACTIONS", "FORMAT", "MOMENTS", "Action", "Deal", "GameRecord", "RoundRecord", "Table"]

# the kinds of action, in the kernels' order (kernels/tichu/recorded.py: REC_* = index + 1)
ACTIONS = ("grand_tichu", "tichu", "give", "play", "pass", "bomb", "wish", "dragon", "dog")
FORMAT = "tichusim-game/1"  # a game record's JSON ``format``
# a Tichu's moments (§2.3: the engine's decision points), named by a record that knows them
MOMENTS = ("before_passing", "after_passing", "before_turn", "before_bomb")


def _seat(text: str, what: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{what}: a seat number, not {text!r}")
    return int(text)


def _rank(text: str) -> int:
    """A wished rank: 2..9, T (or 10), J, Q, K, A; none (0)."""
    low = text.strip().lower()
    if low in ("none", "-", "0", "nothing"):
        return 0
    low = "t" if low == "10" else low
    if len(low) != 1 or low.upper() not in cards.RANK_CHARS:
        raise ValueError(f"wish: a rank 2..A or none, not {text!r}")
    return cards.RANK_CHARS.index(low.upper()) + 2


class Action(NamedTuple):
    """One action of a round (the module docstring): ``seat`` acts, ``kind`` says how
    (``ACTIONS``); ``cards`` the cards a play or a bomb shows; ``gifts`` a passing's
    ``(receiver, card)`` pairs; ``value`` the wished rank (0 none), the seat the Dragon's
    trick or the Dog's lead goes to, or a Tichu's moment (1 + its decision point, ``MOMENTS``;
    0 when the record does not say). A tuple, cheap to make by the thousand (a log's reader);
    ``check`` says whether its fields hold an action at all (the engine checks the rest)."""

    seat: int
    kind: str
    cards: int = 0
    gifts: tuple[tuple[int, int], ...] = ()
    value: int = 0

    def check(self) -> Action:
        """The action itself; ``ValueError`` when its fields make no action."""
        if self.kind not in ACTIONS:
            raise ValueError(f"unknown action {self.kind!r} (known: {', '.join(ACTIONS)})")
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise ValueError(f"{self.kind}: a seat number, not {self.seat!r}")
        if self.kind in ("play", "bomb") and not self.cards:
            raise ValueError(f"{self.kind}: which cards?")
        return self

    @property
    def given(self) -> int:
        """All the cards a passing gives."""
        out = 0
        for _, card in self.gifts:
            out |= card
        return out

    def __str__(self) -> str:
        head = f"{self.seat} {self.kind}"
        if self.kind in ("play", "bomb"):
            return f"{head} {cards.format(self.cards)}"
        if self.kind == "give":
            return head + "".join(f" {to}:{cards.format(card)}" for to, card in self.gifts)
        if self.kind == "wish":
            return f"{head} {cards.RANK_CHARS[self.value - 2] if self.value else 'none'}"
        if self.kind in ("dragon", "dog"):
            return f"{head} {self.value}"
        if self.kind == "tichu" and self.value:
            return f"{head} {MOMENTS[self.value - 1]}"
        return head

    @classmethod
    def parse(cls, text: str) -> Action:
        """An action from its text (``str(action)``); ``ValueError`` in one line."""
        words = str(text).split()
        if len(words) < 2:
            raise ValueError(f"action {text!r}: SEAT KIND ..., e.g. '3 play 7j 7s'")
        seat = _seat(words[0], f"action {text!r}")
        kind, rest = words[1].lower(), words[2:]
        if kind not in ACTIONS:
            raise ValueError(f"action {text!r}: unknown kind {words[1]!r}")
        try:
            if kind in ("play", "bomb"):
                return cls(seat, kind, cards=cards.parse(" ".join(rest)))
            if kind == "give":
                gifts = []
                for item in rest:
                    to, colon, card = item.partition(":")
                    mask = cards.parse(card) if colon else 0
                    if not colon or bin(mask).count("1") != 1:
                        raise ValueError(f"RECEIVER:CARD items, not {item!r}")
                    gifts.append((_seat(to, "give"), mask))
                return cls(seat, kind, gifts=tuple(gifts))
            if kind == "wish":
                return cls(seat, kind, value=_rank(" ".join(rest)))
            if kind in ("dragon", "dog"):
                if len(rest) != 1:
                    raise ValueError("the seat it goes to")
                return cls(seat, kind, value=_seat(rest[0], kind))
            if kind == "tichu" and len(rest) == 1:
                if rest[0].lower() not in MOMENTS:
                    raise ValueError(f"a moment ({', '.join(MOMENTS)}), not {rest[0]!r}")
                return cls(seat, kind, value=MOMENTS.index(rest[0].lower()) + 1)
            if rest:
                raise ValueError(f"{kind} takes nothing more, not {' '.join(rest)!r}")
            return cls(seat, kind)
        except ValueError as exc:
            raise ValueError(f"action {text!r}: {exc}") from None


@dataclass(frozen=True)
class Deal:
    """The cards each seat was dealt (``hands``, by seat: the engine's positions), the first
    of them each saw before Grand Tichu (``first``: 8, Tientsin 6; RULES.md §2.2, §3), the
    round's first drawer (§2.15) and, at Wu Wang, the King (a player, §4)."""

    hands: tuple[int, ...]
    first: tuple[int, ...]
    first_drawer: int = 0
    king: int | None = None

    def check(self, game: Table) -> None:
        """``ValueError`` naming what makes this no deal of ``game``'s table."""
        n = game.seats
        if len(self.hands) != n or len(self.first) != n:
            raise ValueError(f"deal: {n} hands for {game.name}, not {len(self.hands)}")
        if not 0 <= self.first_drawer < n:
            raise ValueError(f"deal: the first drawer is a seat 0..{n - 1}")
        wuwang = game.drawer_is_king
        if wuwang and self.king not in (0, 1, 2):
            raise ValueError("deal: Wu Wang names its King, player 0, 1 or 2 (§4)")
        if not wuwang and self.king is not None:
            raise ValueError(f"deal: {game.name} has no King")
        seen = 0
        first_drawer = 0 if wuwang else self.first_drawer
        seen_first = game.grand_tichu_cards
        for s, (hand, first) in enumerate(zip(self.hands, self.first, strict=True)):
            size = game.hand_size((s - first_drawer) % n)
            if int(hand).bit_count() != size:
                raise ValueError(
                    f"deal: seat {s} holds {int(hand).bit_count()} cards, not {size} (§2.2, §3)"
                )
            if first & ~hand or int(first).bit_count() != seen_first:
                raise ValueError(
                    f"deal: seat {s}'s first {seen_first} cards are not {seen_first} of its "
                    "hand (§2.2)"
                )
            if hand & seen:
                raise ValueError(f"deal: {cards.format(hand & seen)} dealt twice")
            seen |= hand
        if seen != cards.DECK:
            raise ValueError(f"deal: {cards.format(cards.DECK & ~seen)} dealt to nobody")

    def deck(self, game: Table) -> np.ndarray:
        """The deck as the engine cuts it (``kernels/tichu/deal.py``): each seat's slot in
        seat order, its first cards first; card indexes."""
        n = game.seats
        first_drawer = 0 if game.drawer_is_king else self.first_drawer
        out: list[int] = []
        for s in range(n):
            assert bin(self.hands[s]).count("1") == game.hand_size((s - first_drawer) % n)
            rest = self.hands[s] & ~self.first[s]
            out += [c.bit_length() - 1 for c in cards.cards_of(self.first[s])]
            out += [c.bit_length() - 1 for c in cards.cards_of(rest)]
        return np.array(out, np.int64)

    def lines(self) -> list[str]:
        """``SEAT: FIRST | REST`` per seat."""
        return [
            f"{s}: {cards.format(first)} | {cards.format(hand & ~first)}"
            for s, (hand, first) in enumerate(zip(self.hands, self.first, strict=True))
        ]

    @classmethod
    def parse(cls, lines: Sequence[str], first_drawer: int = 0, king: int | None = None) -> Deal:
        """A deal from ``lines()``' form (the seat numbers in order, 0 first)."""
        hands, first = [], []
        for s, line in enumerate(lines):
            head, colon, rest = str(line).partition(":")
            if not colon or head.strip() != str(s):
                raise ValueError(f"deal: line {s + 1} is 'SEAT: FIRST | REST' for seat {s}")
            seen, bar, later = rest.partition("|")
            try:
                a = cards.parse(seen)
                b = cards.parse(later) if bar and later.strip() else 0
            except ValueError as exc:
                raise ValueError(f"deal: seat {s}: {exc}") from None
            if a & b:
                raise ValueError(f"deal: seat {s}: {cards.format(a & b)} twice")
            hands.append(a | b)
            first.append(a)
        return cls(tuple(hands), tuple(first), first_drawer, king)


@dataclass(frozen=True)
class RoundRecord:
    """A round as it was played (the module docstring): the table (``variant`` and its
    ``options``), the ``deal``, the ``actions`` in order; ``score``, the two teams' scores
    the source wrote (checked when the round is played back; ``None`` when unknown); where
    it was read (``source``, and ``lines``: each action's line there) for messages."""

    deal: Deal
    actions: tuple[Action, ...]
    variant: str = "nanjing"
    options: tuple[tuple[str, Any], ...] = ()
    score: tuple[int, int] | None = None
    source: str = field(default="", compare=False)
    lines: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.variant not in TEAM_GAMES:
            raise ValueError(
                f"variant: a team game ({', '.join(TEAM_GAMES)}), not {self.variant!r}"
            )

    @property
    def game(self) -> Table:
        return cast("Table", game_named(self.variant, options=dict(self.options) or None))

    def where(self, index: int) -> str:
        """Where action ``index`` stands: ``source:line`` when read from a file, else its
        number in the record."""
        if self.source and index < len(self.lines):
            return f"{self.source}:{self.lines[index]}"
        where = f"{self.source}: " if self.source else ""
        return f"{where}action {index + 1}"

    def to_dict(self) -> dict[str, Any]:
        """The round as plain data (one entry of a game record's ``rounds``)."""
        out: dict[str, Any] = {
            "first_drawer": self.deal.first_drawer,
            "deal": self.deal.lines(),
            "actions": [str(a) for a in self.actions],
        }
        if self.deal.king is not None:
            out["king"] = self.deal.king
        if self.score is not None:
            out["score"] = list(self.score)
        return out

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        variant: str = "nanjing",
        options: Mapping[str, Any] | None = None,
        source: str = "",
    ) -> RoundRecord:
        """A round from ``to_dict``'s form; ``ValueError`` in one line."""
        unknown = sorted(set(data) - {"first_drawer", "king", "deal", "actions", "score"})
        if unknown:
            raise ValueError(f"round: unknown key {unknown[0]!r}")
        if "deal" not in data or "actions" not in data:
            raise ValueError("round: a deal and its actions")
        deal = Deal.parse(data["deal"], int(data.get("first_drawer", 0)), data.get("king"))
        actions = tuple(Action.parse(a) for a in data["actions"])
        score = data.get("score")
        if score is not None:
            if len(score) != 2 or not all(isinstance(x, int) for x in score):
                raise ValueError(f"round: score is two whole numbers, not {score!r}")
            score = (int(score[0]), int(score[1]))
        record = cls(deal, actions, variant, tuple(sorted((options or {}).items())), score, source)
        deal.check(record.game)
        return record

    def with_actions(self, actions: Iterable[Action]) -> RoundRecord:
        return replace(self, actions=tuple(actions), lines=())


@dataclass(frozen=True)
class GameRecord:
    """A game's rounds in order, with the players' names (by seat; Wu Wang by player) and
    where it was read: one JSON document (``FORMAT``; docs/records.md)."""

    rounds: tuple[RoundRecord, ...]
    players: tuple[str, ...] = ()
    variant: str = "nanjing"
    options: tuple[tuple[str, Any], ...] = ()
    source: str = field(default="", compare=False)

    def to_json(self) -> str:
        doc = {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(self.players),
            "rounds": [r.to_dict() for r in self.rounds],
        }
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(
        cls, text: str, source: str = "", skipped: list[tuple[int, str]] | None = None
    ) -> GameRecord:
        """A game record from its JSON; ``ValueError`` in one line naming what is wrong.
        ``skipped``: a round that cannot be read is left out and listed there, ``(its
        number, 1 the first; why)``, rather than refusing the game."""
        where = f"{source}: " if source else ""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"{where}not a tichusim game record (format {FORMAT!r})")
        variant = doc.get("variant", "nanjing")
        options = doc.get("options") or {}
        rounds = []
        for i, data in enumerate(doc.get("rounds", [])):
            try:
                rounds.append(
                    RoundRecord.from_dict(data, variant, options, f"{source} round {i + 1}")
                )
            except (ValueError, TypeError, AttributeError) as exc:
                if skipped is None:
                    raise ValueError(f"{where}round {i + 1}: {exc}") from None
                skipped.append((i + 1, str(exc)))
        return cls(
            tuple(rounds),
            tuple(str(p) for p in doc.get("players", [])),
            variant,
            tuple(sorted(options.items())),
            source,
        )
