"""A played game reviewed (``review_game``) or one round of it (``review_round``): every
decision of every player weighed from that player's information set (``weigh.py``), each
player summed up (``result.summarise``), and each deal's par beside its result (``par.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from .. import checks
from ..cards import notation
from ..cards.combos import Play
from ..games.record import GameRecord, RoundRecord
from ..games.recorded import decisions
from ..games.steps import IllegalAction, Round
from ..games.view import Event
from ..strategies.tichu import resolve
from .par import par
from .result import GameReview, RoundReview, summarise
from .settings import Effort, Settings, Thresholds, effort_named
from .weigh import Weighed, weigh

__all__ = ["review_game", "review_round", "settings_of"]

Progress = Callable[[int, int], None]  # (decisions done, decisions in all: the records')


def settings_of(
    effort: str | Effort = "normal",
    rollout: str = "learned",
    seed: int = 0,
    thresholds: Thresholds | None = None,
    tremble: float = 0.05,
) -> Settings:
    """The ``Settings`` of a review, each field checked (one line when wrong)."""
    checks.seed(seed)
    checks.share(tremble, "tremble")
    resolve(rollout, 1)  # a known scripted strategy, or one line saying why not
    return Settings(effort_named(effort), thresholds or Thresholds(), rollout, seed, tremble)


def _trick_text(trick: Iterable[Event]) -> str:
    """The trick in play as ``2: 9j; 3: pass; 0: bomb 7j 7s 7p 7t``."""
    out = []
    for e in trick:
        what = "pass" if e.kind == "pass" else notation.format(e.cards)
        out.append(f"{e.seat}: {'bomb ' if e.kind == 'bomb' else ''}{what}")
    return "; ".join(out)


def review_round(
    record: RoundRecord,
    settings: Settings | None = None,
    *,
    index: int = 0,
    seats: Iterable[int] | None = None,
    with_par: bool = True,
    progress: Progress | None = None,
) -> RoundReview:
    """Round ``record`` reviewed with ``settings`` (``settings_of()``'s by default): the
    decisions of ``seats`` (every seat by default) weighed, the deal's par (unless
    ``with_par`` is off). ``index``: the round's place in its game, which seeds its deals
    with ``settings.seed``: the same settings give the same review. ``IllegalAction`` when the
    engine cannot play the record back."""
    settings = settings or settings_of()
    t0 = time.perf_counter()
    played = Round.from_record(record, check=False)
    end = played.rounds[0, 0]
    wanted = None if seats is None else set(seats)
    weighed: list[Weighed] = []
    bombs: dict[int, Any] = {}  # each seat's last bomb chosen (a Tichu before it is weighed so)
    for d in decisions(record):
        if progress is not None:
            progress(d.number, played.decisions)
        if d.decision == "bomb" and isinstance(d.chosen, Play):
            bombs[d.seat] = d.chosen
        if wanted is not None and d.seat not in wanted:
            continue
        trick = ""
        if d.decision in ("play", "bomb") and len(d.legal) > 1:
            trick = _trick_text(d.view.trick)
        w = weigh(
            d,
            settings,
            index,
            hand=int(d.view.hand),
            trick=trick,
            bomb=bombs.get(d.seat) if d.decision == "tichu" and d.detail == 3 else None,
        )
        weighed.append(w)
    if progress is not None:
        progress(played.decisions, played.decisions)
    estimate, playouts = (
        par(record, settings.effort.par, settings.rollout, settings.tremble, settings.seed, index)
        if with_par
        else (None, [])
    )
    return RoundReview(
        index=index,
        source=record.source,
        score=(int(end["score"][0]), int(end["score"][1])),
        first_out=int(end["first_out"]),
        par=estimate,
        playouts=tuple(playouts),
        decisions=tuple(weighed),
        seconds=time.perf_counter() - t0,
    )


def _seat_of(game: GameRecord, player: int | str) -> int:
    """The seat of ``player``: a seat number, or a player's name as the game holds it."""
    seats = game.rounds[0].game.seats if game.rounds else 4
    if isinstance(player, int) or (isinstance(player, str) and player.isdigit()):
        seat = int(player)
        if not 0 <= seat < seats:
            raise ValueError(f"player: a seat 0..{seats - 1} or a name, not {player!r}")
        return seat
    names = list(game.players)
    if len(names) != seats:
        raise ValueError(f"player: name a seat 0..{seats - 1} at {game.variant}")
    if player not in names:
        known = ", ".join(repr(n) for n in names) or "none"
        raise ValueError(f"player: no player {player!r} in this game (players: {known})")
    return names.index(player)


def review_game(
    game: GameRecord,
    settings: Settings | None = None,
    *,
    player: int | str | None = None,
    rounds: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """Game ``game`` reviewed with ``settings`` (``settings_of()``'s by default): every round
    (or the indexes ``rounds``, from 0) and every seat (or ``player``'s: a seat, or a name
    of ``game.players``). A round the engine cannot play back is skipped and said in
    ``skipped`` (``file:line: why``)."""
    settings = settings or settings_of()
    t0 = time.perf_counter()
    seats = None if player is None else [_seat_of(game, player)]
    indexes = list(range(len(game.rounds))) if rounds is None else list(rounds)
    for i in indexes:
        if not 0 <= i < len(game.rounds):
            raise ValueError(f"round: 1..{len(game.rounds)}, not {i + 1}")
    skipped: list[str] = []
    counts: dict[int, int] = {}  # each round's decisions, for the progress
    for i in indexes:
        try:
            counts[i] = Round.from_record(game.rounds[i], check=False).decisions
        except IllegalAction as exc:
            skipped.append(str(exc))
    total = sum(counts.values())
    reviewed: list[RoundReview] = []
    before = 0
    for i in counts:
        record = game.rounds[i]

        def tick(done: int, count: int, at: int = before) -> None:
            if progress is not None:
                progress(at + done, total)

        r = review_round(record, settings, index=i, seats=seats, progress=tick)
        before += counts[i]
        reviewed.append(r)
    n_seats = game.rounds[0].game.seats if game.rounds else 4
    # names by seat where the game names its players by seat (Wu Wang names them by player,
    # each round's King sits at position 0: its positions are named as such)
    by_seat = len(game.players) == n_seats
    names = tuple(game.players) if by_seat else tuple(f"seat {s}" for s in range(n_seats))
    shown = range(n_seats) if seats is None else seats
    rounds_t = tuple(reviewed)
    players = tuple(summarise(rounds_t, s, names[s]) for s in shown)
    return GameReview(
        names=names,
        variant=game.variant,
        rounds=rounds_t,
        players=players,
        settings=settings,
        skipped=tuple(skipped),
        seconds=time.perf_counter() - t0,
    )
