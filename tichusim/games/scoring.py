"""A finished round of a team game scored from plain data by the engine's own scoring
(``kernels/tichu/scoring.py``: RULES.md §2.13–§2.14, Tientsin §3, Wu Wang §4), so a round
played elsewhere (a log, a table of people) is scored by the same rule as every simulated one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from ..cards import notation as cards
from ..kernels.tichu import scoring, variants
from ..kernels.tichu.view import PRIVATE, PUBLIC
from .registry import TEAM_GAMES
from .registry import game as game_named

if TYPE_CHECKING:
    from .team import TeamGame

__all__ = ["RoundScore", "score_round"]


class RoundScore(NamedTuple):
    """A round's card points and scores per team (team 0 first; Wu Wang: the King's side),
    and whether one team's first players out won it at once (§2.13, §3)."""

    card_points: tuple[int, int]
    score: tuple[int, int]
    victory: bool


def _seats(value: Iterable[Any], what: str, n: int) -> list[int]:
    out = []
    for s in value:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < n:
            raise ValueError(f"{what}: seats 0..{n - 1}, not {s!r}")
        if int(s) in out:
            raise ValueError(f"{what}: seat {s} twice")
        out.append(int(s))
    return out


def score_round(
    out: Iterable[int],
    taken: Mapping[int, int] | Iterable[int] = (),
    *,
    hand: int | str = 0,
    tichu: Iterable[int] = (),
    grand_tichu: Iterable[int] = (),
    variant: str = "nanjing",
) -> RoundScore:
    """Score a finished round: ``out``, the seats in the order they went out (the last seat
    may be left off; after a double or triple victory the winners suffice); ``taken``, the
    card points in each seat's tricks before the round's end hands anything over (a list by
    seat, or ``{seat: points}``); ``hand``, the cards the last seat still held (a mask or
    notation); ``tichu`` and ``grand_tichu``, the seats that called. Without a victory the
    transfers of §2.13 are made (the last seat's hand to its opponents, its tricks to the
    first out; Tientsin's §3), then every call's bonus (§2.14). ``ValueError`` in one line
    for a round that is not over or points that do not add up to 100."""
    if variant not in TEAM_GAMES:
        raise ValueError(f"variant: a team game ({', '.join(TEAM_GAMES)}), not {variant!r}")
    game = cast("TeamGame", game_named(variant))
    n, code = game.seats, game.variant_code
    order = _seats(out, "out", n)
    k = int(variants.victory_size(code))
    victory = len(order) >= k and len({s % 2 for s in order[:k]}) == 1
    if not victory and len(order) < n - 1:
        raise ValueError(
            f"out: the round is not over: {n - 1} seats out, or a team's first {k} (§2.13, §3)"
        )
    if len(order) == n - 1:
        order += [s for s in range(n) if s not in order]
    points = dict(taken) if isinstance(taken, Mapping) else dict(enumerate(taken))
    _seats(points, "taken", n)
    left = cards.as_mask(hand)
    if not victory and sum(points.values()) + cards.points(left) != 100:
        raise ValueError(
            f"taken: {sum(points.values())} card points in the tricks and "
            f"{cards.points(left)} in the last hand make no 100 (§2.14)"
        )
    calls = {
        "tichu": _seats(tichu, "tichu", n),
        "grand_tichu": _seats(grand_tichu, "grand_tichu", n),
    }
    both = set(calls["tichu"]) & set(calls["grand_tichu"])
    if both:
        raise ValueError(f"seat {min(both)} called both Tichu and Grand Tichu (§2.2)")
    for s in calls["grand_tichu"]:
        if not game.may_call_grand(s):
            raise ValueError(f"grand_tichu: seat {s} may not call Grand Tichu (§4)")
    pub = np.zeros(1, PUBLIC)
    p = pub[0]
    p["n_players"] = n
    p["variant"] = code
    p["n_out"] = len(order)
    for i, s in enumerate(order):
        p["out_order"][i] = s
    for s, v in points.items():
        p["points_taken"][s] = int(v)
    for name, seats in calls.items():
        for s in seats:
            p[name][s] = 1
    privs = np.zeros(variants.MAX_SEATS, PRIVATE)
    if not victory:
        privs[order[-1]]["hand"] = left
    p0, p1, s0, s1 = scoring.round_score(code, pub[0], privs, victory)
    return RoundScore((int(p0), int(p1)), (int(s0), int(s1)), bool(victory))
