"""Should I call Tichu with this hand, after the passing? Paired simulation, as ``gt-odds``.

The hand's seat holds the given cards once the passing is over (14; Tientsin 10 or 9, §3):
every deal is made so that the seats passing to it give it cards of the hand (the ones named
with ``received``, else drawn among the hand at random), and that it gives each seat it
passes to a card drawn among the others; the rest of the cards are dealt at random
(``kernels/tichu/deal._deal_after_passing``). Every deal is played twice with the same seed
and round key, hence the same cards and the same random streams for every seat (RULES.md
§2.3 Tichu, §2.14 scoring):

* **call**: the seat calls Tichu right after the passing (or, with ``played = k``, before its
  first own turn once k cards have been played at the table, if it has not played by then);
* **no call**: it never calls.

Everything else of the seat's strategy plays as given (it calls no Grand Tichu: its hand is
the one after the passing). The number that decides is the paired difference of the
caller's team round score, deal by deal; the first drawer rotates with the round key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import cards
from ..games import DEFAULT_GAME
from ..kernels.tichu import records
from ..stats import Estimate, Paired, wilson
from ..strategies import ANSWER_STRATEGY
from .gtodds import (
    MAX_BATCH,
    MIN_DEALS,
    CallAnswer,
    check_run,
    paired_rounds,
    seat_strategies,
    setup,
)
from .played_once import played_once

__all__ = ["TichuOdds", "check_hand", "tichu_odds"]


@dataclass(frozen=True)
class TichuOdds(CallAnswer):
    """The answer for one hand after the passing. Points are the caller's team round score."""

    hand: str
    received: str  # the cards named as received ("" when drawn at random)
    when: str  # the point of the call
    variant: str
    deals: int
    seed: int
    strategies: tuple[str, ...]  # the hand's, then the others' in turn order from its right
    p_success: Estimate  # out first when calling (Wilson)
    called: Estimate  # deals in which the call was made (below 1 only with ``played``)
    ev_call: Estimate
    ev_no_call: Estimate
    ev_diff: Estimate  # call minus no call, per deal on the same deals
    first_out_no_call: Estimate  # out first without the call (Wilson)
    double_victory_call: Estimate
    double_victory_no_call: Estimate
    seconds: float

    ESTIMATES = (
        "p_success",
        "called",
        "ev_call",
        "ev_no_call",
        "ev_diff",
        "first_out_no_call",
        "double_victory_call",
        "double_victory_no_call",
    )

    def head(self) -> dict:
        return {
            "hand": self.hand,
            "received": self.received,
            "when": self.when,
            "variant": self.variant,
            "deals": self.deals,
            "seed": self.seed,
            "strategies": list(self.strategies),
        }

    def __str__(self) -> str:
        def pct(e):
            return e.pct(5, "  ")

        table = "" if self.variant == DEFAULT_GAME else f", {self.variant}"
        got = f"; received {self.received}" if self.received else ""
        lines = [
            f"Tichu odds for {self.hand}{got}  ({self.deals:,} deals, seed {self.seed}{table}; "
            f"seat strategy {self.strategies[0]}, others {self.others_text}; call {self.when})",
            *self.call_lines(),
            f"  without the call: out first {pct(self.first_out_no_call).strip()}, "
            f"double victory {pct(self.double_victory_no_call).strip()}",
        ]
        if self.called.value < 1:
            lines.append(
                f"  the call was made in {pct(self.called).strip()} of the deals (the "
                "seat had played before)"
            )
        lines.append("  (brackets: 95% intervals; Wilson for rates, normal for means)")
        return "\n".join(lines)


def _hand_sizes(table) -> tuple[int, ...]:
    """The hand sizes a seat may be dealt at ``table`` (Tientsin: 10 or 9, §3)."""
    return tuple(sorted({table.hand_size(d) for d in range(table.seats)}, reverse=True))


def _received_spec(place, exact: int, received: str | None) -> tuple[int, str]:
    """The ``FIX_RECEIVED`` entry for the cards named as received (in turn order from the
    hand's right, the next seat, among the seats that pass to it), and their notation."""
    if not received:
        return 0, ""
    n = place.game.seats
    givers = [j for j in range(n - 1) if place.game.passes_to((place.seat + j + 1) % n, place.seat)]
    tokens = [t for t in received.replace(",", " ").split() if t]
    if len(tokens) != len(givers):
        raise ValueError(
            f"received: give {len(givers)} cards, one from each seat passing to the "
            f"hand in turn order from the next player, not {len(tokens)}"
        )
    spec, seen = 0, 0
    for j, token in zip(givers, tokens, strict=False):
        bit = cards.parse(token)
        if bit & (bit - 1) or not bit:
            raise ValueError(f"received: {token!r} is not one card")
        if not bit & exact:
            raise ValueError(
                f"received: {token!r} is not one of the hand's cards (a received "
                "card must be named in the hand with its suit)"
            )
        if bit & seen:
            raise ValueError(f"received: {token!r} given twice")
        seen |= bit
        spec |= (bit.bit_length()) << (6 * j)  # card index + 1
    return spec, cards.format(seen)


def tichu_odds(
    hand: str,
    *,
    deals: int = 100_000,
    precision: float | None = None,
    seed: int = 0,
    seat_strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    received: str | None = None,
    played: int | None = None,
    variant: str = "nanjing",
    options: dict | None = None,
    check: bool = False,
    progress: Callable[[int, int, Estimate | None], None] | None = None,
) -> TichuOdds:
    """Estimate the Tichu odds of ``hand``, the seat's cards after the passing
    (``cards.parse_pattern`` notation; 14 cards, Tientsin 10 or 9), in the game ``variant``
    with ``options``. ``received``: the cards of the hand it received, one per seat passing
    to it in turn order from its right, the next seat (default: drawn among the hand);
    ``played``: call before the seat's first own turn once that many cards have been played at
    the table (default: right after the passing). ``precision`` stops early as in
    ``gt_odds``. Deterministic."""
    place = setup(variant, options)
    sizes = _hand_sizes(place.game)
    exact, ranks = _parse_hand(hand, sizes)
    check_run(deals, precision, seed)
    _check_played(played)
    spec, got = _received_spec(place, exact, received)
    count = bin(exact).count("1") + int(ranks.sum())
    when = (
        "right after the passing"
        if played is None
        else f"before its first turn once {played} cards are played"
    )
    r_call, r_no = _call_ranks(ranks, spec, played)
    call, no_call = seat_strategies(
        seat_strategy,
        others,
        variant=variant,
        grand=("never", "never"),
        suffix=("+T", "-T"),
        set_calls=("grand_tichu", "tichu"),
    )

    def pairs_of(keys):
        return paired_rounds(
            seed,
            keys,
            call,
            no_call,
            fixed=(exact, ranks),
            check=check,
            place=place,
            firsts=place.firsts(keys, (count,)),
            ranks=(r_call, r_no),
        )

    played_once(pairs_of)
    if progress is not None:
        progress(0, deals, None)
    t0 = time.perf_counter()
    columns = _play_deals(pairs_of, place.player, deals, precision, progress)

    def rate(name):
        x = columns[name]
        return wilson(int(x.sum()), x.size)

    points = Paired(np.stack([columns["points_call"], columns["points_no_call"]]))
    return TichuOdds(
        hand=cards.format_pattern(exact, ranks),
        received=got,
        when=when,
        variant=variant,
        deals=len(columns["success"]),
        seed=int(seed),
        strategies=place.strategy_names(call, seat_strategy),
        p_success=rate("success"),
        called=rate("called"),
        ev_call=points.estimate(0),
        ev_no_call=points.estimate(1),
        ev_diff=points.difference(0, 1),
        first_out_no_call=rate("first_no_call"),
        double_victory_call=rate("dv_call"),
        double_victory_no_call=rate("dv_no_call"),
        seconds=time.perf_counter() - t0,
    )


def _check_played(played) -> None:
    """``ValueError`` unless ``played`` is ``None`` or a number of cards 0..56."""
    if played is not None and (
        isinstance(played, bool)
        or not isinstance(played, (int, np.integer))
        or not 0 <= played <= 56
    ):
        raise ValueError(f"played must be a number of cards 0..56, not {played!r}")


def _call_ranks(ranks: np.ndarray, spec, played: int | None) -> tuple[np.ndarray, np.ndarray]:
    """The fixed deal's rows of the two sides, both receiving ``spec``: the seat calls Tichu
    before its first own turn once ``played`` cards are played (right after the passing if
    ``None``), or it never calls."""
    call_code = (
        records.FIX_CALL_AFTER_PASSING
        if played is None
        else records.FIX_CALL_AT_PLAYED + int(played)
    )
    r_call, r_no = ranks.copy(), ranks.copy()
    r_call[records.FIX_MODE] = records.FIX_AFTER_PASSING + 256 * call_code
    r_no[records.FIX_MODE] = records.FIX_AFTER_PASSING + 256 * records.FIX_CALL_NEVER
    r_call[records.FIX_RECEIVED] = r_no[records.FIX_RECEIVED] = spec
    return r_call, r_no


def _play_deals(pairs_of, seat: int, deals: int, precision, progress) -> dict[str, np.ndarray]:
    """The seat's columns the odds are made of, over ``deals`` paired deals played in batches
    by ``pairs_of(keys)``; with a ``precision``, until the success rate's interval is that
    narrow. ``progress(done, deals, estimate)`` after each batch."""
    parts: dict[str, list[np.ndarray]] = {}
    done = 0
    step = min(deals, 2 * MIN_DEALS if precision else MAX_BATCH)
    while done < deals:
        keys = np.arange(done, done + step, dtype=np.int64)
        pairs = pairs_of(keys)
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        me_c, me_n = sc[:, seat], sn[:, seat]
        for name, v in (
            ("success", me_c["finish"] == 1),
            ("called", me_c["tichu"]),
            ("points_call", me_c["points"].astype(np.float64)),
            ("points_no_call", me_n["points"].astype(np.float64)),
            ("first_no_call", me_n["finish"] == 1),
            ("dv_call", rc["double_victory"] & (me_c["finish"] > 0)),
            ("dv_no_call", rn["double_victory"] & (me_n["finish"] > 0)),
        ):
            parts.setdefault(name, []).append(v)
        done += step
        success = np.concatenate(parts["success"])
        p = wilson(int(success.sum()), success.size)
        if progress is not None:
            progress(done, deals, p)
        if precision and done >= MIN_DEALS and p.half_width < precision:
            break
        step = min(MIN_DEALS if precision else MAX_BATCH, deals - done)
    return {name: np.concatenate(v) for name, v in parts.items()}


def check_hand(
    hand: str, received: str | None = None, variant: str = "nanjing", options: dict | None = None
) -> None:
    """``ValueError`` for a hand or received cards ``tichu_odds`` would refuse (the command
    asks before its progress bar appears)."""
    place = setup(variant, options)
    exact, _ = _parse_hand(hand, _hand_sizes(place.game))
    _received_spec(place, exact, received)


def _parse_hand(hand: str, sizes: tuple[int, ...]) -> tuple[int, np.ndarray]:
    """The hand's pattern, one of ``sizes`` cards (the first size's error when none fits)."""
    errors = []
    for size in sizes:
        try:
            return cards.parse_pattern(hand, size)
        except ValueError as exc:
            errors.append(exc)
    raise errors[0]
