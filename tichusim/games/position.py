"""A rules-checked position: what one seat knows at its turn in the play in a team game
(Nanjing RULES.md §2, Tientsin §3, Wu Wang §4; what a seat knows: §6).

A ``Position`` holds the seat's hand, the cards each seat played in the tricks before this
one, the trick in play (each play or pass in order), the calls, the open wish, the seats out,
the card points each seat has taken, the cards it passed and received, and the game's own
facts: Tientsin's first drawer (whose first two in draw order hold 10 cards), Wu Wang's
Minister's hand lying face up and, when the King decides for the Minister, the King's hand.
``Position.parse`` reads one from plain data (a TOML file's table, or a command's flags) and
refuses an impossible one with one line naming the problem: a card twice, counts that do not
add up, a trick out of turn (a bomb may come out of turn, §2.9) or whose plays do not beat
each other, a wish without the Mah
Jong, points taken that do not match the cards played, a passing the game does not have, a
call the game forbids.

``Position.view`` is the seat's ``View`` as the engine would hand it (the table's public
record and the seat's own, ``kernels/tichu/view.py``): what a strategy or a search
(``search/evaluate.py``) decides from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..cards import notation as cards
from ..cards.combos import Play, legal_plays
from ..kernels import combos
from ..kernels.tichu import variants
from ..kernels.tichu.view import PRIVATE, PUBLIC
from .registry import TEAM_GAMES
from .registry import game as game_of
from .view import View, next_holder

if TYPE_CHECKING:
    from .team import TeamGame

__all__ = ["Position"]

KEYS = {
    "variant",
    "seat",
    "hand",
    "played",
    "trick",
    "counts",
    "tichu",
    "grand_tichu",
    "wish",
    "out",
    "taken",
    "gave",
    "received",
    "first_drawer",
    "minister",
    "king",
}


def _cards(text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"{what}: cards in the card notation, not {text!r}")
    try:
        return cards.parse(text)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _seat(value: Any, what: str, seats: int) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what}: a seat 0..{seats - 1}, not {value!r}") from None
    if str(value).strip() != str(seat) or not 0 <= seat < seats:
        raise ValueError(f"{what}: a seat 0..{seats - 1}, not {value!r}")
    return seat


def _per_seat(value: Any, what: str, seats: int) -> dict[int, Any]:
    """``{seat: value}`` from a table (TOML keys are text) or ``["1=...", ...]`` items."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        items = list(value.items())
    else:
        items = []
        for item in [value] if isinstance(value, str) else list(value):
            key, eq, rest = str(item).partition("=")
            if not eq:
                raise ValueError(f"{what}: SEAT=VALUE items, not {item!r}")
            items.append((key.strip(), rest.strip()))
    out: dict[int, Any] = {}
    for key, v in items:
        seat = _seat(key, what, seats)
        if seat in out:
            raise ValueError(f"{what}: seat {seat} given twice")
        out[seat] = v
    return out


def _seats(value: Any, what: str, seats: int) -> tuple[int, ...]:
    if value is None:
        return ()
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    named = tuple(_seat(s, what, seats) for s in items)
    if len(set(named)) != len(named):
        raise ValueError(f"{what}: a seat given twice in {value!r}")
    return named


def _trick(value: Any, seats: int) -> tuple[tuple[int, int], ...]:
    """``"1: 9j; 2: pass; 3: Tt"`` (or a list of such entries) as ``(seat, cards)``, 0 for a
    pass."""
    if value is None:
        return ()
    entries = value.split(";") if isinstance(value, str) else list(value)
    out = []
    for entry in entries:
        if not str(entry).strip():
            continue
        who, colon, what = str(entry).partition(":")
        if not colon:
            raise ValueError(f"trick: entries are SEAT: CARDS or SEAT: pass, not {entry!r}")
        seat = _seat(who.strip(), "trick", seats)
        text = what.strip()
        out.append((seat, 0 if text.lower() == "pass" else _cards(text, f"trick (seat {seat})")))
    return tuple(out)


def _where(mask: int) -> str:
    return cards.format(mask)


@dataclass(frozen=True)
class Position:
    """One seat's knowledge at its turn in the play in a team game (RULES.md §2-§4, §6); the
    module docstring says what each field holds. Build one with ``Position.parse``, which
    checks it, or build it directly and call ``check``."""

    seat: int
    hand: int
    played: dict[int, int] = field(default_factory=dict)  # earlier tricks' cards, per seat
    trick: tuple[tuple[int, int], ...] = ()  # (seat, cards) in order, 0 for a pass
    tichu: tuple[int, ...] = ()
    grand_tichu: tuple[int, ...] = ()
    wish: int = 0  # the open wished rank, 0 for none (§2.11)
    out: tuple[int, ...] = ()  # seats out, in order (§2.13)
    taken: dict[int, int] = field(default_factory=dict)  # card points in each seat's tricks
    gave: dict[int, int] = field(default_factory=dict)  # receiver -> the card it was given
    received: dict[int, int] = field(default_factory=dict)  # giver -> the card received
    variant: str = "nanjing"  # the table: nanjing (§2), tientsin (§3) or wuwang (§4)
    first_drawer: int = 0  # Tientsin: the first two in draw order hold 10 cards (§3)
    minister: int = 0  # Wu Wang: the Minister's hand, face up after the passing (§4)
    king: int = 0  # Wu Wang, deciding for the Minister: the King's own hand (§4)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Position:
        """A checked position from plain data: ``variant`` (a team game, default
        nanjing), ``hand`` (cards), ``seat`` (default 0), ``played`` ({seat: cards}: the
        cards of the tricks before this one), ``trick`` ("SEAT: CARDS; SEAT: pass; ..."),
        ``counts`` ({seat: n}, optional: checked against the cards played), ``tichu``,
        ``grand_tichu`` and ``out`` (seats), ``wish`` (a rank), ``taken`` ({seat: points}),
        ``gave`` and ``received`` ({seat: card}); Tientsin's ``first_drawer`` (a seat,
        default 0); Wu Wang's ``minister`` (the Minister's hand, face up) and, at the
        Minister's seat, ``king`` (the King's hand). ``ValueError`` (one line) for a key it
        does not know or an impossible position."""
        unknown = sorted(set(data) - KEYS)
        if unknown:
            raise ValueError(
                f"position: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})"
            )
        if "hand" not in data:
            raise ValueError('position: the hand is missing (hand = "..." or --hand)')
        variant = str(data.get("variant", "nanjing")).strip().lower()
        if variant not in TEAM_GAMES:
            raise ValueError(
                f"variant: a team game ({', '.join(TEAM_GAMES)}), not {data['variant']!r}"
            )
        n = game_of(variant).seats
        seat = _seat(data.get("seat", 0), "seat", n)
        wish_text = data.get("wish")
        wish = 0
        if wish_text not in (None, "", 0, "0"):
            text = str(wish_text).strip().upper()
            text = "T" if text == "10" else text
            if text not in cards.RANK_CHARS:
                raise ValueError(f"wish: a rank 2..A, not {wish_text!r}")
            wish = cards.RANK_CHARS.index(text) + 2
        position = cls(
            seat=seat,
            hand=_cards(data["hand"], "hand"),
            played={
                s: _cards(v, f"played (seat {s})")
                for s, v in _per_seat(data.get("played"), "played", n).items()
            },
            trick=_trick(data.get("trick"), n),
            tichu=_seats(data.get("tichu"), "tichu", n),
            grand_tichu=_seats(data.get("grand_tichu"), "grand_tichu", n),
            wish=wish,
            out=_seats(data.get("out"), "out", n),
            taken={s: _points(v, s) for s, v in _per_seat(data.get("taken"), "taken", n).items()},
            gave=_one_cards(data.get("gave"), "gave", n),
            received=_one_cards(data.get("received"), "received", n),
            variant=variant,
            first_drawer=_seat(data.get("first_drawer", 0), "first_drawer", n),
            minister=_cards(data["minister"], "minister") if "minister" in data else 0,
            king=_cards(data["king"], "king") if "king" in data else 0,
        )
        position.check(_per_seat(data.get("counts"), "counts", n))
        return position

    @classmethod
    def from_view(cls, view: View) -> Position:
        """The position a seat's view at its play describes (what it knows, §6): its hand
        and passing, the cards each seat played before the trick in play, the trick read
        from the view's history, the calls, the wish, the seats out, the points taken.
        Not checked: ``check`` or ``parse(position.to_dict())`` checks it."""
        pub, me = view.public[0], view.private[0]
        n = int(pub["n_players"])
        trick = tuple((e.seat, e.cards) for e in view.trick)
        in_trick: dict[int, int] = {}
        for s, m in trick:
            in_trick[s] = in_trick.get(s, 0) | m
        played = {
            s: int(pub["played_by"][s]) & ~in_trick.get(s, 0)
            for s in range(n)
            if int(pub["played_by"][s]) & ~in_trick.get(s, 0)
        }
        wuwang = view.variant == "wuwang"
        return cls(
            seat=int(view.seat),
            hand=int(me["hand"]),
            played=played,
            trick=trick,
            tichu=tuple(s for s in range(n) if pub["tichu"][s]),
            grand_tichu=tuple(s for s in range(n) if pub["grand_tichu"][s]),
            wish=int(pub["wish"]),
            out=tuple(int(s) for s in pub["out_order"][: int(pub["n_out"])]),
            taken={s: int(pub["points_taken"][s]) for s in range(n) if pub["points_taken"][s]},
            gave={s: int(me["given"][s]) for s in range(n) if me["given"][s]},
            received={s: int(me["received"][s]) for s in range(n) if me["received"][s]},
            variant=view.variant,
            first_drawer=int(pub["first_drawer"]),
            minister=int(pub["exposed"]) if wuwang and view.seat != variants.MINISTER else 0,
            king=int(me["ally_hand"]) if wuwang and view.seat == variants.MINISTER else 0,
        )

    def to_dict(self) -> dict[str, Any]:
        """The position as the plain data ``parse`` reads back (a position file's table, the
        server's ``position``): what is empty or the default is left out."""
        out: dict[str, Any] = {"variant": self.variant, "seat": self.seat}
        out["hand"] = cards.format(self.hand)
        if self.played:
            out["played"] = {str(s): cards.format(m) for s, m in sorted(self.played.items())}
        if self.trick:
            out["trick"] = "; ".join(
                f"{s}: {cards.format(m) if m else 'pass'}" for s, m in self.trick
            )
        for key in ("tichu", "grand_tichu", "out"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        if self.wish:
            out["wish"] = cards.RANK_CHARS[self.wish - 2]
        if any(self.taken.values()):
            out["taken"] = {str(s): p for s, p in sorted(self.taken.items()) if p}
        for key in ("gave", "received"):
            if getattr(self, key):
                out[key] = {str(s): cards.format(m) for s, m in sorted(getattr(self, key).items())}
        if self.first_drawer:
            out["first_drawer"] = self.first_drawer
        for key in ("minister", "king"):
            if getattr(self, key):
                out[key] = cards.format(getattr(self, key))
        return out

    # -- the game ------------------------------------------------------------------------

    @property
    def game(self) -> TeamGame:
        """The game played (``games.game``)."""
        return cast("TeamGame", game_of(self.variant))

    @property
    def seats(self) -> int:
        return self.game.seats

    def dealt(self, seat: int) -> int:
        """The cards dealt to ``seat`` (§2.2; Tientsin: by draw order, §3)."""
        return self.game.hand_size((seat - self.first_drawer) % self.seats)

    def _wuwang(self) -> bool:
        return self.game.variant_code == variants.WUWANG

    def ally_hand(self) -> int:
        """The other hand the seat's strategy plays (Wu Wang §4: the King plays the
        Minister's, and the Minister's seat is the King's); 0 in the other games."""
        if self._wuwang() and self.seat == variants.KING:
            return self.minister
        if self._wuwang() and self.seat == variants.MINISTER:
            return self.king
        return 0

    def exposed(self) -> int:
        """The Minister's hand, face up for everybody after the passing (Wu Wang §4)."""
        if not self._wuwang():
            return 0
        return self.hand if self.seat == variants.MINISTER else self.minister

    # -- what follows from the position ---------------------------------------------------

    def trick_cards(self, seat: int | None = None) -> int:
        """The cards of the trick in play (of one seat's plays in it)."""
        out = 0
        for s, m in self.trick:
            if seat is None or s == seat:
                out |= m
        return out

    def counts(self) -> list[int]:
        """Cards in each hand: those dealt less what the seat played (the passing keeps
        counts)."""
        return [
            len(self.hand_cards()) if s == self.seat else self.dealt(s) - self._played_count(s)
            for s in range(self.seats)
        ]

    def hand_cards(self) -> list[int]:
        return cards.cards_of(self.hand)

    def _played_count(self, seat: int) -> int:
        return bin(self.played.get(seat, 0) | self.trick_cards(seat)).count("1")

    def played_codes(self) -> list[tuple[int, int, int]]:
        """The trick's plays as ``(seat, cards, code)``, each read as it beat the one before
        (code 0: it beats nothing, which ``check`` refuses)."""
        out, top = [], 0
        for s, m in self.trick:
            if m:
                top = _played_as(m, top)
                out.append((s, m, top))
        return out

    def top(self) -> tuple[int, int, int]:
        """``(cards, seat, code)`` of the trick's top play; ``(0, -1, 0)`` when leading."""
        plays = self.played_codes()
        if not plays:
            return 0, -1, 0
        seat, mask, code = plays[-1]
        return mask, seat, code

    def next_turn(self) -> int:
        """The seat to act after the trick's last entry (the next seat holding cards)."""
        if not self.trick:
            return self.seat
        return next_holder(self.counts(), self.trick[-1][0])

    # -- the checks ----------------------------------------------------------------------

    def check(self, counts: Mapping[int, Any] | None = None) -> None:
        """``ValueError`` naming the first thing that makes the position impossible."""
        me = self.seat
        if not self.hand:
            raise ValueError("hand: empty (a seat that is out has no decision)")
        owners = self._check_each_card_once()
        have = self._check_counts(counts)
        self._check_out(have)
        self._check_calls()
        self._check_wish_and_dog()
        self._check_trick(have)
        self._check_passing(owners)
        self._check_taken()
        if self.next_turn() != me:
            raise ValueError(
                f"trick: after its last entry it is seat {self.next_turn()}'s turn, not seat "
                f"{me}'s (play passes to the next seat holding cards, §2.8)"
            )

    def _check_each_card_once(self) -> dict[int, str]:
        """Each card in one place only (the hand, Wu Wang's open hands, the played cards, the
        trick); returns where each card is."""
        owners: dict[int, str] = {}

        def own(mask: int, where: str) -> None:
            for c in cards.cards_of(mask):
                if c in owners:
                    raise ValueError(f"card {_where(c)} appears twice ({owners[c]} and {where})")
                owners[c] = where

        own(self.hand, "the hand")
        self._check_wuwang(own)
        for s, m in sorted(self.played.items()):
            own(m, f"seat {s}'s played cards")
        for i, (s, m) in enumerate(self.trick):
            own(m, f"the trick's entry {i + 1} (seat {s})")
        return owners

    def _check_counts(self, counts: Mapping[int, Any] | None) -> list[int]:
        """The seat's cards add up to its deal, no seat played more than it was dealt, and
        ``counts`` (seat -> cards held), where given, agree; returns each seat's cards held."""
        me, n = self.seat, self.seats
        mine = len(self.hand_cards()) + self._played_count(me)
        if mine != self.dealt(me):
            raise ValueError(
                f"seat {me}: {len(self.hand_cards())} cards in hand and "
                f"{self._played_count(me)} played make {mine}, not the {self.dealt(me)} it "
                "was dealt"
            )
        have = self.counts()
        for s in range(n):
            if have[s] < 0:
                raise ValueError(
                    f"seat {s} played {self._played_count(s)} cards, more than the "
                    f"{self.dealt(s)} it was dealt"
                )
        for s, k in (counts or {}).items():
            try:
                given = int(k)
            except (TypeError, ValueError):
                raise ValueError(f"counts: seat {s}: a number of cards, not {k!r}") from None
            if given != have[s]:
                raise ValueError(
                    f"counts: seat {s} holds {have[s]} cards after playing "
                    f"{self._played_count(s)} of {self.dealt(s)}, not {given}"
                )
        return have

    def _check_out(self, have: list[int]) -> None:
        """The seats out are those with no cards left, and the round is not over yet."""
        n = self.seats
        emptied = {s for s in range(n) if have[s] == 0}
        if set(self.out) != emptied:
            raise ValueError(
                f"out: the seats with no cards left are {sorted(emptied) or 'none'}, "
                f"but out names {list(self.out) or 'none'}"
            )
        victory = int(variants.victory_size(self.game.variant_code))
        first = self.out[:victory]
        if len(self.out) >= n - 1 or (len(first) == victory and len({s % 2 for s in first}) == 1):
            raise ValueError("out: the round is already over (§2.13, §2.14, §3)")

    def _check_calls(self) -> None:
        """No seat called both, and only seats that may call Grand Tichu did (§4)."""
        both = set(self.tichu) & set(self.grand_tichu)
        if both:
            raise ValueError(f"seat {min(both)} called both Tichu and Grand Tichu")
        for s in self.grand_tichu:
            if not self.game.may_call_grand(s):
                raise ValueError(f"grand_tichu: seat {s} may not call Grand Tichu (§4)")

    def _check_wish_and_dog(self) -> None:
        """A wish only after the Mah Jong (§2.11); the Dog never in a trick (§2.10)."""
        played_all = self.trick_cards() | sum(self.played.values())
        if self.wish and not played_all & cards.MAH_JONG:
            raise ValueError("wish: no wish is open before the Mah Jong is played (§2.11)")
        if played_all & cards.DOG & self.trick_cards():
            raise ValueError(
                "trick: the Dog hands the lead on at once (§2.10): list it with the seat's "
                "played cards and start the trick at the seat that leads"
            )

    def _check_wuwang(self, own: Any) -> None:
        """§4: the Minister's hand lies face up, and the King, who plays it, holds both."""
        if not self._wuwang():
            if self.minister or self.king:
                raise ValueError("minister, king: hands of Wu Wang only (§4)")
            return
        if self.seat == variants.MINISTER:
            if self.minister:
                raise ValueError("minister: at the Minister's seat its hand is the hand")
            if not self.king:
                raise ValueError("king: the King decides for the Minister: give his hand (§4)")
            own(self.king, "the King's hand (seat 0)")
        else:
            if self.king:
                raise ValueError("king: the King's hand is known only at the Minister's seat")
            if not self.minister and self._played_count(variants.MINISTER) < self.dealt(
                variants.MINISTER
            ):
                raise ValueError("minister: the Minister's hand lies face up: give it (§4)")
            own(self.minister, "seat 2's hand (face up)")
        held = {variants.KING: self.king, variants.MINISTER: self.minister}
        for s, mask in held.items():
            if mask and s != self.seat:
                left = self.dealt(s) - self._played_count(s)
                if bin(mask).count("1") != left:
                    raise ValueError(
                        f"seat {s} holds {left} cards after its plays, not the "
                        f"{bin(mask).count('1')} given"
                    )

    def _check_trick(self, counts: list[int]) -> None:
        """§2.5–§2.9: each play a combination beating the one before, turns in order but for
        bombs, which may come out of turn once the trick is led (§2.9), no trick already won
        (everybody else passed)."""
        top, top_code, seat_before = 0, 0, -1
        left = list(counts)
        for s, m in self.trick:  # the hands as they were, given back the trick's cards
            left[s] += bin(m).count("1")
        for i, (s, m) in enumerate(self.trick):
            out_of_turn = i and m and combos.is_bomb(combos.classify(np.uint64(m)))
            if i and not out_of_turn and s != next_holder(left, seat_before):
                raise ValueError(
                    f"trick: entry {i + 1} is seat {s}'s, but seat "
                    f"{next_holder(left, seat_before)} was next (§2.8)"
                )
            if m == 0:
                if i == 0:
                    raise ValueError("trick: the leader cannot pass (§2.8)")
            else:
                code = _played_as(m, top_code)
                if code == 0 and not top:
                    raise ValueError(f"trick: {_where(m)} is not a combination (§2.5)")
                if code == 0:
                    raise ValueError(f"trick: {_where(m)} does not beat {_where(top)} (§2.7)")
                top, top_code = m, code
                left[s] -= bin(m).count("1")
            seat_before = s
        if self.trick:
            plays = [s for s, m in self.trick if m]
            last = plays[-1]
            after = [s for s, m in self.trick[self.trick.index((last, top)) + 1 :]]
            holders = {s for s in range(self.seats) if counts[s] > 0 and s != last}
            if holders and holders <= set(after):
                raise ValueError(
                    f"trick: every other seat has passed on seat {last}'s play: the trick is "
                    "won, and the next one starts with its winner's lead (§2.8)"
                )

    def _check_passing(self, owners: dict[int, str]) -> None:
        """§2.4, §3, §4: one card to each seat the seat passes to and one from each that
        passes to it; a card given is held by its receiver or played by it, a card received
        is the seat's or played by it."""
        me, g = self.seat, self.game
        for to in self.gave:
            if not g.passes_to(me, to):
                raise ValueError(f"gave: seat {me} gives no card to seat {to} (§2.4, §3, §4)")
        for giver in self.received:
            if not g.passes_to(giver, me):
                raise ValueError(
                    f"received: seat {giver} gives no card to seat {me} (§2.4, §3, §4)"
                )
        for to, card in self.gave.items():
            where = owners.get(card)
            if where == "the hand":
                raise ValueError(f"gave: {_where(card)} went to seat {to}, but it is in the hand")
            if where is not None and f"seat {to}" not in where:
                raise ValueError(
                    f"gave: {_where(card)} went to seat {to}, but {where} hold it (§2.4)"
                )
        for giver, card in self.received.items():
            where = owners.get(card)
            if where is None or (where != "the hand" and f"seat {me}" not in where):
                raise ValueError(
                    f"received: {_where(card)} from seat {giver} is neither in the hand nor "
                    f"among seat {me}'s plays"
                )

    def _check_taken(self) -> None:
        """The points of the earlier tricks lie in the winners' piles (§2.13)."""
        earlier = sum(cards.points(m) for m in self.played.values())
        if not self.taken and earlier:
            raise ValueError(
                f"taken: the tricks played hold {earlier} card points; say who took them "
                "(taken = {SEAT = POINTS} or --taken SEAT=POINTS)"
            )
        if self.taken and sum(self.taken.values()) != earlier:
            raise ValueError(
                f"taken: {sum(self.taken.values())} points, but the cards of the tricks "
                f"played hold {earlier} (the trick in play is not taken yet)"
            )

    # -- the seat's view -----------------------------------------------------------------

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The table's public record and the seat's private one at this turn (§6), as the
        engine fills them (``kernels/tichu/view.py``)."""
        g = self.game
        pub = np.zeros(1, PUBLIC)
        p = pub[0]
        counts = self.counts()
        p["n_players"] = self.seats
        p["variant"] = g.variant_code
        p["wish_free"] = variants.wish_free(g.variant_code)
        p["first_drawer"] = self.first_drawer
        p["rules"] = g.rules_record[0]
        p["exposed"] = self.exposed()
        top, top_seat, top_code = self.top()
        for s in range(self.seats):
            by = self.played.get(s, 0) | self.trick_cards(s)
            p["counts"][s] = counts[s]
            p["tichu"][s] = s in self.tichu
            p["grand_tichu"][s] = s in self.grand_tichu
            p["has_played"][s] = by != 0
            p["played_by"][s] = by
            p["points_taken"][s] = self.taken.get(s, 0)
            p["out_order"][s] = self.out[s] if s < len(self.out) else -1
        p["played"] = sum(self.played.values()) | self.trick_cards()
        p["n_out"] = len(self.out)
        p["wish"] = self.wish
        p["top_code"], p["top_mask"], p["top_seat"] = top_code, top, top_seat
        p["trick_cards"] = self.trick_cards()
        p["leader"] = self.trick[0][0] if self.trick else self.seat
        passed = 0
        for s, m in self.trick:
            passed = 0 if m else passed | 1 << s
        p["passed"] = passed
        first_trick = not self.played
        if first_trick and not p["played"] & cards.MAH_JONG:  # §2.8: its holder leads first
            for s in range(self.seats):
                if s != p["leader"]:
                    p["lacks"][s] |= 1 << 1
        priv = np.zeros(1, PRIVATE)
        q = priv[0]
        q["seat"] = self.seat
        q["hand"] = self.hand
        q["ally_hand"] = self.ally_hand()
        for s, c in self.gave.items():
            q["given"][s] = c
        for s, c in self.received.items():
            q["received"][s] = c
        return pub, priv

    def legal(self) -> tuple[list[Play], bool]:
        """The seat's legal plays and whether it may pass (§2.5–§2.8, the wish §2.11, which
        does not bind Wu Wang's Minister, §4)."""
        top, _, _ = self.top()
        plays = self.played_codes()
        on = None
        if top == cards.PHOENIX and len(plays) > 1:  # valued on the single before it (§2.6)
            on = combos.code_rank2(plays[-2][2]) // 2
        bound = not variants.wish_free(self.game.variant_code) >> self.seat & 1
        wish = self.wish if bound and self.wish else None
        return legal_plays(self.hand, top or None, wish=wish, phoenix_on=on)

    def view(self) -> View:
        """The seat's ``View`` at its play (what a strategy would be handed)."""
        pub, priv = self.records()
        _, can_pass = self.legal()
        return View(self.game, pub, priv, "play", int(can_pass))


def _points(value: Any, seat: int) -> int:
    try:
        points = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"taken: seat {seat}: card points, not {value!r}") from None
    if points % 5 or not -25 <= points <= 125:
        raise ValueError(f"taken: seat {seat}: {value!r} is no sum of card points (§2.13)")
    return points


def _one_cards(value: Any, what: str, seats: int) -> dict[int, int]:
    out = {}
    for s, v in _per_seat(value, what, seats).items():
        mask = _cards(v, f"{what} (seat {s})")
        if bin(mask).count("1") != 1:
            raise ValueError(f"{what}: one card per seat (§2.4), not {v!r} for seat {s}")
        out[s] = mask
    return out


def _played_as(mask: int, top_code: int) -> int:
    """The kernel code ``mask`` is played as on a top of code ``top_code`` (0: a lead): its
    highest reading that beats the top; a lone Phoenix worth ½ more than the single it is
    played on, or its led value (§2.6); 0 when it is no combination or beats nothing."""
    if mask == cards.PHOENIX:
        return int(combos.phoenix_single(top_code, combos.RANK2_PHOENIX_LED))
    readings = np.zeros(2, np.int64)
    count = combos.combo_readings(np.uint64(mask), readings)
    codes = [int(c) for c in readings[:count] if not top_code or combos.beats(int(c), top_code)]
    return max(codes, default=0)
