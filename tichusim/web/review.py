"""A played game reviewed in the browser: the Review tab (a log pasted or uploaded: its text
comes in the request, never a file) and the Play tab's finished rounds. One round is reviewed
at a time (``tichusim.review.review_game`` with one round, as ``tichusim review GAME --round
N`` does), and the round comes with its frames: the table after each action (every hand,
the trick, the calls, the wish, who is out, the points taken), so the page steps through it
move by move with each decision's loss and the better play.

``prepare`` checks a request (``BadInput``: one line) before anything is played and returns
what a worker runs (``answers.Ask``); nothing here reads or writes a file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import notation as cards
from ..games.errors import BadInput
from ..games.record import GameRecord, RoundRecord
from ..games.recorded import answered
from ..games.steps import IllegalAction, Round
from ..logs import read_text
from ..review import EFFORTS, review_game, settings_of
from ..strategies import ANSWER_STRATEGY
from .answers import Ask

__all__ = ["FIELDS", "for_play", "frames", "prepare", "reviewed"]

# a request's fields: the log's text, the round (from 1), the player (a seat or a name), the
# effort, the seed
FIELDS = ("log", "round", "player", "effort", "seed")


def _whole(body: dict, name: str, low: int, default: int) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BadInput(f"{name}: a whole number from {low}, not {value!r}")
    return value


def prepare(body: Any) -> Ask:
    """A review request (``FIELDS``) checked: the log read (a Brettspielwelt ``.tch`` log or a
    tichusim game record), the round and the player named in it; its answer is
    ``reviewed``'s."""
    if not isinstance(body, dict):
        raise BadInput(f"review: the request is a JSON object, not {type(body).__name__}")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise BadInput(f"review: unknown field {unknown[0]!r} (known: {', '.join(FIELDS)})")
    text = body.get("log")
    if not isinstance(text, str) or not text.strip():
        raise BadInput("log: the game's text (a .tch log or a tichusim game record)")
    try:
        read = read_text(text, "the log")
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    game = read.game
    if not game.rounds:
        first = f": {read.problems[0]}" if read.problems else ""
        raise BadInput(f"the log: no round could be read{first}")
    number = _whole(body, "round", 1, 1)
    if number > len(game.rounds):
        raise BadInput(f"round: the log holds rounds 1..{len(game.rounds)}, not {number}")
    effort = body.get("effort", "normal")
    if effort not in EFFORTS:
        raise BadInput(f"effort: one of {', '.join(EFFORTS)}, not {effort!r}")
    seed = _whole(body, "seed", 0, 0)
    player = body.get("player")
    if player is not None and not isinstance(player, (int, str)) or isinstance(player, bool):
        raise BadInput(f"player: a seat or a player's name, not {player!r}")
    settings = settings_of(effort, ANSWER_STRATEGY, seed)
    problems = [str(p) for p in read.problems]
    command = f"tichusim review GAME --round {number} --effort {effort} --seed {seed} --json"
    if player is not None:
        command += f" --player {player}"

    def run(progress: Callable[[int, int, str | None], None]) -> dict:
        out = reviewed(game, number - 1, settings, player, progress)
        out["problems"] = problems
        return out

    return Ask("review", run, command, 0)


def reviewed(
    game: GameRecord,
    index: int,
    settings: Any,
    player: int | str | None = None,
    progress: Callable[[int, int, str | None], None] | None = None,
) -> dict:
    """Round ``index`` of ``game`` reviewed (the ``tichusim review --json`` document of that
    round) with its frames; each decision of the review names the frame it is seen at
    (``frame``: the action that answered it, or the next one for a question declined)."""

    def moved(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total, None)

    try:
        result = review_game(game, settings, player=player, rounds=[index], progress=moved)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    out = result.to_dict()
    if not result.rounds:  # the engine refused the round: the reason in one line
        why = result.skipped[0] if result.skipped else "the round could not be played back"
        raise BadInput(why)
    record = game.rounds[index]
    out["round"] = index + 1
    out["rounds_in_log"] = len(game.rounds)
    out["frames"] = frames(record)
    at = _frames_of_decisions(record)
    for d in out["rounds"][0]["decisions"]:
        d["frame"] = at[d["number"]]
    return out


def _frames_of_decisions(record: RoundRecord) -> list[int]:
    """For each decision of the round, the frame it is seen at: the frame of the action that
    answered it, or, for a question the record declined, of the next action."""
    taken = answered(record)
    out = [0] * len(taken)
    following = len(record.actions) - 1
    for number in range(len(taken) - 1, -1, -1):
        if taken[number] >= 0:
            following = taken[number]
        out[number] = following
    return out


def frames(record: RoundRecord) -> list[dict]:
    """The table after each action of ``record`` (every hand: a played round is reviewed with
    its cards open), by playing the actions one at a time: ``action`` (its text), ``seat``,
    ``hands`` (card notation by seat), ``counts``, ``trick`` (the plays and passes since the
    last trick was taken: ``[seat, cards or "pass"]``), ``tichu``, ``grand_tichu``, ``wish``
    (a rank or ``None``), ``out`` (seats out, in order), ``taken`` (the card points in each
    seat's tricks)."""
    players = record.game.players
    r = Round(strategies=[None] * players, variant=record.variant, deal=record.deal)
    r._from = record  # its errors name the record's lines
    out = []
    trick: list[list] = []
    for action in record.actions:
        try:
            r.apply(action)
        except IllegalAction as exc:
            raise BadInput(str(exc)) from None
        pub = r.table()
        if action.kind in ("play", "bomb"):
            if int(pub["trick_cards"]) in (0, action.cards):  # it led a trick
                trick = []
            trick.append([action.seat, cards.format(action.cards)])
        elif action.kind == "pass":
            trick.append([action.seat, "pass"])
        n = len(r.hands())
        out.append(
            {
                "action": str(action),
                "seat": action.seat,
                "kind": action.kind,
                "hands": [cards.format(h) for h in r.hands()],
                "counts": [int(c) for c in pub["counts"][:n]],
                "trick": list(trick),
                "tichu": [s for s in range(n) if pub["tichu"][s]],
                "grand_tichu": [s for s in range(n) if pub["grand_tichu"][s]],
                "wish": cards.RANK_CHARS[int(pub["wish"]) - 2] if int(pub["wish"]) else None,
                "out": [int(s) for s in pub["out_order"][: int(pub["n_out"])]],
                "taken": [int(p) for p in pub["points_taken"][:n]],
            }
        )
    return out


def for_play(game: GameRecord, number: int, seat: int, effort: str = "normal") -> Ask:
    """The review of a Play table's finished round ``number`` (from 1): the person's
    decisions (``seat``) weighed, as the Review tab's answer."""
    if not 1 <= number <= len(game.rounds):
        raise BadInput(f"round: the table has finished rounds 1..{len(game.rounds)}, not {number}")
    if effort not in EFFORTS:
        raise BadInput(f"effort: one of {', '.join(EFFORTS)}, not {effort!r}")
    settings = settings_of(effort, ANSWER_STRATEGY, 0)

    def run(progress: Callable[[int, int, str | None], None]) -> dict:
        return reviewed(game, number - 1, settings, seat, progress)

    command = f"tichusim review GAME --round {number} --effort {effort} --player {seat} --json"
    return Ask("review", run, command, 0)
