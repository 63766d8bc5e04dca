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

Every team game plays it (``variant``), with its Options (``options``, as
``Game.options``): Tientsin's seat 0 sees 6 cards before its Grand Tichu decision and the
first drawer rotates over the 6 seats (§3); in Wu Wang neither the King nor the Minister may
call (§4), so the hand is an opponent's, player 1, at the King's right (player 0 is King in
every deal: the roles, not the names, matter).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from .. import cards, checks
from ..games import TEAM_GAMES, game
from ..games.agents import Agent, Without, as_agent, is_agent
from ..stats import Z95, Estimate, Paired, json_estimates, wilson
from ..strategies import ANSWER_STRATEGY
from ..strategies.tichu import Strategy, resolve
from .played_once import played_once

if TYPE_CHECKING:
    from ..games.team import TeamGame

__all__ = [
    "CallAnswer",
    "GTOdds",
    "Pairs",
    "Setup",
    "check_hand",
    "check_run",
    "decision",
    "gt_odds",
    "paired_rounds",
    "seat_strategies",
    "setup",
]

SEAT0 = 0  # the 4-player game's hand (seats 1 and 3 are its opponents, 2 its partner)
MIN_DEALS = 1000  # never stop on precision before this many deals
MAX_BATCH = 50_000


@dataclass(frozen=True)
class Setup:
    """Where the hand sits in a team game: the ``game``, the hand's ``player`` (its strategy
    row and seat row in the records) and engine position ``seat``, and the first drawers
    (Wu Wang: the King) of round keys (``firsts``)."""

    game: TeamGame
    player: int
    seat: int

    def firsts(self, keys: np.ndarray, sizes=None) -> np.ndarray:
        """First drawers rotating with the key over the seats (``sizes``: only those giving
        the hand that many cards, Tientsin §3); Wu Wang: player 0 is King."""
        if self.game.drawer_is_king:
            return np.zeros(len(keys), np.int64)
        n = self.game.seats
        ok = [
            f
            for f in range(n)
            if sizes is None or self.game.hand_size((self.seat - f) % n) in sizes
        ]
        return np.asarray(ok, np.int64)[keys % len(ok)]

    def strategy_names(self, row: list, seat_strategy) -> tuple[str, ...]:
        """The names an answer prints for a table's strategies ``row`` (one per player): the
        hand's ``seat_strategy`` as given (not its forced call), then the others' in turn
        order from its right."""
        me = _one(seat_strategy, self.game.name)
        row = [me if i == self.player else s for i, s in enumerate(row)]
        return tuple(s.name for s in row[self.player :] + row[: self.player])


def setup(variant: str = "nanjing", options: dict | None = None) -> Setup:
    """The hand's place in the game ``variant`` with ``options`` (``ValueError`` for a game
    that is no team game or an unknown option): the first seat that may call Grand Tichu,
    player 0 being King in Wu Wang (seat 1, an opponent at the King's right: §4)."""
    if variant not in TEAM_GAMES:
        raise ValueError(
            f"variant must be {', '.join(TEAM_GAMES[:-1])} or {TEAM_GAMES[-1]}, not {variant!r}"
        )
    played = cast("TeamGame", game(variant, options=options))
    seat = next(s for s in range(played.seats) if played.may_call_grand(s))
    return Setup(played, seat, seat)  # Wu Wang with King 0: player p sits at position p


def seat_strategies(
    seat_strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    *,
    variant="nanjing",
    grand: tuple[str, str] = ("always", "never"),
    suffix: tuple[str, str] = ("+GT", "-GT"),
    set_calls: tuple[str, ...] = ("grand_tichu",),
) -> tuple[list, list]:
    """The two tables' strategies, one per player: the hand's strategy forced to call / not
    call Grand Tichu (``grand``), ``others`` (one strategy, or one per other player in turn
    order from the hand's right: the 4-player game's right opponent, partner, left opponent)
    unchanged in both. An agent at the hand keeps its decisions but ``set_calls``, which the
    experiment sets."""
    place = setup(variant)
    players = place.game.players
    me = _one(seat_strategy, variant)
    if not isinstance(others, (list, tuple)) or is_agent(others):
        others = [others] * (players - 1)
    if len(others) != players - 1:
        raise ValueError(f"others: give one strategy or {players - 1}, one per other player")
    rest = [_one(s, variant) for s in others]
    call, no_call = (
        _forced(me, g, f"{me.name}{x}", variant, set_calls)
        for g, x in zip(grand, suffix, strict=False)
    )
    h = place.player
    order = [(h + 1 + i) % players for i in range(players - 1)]  # the others from the right
    tables = []
    for mine in (call, no_call):
        row = [None] * players
        row[h] = mine
        for who, s in zip(order, rest, strict=False):
            row[who] = s
        tables.append(row)
    return tables[0], tables[1]


def _one(spec, variant: str):
    """A player's strategy: a Python agent (``tichusim.Agent``) built, any other resolved."""
    return as_agent(spec) if is_agent(spec) else resolve(spec, 1, variant=variant)[0]


def _forced(me, grand: str, name: str, variant: str, set_calls: tuple[str, ...]):
    """``me`` with its Grand Tichu policy ``grand``: an agent keeps its decisions but
    ``set_calls`` (``tichu-odds`` also sets the Tichu call through the fixed deal), its base
    strategy takes those (RULES.md §2.3)."""
    if not isinstance(me, Agent):
        return dataclasses.replace(me, grand_tichu=grand, name=name)
    base = resolve(me.base, 1, variant=variant)[0]
    return Without(me, dataclasses.replace(base, grand_tichu=grand), set_calls, name)


@dataclass(frozen=True)
class Pairs:
    """Raw records of paired plays: ``call`` and ``no_call`` are ``(ROUND, SEAT)`` record
    arrays of the same deals (row ``i`` of each is round key ``keys[i]``)."""

    keys: np.ndarray
    call: tuple[np.ndarray, np.ndarray]
    no_call: tuple[np.ndarray, np.ndarray]


def _play(seed, keys, strategies, fixed, check, place, firsts, fixed_ranks=None):
    """The table's rounds ``keys`` (first drawers ``firsts``), through the games' driver: a
    failed round raises ``SimulationError``. ``fixed_ranks`` replaces the rank counts of
    ``fixed`` (the call set by ``tichu-odds``)."""
    if fixed is not None and fixed_ranks is not None:
        fixed = (fixed[0], fixed_ranks)
    rec = place.game.rounds(
        keys,
        seed=seed,
        strategies=strategies,
        check=check,
        first_drawers=firsts,
        fixed=fixed,
        fixed_seat=place.seat,
    )
    return rec.rounds, rec.seats


def paired_rounds(
    seed: int,
    keys,
    call: list[Strategy],
    no_call: list[Strategy],
    *,
    fixed: tuple[int, np.ndarray] | None = None,
    check: bool = False,
    place: Setup | None = None,
    firsts: np.ndarray | None = None,
    ranks: tuple[np.ndarray, np.ndarray] | None = None,
) -> Pairs:
    """Play round keys ``keys`` twice, with the seat strategies ``call`` and ``no_call``.
    ``fixed = (exact_mask, rank_counts)`` fixes the hand's first 8 cards (``parse_pattern``);
    ``None`` deals all 56 cards at random (the same deals in both tables). ``place``: the
    table and the hand's seat (``setup``; the 4-player game's seat 0 by default), ``firsts``
    the first drawers (rotating with the key by default); ``ranks``: the rank counts of the
    call and of the no-call plays, when they differ (``tichu-odds``)."""
    keys = np.asarray(keys, np.int64)
    place = place or setup()
    firsts = place.firsts(keys) if firsts is None else firsts
    rc, rn = ranks if ranks is not None else (None, None)
    return Pairs(
        keys,
        _play(seed, keys, call, fixed, check, place, firsts, rc),
        _play(seed, keys, no_call, fixed, check, place, firsts, rn),
    )


def decision(gain: Estimate) -> str:
    """The answer to "should I call?" from the points calling gains: ``call`` or ``do not
    call`` when its interval excludes 0 (``Estimate.sign``), else ``too close to tell``."""
    return {1: "call", -1: "do not call", 0: "too close to tell"}[gain.sign]


class CallAnswer:
    """What the answers to "should I call?" share (``GTOdds``, ``tichuodds.TichuOdds``): the
    estimates by name (``ESTIMATES``, each with its interval in ``to_dict``), the decision from
    the paired difference, and the lines of the call's figures."""

    ESTIMATES: tuple[str, ...] = ()
    # what every answer holds (its dataclass's fields, declared there)
    strategies: tuple[str, ...]
    p_success: Estimate
    ev_call: Estimate
    ev_no_call: Estimate
    ev_diff: Estimate
    double_victory_call: Estimate
    seconds: float

    def head(self) -> dict:
        """The answer's identity in ``to_dict``: hand, deals, seed, strategies, ..."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """JSON-ready figures (``--json``): ``estimates``, each estimate by name in the one
        shape (``stats.Estimate.to_json``); beside them, deprecated, the flat keys ``<name>``,
        ``<name>_ci_low`` and ``<name>_ci_high`` (``p_success``'s as ``ci_low``, ``ci_high``)."""
        estimates = {name: getattr(self, name) for name in self.ESTIMATES}
        out = self.head() | json_estimates(estimates, {"p_success": ("ci_low", "ci_high")})
        out["decision"] = self.decision
        out["seconds"] = round(self.seconds, 3)
        return out

    @property
    def decision(self) -> str:
        """``call`` / ``do not call`` when the interval of the paired difference excludes 0."""
        return decision(self.ev_diff)

    @property
    def others_text(self) -> str:
        others = self.strategies[1:]
        return others[0] if len(set(others)) == 1 else ", ".join(others)

    def call_lines(self) -> list[str]:
        return [
            f"  P(out first | call)             {self.p_success.pct(5, '  ')}",
            f"  double victory | call           {self.double_victory_call.pct(5, '  ')}",
            f"  team points/round, call         {self.ev_call.pts(7, '  ')}",
            f"  team points/round, no call      {self.ev_no_call.pts(7, '  ')}",
            f"  call - no call (same deals)     {self.ev_diff.pts(7, '  ')}   -> {self.decision}",
        ]


@dataclass(frozen=True)
class GTOdds(CallAnswer):
    """The answer for one hand pattern. Points are the caller's team round score (§2.14)."""

    hand: str
    deals: int
    seed: int
    strategies: tuple[str, ...]  # the hand's, then the others' in turn order from its right
    p_success: Estimate  # caller out first when calling (Wilson)
    ev_call: Estimate
    ev_no_call: Estimate
    ev_diff: Estimate  # call minus no call, per deal on the same deals
    double_victory_call: Estimate  # the caller's team goes out 1-2 (Wilson)
    double_victory_no_call: Estimate
    first_out_no_call: Estimate  # the seat goes out first without the call (Wilson)
    tichu_no_call: Estimate  # the seat calls a plain Tichu when it does not call Grand Tichu
    seconds: float

    ESTIMATES = (
        "p_success",
        "ev_call",
        "ev_no_call",
        "ev_diff",
        "double_victory_call",
        "double_victory_no_call",
        "first_out_no_call",
        "tichu_no_call",
    )

    def head(self) -> dict:
        return {
            "hand": self.hand,
            "deals": self.deals,
            "seed": self.seed,
            "strategies": list(self.strategies),
        }

    def __str__(self) -> str:
        def pct(e):
            return e.pct(5, "  ")

        return "\n".join(
            [
                f"Grand Tichu odds for {self.hand}  ({self.deals:,} deals, seed {self.seed}; "
                f"seat strategy {self.strategies[0]}, others {self.others_text})",
                *self.call_lines(),
                f"  without the call: out first {pct(self.first_out_no_call).strip()}, "
                f"plain Tichu called {pct(self.tichu_no_call).strip()}, "
                f"double victory {pct(self.double_victory_no_call).strip()}",
                "  (brackets: 95% intervals; Wilson for rates, normal for means)",
            ]
        )


class _Tally:
    """Per-deal figures accumulated batch by batch (the hand's row ``player`` of the seats)."""

    def __init__(self, player: int = SEAT0):
        self.parts: dict[str, list[np.ndarray]] = {}
        self.player = player

    def add(self, pairs: Pairs) -> None:
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        me_c, me_n = sc[:, self.player], sn[:, self.player]
        cols = {
            "success": me_c["finish"] == 1,
            "points_call": me_c["points"].astype(np.float64),
            "points_no_call": me_n["points"].astype(np.float64),
            # a double (Tientsin: triple) victory is the hand's team's when it is among the
            # players out (§2.13, §3): the others have finish 0
            "dv_call": rc["double_victory"] & (me_c["finish"] > 0),
            "dv_no_call": rn["double_victory"] & (me_n["finish"] > 0),
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


def gt_odds(
    hand: str,
    *,
    deals: int = 100_000,
    precision: float | None = None,
    seed: int = 0,
    seat_strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    check: bool = False,
    progress: Callable[[int, int, Estimate | None], None] | None = None,
    variant: str = "nanjing",
    options: dict | None = None,
) -> GTOdds:
    """Estimate the Grand Tichu odds of ``hand`` (``cards.parse_pattern`` notation) at the
    team game ``variant`` with its ``options`` (8 cards; Tientsin 6).

    Plays up to ``deals`` deals (each twice). With ``precision`` (e.g. ``0.01`` for ±1
    percentage point) it stops as soon as the 95% interval of ``p_success`` has a half-width
    below it, checked after each batch (batches are sized from the current estimate so that
    few checks are needed; never before ``MIN_DEALS``). ``progress(done, total, p_success)`` is
    called after each batch, and with ``done`` 0 (and ``None``) once the kernels are compiled
    (``analysis.played_once``). Deterministic: the same arguments give the same answer.
    """
    place = setup(variant, options)
    exact, ranks = cards.parse_pattern(hand, place.game.grand_tichu_cards)
    check_run(deals, precision, seed)
    call, no_call = seat_strategies(seat_strategy, others, variant=variant)
    played_once(
        lambda keys: paired_rounds(
            seed, keys, call, no_call, fixed=(exact, ranks), check=check, place=place
        ),
    )
    if progress is not None:
        progress(0, deals, None)
    t0 = time.perf_counter()
    tally = _Tally(place.player)
    done = 0
    step = min(deals, 2 * MIN_DEALS if precision else MAX_BATCH)
    while done < deals:
        keys = np.arange(done, done + step, dtype=np.int64)
        tally.add(
            paired_rounds(seed, keys, call, no_call, fixed=(exact, ranks), check=check, place=place)
        )
        done += step
        p = tally.p_success()
        if progress is not None:
            progress(done, deals, p)
        if precision and done >= MIN_DEALS and p.half_width < precision:
            break
        step = _next_batch(p, done, deals, precision)
    points = Paired(np.stack([tally.col("points_call"), tally.col("points_no_call")]))

    def rate(name):
        x = tally.col(name)
        return wilson(int(x.sum()), x.size)

    return GTOdds(
        hand=cards.format_pattern(exact, ranks),
        deals=tally.n,
        seed=int(seed),
        strategies=place.strategy_names(call, seat_strategy),
        p_success=tally.p_success(),
        ev_call=points.estimate(0),
        ev_no_call=points.estimate(1),
        ev_diff=points.difference(0, 1),
        double_victory_call=rate("dv_call"),
        double_victory_no_call=rate("dv_no_call"),
        first_out_no_call=rate("first_no_call"),
        tichu_no_call=rate("tichu_no_call"),
        seconds=time.perf_counter() - t0,
    )


def _next_batch(p: Estimate, done: int, deals: int, precision: float | None) -> int:
    """How many deals the next batch plays: with a ``precision``, about as many as the success
    rate ``p`` needs for an interval that narrow (at least ``MIN_DEALS``); else ``MAX_BATCH``;
    never past ``deals``."""
    if precision:
        # deals needed for the half-width at the current estimate, a little over
        q = min(max(p.value, 0.02), 0.98)
        need = math.ceil(1.1 * Z95**2 * q * (1 - q) / precision**2)
        step = max(MIN_DEALS, min(need - done, MAX_BATCH))
    else:
        step = MAX_BATCH
    return min(step, deals - done)


def check_run(deals, precision, seed) -> None:
    """``ValueError`` for a run of the odds commands they would refuse."""
    checks.whole(deals, "deals", 1)
    if precision is not None and not (0 < precision < 0.5):
        raise ValueError(f"precision must be between 0 and 0.5 (a half-width), not {precision!r}")
    checks.seed(seed)


def check_hand(hand: str, variant: str = "nanjing", options: dict | None = None) -> None:
    """``ValueError`` for a hand ``gt_odds`` would refuse (the command asks before its progress
    bar appears): the cards seen before the call, 8 (Tientsin 6)."""
    cards.parse_pattern(hand, setup(variant, options).game.grand_tichu_cards)
