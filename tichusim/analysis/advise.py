"""Advice for a position: every legal play of a seat ranked by simulation (``tichusim advise``).

A ``Position`` is what one seat knows at its turn in the 4-player game (RULES.md §2, §6): its
hand, the cards each seat played in the tricks before this one, the trick in play (each play
or pass in order), the calls, the open wish, the seats out, the card points each seat has
taken, and the cards it passed and received. ``Position.parse`` reads one from plain data (a
TOML file's table, or the command's flags) and refuses an impossible one with one line
naming the problem: a card twice, counts that do not add up, a trick out of turn or whose
plays do not beat each other, a wish without the Mah Jong, points taken that do not match the
cards played.

``advise`` turns the position into the seat's view (the table's public record and its own,
``kernels/tichu/view.py``) and scores every legal play (passing too, when allowed) with the
search's rollouts (``strategies.search.evaluate_plays``): many deals of the unseen cards
consistent with the view, each candidate played out from the same deals with the same streams
(paired), every seat then played by a scripted strategy. Each play gets its team's mean score
margin with a 95% interval, its paired difference to the best play with an interval, and the
chance its team goes out first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import notation as cards
from ..cards.combos import Play, legal_plays
from ..games import game as game_of
from ..games.steps import View
from ..kernels import combos as K
from ..kernels.tichu.view import PRIVATE, PUBLIC
from ..strategies.search import evaluate_plays, prune
from ..strategies.tichu import resolve
from .stats import Estimate, mean_ci, wilson

__all__ = ["Advice", "Position", "Ranked", "advise"]

SEATS = 4  # the 4-player game (RULES.md §2)
HAND = 14  # cards dealt to each seat (§2.2)
KEYS = {
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
}


def _cards(text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"{what}: cards in the card notation, not {text!r}")
    try:
        return cards.parse(text)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _seat(value: Any, what: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what}: a seat 0..{SEATS - 1}, not {value!r}") from None
    if str(value).strip() != str(seat) or not 0 <= seat < SEATS:
        raise ValueError(f"{what}: a seat 0..{SEATS - 1}, not {value!r}")
    return seat


def _per_seat(value: Any, what: str) -> dict[int, Any]:
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
        seat = _seat(key, what)
        if seat in out:
            raise ValueError(f"{what}: seat {seat} given twice")
        out[seat] = v
    return out


def _seats(value: Any, what: str) -> tuple[int, ...]:
    if value is None:
        return ()
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    seats = tuple(_seat(s, what) for s in items)
    if len(set(seats)) != len(seats):
        raise ValueError(f"{what}: a seat given twice in {value!r}")
    return seats


def _trick(value: Any) -> tuple[tuple[int, int], ...]:
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
        seat = _seat(who.strip(), "trick")
        text = what.strip()
        out.append((seat, 0 if text.lower() == "pass" else _cards(text, f"trick (seat {seat})")))
    return tuple(out)


def _where(mask: int) -> str:
    return cards.format(mask)


@dataclass(frozen=True)
class Position:
    """One seat's knowledge at its turn in the 4-player game (RULES.md §2, §6); the module
    docstring says what each field holds. Build one with ``Position.parse``, which checks it."""

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

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Position:
        """A checked position from plain data: ``hand`` (cards), ``seat`` (0..3, default 0),
        ``played`` ({seat: cards}: the cards of the tricks before this one), ``trick``
        ("SEAT: CARDS; SEAT: pass; ..."), ``counts`` ({seat: n}, optional: checked against
        the cards played), ``tichu``, ``grand_tichu`` and ``out`` (seats), ``wish`` (a rank),
        ``taken`` ({seat: points}), ``gave`` and ``received`` ({seat: card}). ``ValueError``
        (one line) for a key it does not know or an impossible position."""
        unknown = sorted(set(data) - KEYS)
        if unknown:
            raise ValueError(
                f"position: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})"
            )
        if "hand" not in data:
            raise ValueError('position: the hand is missing (hand = "..." or --hand)')
        seat = _seat(data.get("seat", 0), "seat")
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
                for s, v in _per_seat(data.get("played"), "played").items()
            },
            trick=_trick(data.get("trick")),
            tichu=_seats(data.get("tichu"), "tichu"),
            grand_tichu=_seats(data.get("grand_tichu"), "grand_tichu"),
            wish=wish,
            out=_seats(data.get("out"), "out"),
            taken={s: _points(v, s) for s, v in _per_seat(data.get("taken"), "taken").items()},
            gave=_one_cards(data.get("gave"), "gave"),
            received=_one_cards(data.get("received"), "received"),
        )
        position.check(_per_seat(data.get("counts"), "counts"))
        return position

    # -- what follows from the position ---------------------------------------------------

    def trick_cards(self, seat: int | None = None) -> int:
        """The cards of the trick in play (of one seat's plays in it)."""
        out = 0
        for s, m in self.trick:
            if seat is None or s == seat:
                out |= m
        return out

    def counts(self) -> list[int]:
        """Cards in each hand: 14 less what the seat played (the passing keeps counts)."""
        return [
            len(self.hand_cards()) if s == self.seat else HAND - self._played_count(s)
            for s in range(SEATS)
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
        counts = self.counts()
        if not self.trick:
            return self.seat
        s = self.trick[-1][0]
        for _ in range(SEATS):
            s = (s + 1) % SEATS
            if counts[s] > 0:
                return s
        return -1

    # -- the checks ----------------------------------------------------------------------

    def check(self, counts: Mapping[int, Any] | None = None) -> None:
        """``ValueError`` naming the first thing that makes the position impossible."""
        me = self.seat
        if not self.hand:
            raise ValueError("hand: empty (a seat that is out has no decision)")
        owners: dict[int, str] = {}

        def own(mask: int, where: str) -> None:
            for c in cards.cards_of(mask):
                if c in owners:
                    raise ValueError(f"card {_where(c)} appears twice ({owners[c]} and {where})")
                owners[c] = where

        own(self.hand, "the hand")
        for s, m in sorted(self.played.items()):
            own(m, f"seat {s}'s played cards")
        for i, (s, m) in enumerate(self.trick):
            own(m, f"the trick's entry {i + 1} (seat {s})")
        mine = len(self.hand_cards()) + self._played_count(me)
        if mine != HAND:
            raise ValueError(
                f"seat {me}: {len(self.hand_cards())} cards in hand and "
                f"{self._played_count(me)} played make {mine}, not the {HAND} every seat holds"
            )
        have = self.counts()
        for s in range(SEATS):
            if have[s] < 0:
                raise ValueError(f"seat {s} played {self._played_count(s)} cards, more than {HAND}")
        for s, n in (counts or {}).items():
            try:
                given = int(n)
            except (TypeError, ValueError):
                raise ValueError(f"counts: seat {s}: a number of cards, not {n!r}") from None
            if given != have[s]:
                raise ValueError(
                    f"counts: seat {s} holds {have[s]} cards after playing "
                    f"{self._played_count(s)} of {HAND}, not {given}"
                )
        emptied = {s for s in range(SEATS) if have[s] == 0}
        if set(self.out) != emptied:
            raise ValueError(
                f"out: the seats with no cards left are {sorted(emptied) or 'none'}, "
                f"but out names {list(self.out) or 'none'}"
            )
        if len(self.out) >= SEATS - 1 or (
            len(self.out) == 2 and self.out[0] % 2 == self.out[1] % 2
        ):
            raise ValueError("out: the round is already over (§2.13, §2.14)")
        both = set(self.tichu) & set(self.grand_tichu)
        if both:
            raise ValueError(f"seat {min(both)} called both Tichu and Grand Tichu")
        played_all = self.trick_cards() | sum(self.played.values())
        if self.wish and not played_all & cards.MAH_JONG:
            raise ValueError("wish: no wish is open before the Mah Jong is played (§2.11)")
        if played_all & cards.DOG & self.trick_cards():
            raise ValueError(
                "trick: the Dog hands the lead on at once (§2.10): list it with the seat's "
                "played cards and start the trick at the seat that leads"
            )
        self._check_trick(have)
        self._check_passing(owners)
        self._check_taken()
        if self.next_turn() != me:
            raise ValueError(
                f"trick: after its last entry it is seat {self.next_turn()}'s turn, not seat "
                f"{me}'s (play passes to the next seat holding cards, §2.8)"
            )

    def _check_trick(self, counts: list[int]) -> None:
        """§2.5–§2.8: each play a combination beating the one before, turns in order, no
        trick already won (everybody else passed)."""
        top, top_code, seat_before = 0, 0, -1
        left = list(counts)
        for s, m in self.trick:  # the hands as they were, given back the trick's cards
            left[s] += bin(m).count("1")
        for i, (s, m) in enumerate(self.trick):
            if i and s != _next_holder(left, seat_before):
                raise ValueError(
                    f"trick: entry {i + 1} is seat {s}'s, but seat "
                    f"{_next_holder(left, seat_before)} was next (§2.8)"
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
            holders = {s for s in range(SEATS) if counts[s] > 0 and s != last}
            if holders and holders <= set(after):
                raise ValueError(
                    f"trick: every other seat has passed on seat {last}'s play: the trick is "
                    "won, and the next one starts with its winner's lead (§2.8)"
                )

    def _check_passing(self, owners: dict[int, str]) -> None:
        """§2.4: one card to each other seat and one from each; a card given is held by its
        receiver or played by it, a card received is the seat's or played by it."""
        me = self.seat
        for what, table in (("gave", self.gave), ("received", self.received)):
            if me in table:
                raise ValueError(f"{what}: seat {me} is the seat itself")
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
        """The table's public record and the seat's private one at this turn (§6)."""
        from ..kernels.tichu.variants import NANJING

        pub = np.zeros(1, PUBLIC)
        p = pub[0]
        counts = self.counts()
        p["n_players"] = SEATS
        p["variant"] = NANJING
        top, top_seat, top_code = self.top()
        for s in range(SEATS):
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
            for s in range(SEATS):
                if s != p["leader"]:
                    p["lacks"][s] |= 1 << 1
        priv = np.zeros(1, PRIVATE)
        q = priv[0]
        q["seat"] = self.seat
        q["hand"] = self.hand
        for s, c in self.gave.items():
            q["given"][s] = c
        for s, c in self.received.items():
            q["received"][s] = c
        return pub, priv

    def legal(self) -> tuple[list[Play], bool]:
        """The seat's legal plays and whether it may pass (§2.5–§2.8, the wish §2.11)."""
        top, _, _ = self.top()
        plays = self.played_codes()
        on = None
        if top == cards.PHOENIX and len(plays) > 1:  # valued on the single before it (§2.6)
            on = K.code_rank2(plays[-2][2]) // 2
        return legal_plays(self.hand, top or None, wish=self.wish or None, phoenix_on=on)

    def view(self) -> View:
        """The seat's ``View`` at its play (what a strategy would be handed)."""
        pub, priv = self.records()
        _, can_pass = self.legal()
        return View(game_of("nanjing"), pub, priv, "play", int(can_pass))


def _points(value: Any, seat: int) -> int:
    try:
        points = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"taken: seat {seat}: card points, not {value!r}") from None
    if points % 5 or not -25 <= points <= 125:
        raise ValueError(f"taken: seat {seat}: {value!r} is no sum of card points (§2.13)")
    return points


def _one_cards(value: Any, what: str) -> dict[int, int]:
    out = {}
    for s, v in _per_seat(value, what).items():
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
        return int(K.phoenix_single(top_code, K.RANK2_PHOENIX_LED))
    readings = np.zeros(2, np.int64)
    count = K.combo_readings(np.uint64(mask), readings)
    codes = [int(c) for c in readings[:count] if not top_code or K.beats(int(c), top_code)]
    return max(codes, default=0)


def _next_holder(counts: list[int], seat: int) -> int:
    s = seat
    for _ in range(SEATS):
        s = (s + 1) % SEATS
        if counts[s] > 0:
            return s
    return -1


# -- the advice --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    """One candidate play: its cards (``None``: pass), its team's mean score margin (the
    seat's team minus the other, the round's whole score: §2.13, §2.14) with a 95% interval,
    the paired difference to the best play, and the chance its team goes out first."""

    play: Play | None
    margin: Estimate
    vs_best: Estimate
    first_out: Estimate
    expert: bool  # the rollout strategy's own choice

    @property
    def text(self) -> str:
        if self.play is None:
            return "pass"
        return f"{cards.format(int(self.play))} ({self.play.combo.kind})"


@dataclass(frozen=True)
class Advice:
    """The ranked plays (best first) and how they were measured."""

    position: Position
    ranked: list[Ranked]
    samples: int
    rollout: str
    seed: int
    seconds: float

    def to_dict(self) -> dict:
        def est(e: Estimate) -> dict:
            return {"value": _num(e.value), "low": _num(e.low), "high": _num(e.high)}

        return {
            "seat": self.position.seat,
            "samples": self.samples,
            "rollout": self.rollout,
            "seed": self.seed,
            "plays": [
                {
                    "play": None if r.play is None else cards.format(int(r.play)),
                    "combination": None if r.play is None else r.play.combo.kind,
                    "margin": est(r.margin),
                    "vs_best": est(r.vs_best),
                    "first_out": est(r.first_out),
                    "rollout_choice": r.expert,
                }
                for r in self.ranked
            ],
        }

    def __str__(self) -> str:
        width = max(len(r.text) for r in self.ranked)
        lines = [
            f"Seat {self.position.seat}, hand {cards.format(self.position.hand)}: "
            f"{len(self.ranked)} plays, each played out on the same {self.samples:,} deals "
            f"of the unseen cards ({self.rollout} at every seat afterwards)",
            "",
            f"{'play':<{width}}  {'margin (points)':>22}  {'vs best':>22}  "
            f"{'P(team out first)':>22}",
        ]
        for r in self.ranked:
            mark = "  <- " + self.rollout if r.expert else ""
            lines.append(
                f"{r.text:<{width}}  {r.margin.pts(6):>22}  {r.vs_best.pts(6):>22}  "
                f"{r.first_out.pct(6):>22}{mark}"
            )
        lines += [
            "",
            "margin: the round's score of the seat's team minus the other team's (card points, "
            "first and second out, Tichu and Grand Tichu; RULES.md §2.13, §2.14), mean and 95% "
            "interval; vs best: the paired difference to the first play, deal by deal.",
        ]
        return "\n".join(lines)


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 4)


def advise(
    position: Position,
    samples: int = 2000,
    *,
    candidates: int = 40,
    rollout: str = "expert",
    seed: int = 0,
) -> Advice:
    """Every legal play of ``position``'s seat (at most ``candidates`` of them, pruned as the
    search prunes, the rollout strategy's choice always kept), ranked by mean score margin
    over ``samples`` consistent deals; the same seed gives the same advice."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples: at least 2 deals, not {samples!r}")
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
        raise ValueError(f"candidates: at least 1, not {candidates!r}")
    plays, can_pass = position.legal()
    legal: list[Play | None] = [*plays, *([None] if can_pass else [])]
    view = position.view()
    g = game_of("nanjing")
    row = resolve(rollout, 1)[0].param_row(g.name)
    view.__dict__["random"] = np.random.default_rng(seed)  # ``decide`` reads no stream here
    choice = g.steps.decide(row, view, legal)
    chosen = prune(legal, candidates, choice)
    evaluate_plays(position.view(), chosen[:1], 1, seed, rollout)  # compiled before the clock
    t0 = time.perf_counter()
    result = evaluate_plays(position.view(), chosen, samples, seed, rollout)
    seconds = time.perf_counter() - t0
    means = result.means()
    best = int(np.argmax(means))
    ranked = [
        Ranked(
            play=chosen[c],
            margin=mean_ci(result.margin[c]),
            vs_best=mean_ci(result.margin[c] - result.margin[best]),
            first_out=wilson(int(result.first[c].sum()), result.samples),
            expert=chosen[c] is choice,
        )
        for c in np.argsort(-means, kind="stable")
    ]
    return Advice(position, ranked, result.samples, rollout, seed, seconds)
