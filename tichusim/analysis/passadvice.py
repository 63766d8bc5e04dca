"""Which three cards should this hand pass? Candidate passes ranked by paired simulation.

The hand's seat (seat 0 of the 4-player game) is dealt the 14 given cards as its whole hand,
before the passing (RULES.md §2.2, §2.4); the other 42 cards are dealt at random from the
round's deal stream (``kernels/tichu/deal._deal_fixed``, ``records.FIX_BEFORE_PASSING``),
which does not depend on the pass, so one round key deals the other seats the same cards
whatever the seat passes, and their decisions draw from the same random streams. A candidate
pass is one card to each other seat, in the rule books' order (§2.1; ``Gifts.receivers``): the
right opponent (the next seat), the partner, the left opponent. The kernel makes the seat give
exactly those cards in place of its strategy's passing; every other decision is its
strategy's: the Tichu call before the passing (on the 14 cards, the same for every candidate)
and after it (on the hand the pass leaves it, §2.3), the play, the wish, the Dragon, the Dog.
It never calls Grand Tichu: the question is about a 14-card hand already seen, and a player
who called Grand Tichu on 8 of them would be asking another question (its first 8 cards, a
random 8 of the 14, matter to nothing else). The first drawer rotates with the round key.

Candidates (``candidates``, deduplicated, each labelled with where it came from):

* the passes the scripted passing policies make with this hand (``PROBE_POLICIES``, the seat's
  own strategy first): the pass each makes most often over ``PROBE_DEALS`` deals (some look at
  the calls made before the passing, which vary from deal to deal);
* a structured set: the partner gets one of the hand's ``TOP`` best cards (Dragon, Phoenix,
  then the highest ranks), each opponent one of its ``LOW`` lowest loose cards (the Dog first,
  then ranks held once and outside every run of five consecutive ranks: cards whose loss
  breaks no pair, triple, bomb or straight), both ways round;
* the user's passes (``candidates``).

Two phases spend the deals on the contenders, every candidate of a phase on the same round
keys, so every difference is paired deal by deal:

* **screening** (successive halving): every candidate plays the first ``deals //
  SCREEN_SHARE`` deals (at least ``MIN_SCREEN``), the better half by mean points goes on to
  twice as many, and so on while more than ``keep`` remain; a candidate dropped there keeps
  its figures, and its paired difference to the best, on the keys it played. Screening is
  cheap (the field is mostly plain mistakes, the Dragon given away, an Ace to an opponent) and
  only picks the finalists;
* **final**: the ``keep`` best of the last screening stage play ``deals`` fresh deals, round
  keys after every key screening used. The finalists' figures are on those deals alone: the
  deals that selected them are not counted again, so their means and intervals carry no bias
  from the selection (pooling them would favour whichever candidate screening's luck
  favoured).

The figure that ranks is the seat's team round score (§2.14) per deal; the paired difference
to the best, deal by deal, removes the luck of the deal from its interval. With ``keep`` or
fewer candidates (``candidates`` only, say) there is no screening: all play the final.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .. import cards, checks
from ..games.agents import Agent
from ..kernels.tichu import records
from ..stats import Estimate, Paired, json_estimates, percent, wilson
from ..strategies import ANSWER_STRATEGY
from .gtodds import MAX_BATCH, check_run, seat_strategies, setup
from .played_once import played_once

__all__ = [
    "PassAdvice",
    "PassCandidate",
    "check_candidates",
    "check_hand",
    "parse_pass",
    "pass_advice",
    "pass_candidates",
]

SIDES = ("right", "partner", "left")  # the receivers in turn order from the next seat (§2.1)
PROBE_POLICIES = (
    "expert",
    "support-call",
    "keep-combos",
    "partner-best",
    "odd-even",
    "dog-partner",
    "dog-opponent",
    "lowest",
)
PROBE_DEALS = 64  # deals a passing policy is watched for to find its usual pass
TOP = 3  # the partner's candidate cards: the hand's best few
LOW = 4  # the opponents' candidate cards: the lowest loose few
KEEP = 4  # the finalists: the candidates that play the final's ``deals`` fresh deals
SCREEN_SHARE = 25  # screening's first stage plays ``deals // SCREEN_SHARE`` deals ...
MIN_SCREEN = 100  # ... and at least this many
DEALS = 4_000  # the finalists' deals by default: under 10 s with learned at every seat
Pass = tuple[int, int, int]  # one-card masks to the right opponent, the partner, the left one


@dataclass(frozen=True)
class PassCandidate:
    """One pass and its figures on the ``deals`` deals it played: a finalist's (``final``) the
    final's fresh deals, a dropped one's the first ``deals`` screening keys. The seat's team
    round score per deal, its paired difference to the best candidate on the same deals
    (``None`` for the best), the seat out first, its Tichu call (before or after the passing)
    and the call's success, the team's double victory."""

    right: str
    partner: str
    left: str
    sources: tuple[str, ...]  # "user", a passing policy's name, "structured"
    deals: int
    final: bool  # played the final (its figures on the final's deals), or dropped in screening
    points: Estimate
    diff: Estimate | None
    first_out: Estimate
    tichu: Estimate
    tichu_success: Estimate  # out first among the deals it called Tichu
    double_victory: Estimate

    @property
    def cards(self) -> str:
        return f"{self.right}, {self.partner}, {self.left}"

    def to_dict(self) -> dict:
        out: dict = {
            "right": self.right,
            "partner": self.partner,
            "left": self.left,
            "sources": list(self.sources),
            "deals": self.deals,
            "final": self.final,
        }
        # the best candidate's difference to itself is 0 on each of its deals
        diff = self.diff if self.diff is not None else Estimate(0.0, 0.0, 0.0, self.deals)
        names = ("points", "diff", "first_out", "tichu", "tichu_success", "double_victory")
        estimates = {name: getattr(self, name) for name in names} | {"diff": diff}
        return out | json_estimates(estimates)


@dataclass(frozen=True)
class PassAdvice:
    """The candidates best first: the finalists by mean points on the final's deals, then
    those dropped at each screening stage, latest first."""

    hand: str
    deals: int  # the final's deals, played by each finalist
    seed: int
    strategies: tuple[str, ...]  # the hand's, then the others' in turn order from its right
    candidates: tuple[PassCandidate, ...]
    # (candidates, deals) of each screening stage (deals reached: round keys 0 ..), then the
    # final's (finalists, deals: round keys ``screened`` ..)
    stages: tuple[tuple[int, int], ...]
    screened: int  # round keys screening used; the final's keys follow them
    rounds: int  # rounds played in all
    seconds: float

    @property
    def best(self) -> PassCandidate:
        return self.candidates[0]

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "deals": self.deals,
            "seed": self.seed,
            "strategies": list(self.strategies),
            "stages": [
                {"candidates": c, "deals": d, "final": i == len(self.stages) - 1}
                for i, (c, d) in enumerate(self.stages)
            ],
            "screened": self.screened,
            "rounds": self.rounds,
            "candidates": [c.to_dict() for c in self.candidates],
            "seconds": round(self.seconds, 3),
        }

    def __str__(self) -> str:
        others = self.strategies[1:]
        others_text = others[0] if len(set(others)) == 1 else ", ".join(others)
        *screening, (finalists, deals) = self.stages
        stages = " -> ".join(f"{c} x {d:,}" for c, d in screening)
        stages = (
            f"screening {stages}; final {finalists} x {deals:,} fresh deals"
            if screening
            else f"{finalists} x {deals:,} deals, no screening"
        )
        lines = [
            f"Pass advice for {self.hand}  (seed {self.seed}; seat strategy "
            f"{self.strategies[0]}, others {others_text})",
            f"  candidates x deals: {stages}",
            f"  {'':>3} {'right':>5} {'partner':>7} {'left':>5}  {'team points/round':<25}"
            f"{'vs best, same deals':<25}{'out first':<21}{'Tichu':>6}{'deals':>8}  from",
        ]
        for i, c in enumerate(self.candidates, 1):
            vs = "best" if c.diff is None else c.diff.pts(6, " ")
            lines.append(
                f"  {i:>3} {c.right:>5} {c.partner:>7} {c.left:>5}  {c.points.pts(6, ' '):<25}"
                f"{vs:<25}{c.first_out.pct(5, ' '):<21}{percent(c.tichu.value, 5):>6}"
                f"{c.deals:>8,}  {', '.join(c.sources)}"
            )
        lines.append(
            "  (right: the right opponent, the next seat; brackets: 95% intervals, Wilson for "
            "rates; Tichu: called before or after the passing; the finalists' figures are on "
            "the final's deals only, the others' on the screening deals they played)"
        )
        return "\n".join(lines)


def check_hand(hand: str) -> int:
    """The mask of ``hand``, 14 cards each named with its suit (``ValueError`` otherwise)."""
    if not isinstance(hand, str):
        raise ValueError(f"hand must be a string, not {type(hand).__name__}")
    try:
        exact, ranks = cards.parse_pattern(hand, 14)
    except ValueError as exc:
        raise ValueError(f"hand: {exc}") from None
    if ranks.any():
        raise ValueError("hand: name every card with its suit (Aj, not A): the pass is a card")
    return exact


def parse_pass(text, hand: int) -> Pass:
    """A pass ``"right, partner, left"`` (or three cards) of ``hand``, checked."""
    tokens = (
        [t for t in str(text).replace(",", " ").split() if t]
        if isinstance(text, str)
        else [str(t) for t in text]
    )
    if len(tokens) != 3:
        raise ValueError(
            f"candidate {text!r}: give three cards, to the right opponent, the partner and "
            f"the left opponent, not {len(tokens)}"
        )
    bits = []
    for token in tokens:
        try:
            bit = cards.parse(token)
        except ValueError as exc:
            raise ValueError(f"candidate {text!r}: {exc}") from None
        if bit & (bit - 1):
            raise ValueError(f"candidate {text!r}: {token!r} is not one card")
        if not bit & hand:
            raise ValueError(f"candidate {text!r}: {token!r} is not in the hand")
        if bit in bits:
            raise ValueError(f"candidate {text!r}: {token!r} given twice")
        bits.append(bit)
    return bits[0], bits[1], bits[2]


def check_candidates(hand: str, candidates: Sequence = ()) -> None:
    """``ValueError`` for a hand or passes ``pass_advice`` would refuse (the command asks
    before its progress bar appears)."""
    exact = check_hand(hand)
    for c in candidates:
        parse_pass(c, exact)


def _rank(bit: int) -> int:
    """A card's rank for ordering: Dog 0, Mah Jong 1, 2..14, Phoenix 15, Dragon 16."""
    if bit == cards.DOG:
        return 0
    if bit == cards.MAH_JONG:
        return 1
    if bit == cards.PHOENIX:
        return 15
    if bit == cards.DRAGON:
        return 16
    return (bit.bit_length() - 1) % 16


def _loose(hand: int) -> list[int]:
    """The hand's cards whose loss breaks no pair, triple, bomb or straight, lowest first: the
    Dog, then ranked cards held once and outside every run of five or more consecutive ranks
    (the Mah Jong counting as rank 1; the Phoenix not filling gaps)."""
    held = cards.cards_of(hand)
    count = Counter(_rank(b) for b in held if b & cards.NORMAL)
    present = set(count) | ({1} if hand & cards.MAH_JONG else set())
    in_run: set[int] = set()
    for low in present:
        if low - 1 in present:
            continue  # not the start of a run
        high = low
        while high + 1 in present:
            high += 1
        if high - low + 1 >= 5:
            in_run.update(range(low, high + 1))
    out = [b for b in held if b == cards.DOG]
    out += [b for b in held if b & cards.NORMAL and count[_rank(b)] == 1 and _rank(b) not in in_run]
    return sorted(out, key=_rank)


def _best_cards(hand: int) -> list[int]:
    """The partner's candidates: the hand's ``TOP`` best cards, one per rank (the Dragon, the
    Phoenix, then the highest ranks; of a rank, a loose card if one is)."""
    loose = set(_loose(hand))
    by_rank: dict[int, int] = {}
    for b in sorted(cards.cards_of(hand), key=lambda b: (_rank(b), b in loose)):
        if b != cards.DOG and b != cards.MAH_JONG:
            by_rank[_rank(b)] = b  # the last of a rank: a loose one when there is one
    return [by_rank[r] for r in sorted(by_rank, reverse=True)][:TOP]


def _low_cards(hand: int, exclude: int) -> list[int]:
    """The opponents' candidates: the ``LOW`` lowest loose cards, topped up with the lowest
    ranked cards when fewer than three are loose."""
    low = [b for b in _loose(hand) if not b & exclude]
    if len(low) < 3:
        rest = sorted(
            (b for b in cards.cards_of(hand) if b & cards.NORMAL and b not in low),
            key=_rank,
        )
        low += rest[: 3 - len(low)]
    return low[:LOW]


def _structured(hand: int) -> list[Pass]:
    out: list[Pass] = []
    for p in _best_cards(hand):
        low = _low_cards(hand, p)
        for a in low:
            for b in low:
                if a != b and a != p and b != p:
                    out.append((a, p, b))
    return out


def _spec(p: Pass) -> int:
    """``FIX_RECEIVED`` for a pass: card index + 1, 6 bits per receiver (kernel order)."""
    return sum(bit.bit_length() << (6 * j) for j, bit in enumerate(p))


def _ranks(spec: int) -> np.ndarray:
    r = np.zeros(15, np.int64)
    r[records.FIX_MODE] = records.FIX_BEFORE_PASSING
    r[records.FIX_RECEIVED] = spec
    return r


def _play(place, seed, keys, strategies, exact, spec, check):
    rec = place.game.rounds(
        keys,
        seed=seed,
        strategies=strategies,
        check=check,
        first_drawers=place.firsts(keys),
        fixed=(exact, _ranks(spec)),
        fixed_seat=place.seat,
    )
    return rec.rounds, rec.seats


def pass_candidates(
    hand: str,
    *,
    seed: int = 0,
    strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    candidates: Sequence = (),
    generated: bool = True,
) -> list[tuple[Pass, tuple[str, ...]]]:
    """The candidate passes of ``hand`` with their sources (the module's docstring), the
    user's first, then the policies' (the seat's own first), then the structured set."""
    exact = check_hand(hand)
    found: dict[Pass, list[str]] = {}
    for c in candidates:
        found.setdefault(parse_pass(c, exact), []).append("user")
    if generated:
        for p, source in _policy_passes(exact, seed, strategy, others):
            found.setdefault(p, []).append(source)
        for p in _structured(exact):
            found.setdefault(p, []).append("structured")
    return [(p, tuple(s)) for p, s in found.items()]


def _policy_passes(exact: int, seed: int, strategy, others) -> list[tuple[Pass, str]]:
    """The pass each probed policy makes most often with the hand (ties: the first seen)."""
    place = setup()
    table, _ = seat_strategies(
        strategy, others, grand=("never", "never"), suffix=("", ""), set_calls=("grand_tichu",)
    )
    me = table[place.player]
    probes = [(me, me.name)]
    if not isinstance(me, Agent):
        probes += [
            (dataclasses.replace(me, pass_=policy, name=f"{me.name}[pass={policy}]"), policy)
            for policy in PROBE_POLICIES
            if policy != me.pass_
        ]
    keys = np.arange(PROBE_DEALS, dtype=np.int64)
    out: list[tuple[Pass, str]] = []
    for probe, label in probes:
        row = list(table)
        row[place.player] = probe
        _, seats = _play(place, seed, keys, row, exact, 0, False)
        given = seats[:, place.player]["given"]
        usual = Counter((int(g[0]), int(g[1]), int(g[2])) for g in given).most_common(1)[0][0]
        out.append((usual, label))
    return out


def _plan(k: int, deals: int, keep: int) -> list[tuple[int, int]]:
    """Screening's stages, (candidates, deals reached) each: the field halved and the deals
    doubled at each stage while more than ``keep`` candidates remain, the first stage at
    ``deals // SCREEN_SHARE`` deals (``MIN_SCREEN`` at least); none when ``k <= keep``."""
    first = max(MIN_SCREEN, deals // SCREEN_SHARE)
    stages: list[tuple[int, int]] = []
    count = k
    while count > keep:
        stages.append((count, first << len(stages)))
        count = math.ceil(count / 2)
    return stages


def pass_advice(
    hand: str,
    *,
    deals: int = DEALS,
    seed: int = 0,
    strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    candidates: Sequence | None = None,
    generated: bool = True,
    keep: int = KEEP,
    check: bool = False,
    progress: Callable[[int, int, str | None], None] | None = None,
) -> PassAdvice:
    """Rank candidate passes of ``hand`` (14 cards with their suits) for the 4-player game's
    seat 0: ``candidates`` adds passes (``"right, partner, left"`` cards), ``generated=False``
    keeps only those; ``deals`` is what the ``keep`` finalists play, fresh deals after
    screening's (module docstring); ``strategy`` and ``others`` as ``tichu_odds``'s
    ``seat_strategy`` and ``others``. ``progress(done, total, leader)`` counts rounds (0 once
    the kernels are compiled). Deterministic: the same arguments give the same answer."""
    exact = check_hand(hand)
    check_run(deals, None, seed)
    checks.whole(keep, "keep", 1)
    given = list(candidates or ())
    place = setup()
    table, _ = seat_strategies(
        strategy, others, grand=("never", "never"), suffix=("", ""), set_calls=("grand_tichu",)
    )
    played_once(
        lambda keys: _play(place, seed, keys, table, exact, 0, check),
    )
    found = pass_candidates(
        hand, seed=seed, strategy=strategy, others=others, candidates=given, generated=generated
    )
    if not found:
        raise ValueError("no candidate passes: give one with candidates, or let them be generated")
    deals = int(deals)
    plan = _plan(len(found), deals, keep)
    screened = plan[-1][1] if plan else 0  # final keys: screened .. screened + deals - 1
    finalists = min(keep, len(found))
    total, before = finalists * deals, 0
    for count, reach in plan:
        total += count * (reach - before)
        before = reach
    if progress is not None:
        progress(0, total, None)
    t0 = time.perf_counter()
    screen: list[dict[str, list[np.ndarray]]] = [{} for _ in found]
    final: list[dict[str, list[np.ndarray]]] = [{} for _ in found]
    alive = list(range(len(found)))
    done = 0

    def play(cols, alive, lo, hi):
        nonlocal done
        for first in range(lo, hi, MAX_BATCH):
            keys = np.arange(first, min(hi, first + MAX_BATCH), dtype=np.int64)
            for i in alive:
                _record(cols[i], place, seed, keys, table, exact, found[i][0], check)
                done += len(keys)
                if progress is not None:
                    progress(done, total, _leader(found, cols, alive))

    start = 0
    for count, reach in plan:
        alive = sorted(alive, key=lambda i: -_mean(screen[i]))[:count] if start else alive
        play(screen, alive, start, reach)
        start = reach
    alive = sorted(alive, key=lambda i: -_mean(screen[i]))[:finalists] if plan else alive
    play(final, alive, screened, screened + deals)
    seconds = time.perf_counter() - t0
    stages = (*plan, (finalists, deals))
    return _answer(
        hand, exact, seed, strategy, table, found, (screen, final), stages, screened, done, seconds
    )


def _record(col, place, seed, keys, table, exact, p: Pass, check) -> None:
    """Play the pass ``p`` on round keys ``keys`` and add the seat's figures to ``col``."""
    rounds, seats = _play(place, seed, keys, table, exact, _spec(p), check)
    me = seats[:, place.player]
    for name, v in (
        ("points", me["points"].astype(np.float64)),
        ("first", me["finish"] == 1),
        ("tichu", me["tichu"]),
        ("won", me["tichu"] & (me["finish"] == 1)),
        ("dv", rounds["double_victory"] & (me["finish"] > 0)),
    ):
        col.setdefault(name, []).append(v)


def _mean(col: dict[str, list[np.ndarray]]) -> float:
    return float(np.concatenate(col["points"]).mean()) if col else -math.inf


def _leader(found, cols, alive) -> str:
    n = min(sum(len(p) for p in cols[i].get("points", [])) for i in alive)
    if n == 0:
        return ""
    best = max(alive, key=lambda i: float(np.concatenate(cols[i]["points"])[:n].mean()))
    mean = float(np.concatenate(cols[best]["points"])[:n].mean())
    return f"leader {_text(found[best][0])} {mean:+.1f}"


def _text(p: Pass) -> str:
    return ", ".join(cards.format(b) for b in p)


def _answer(
    hand, exact, seed, strategy, table, found, cols, stages, screened, rounds, seconds
) -> PassAdvice:
    """The finalists on the final's deals, best first, then the candidates screening dropped
    on the deals they played, latest dropped first; each difference to the best on the deals
    both played (screening's keys for a dropped one: the best played them all)."""
    screen, final = (
        {i: {k: np.concatenate(v) for k, v in c.items()} for i, c in enumerate(part) if c}
        for part in cols
    )
    finals = sorted(final, key=lambda i: (-final[i]["points"].mean(), i))
    dropped = sorted(
        (i for i in screen if i not in final),
        key=lambda i: (-len(screen[i]["points"]), -screen[i]["points"].mean(), i),
    )
    best = finals[0]
    out = []
    for i, got, against in [(i, final[i], final[best]) for i in finals] + [
        (i, screen[i], screen[best]) for i in dropped
    ]:
        n = len(got["points"])
        p, sources = found[i]
        right, partner, left = (cards.format(b) for b in p)
        called = int(got["tichu"].sum())
        paired = Paired.on_shared_deals(got["points"], against["points"])  # its first n deals
        out.append(
            PassCandidate(
                right=right,
                partner=partner,
                left=left,
                sources=sources,
                deals=n,
                final=i in final,
                points=paired.estimate(0),
                diff=None if i == best else paired.difference(0, 1),
                first_out=wilson(int(got["first"].sum()), n),
                tichu=wilson(called, n),
                tichu_success=wilson(int(got["won"].sum()), called),
                double_victory=wilson(int(got["dv"].sum()), n),
            )
        )
    place = setup()
    return PassAdvice(
        hand=cards.format(exact),
        deals=len(final[best]["points"]),
        seed=int(seed),
        strategies=place.strategy_names(table, strategy),
        candidates=tuple(out),
        stages=tuple(stages),
        screened=int(screened),
        rounds=rounds,
        seconds=seconds,
    )
