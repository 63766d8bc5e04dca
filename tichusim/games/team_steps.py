"""How the team games' decisions look in Python: their legal choices, the answers
the engine's script takes (``kernels/outside.py``), and one round as a ``steps.Unit``.

Legal choices, by decision (``Unit.legal()``):

* ``grand_tichu``, ``tichu``: ``[False, True]`` (call or not; a Tichu's ``view.detail`` is the
  decision point: 0 before passing, 1 after, 2 before the seat's turn, 3 before a bomb out of
  turn that is its first card, §2.3);
* ``pass``: a ``Gifts``, the tuples of distinct hand cards (``int`` masks of one card each),
  one for each seat in ``receivers`` (4 seats: right opponent, partner, left opponent: the
  next seat is the right-hand one, as the rule books say, RULES.md §2.1);
* ``play``: every legal play as the rules core lists them, each a ``cards.combos.Play`` (the
  cards as a mask, and the combination: a led Phoenix at the table's value, §2.6), then
  ``None`` (pass) when passing is allowed;
* ``bomb`` (out of turn, §2.9): the bombs that may be played, then ``None`` (no bomb);
* ``wish``: ``0`` (no wish) and the ranks 2..14 (§2.11);
* ``dragon``: the opponents' seats (§2.12); ``dog``: the two partners' seats (Tientsin, §3).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cards import notation as cards
from ..cards.combos import Combo, Play
from ..kernels import outside
from ..kernels.tichu import batch, records, table_models, variants
from ..kernels.tichu import decide as decide_kernel
from ..kernels.tichu.policies import TICHU_BEFORE_BOMB, TICHU_BEFORE_TURN
from ..kernels.tichu.slots import P_OUTSIDE
from ..kernels.tichu.view import PRIVATE, PUBLIC
from ..strategies.tichu import DEFAULT_STRATEGY
from . import encoding, recorded
from .base import Kept, Logged, PlayFn, Records, Steps, thread_scratch
from .view import CODES, Event, View, next_holder

if TYPE_CHECKING:
    from .team import TeamGame


class Gifts:
    """The legal passings (§2.4, §3): one distinct card of ``hand`` for each seat of
    ``receivers``, as a tuple of one-card masks in that order. ``receivers`` runs in turn
    order from the next seat: at 4 seats the right opponent, the partner, the left opponent
    (the rule books' sides, RULES.md §2.1)."""

    def __init__(self, hand: int, seat: int, seats: int, offsets: tuple[int, ...]):
        self.hand = hand
        self.offsets = offsets  # the receivers as places after the giver (script order)
        self.receivers = tuple((seat + d) % seats for d in offsets)
        self.cards = tuple(cards.cards_of(hand))

    def packed(self, choice: Any) -> int:
        """The script's answer: card index + 1 in bits ``6 * (d - 1)`` for offset ``d``."""
        return sum(
            int(c).bit_length() << (6 * (d - 1)) for d, c in zip(self.offsets, choice, strict=False)
        )

    def unpacked(self, packed: int) -> tuple[int, ...]:
        return tuple(1 << (((packed >> (6 * (d - 1))) & 63) - 1) for d in self.offsets)

    def __contains__(self, choice: Any) -> bool:
        if not isinstance(choice, (tuple, list)) or len(choice) != len(self.receivers):
            return False
        picked = [int(c) for c in choice if isinstance(c, (int, np.integer))]
        return (
            len(picked) == len(choice)
            and all(c in self.cards for c in picked)
            and len(set(picked)) == len(picked)
        )

    def __iter__(self) -> Any:
        return itertools.permutations(self.cards, len(self.receivers))

    def __len__(self) -> int:
        n, k, out = len(self.cards), len(self.receivers), 1
        for i in range(k):
            out *= n - i
        return out

    def __repr__(self) -> str:
        return f"Gifts(hand {cards.format(self.hand)!r}, one card each to seats {self.receivers})"


def _plays(masks: Any, codes: Any, n: int) -> list:
    return [
        Play(m, Combo.from_code(c))
        for m, c in zip(masks[:n].tolist(), codes[:n].tolist(), strict=False)
    ]


def answer_of(choice: Any, legal: Any) -> Any:
    """The answer of ``choice`` among ``legal`` (a play: its index; -1 for ``None``)."""
    if isinstance(legal, Gifts):
        if choice not in legal:
            raise ValueError("not one distinct card of the hand per receiver")
        return legal.packed(choice)
    if legal and isinstance(legal[0], Play) or legal == [None]:
        if choice is None:
            if None in legal:
                return -1
            raise ValueError("passing is not allowed")
        for i, p in enumerate(legal):  # the usual answer: one of the list itself
            if p is choice:
                return i
        if isinstance(choice, Play):
            hits = [
                i
                for i, p in enumerate(legal)
                if p is not None and int(p) == int(choice) and p.combo == choice.combo
            ]
        elif isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            hits = [i for i, p in enumerate(legal) if p is not None and int(p) == int(choice)]
            if len(hits) > 1:
                raise ValueError("these cards play as more than one combination: give the Play")
        else:
            hits = []
        if not hits:
            raise ValueError("not a legal play")
        return hits[0]
    if isinstance(choice, (bool, np.bool_)) and legal == [False, True]:
        return int(choice)
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and choice in legal:
        return int(choice)
    raise ValueError("not a legal choice")


# the engine's events (kernels/tichu/records.py) as ``Event`` kinds; the deals, the passing of
# other seats and the scoring line are left out (RULES.md §6: the hands are private)
_KINDS = {
    records.EV_GRAND_TICHU: "grand_tichu",
    records.EV_TICHU: "tichu",
    records.EV_SHOW: "shown",
    records.EV_PLAY: "play",
    records.EV_PASS: "pass",
    records.EV_BOMB: "bomb",
    records.EV_WISH: "wish",
    records.EV_WISH_DONE: "wish_fulfilled",
    records.EV_DOG: "dog",
    records.EV_TRICK: "trick",
    records.EV_DRAGON: "dragon",
    records.EV_OUT: "out",
    records.EV_HAND_TO: "hand_to",
    records.EV_TRICKS_TO: "tricks_to",
}
# a Tichu's detail (§2.3)
_TICHU_POINTS = ("before passing", "after passing", "before its turn", "before its bomb")


def _per_seat(*dtypes: np.dtype) -> frozenset[str]:
    """The fields with one entry per seat position."""
    return frozenset(
        name
        for dtype in dtypes
        for name in dtype.names or ()
        if dtype[name].shape == (variants.MAX_SEATS,)
    )


class TeamSteps(Steps):
    """The team games' decisions in Python (Nanjing, Tientsin, Wu Wang)."""

    game: TeamGame

    unit_name = "round key"
    outside_slot = P_OUTSIDE
    decisions = ("grand_tichu", "tichu", "pass", "play", "bomb", "wish", "dragon", "dog")
    per_seat = _per_seat(PUBLIC, PRIVATE)
    log_shape = (records.LOG_ROWS, records.LOG_WIDTH)

    @property
    def default_base(self) -> Any:
        return DEFAULT_STRATEGY

    def kept_records(self) -> Kept:
        return batch.kept_records()

    def copy_kept(self, kept: Kept) -> Kept:
        """A copy of the records (``batch.copy_kept``)."""
        return batch.copy_kept(kept)

    def player_of(self, kept: Kept, seat: int) -> int:
        """The player deciding at position ``seat`` (Wu Wang: the King for the Minister, §4)."""
        if self.game.variant_code != variants.WUWANG:
            return seat
        king = int(kept[0][0]["king"])
        player = int(variants.wuwang_player(king, seat))
        return king if player == 3 else player

    def round_unit(
        self, seed: int, key: int, params: np.ndarray, check: bool, deal: Any = None
    ) -> tuple[PlayFn, Logged, np.ndarray, np.ndarray]:
        """Round ``key`` as ``simulate`` plays it, or dealt ``deal`` (``record.Deal``)."""
        game = self.game
        first = int(game.first_drawers_of(np.array([key], np.int64))[0])
        rounds = np.zeros((1, 1), batch.ROUND)
        seats = np.zeros((1, 1, game.seats), batch.SEAT)
        run = game.batch_settings(seed, check)
        if deal is not None:
            deal.check(game)
            first = deal.king if game.drawer_is_king else deal.first_drawer
            run = run._replace(fixed_seat=0, fixed_ranks=recorded.DEALT)
        play = batch.kept_player(run, key, first, params, rounds, seats)

        def logged(kept: Kept) -> np.ndarray:
            return batch.play_logged(run, key, first, params, kept)[2]

        return play, logged, rounds, seats

    # -- rounds played from their records (games/record.py, kernels/tichu/recorded.py) -----

    def deal_into(self, kept: Kept, deal: Any) -> None:
        kept[0]["deck"][0] = deal.deck(self.game)

    def load_record(self, kept: Kept, actions: Any, stop: int) -> None:
        recorded.load(self.game, kept, actions, stop)

    def record_failure(self, kept: Kept, actions: Any) -> tuple[int, str] | None:
        return recorded.failure(kept, actions)

    def record_of(self, kept: Kept, log: np.ndarray) -> Any:
        first_drawer, king = int(kept[1][0]["first_drawer"]), int(kept[0][0]["king"])
        return recorded.record_of(self.game, log, first_drawer, king)

    def script_only(self, kept: Kept, script: int) -> None:
        kept[0]["script_len"] = script
        kept[0]["rec_len"] = 0

    def replay_next(self, kept: Kept) -> None:
        """Forget where the unit stopped: its next call replays the round from the deal."""
        kept[0]["resume_seat"] = -1

    def records(self, rounds: np.ndarray, seats: np.ndarray, chosen: list) -> Records:
        game = self.game
        r, s = game.by_player(rounds.reshape(-1).copy(), seats.reshape(-1, game.seats).copy())
        return Records(r, s, chosen, None, None, 0, game)

    def hand_text(self, view: View) -> str:
        return cards.format(int(view.hand))

    # -- legal choices and answers --------------------------------------------------------

    def choices(self, kept: Kept, asked: tuple[int, int, int, int]) -> Any:
        work, privs = kept[0][0], kept[2]
        decision, seat, detail, n = asked
        seats = self.game.seats
        if decision in (outside.D_GRAND_TICHU, outside.D_TICHU):
            return [False, True]
        if decision == outside.D_PASS:
            offsets = tuple(d for d in range(1, seats) if detail >> d & 1)
            return Gifts(int(privs[seat]["hand"]), seat, seats, offsets)
        if decision == outside.D_PLAY:
            plays = _plays(work["moves_m"], work["moves_c"], n)
            return plays + [None] if detail else plays
        if decision == outside.D_BOMB:
            return _plays(work["bombs_m"], work["bombs_c"], n) + [None]
        if decision == outside.D_WISH:
            return [0, *range(2, 15)]
        if decision == outside.D_DRAGON:
            return [q for q in range(seats) if (q - seat) % 2]
        if decision == outside.D_DOG:
            return [(seat + 2) % seats, (seat + 4) % seats]
        raise AssertionError(f"decision code {decision}")

    def answer_of(self, choice: Any, legal: Any) -> int:
        return answer_of(choice, legal)

    def choice_of(self, answer: int, legal: Any) -> Any:
        """The choice among ``legal`` that the script's ``answer`` gives (``answer_of``'s
        inverse)."""
        if isinstance(legal, Gifts):
            return legal.unpacked(answer)
        if legal == [False, True]:
            return bool(answer)
        if legal and (isinstance(legal[0], Play) or legal[-1] is None):
            return None if answer < 0 else legal[answer]
        return answer

    def decide(self, row: np.ndarray, view: View, legal: Any) -> Any:
        """The choice the strategy row ``row`` makes at ``view``'s decision among ``legal``, as
        the engine would (``kernels/tichu/decide.py``)."""
        code = CODES[view.decision]
        if code == outside.D_TICHU and view.detail == TICHU_BEFORE_BOMB:
            return False  # the engine asks a scripted strategy nothing here (§2.3)
        plays = (
            [p for p in legal if p is not None] if code in (outside.D_PLAY, outside.D_BOMB) else []
        )
        masks = np.array([int(p) for p in plays] or [0], np.uint64)  # never empty: typed
        codes = np.array([p.combo.code for p in plays] or [0], np.int64)
        scratch = thread_scratch(decide_kernel.scratch)
        rows, models = table_models.table(np.ascontiguousarray(row, np.float64)[None])
        answer = int(
            decide_kernel.decide(
                rows[0],
                models,
                view.public,
                view.private,
                code,
                int(view.detail),
                masks,
                codes,
                len(plays),
                scratch,
            )
        )
        if code in (outside.D_GRAND_TICHU, outside.D_TICHU):
            return bool(answer)
        if code == outside.D_PASS:
            return legal.unpacked(answer)
        if code in (outside.D_PLAY, outside.D_BOMB):
            return None if answer < 0 else legal[answer]
        return answer

    # -- the public record ----------------------------------------------------------------

    def history(self, log: np.ndarray, seats: tuple[int, ...]) -> tuple[Event, ...]:
        """The log's public events in order, with the cards ``seats`` gave and received."""
        out = []
        for event, who, mask, code, extra in log.tolist():
            held = int(np.uint64(np.int64(mask)))
            if event == records.EV_GIVE:
                if who in seats or extra in seats:  # private to giver and receiver (§6)
                    out.append(Event("give", who, held, None, 0, extra))
                continue
            kind = _KINDS.get(event)
            if kind is None:  # the deals and the scoring line
                continue
            combo = Combo.from_code(code) if event in (records.EV_PLAY, records.EV_BOMB) else None
            value = 0 if combo is not None or event in (records.EV_DOG, records.EV_DRAGON) else code
            to = (
                extra
                if event
                in (records.EV_DOG, records.EV_DRAGON, records.EV_TRICK, records.EV_HAND_TO)
                else -1
            )
            if event == records.EV_TRICKS_TO:
                to = extra
            out.append(Event(kind, who, held, combo, value, to))
        return tuple(out)

    def scores(self, log: np.ndarray) -> tuple[int, ...]:
        """The two teams' scores (Wu Wang: the King's side, then the opponents, §4)."""
        ends = log[log[:, 0] == records.EV_END]
        if not len(ends):
            raise ValueError("the log holds no finished round")
        return int(ends[-1, 3]), int(ends[-1, 4])

    def next_turn(self, view: View) -> int:
        seat, decision = view.seat, view.decision
        if decision == "play" or (decision == "tichu" and view.detail == TICHU_BEFORE_TURN):
            return seat
        if decision not in ("bomb", "wish", "dragon"):
            return -1
        counts = view.counts
        if decision == "dragon" or self.trick_over(view):
            winner = seat if decision == "dragon" else view.top_seat
            return winner if counts[winner] > 0 else next_holder(counts, winner)
        return next_holder(counts, _last_actor(view))

    def trick_over(self, view: View) -> bool:
        """§2.8: every other holder of cards has passed on the top since it was played."""
        if view.decision != "bomb" or view.top_code == 0:
            return False
        holders = sum(1 << s for s, n in enumerate(view.counts) if n > 0)
        return holders & ~(1 << view.top_seat) & ~view.passed == 0

    def encode(self, view: View, decision: int, candidates: Any) -> np.ndarray:
        return encoding.encode(view.public, view.private, decision, candidates)

    def view_text(self, view: View) -> str:
        """The view as a person reads it."""
        seat, n = view.seat, self.seats
        what = view.decision
        if what == "tichu":
            what += f" ({_TICHU_POINTS[view.detail]})"
        elif what == "play" and not view.detail:
            what += " (must play)"
        lines = [
            f"Seat {seat} of {n} ({self.game.name}), {what}",
            f"  hand: {self.hand_text(view)}",
        ]
        counts = view.counts
        calls = ["GT" if view.grand_tichu[s] else "T" if view.tichu[s] else "" for s in range(n)]
        lines.append(
            "  seats: "
            + ", ".join(
                f"{s}{'*' if s == seat else ''} {counts[s]} cards"
                + (f" {calls[s]}" if calls[s] else "")
                for s in range(n)
            )
        )
        out = [int(s) for s in view.out_order if s >= 0]
        if out:
            lines.append(f"  out: {', '.join(map(str, out))}")
        if view.wish:
            lines.append(f"  wish: {cards.RANK_CHARS[view.wish - 2]}")
        if view.exposed:
            lines.append(f"  the Minister's hand, face up: {cards.format(int(view.exposed))}")
        if self.has_history and view._history is not None:
            trick = [str(e) for e in view.trick]
            lines.append("  trick: " + ("; ".join(trick) if trick else "(none: leading)"))
            nxt = view.next_turn
            if nxt >= 0:
                collect = (
                    f" after seat {view.top_seat} collects the trick" if view.trick_over else ""
                )
                lines.append(f"  next turn: seat {nxt}{collect}")
        lines.append(f"  points taken: {', '.join(str(int(p)) for p in view.points_taken)}")
        return "\n".join(lines)


def _last_actor(view: View) -> int:
    """The seat of the last play, pass or bomb (after which a bomb is offered, §2.9)."""
    for event in reversed(view.history):
        if event.kind in ("play", "pass", "bomb"):
            return event.seat
    return view.seat
