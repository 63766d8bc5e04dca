"""The team games' rounds and their records (``games/record.py``) as the engine reads and
writes them: a record's actions laid in a unit's records for the kernels to take
(``kernels/tichu/recorded.py``), why an action could not be taken, in words with its rule,
and a round's record read back from its event log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, cast

import numpy as np

from ..cards import notation as cards
from ..kernels import combos
from ..kernels import outside as out
from ..kernels.errors import ERR_NONE, ERR_PENDING, ERRORS
from ..kernels.tichu import batch
from ..kernels.tichu import recorded as rk
from ..kernels.tichu import records as ev
from .base import Game, Kept
from .record import ACTIONS, Action, Deal, RoundRecord, Table
from .steps import Round, python_seat
from .view import View

__all__ = [
    "DEALT",
    "answered",
    "Decision",
    "Played",
    "action_rows",
    "decisions",
    "failure",
    "load",
    "play_records",
    "record_of",
]

# a fixed deal's ``fixed_ranks`` that says the deck lies as dealt (``records.FIX_DECK``)
DEALT = np.zeros(15, np.int64)
DEALT[ev.FIX_MODE] = ev.FIX_DECK

# what each decision asks of a seat, in an error's words
_DOING = {
    out.D_GRAND_TICHU: "say whether it calls Grand Tichu",
    out.D_TICHU: "say whether it calls Tichu",
    out.D_PASS: "pass its cards",
    out.D_PLAY: "play or pass",
    out.D_BOMB: "bomb or not",
    out.D_WISH: "make its wish",
    out.D_DRAGON: "give the Dragon's trick",
    out.D_DOG: "name the partner the Dog leads to",
}

_WORDS = {
    rk.RE_GRAND_LATE: "seat {seat} calls Grand Tichu after its question on its first cards "
    "(§2.2: on the first cards, before the rest is dealt)",
    rk.RE_CALLED: "seat {seat} has called already (§2.2, §2.3: one call a seat)",
    rk.RE_TICHU_LATE: "seat {seat} calls Tichu after playing a card (§2.3)",
    rk.RE_GIVE_LATE: "seat {seat} passes cards after the passing (§2.4)",
    rk.RE_GIVE_TWICE: "seat {seat} passes cards twice (§2.4)",
    rk.RE_GIVE_CARDS: "seat {seat} must give one card of its hand to each seat its passing "
    "reaches, each a different card (§2.4, §3, §4)",
    rk.RE_NO_GIVE: "the passing goes on without seat {seat}'s cards: each seat gives before "
    "the play (§2.4)",
    rk.RE_BOMB: "no bomb of seat {seat}'s that beats the trick (§2.7, §2.9)",
    rk.RE_WISH: "seat {seat} played the Mah Jong: its wish (a rank 2..A, or none) comes next "
    "(§2.11)",
    rk.RE_DRAGON: "seat {seat} won the trick with the Dragon: it gives it to an opponent next "
    "(§2.12)",
    rk.RE_DOG: "the Dog's lead goes to the partner, or the next seat holding cards (§2.10, §3)",
    rk.RE_LONG: "more decisions than a round's script holds",
}


_KIND = {kind: code for code, kind in enumerate(ACTIONS, 1)}  # the kernels' REC_* codes
_TOP = 1 << 63


def action_rows(game: Table, actions: Sequence[Action]) -> np.ndarray:
    """``actions`` as the kernels' action rows (``kernels/tichu/recorded.py``), ``(actions,
    4)`` int64: the seat, the kind's code, the cards shown or given (a mask as the signed
    64-bit number it is in the rows) and the value (a passing's: each card's index + 1 in 6
    bits per receiver's offset); ``ValueError`` for an action that is none
    (``Action.check``) or names a seat the table lacks."""
    n = game.seats
    flat: list[int] = []  # four numbers an action: one array made of them at the end
    extend = flat.extend
    kinds = _KIND
    for action in actions:
        seat, kind, held, gifts, value = action
        code = kinds.get(kind, 0)
        if type(seat) is not int or not 0 <= seat < n or not code or (code in (4, 6) and not held):
            action.check()  # says what is wrong with it, else its seat is the table's
            raise ValueError(f"{action}: {game.name} has seats 0..{n - 1}")
        if code == 3:  # give
            value = held = 0
            for to, card in gifts:
                d = (to - seat) % n
                if to >= n or d == 0 or value >> (6 * (d - 1)) & 63:
                    raise ValueError(f"{action}: one card to each other seat of 0..{n - 1}")
                value |= card.bit_length() << (6 * (d - 1))
                held |= card
        elif held >= _TOP:
            held -= 2 * _TOP  # the signed 64-bit number of the mask
        extend((seat, code, held, value))
    return np.array(flat, np.int64).reshape(-1, 4)


def load(game: Table, kept: Kept, actions: Sequence[Action], stop: int, rows: Any = None) -> None:
    """Lay ``actions`` in the unit's work record: its next play takes them from the deal,
    writing the script anew, and stops before answer ``stop``. ``rows``: the actions'
    ``action_rows``, when made already."""
    work = kept[0]
    table = work["rec"][0]
    if len(actions) > len(table):
        raise ValueError(f"a record of {len(actions)} actions: a round holds at most {len(table)}")
    if rows is None:
        rows = action_rows(game, actions)
    table[: len(rows)] = rows
    work["rec_len"] = len(actions)
    work["rec_stop"] = stop
    work["resume_seat"] = -1  # the script is written anew from the deal


def failure(kept: Kept, actions: Sequence[Action]) -> tuple[int, str] | None:
    """``(index, why)`` of the action the engine could not take, ``None`` when all went in:
    a refused action, or actions left after the round ended."""
    work = kept[0][0]
    code = int(work["rec_error"])
    if code != rk.RE_NONE:
        index = int(work["rec_error_at"])
        return index, _why(code, actions[index], kept)
    if int(work["asked"][0]) != out.D_NONE:
        return None  # waiting: at the stop asked for, or for more of the record
    left = int(work["rec_pos"])
    if left < len(actions):
        return left, "the round is over: nothing is played after its end (§2.13)"
    return None


def _why(code: int, action: Action, kept: Kept) -> str:
    """Why the engine could not take ``action`` where the round stands, with the rule."""
    work, pub = kept[0][0], kept[1][0]
    asked, seat = int(work["asked"][0]), int(work["asked"][1])
    s = action.seat
    if code == rk.RE_PLAY:
        return _why_not_played(action.cards, kept, s)
    if code == rk.RE_TURN:
        bomb = action.kind in ("play", "bomb") and combos.is_bomb(
            combos.classify(np.uint64(action.cards))
        )
        if bomb and s != seat:  # a bomb out of turn the windows did not take (§2.9)
            return f"{cards.format(action.cards)} does not beat the trick (§2.7, §2.9)"
        return f"seat {seat} is to {_DOING.get(asked, 'act')} here (§2.8–§2.12)"
    if code == rk.RE_NO_PASS:
        if int(pub["top_code"]) == 0:
            return f"seat {s} leads and must play (§2.8)"
        return f"the wish binds seat {s}: it must play the wished rank (§2.11)"
    # what the round waits for: the asked seat's; else what the action's seat did
    asked_for = (rk.RE_NO_GIVE, rk.RE_WISH, rk.RE_DRAGON, rk.RE_DOG)
    return _WORDS[code].format(seat=seat if code in asked_for else s)


def _why_not_played(mask: int, kept: Kept, seat: int) -> str:
    """Why ``mask`` is no legal play of ``seat`` on its turn (§2.5–§2.11)."""
    pub, hand = kept[1][0], int(kept[2][seat]["hand"])
    shown = cards.format(mask)
    if mask & ~hand:
        return f"seat {seat} does not hold {cards.format(mask & ~hand)}"
    top = int(pub["top_code"])
    if mask == cards.PHOENIX:
        beats = combos.phoenix_single(top, combos.RANK2_PHOENIX_LED) != 0
    else:
        readings = np.zeros(2, np.int64)
        count = combos.combo_readings(np.uint64(mask), readings)
        if count == 0:
            return f"{shown} is no combination (§2.5)"
        beats = not top or any(combos.beats(int(c), top) for c in readings[:count])
    if not beats:
        return f"{shown} does not beat {cards.format(int(pub['top_mask']))} (§2.7)"
    wish = int(pub["wish"])
    if wish and not int(pub["wish_free"]) >> seat & 1 and hand & _rank_cards(wish):
        rank = cards.RANK_CHARS[wish - 2]
        return f"the wish for {rank} binds seat {seat}: it must play a {rank} (§2.11)"
    return f"{shown} is no legal play here (§2.5–§2.11)"


def _rank_cards(rank: int) -> int:
    return sum(1 << (16 * s + rank) for s in range(4))


def record_of(game: Table, log: np.ndarray, first_drawer: int, king: int = -1) -> RoundRecord:
    """A round as a record, from its event log: the deal (the first cards and the whole hands
    dealt; its first drawer, Wu Wang's King), then every seat's actions as they happened."""
    n = game.seats
    hands, first = [0] * n, [0] * n
    actions: list[Action] = []
    gives: dict[int, list[tuple[int, int]]] = {}
    score = None
    for event, seat, mask, code, extra in log.tolist():
        held = int(np.int64(mask).view(np.uint64))
        if event == ev.EV_DEAL8:
            first[seat] = held
        elif event == ev.EV_DEAL14:
            hands[seat] = held
        elif event == ev.EV_GRAND_TICHU:
            actions.append(Action(seat, "grand_tichu"))
        elif event == ev.EV_TICHU:
            actions.append(Action(seat, "tichu", value=code + 1))
        elif event == ev.EV_GIVE:
            if not gives:  # the passing is simultaneous: every seat's cards at its place
                actions.append(Action(0, "give"))
            gives.setdefault(seat, []).append((extra, held))
        elif event in (ev.EV_PLAY, ev.EV_BOMB):
            actions.append(Action(seat, "play" if event == ev.EV_PLAY else "bomb", held))
        elif event == ev.EV_PASS:
            actions.append(Action(seat, "pass"))
        elif event == ev.EV_WISH:
            actions.append(Action(seat, "wish", value=code))
        elif event == ev.EV_DRAGON:
            actions.append(Action(seat, "dragon", value=extra))
        elif event == ev.EV_DOG:
            actions.append(Action(seat, "dog", value=extra))
        elif event == ev.EV_END:
            score = (int(code), int(extra))
    if gives:
        at = next(i for i, a in enumerate(actions) if a.kind == "give")
        actions[at : at + 1] = [Action(s, "give", gifts=tuple(g)) for s, g in sorted(gives.items())]
    wuwang = game.drawer_is_king
    deal = Deal(tuple(hands), tuple(first), 0 if wuwang else first_drawer, king if wuwang else None)
    options = {k: v for k, v in game.options.items() if v != game.option_defaults.get(k)}
    return RoundRecord(deal, tuple(actions), game.name, tuple(sorted(options.items())), score)


class Played(NamedTuple):
    """Rounds played from their records (``play_records``): the engine's records of each,
    by position (``batch.ROUND``, ``batch.SEAT``: the rounds that failed hold zeros), and for
    each that failed its index in the list with ``(action index, why)``."""

    rounds: np.ndarray
    seats: np.ndarray
    failed: dict[int, tuple[int, str]]


_LANE_BITS = [tuple(b for b in range(16) if x >> b & 1) for x in range(1 << 16)]


def _indexes(mask: int) -> list[int]:
    """The card indexes of ``mask``, lowest first."""
    out: list[int] = []
    for lane in range(4):
        out += [16 * lane + b for b in _LANE_BITS[mask >> (16 * lane) & 0xFFFF]]
    return out


def play_records(
    game: Table,
    records: Sequence[RoundRecord],
    *,
    check: bool = False,
    rows: Sequence[Any] | None = None,
) -> Played:
    """Play each round of ``records`` from its record through the engine, as
    ``Round.from_record`` does, with the least Python around the kernel (a log's import):
    one kernel call per round on records kept across them. ``check``: the engine verifies
    RULES.md §7 after every action (slower); ``rows``: each record's ``action_rows``, when
    the caller made them already (an import's moves table is made of them too)."""
    n = len(records)
    rounds = np.zeros((n, 1), batch.ROUND)
    seats = np.zeros((n, 1, game.seats), batch.SEAT)
    _, row = python_seat(cast(Game, game))
    params = np.repeat(row[None], game.players, axis=0)
    run = game.batch_settings(0, check)._replace(fixed_seat=0, fixed_ranks=DEALT)
    firsts = np.array(
        [r.deal.king if game.drawer_is_king else r.deal.first_drawer for r in records], np.int64
    )
    failed: dict[int, tuple[int, str]] = {}
    work = batch.kept_records()
    deck = work[0]["deck"][0]

    def step(i: int, play: Callable[[Kept], int]) -> None:
        record = records[i]
        actions = record.actions
        try:
            record.deal.check(game)
            listed: list[int] = []  # each seat's slot, its first cards first (``Deal.deck``)
            for hand, first in zip(record.deal.hands, record.deal.first, strict=True):
                listed += _indexes(first)
                listed += _indexes(hand & ~first)
            deck[: len(listed)] = listed
            load(game, work, actions, out.MAX_SCRIPT, None if rows is None else rows[i])
        except ValueError as exc:
            failed[i] = (0, str(exc))
            return
        err = play(work)
        fault = failure(work, actions)
        if fault is None and err == ERR_PENDING:
            fault = (len(actions), "the record ends before the round does")
        elif fault is None and err != ERR_NONE:
            fault = (len(actions), ERRORS[err])
        if fault is not None:
            failed[i] = fault
            rounds[i] = 0
            seats[i] = 0

    batch.play_rounds(run, np.zeros(n, np.int64), firsts, params, rounds, seats, 1, stepper=step)
    return Played(rounds, seats, failed)


class Decision(NamedTuple):
    """One decision of a round played from its record, as its seat faced it: its number in
    the round (``number``: the script's), the seat, the decision and its detail, the seat's
    ``view`` there (§6) and its ``legal`` choices, the ``chosen`` one and the record's action
    that made it (``action``; -1 for a question the record declined: no call, no bomb)."""

    number: int
    seat: int
    decision: str
    detail: int
    view: View
    legal: Any
    chosen: Any
    action: int


def decisions(record: RoundRecord, *, check: bool = False) -> Iterator[Decision]:
    """Every decision of ``record``'s round in order (``Decision``), each seen from its
    seat by standing the round before it (``Round.seek``). ``IllegalAction`` as
    ``Round.from_record``."""
    r = Round.from_record(record, check=check)
    work = r._kept[0][0]  # the script the record wrote, and the action of each answer
    count = r.decisions
    answers = work["script"][:count].tolist()
    took = work["rec_of"][:count].tolist()
    steps = r.game.steps
    for d in range(count):
        r.seek(d)
        legal = r.legal()
        seat = r.to_act
        assert seat is not None  # a decision stands before each answer of the script
        yield Decision(
            d,
            seat,
            str(r.decision),
            int(r.view().detail),
            r.view(),
            legal,
            steps.choice_of(answers[d], legal),
            int(took[d]),
        )


def answered(record: RoundRecord) -> list[int]:
    """For each decision of ``record``'s round in order, the record's action that answered
    it, -1 for a question the record declined (no call, no bomb)."""
    r = Round.from_record(record, check=False)
    return [int(a) for a in r._kept[0][0]["rec_of"][: r.decisions]]
