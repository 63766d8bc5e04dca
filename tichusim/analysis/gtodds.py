"""Should I call Grand Tichu with these 8 cards? Paired simulation with common randomness.

The hand's seat (seat 0) gets the given first 8 cards (a rank without a suit is drawn per deal
among the free cards of that rank, so the estimate averages over suit assignments); the other
48 cards are dealt at random. Every deal is played twice with the same seed and round key,
hence the same cards everywhere and the same random streams for every seat's decisions
(RULES.md §2.2 deal, §2.14 scoring):

* **call**: the seat's strategy with ``grand_tichu = "always"``;
* **no call**: the same strategy with ``grand_tichu = "never"``. "Not calling" means no Grand
  Tichu only: the strategy's ordinary Tichu policy still applies after 14 cards, because that
  is the alternative a player actually has (the no-call Tichu rate is reported).

The number that decides is the paired difference of the caller's team round score, computed
deal by deal; pairing removes the luck of the deal from its variance. The first drawer rotates
with the round key (key % 4), so the seat's position in the order of calls is averaged over.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from .. import cards
from ..kernels.tichu import batch
from ..kernels.errors import ERRORS
from ..kernels.tichu.records import N, ROUND, SEAT
from ..stats import Estimate, mean_ci, wilson
from ..strategies.tichu import Strategy, resolve

__all__ = ["GTOdds", "Pairs", "gt_odds", "paired_rounds", "seat_strategies"]

SEAT0 = 0  # the seat whose hand is fixed (seats 1 and 3 are its opponents, 2 its partner)
MIN_DEALS = 1000  # never stop on precision before this many deals
MAX_BATCH = 50_000


def seat_strategies(seat_strategy="heuristic", others="heuristic") -> tuple[list, list]:
    """The two tables' strategies: seat 0's strategy forced to call / not call Grand Tichu,
    ``others`` (one strategy, or three for seats 1, 2, 3: left opponent, partner, right
    opponent) unchanged in both."""
    me = resolve(seat_strategy, 1)[0]
    rest = resolve(others, 3)
    call = dataclasses.replace(me, grand_tichu="always", name=f"{me.name}+GT")
    no_call = dataclasses.replace(me, grand_tichu="never", name=f"{me.name}-GT")
    return [call, *rest], [no_call, *rest]


@dataclass(frozen=True)
class Pairs:
    """Raw records of paired plays: ``call`` and ``no_call`` are ``(ROUND, SEAT)`` record
    arrays of the same deals (row ``i`` of each is round key ``keys[i]``)."""

    keys: np.ndarray
    call: tuple[np.ndarray, np.ndarray]
    no_call: tuple[np.ndarray, np.ndarray]


def _params(strategies: list[Strategy]) -> np.ndarray:
    return np.stack([s.param_row() for s in strategies])


def _play(seed, keys, params, fixed, check):
    n = len(keys)
    r_out = np.zeros(n, ROUND)
    s_out = np.zeros((n, N), SEAT)
    drawers = keys % N
    chunks = max(1, min(n, numba.get_num_threads() * 8))
    if fixed is None:
        batch.play_rounds(seed, keys, drawers, params, r_out, s_out, check, chunks)
    else:
        exact, ranks = fixed
        batch.play_rounds_fixed(seed, keys, drawers, params, SEAT0, np.uint64(exact),
                                np.asarray(ranks, np.int64), r_out, s_out, check,
                                chunks)  # fmt: skip
    bad = np.flatnonzero(r_out["error"])
    if bad.size:
        raise RuntimeError(f"round key {keys[bad[0]]}: {ERRORS[r_out['error'][bad[0]]]}")
    return r_out, s_out


def paired_rounds(seed: int, keys, call: list[Strategy], no_call: list[Strategy], *,
                  fixed: tuple[int, np.ndarray] | None = None, check: bool = False) -> Pairs:
    """Play round keys ``keys`` twice, with the seat strategies ``call`` and ``no_call``.
    ``fixed = (exact_mask, rank_counts)`` fixes seat 0's first 8 cards (``parse_pattern``);
    ``None`` deals all 56 cards at random (the same deals in both tables)."""
    keys = np.asarray(keys, np.int64)
    return Pairs(keys, _play(seed, keys, _params(call), fixed, check),
                 _play(seed, keys, _params(no_call), fixed, check))  # fmt: skip


def _team_won_double(r: np.ndarray, team: int) -> np.ndarray:
    return r["double_victory"] & (r["first_out"] % 2 == team)


@dataclass(frozen=True)
class GTOdds:
    """The answer for one hand pattern. Points are the caller's team round score (§2.14)."""

    hand: str
    deals: int
    seed: int
    strategies: tuple[str, ...]  # seats 0..3 (seat 0 without its Grand Tichu policy)
    p_success: Estimate  # caller out first when calling (Wilson)
    ev_call: Estimate
    ev_no_call: Estimate
    ev_diff: Estimate  # call minus no call, per deal on the same deals
    double_victory_call: Estimate  # the caller's team goes out 1-2 (Wilson)
    double_victory_no_call: Estimate
    first_out_no_call: Estimate  # the seat goes out first without the call (Wilson)
    tichu_no_call: Estimate  # the seat calls a plain Tichu when it does not call Grand Tichu
    seconds: float

    def to_dict(self) -> dict:
        """Flat JSON-ready figures (``--json``)."""
        out = {"hand": self.hand, "deals": self.deals, "seed": self.seed,
               "strategies": list(self.strategies)}  # fmt: skip
        for name, key in (("p_success", "p_success"), ("ev_call", "ev_call"),
                          ("ev_no_call", "ev_no_call"), ("ev_diff", "ev_diff"),
                          ("double_victory_call", "double_victory_call"),
                          ("double_victory_no_call", "double_victory_no_call"),
                          ("first_out_no_call", "first_out_no_call"),
                          ("tichu_no_call", "tichu_no_call")):  # fmt: skip
            e = getattr(self, name)
            low_key = "ci_low" if name == "p_success" else f"{key}_ci_low"
            high_key = "ci_high" if name == "p_success" else f"{key}_ci_high"
            out[key], out[low_key], out[high_key] = e.value, e.low, e.high
        out["decision"] = self.decision
        out["seconds"] = round(self.seconds, 3)
        return out

    @property
    def decision(self) -> str:
        """``call`` / ``do not call`` when the interval of the paired difference excludes 0."""
        if self.ev_diff.low > 0:
            return "call"
        if self.ev_diff.high < 0:
            return "do not call"
        return "too close to tell"

    def __str__(self) -> str:
        def pct(e):
            return f"{100 * e.value:5.1f}%  [{100 * e.low:.1f}, {100 * e.high:.1f}]"

        def pts(e):
            return f"{e.value:+7.1f}  [{e.low:+.1f}, {e.high:+.1f}]"

        others = self.strategies[1:]
        others_text = others[0] if len(set(others)) == 1 else ", ".join(others)
        return "\n".join([
            f"Grand Tichu odds for {self.hand}  ({self.deals:,} deals, seed {self.seed}; "
            f"seat strategy {self.strategies[0]}, others {others_text})",
            f"  P(out first | call)             {pct(self.p_success)}",
            f"  double victory | call           {pct(self.double_victory_call)}",
            f"  team points/round, call         {pts(self.ev_call)}",
            f"  team points/round, no call      {pts(self.ev_no_call)}",
            f"  call - no call (same deals)     {pts(self.ev_diff)}   -> {self.decision}",
            f"  without the call: out first {pct(self.first_out_no_call).strip()}, "
            f"plain Tichu called {pct(self.tichu_no_call).strip()}, "
            f"double victory {pct(self.double_victory_no_call).strip()}",
            "  (brackets: 95% intervals; Wilson for rates, normal for means)",
        ])  # fmt: skip


class _Tally:
    """Per-deal figures accumulated batch by batch."""

    def __init__(self):
        self.parts: dict[str, list[np.ndarray]] = {}

    def add(self, pairs: Pairs) -> None:
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        me_c, me_n = sc[:, SEAT0], sn[:, SEAT0]
        team = SEAT0 % 2
        cols = {
            "success": me_c["finish"] == 1,
            "points_call": me_c["points"].astype(np.float64),
            "points_no_call": me_n["points"].astype(np.float64),
            "dv_call": _team_won_double(rc, team),
            "dv_no_call": _team_won_double(rn, team),
            "first_no_call": me_n["finish"] == 1,
            "tichu_no_call": me_n["tichu"],
        }
        for k, v in cols.items():
            self.parts.setdefault(k, []).append(v)

    def col(self, name: str) -> np.ndarray:
        return np.concatenate(self.parts[name])

    @property
    def n(self) -> int:
        return sum(len(p) for p in self.parts.get("success", []))

    def p_success(self) -> Estimate:
        s = self.col("success")
        return wilson(int(s.sum()), s.size)


def _half(e: Estimate) -> float:
    return (e.high - e.low) / 2


def gt_odds(hand: str, *, deals: int = 100_000, precision: float | None = None, seed: int = 0,
            seat_strategy="heuristic", others="heuristic", check: bool = False,
            progress: Callable[[int, int, Estimate], None] | None = None) -> GTOdds:
    """Estimate the Grand Tichu odds of ``hand`` (``cards.parse_pattern`` notation).

    Plays up to ``deals`` deals (each twice). With ``precision`` (e.g. ``0.01`` for ±1
    percentage point) it stops as soon as the 95% interval of ``p_success`` has a half-width
    below it, checked after each batch (batches are sized from the current estimate so that
    few checks are needed; never before ``MIN_DEALS``). ``progress(done, total, p_success)`` is
    called after each batch. Deterministic: the same arguments give the same answer.
    """
    exact, ranks = cards.parse_pattern(hand)
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals must be a positive whole number, not {deals!r}")
    if precision is not None and not (0 < precision < 0.5):
        raise ValueError(f"precision must be between 0 and 0.5 (a half-width), not {precision!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number in [0, 2**64), not {seed!r}")
    call, no_call = seat_strategies(seat_strategy, others)
    t0 = time.perf_counter()
    tally = _Tally()
    done = 0
    step = min(deals, 2 * MIN_DEALS if precision else MAX_BATCH)
    while done < deals:
        keys = np.arange(done, done + step, dtype=np.int64)
        tally.add(paired_rounds(seed, keys, call, no_call, fixed=(exact, ranks), check=check))
        done += step
        p = tally.p_success()
        if progress is not None:
            progress(done, deals, p)
        if precision and done >= MIN_DEALS and _half(p) < precision:
            break
        if precision:
            # deals needed for the half-width at the current estimate, a little over
            q = min(max(p.value, 0.02), 0.98)
            need = math.ceil(1.1 * (1.959964**2) * q * (1 - q) / precision**2)
            step = max(MIN_DEALS, min(need - done, MAX_BATCH))
        else:
            step = MAX_BATCH
        step = min(step, deals - done)
    diff = tally.col("points_call") - tally.col("points_no_call")

    def rate(name):
        x = tally.col(name)
        return wilson(int(x.sum()), x.size)

    return GTOdds(
        hand=cards.format_pattern(exact, ranks),
        deals=tally.n,
        seed=int(seed),
        strategies=tuple(s.name for s in [resolve(seat_strategy, 1)[0], *call[1:]]),
        p_success=tally.p_success(),
        ev_call=mean_ci(tally.col("points_call")),
        ev_no_call=mean_ci(tally.col("points_no_call")),
        ev_diff=mean_ci(diff),
        double_victory_call=rate("dv_call"),
        double_victory_no_call=rate("dv_no_call"),
        first_out_no_call=rate("first_no_call"),
        tichu_no_call=rate("tichu_no_call"),
        seconds=time.perf_counter() - t0,
    )
