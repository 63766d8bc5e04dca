"""The Play tab's tables: a person seated against bots (``games.tablegame.TableGame``), kept
in memory, bounded in number and closed when idle, read as the JSON the page draws, answered
through the JSON API (docs/serve.md), and a hint on demand ranked by the answers.

* ``Tables``: the open tables by id, at most ``most`` of them; one idle for ``idle`` seconds
  is closed at the next look. A table lives in memory only; its record (the game's settings
  and the person's answers, ``TableGame.to_dict``) is in every state the page gets, so a page
  reloaded resumes the table, and a table closed (or a server restarted) is opened again from
  it (``open_request``'s ``resume``), the server playing its answers again.
* ``open_request``, ``answer_request``: a request checked (``BadInput``: one line, a 400)
  before the table is touched. A strategy is a name or a name with changes, never a file or
  a Python agent (``answers._strategies``): nothing of a request reaches the file system.
* ``state``: what the person may know (RULES.md §6): its hand, the table's public record,
  the decision awaited and its legal options, the score, the rounds played.
* ``hint``: the awaited decision's options ranked as ``gt-odds``, ``tichu-odds``,
  ``pass-advice`` or ``advise`` rank them (``answers.prepare``, on the answers' workers),
  asked from the person's view alone, each with its interval.
* ``game_log``: the game as a log ``tichusim review`` and ``import`` read (a Brettspielwelt
  ``.tch`` for Nanjing, else the JSON game record), written to a string, never a file.
"""

from __future__ import annotations

import functools
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import notation as cards
from ..cards.combos import Play
from ..checks import SEED_LIMIT
from ..games.errors import BadInput, one_line
from ..games.position import Position
from ..games.steps import IllegalChoice
from ..games.tablegame import GAMES, TableGame, TableStopped
from ..games.team_steps import Gifts
from ..games.view import Event
from ..logs.bsw import write_tch
from ..search.evaluate import evaluate_plays
from ..strategies import ANSWER_STRATEGY
from .answers import Ask, Limits, _strategies, prepare

__all__ = [
    "Busy",
    "NoTable",
    "Seat",
    "Stale",
    "Tables",
    "answer_request",
    "game_log",
    "hint",
    "open_request",
    "state",
]

OPEN_FIELDS = {"variant", "partner", "opponents", "seed", "target", "resume"}
TARGETS = (100, 10_000)  # the game's target may be set in this range (§2.15: 1,000)
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
# an event as the page's log says it (the seats named from the person's chair)
_SAID = {
    "grand_tichu": "{who}: Grand Tichu!",
    "tichu": "{who}: Tichu!",
    "give": "{who} passed {cards} to {to}",
    "shown": "{who} shows {cards}",
    "play": "{who}: {cards}{combination}",
    "pass": "{who}: pass",
    "bomb": "{who}: BOMB {cards}",
    "wish": "{who} wishes for {rank}",
    "wish_fulfilled": "{who} fulfils the wish",
    "dog": "{who}'s Dog: {to} leads",
    "trick": "{to} takes the trick ({value} points)",
    "dragon": "{who} gives the Dragon's trick to {to}",
    "out": "{who} is out ({place})",
    "hand_to": "{who}'s last cards ({value} points) go to {to}",
    "tricks_to": "{who}'s tricks ({value} points) go to {to}",
}


class Busy(Exception):
    """No table may be opened now (``most`` are open): a 503."""


class NoTable(Exception):
    """No open table has that id: a 404."""


class Stale(Exception):
    """An answer to a decision that is no longer awaited, or to a stopped table: a 409."""


@dataclass
class Seat:
    """An open table: its id, its game, the lock its requests take, when it was last used."""

    id: str
    game: TableGame
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    used: float = 0.0
    # the last finished round as the state shows it: made once, not at every state
    shown: tuple[int, dict] | None = field(default=None, repr=False)


class Tables:
    """The open tables: at most ``most``; one unused for ``idle`` seconds is closed."""

    def __init__(
        self, most: int = 16, idle: float = 1800.0, clock: Callable[[], float] = time.monotonic
    ):
        if most < 1 or idle <= 0:
            raise ValueError("tables: at least 1, idle a positive number of seconds")
        self.most, self.idle, self.clock = most, idle, clock
        self._seats: OrderedDict[str, Seat] = OrderedDict()
        self._lock = threading.Lock()
        self.opened = 0
        self.closed_idle = 0

    def __len__(self) -> int:
        return len(self._seats)

    def sweep(self) -> None:
        """Close the tables unused for ``idle`` seconds."""
        now = self.clock()
        with self._lock:
            for key in [k for k, s in self._seats.items() if now - s.used > self.idle]:
                del self._seats[key]
                self.closed_idle += 1

    def open(self, game: TableGame) -> Seat:
        self.sweep()
        with self._lock:
            if len(self._seats) >= self.most:
                raise Busy(
                    f"{len(self._seats)} tables are open, the most this server keeps; close one "
                    f"or wait (an idle table closes after {self.idle:g} s)"
                )
            seat = Seat(uuid.uuid4().hex[:16], game, used=self.clock())
            self._seats[seat.id] = seat
            self.opened += 1
        return seat

    def get(self, key: str) -> Seat | None:
        self.sweep()
        with self._lock:
            seat = self._seats.get(key)
            if seat is not None:
                seat.used = self.clock()
            return seat

    def close(self, key: str) -> bool:
        with self._lock:
            return self._seats.pop(key, None) is not None

    def status(self) -> dict:
        return {"open": len(self), "most": self.most, "idle_seconds": self.idle}


# ---- requests --------------------------------------------------------------------------


def _strategy(body: dict, name: str) -> str:
    value = body.get(name)
    if value is None:
        return ANSWER_STRATEGY
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{name}: a strategy's name, not {value!r}")
    _strategies(value.strip(), (1,), name)  # named ones only: no file, no Python agent
    return value.strip()


def open_request(body: Any) -> TableGame:
    """A new table from the request ``body``: ``variant`` (nanjing, tientsin), ``partner``
    and ``opponents`` (a strategy each, default ``learned``), ``seed`` (absent or null: a
    random one, said in the state), ``target`` (default 1,000); or ``resume``: a table's
    record (``TableGame.to_dict``), played again. The person sits at seat 0."""
    if not isinstance(body, dict):
        raise BadInput(f"play: the request is a JSON object, not {type(body).__name__}")
    unknown = sorted(set(body) - OPEN_FIELDS)
    if unknown:
        raise BadInput(
            f"play: unknown field {unknown[0]!r} (known: {', '.join(sorted(OPEN_FIELDS))})"
        )
    if "resume" in body:
        if set(body) != {"resume"}:
            raise BadInput("play: resume comes alone (the record holds the table's settings)")
        record = body["resume"]
        strategies = record.get("strategies") if isinstance(record, dict) else None
        if isinstance(strategies, list) and strategies:
            for spec in strategies:
                if spec is not None:
                    _strategy({"strategy": spec}, "strategy")
            if strategies[0] is not None:
                raise BadInput("play: resume: the person sits at seat 0 (strategy null)")
        try:
            return TableGame.from_dict(record)
        except (ValueError, TypeError) as exc:
            raise BadInput(f"play: resume: {exc}") from None
    variant = body.get("variant") or "nanjing"
    if variant not in GAMES:
        raise BadInput(f"variant: a table of the Play tab ({', '.join(GAMES)}), not {variant!r}")
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise BadInput(f"seed: a whole number 0..{SEED_LIMIT - 1:,}, not {seed!r}")
    target = body.get("target", 1000)
    if isinstance(target, bool) or not isinstance(target, int):
        raise BadInput(f"target: a whole number of points, not {target!r}")
    if not TARGETS[0] <= target <= TARGETS[1]:
        raise BadInput(f"target: {TARGETS[0]:,}..{TARGETS[1]:,} points, not {target:,}")
    partner, opponents = _strategy(body, "partner"), _strategy(body, "opponents")
    seats = 4 if variant == "nanjing" else 6
    strategies = [None] + [partner if s % 2 == 0 else opponents for s in range(1, seats)]
    try:
        return TableGame(seed, strategies, variant=variant, target=target)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def answer_request(seat: Seat, body: Any) -> None:
    """The person's answer ``{"step": n, "choice": ...}`` played at ``seat`` (under its
    lock): ``step`` is the state's (``Stale`` when the table has moved on), ``choice`` an
    option's index, or for the passing the cards given in the receivers' order."""
    if not isinstance(body, dict):
        raise BadInput(f"act: the request is a JSON object, not {type(body).__name__}")
    unknown = sorted(set(body) - {"step", "choice"})
    if unknown:
        raise BadInput(f"act: unknown field {unknown[0]!r} (known: choice, step)")
    step = body.get("step")
    if isinstance(step, bool) or not isinstance(step, int):
        raise BadInput(f"act: step is the state's step (a whole number), not {step!r}")
    if "choice" not in body:
        raise BadInput("act: choice is missing (an option's index, or the cards to pass)")
    game = seat.game
    if game.error is not None:
        raise Stale(game.error)
    if game.to_act is None:
        raise Stale("the game is over: open a new table")
    if step != len(game.answers):
        raise Stale(
            f"step {step} is past: the table stands at step {len(game.answers)} (reload it)"
        )
    try:
        game.answer(body["choice"])
    except IllegalChoice as exc:
        raise BadInput(str(exc)) from None
    except TableStopped as exc:
        raise Stale(str(exc)) from None


# ---- what the page draws -----------------------------------------------------------------


def _names(game: TableGame) -> list[str]:
    n = game.game.seats
    if n == 4:
        return ["You", "Right", "Partner", "Left"]
    return ["You"] + [f"{'Partner' if s % 2 == 0 else 'Opponent'} {s}" for s in range(1, n)]


@functools.lru_cache(maxsize=8192)
def _codes(mask: int) -> tuple[str, ...]:
    return tuple(cards.format(mask).split()) if mask else ()


def _text(mask: int) -> list[str]:
    """The cards of ``mask`` in the card notation, one string each (formatting is the state's
    main cost: the same masks come again and again, and are formatted once)."""
    return list(_codes(int(mask)))


def _event(e: Event, names: list[str]) -> dict:
    who = names[e.seat] if 0 <= e.seat < len(names) else f"seat {e.seat}"
    to = names[e.to] if 0 <= e.to < len(names) else ""
    shown = " ".join(_text(e.cards))
    said = _SAID.get(e.kind, "{who}: " + e.kind).format(
        who=who,
        to=to,
        cards=shown,
        combination=f" ({e.combo.kind})" if e.combo is not None else "",
        value=e.value,
        rank=cards.RANK_CHARS[e.value - 2] if e.kind == "wish" and e.value else "",
        place=ORDINALS.get(e.value, f"{e.value}th"),
    )
    if e.kind == "wish" and not e.value:
        said = f"{who} makes no wish"
    out = {"kind": e.kind, "seat": e.seat, "cards": _text(e.cards), "value": e.value}
    out["to"], out["text"] = e.to, said
    if e.combo is not None:
        out["combination"] = e.combo.kind
    return out


def _events(events: tuple[Event, ...], names: list[str], sizes: list[int]) -> list[dict]:
    """The events as the page shows them, each with the seats' card counts after it."""
    counts = list(sizes)
    out = []
    for e in events:
        if e.kind in ("play", "bomb"):
            counts[e.seat] -= bin(e.cards).count("1")
        d = _event(e, names)
        d["counts"] = list(counts)
        out.append(d)
    return out


def _sizes(game: TableGame, first_drawer: int) -> list[int]:
    n = game.game.seats
    return [game.game.hand_size((s - first_drawer) % n) for s in range(n)]


def _option(choice: Any, decision: str, names: list[str]) -> dict:
    if decision in ("grand_tichu", "tichu"):
        call = "Grand Tichu!" if decision == "grand_tichu" else "Tichu!"
        return {"label": call if choice else "No call", "call": bool(choice)}
    if decision in ("play", "bomb"):
        if choice is None:
            return {"label": "Pass" if decision == "play" else "No bomb", "cards": []}
        assert isinstance(choice, Play)
        return {
            "label": cards.format(int(choice)),
            "cards": _text(int(choice)),
            "combination": choice.combo.kind,
        }
    if decision == "wish":
        return {"label": cards.RANK_CHARS[choice - 2] if choice else "No wish", "rank": choice}
    if decision in ("dragon", "dog"):
        return {"label": f"to {names[choice]}", "seat": choice}
    return {"label": str(choice)}


def _round(done: Any) -> dict:
    return {
        "round": done.number + 1,
        "score": list(done.score),
        "totals": list(done.totals),
        "first_out": done.first_out,
        "first_drawer": done.record.deal.first_drawer,
    }


def state(seat: Seat) -> dict:
    """The table as the person may know it (under the seat's lock): the JSON the page draws
    (docs/serve.md lists its fields)."""
    game = seat.game
    names = _names(game)
    n = game.game.seats
    out: dict[str, Any] = {
        "table": seat.id,
        "variant": game.variant,
        "seed": game.seed,
        "target": game.target,
        "step": len(game.answers),
        "seats": [
            {
                "seat": s,
                "name": names[s],
                "team": s % 2,
                "strategy": game.names[s],
            }
            for s in range(n)
        ],
        "score": list(game.totals),
        "rounds": [_round(r) for r in game.rounds],
        "over": game.over,
        "winner": game.winner,
        "error": game.error,
        "record": game.to_dict(),
    }
    out["last_round"] = None
    if game.rounds:
        last = game.rounds[-1]
        if seat.shown is None or seat.shown[0] != last.number:
            shown = _round(last) | {
                "events": _events(last.events, names, _sizes(game, last.record.deal.first_drawer)),
                # the server's record of the round (games.record), the input of its review
                "record": last.record.to_dict(),
            }
            seat.shown = (last.number, shown)
        out["last_round"] = seat.shown[1]
    out["round"] = None
    out["decision"] = None
    if game.to_act is None:
        return out
    view = game.view()
    legal = game.legal()
    decision = game.decision or ""
    pub = view.public[0]
    out["round"] = {
        "round": game.number + 1,
        "first_drawer": game.first_drawer,
        "hand": _text(int(view.hand)),
        "counts": [int(c) for c in view.counts],
        "tichu": [bool(x) for x in view.tichu],
        "grand_tichu": [bool(x) for x in view.grand_tichu],
        "wish": cards.RANK_CHARS[int(view.wish) - 2] if int(view.wish) else None,
        "out": [int(s) for s in view.out_order if s >= 0][: int(pub["n_out"])],
        "taken": [int(p) for p in view.points_taken],
        "trick": [_event(e, names) for e in view.trick],
        "events": _events(view.history, names, _sizes(game, game.first_drawer)),
    }
    asked: dict[str, Any] = {"kind": decision, "detail": int(view.detail), "seat": view.seat}
    if isinstance(legal, Gifts):
        asked["receivers"] = [{"seat": s, "name": names[s]} for s in legal.receivers]
        asked["options"] = []
    else:
        asked["options"] = [_option(c, decision, names) for c in legal]
    asked["hint"] = _hint_kind(game, decision) is not None
    out["decision"] = asked
    return out


# ---- the hint ------------------------------------------------------------------------------


def _hint_kind(game: TableGame, decision: str) -> str | None:
    if decision == "grand_tichu":
        return "gt-odds"
    if decision == "tichu":
        return "tichu-odds"
    if decision == "pass" and game.variant == "nanjing":
        return "pass-advice"
    if decision == "play":
        return "advise"
    if decision in ("bomb", "wish", "dragon", "dog"):
        return "search"  # every option played out by the search, from the view
    return None


def _others(game: TableGame, seat: int) -> str:
    n = game.game.seats
    others = [game.names[(seat + d) % n] or ANSWER_STRATEGY for d in range(1, n)]
    return others[0] if len(set(others)) == 1 else ",".join(others)


def hint(seat: Seat, limits: Limits) -> Ask:
    """The hint for the awaited decision (under the seat's lock): the answer that ranks its
    options, asked from the person's view alone, ready for a worker; its result is the
    answer's ``--json`` object with ``hint``: the decision, the state's step and the options
    ranked best first (``option``: the index in the state's options; the passing: ``cards``
    in the receivers' order), each with its estimate and interval."""
    game = seat.game
    if game.to_act is None:
        raise Stale(game.error or "the game is over: no decision to hint")
    decision = game.decision or ""
    kind = _hint_kind(game, decision)
    if kind is None:
        where = " at Tientsin" if decision == "pass" else ""
        raise BadInput(
            f"hint: no answer ranks a {decision} decision{where} (hints: Grand Tichu, Tichu, "
            "the passing at Nanjing, a play on the seat's turn)"
        )
    view, legal = game.view(), game.legal()
    step = len(game.answers)
    if kind == "search":
        return _searched(view, legal, decision, step, limits, _names(game))
    hand = cards.format(int(view.hand))
    players = {"seat_strategy": ANSWER_STRATEGY, "others": _others(game, view.seat)}
    body: dict[str, Any]
    if kind == "gt-odds":
        body = {"hand": hand, "variant": game.variant, **players}
    elif kind == "tichu-odds":
        body = {"hand": hand, "variant": game.variant, **players}
        if view.detail >= 1:  # after the passing: the cards received, from the right on
            n = game.game.seats
            got = [int(view.received[(view.seat + d) % n]) for d in range(1, n)]
            if all(got):
                body["received"] = " ".join(cards.format(c) for c in got)
        if view.detail >= 2:
            body["played"] = bin(int(view.played)).count("1")
    elif kind == "pass-advice":
        body = {"hand": hand, **players}
    else:
        try:
            position = Position.from_view(view)
            Position.parse(position.to_dict())
        except ValueError as exc:
            raise BadInput(f"hint: this position is not one advise reads: {exc}") from None
        body = {"position": position.to_dict()}
    ask = prepare(kind, body, limits)

    def run(progress: Any) -> dict:
        result = ask.run(progress)
        ranked = _ranked(kind, result, legal)
        result["hint"] = {"decision": decision, "step": step, "kind": kind, "ranked": ranked}
        return result

    return Ask(kind, run, ask.command, ask.total)


SEARCH_DEALS = 2000  # deals of the unseen cards a searched hint plays each option on


def _searched(
    view: Any, legal: Any, decision: str, step: int, limits: Limits, names: list[str]
) -> Ask:
    """The hint of a decision no answer ranks (a bomb out of turn, the wish, the Dragon's
    trick, Tientsin's Dog): every legal option played out by the search on the same deals of
    the cards the seat has not seen (``search.evaluate_plays``, the answers' player at every
    seat afterwards), ranked by the team's mean round margin, each with its paired difference
    to the best."""
    deals = min(SEARCH_DEALS, limits.samples)
    options = list(legal)

    def run(progress: Any) -> dict:
        progress(0, deals, None)
        result = evaluate_plays(view, options, deals, 0, ANSWER_STRATEGY)
        paired = result.paired
        best = paired.best()
        rows = []
        for c, choice in enumerate(options):
            label = _option(choice, decision, names)["label"]
            rows.append(
                {
                    "option": c,
                    "label": label,
                    "estimate": paired.estimate(c).to_json(4),
                    "vs_best": paired.difference(c, best).to_json(4),
                }
            )
        rows.sort(key=lambda r: -(r["estimate"]["value"] or 0.0))
        progress(deals, deals, None)
        ranked = {"decision": decision, "step": step, "kind": "search", "ranked": rows}
        return {"deals": result.samples, "rollout": ANSWER_STRATEGY, "hint": ranked}

    command = f"(the search: every option on {deals:,} deals of the unseen cards)"
    return Ask("search", run, command, deals)


def _ranked(kind: str, result: dict, legal: Any) -> list[dict]:
    """The options best first, each with its estimate (the answer's own figures)."""
    if kind in ("gt-odds", "tichu-odds"):
        e = result["estimates"]
        rows = [
            {"option": 1, "label": "call", "estimate": e["ev_call"]},
            {"option": 0, "label": "no call", "estimate": e["ev_no_call"]},
        ]
        return sorted(rows, key=lambda r: -(r["estimate"]["value"] or 0.0))
    if kind == "pass-advice":
        return [
            {
                "cards": [c["right"], c["partner"], c["left"]],
                "label": f"{c['right']} · {c['partner']} · {c['left']}",
                "estimate": c["estimates"]["points"],
            }
            for c in result["candidates"]
        ]
    out = []
    for p in result["plays"]:
        index = _play_index(p, legal)
        out.append(
            {
                "option": index,
                "label": p["play"] or "pass",
                "estimate": p["margin"],
                "vs_best": p["vs_best"],
            }
        )
    return out


def _play_index(p: dict, legal: Any) -> int | None:
    if p["play"] is None:
        return next((i for i, c in enumerate(legal) if c is None), None)
    mask = cards.parse(p["play"])
    hits = [i for i, c in enumerate(legal) if c is not None and int(c) == mask]
    kind = [i for i in hits if legal[i].combo.kind == p["combination"]]
    found = kind or hits
    return found[0] if found else None


# ---- the game as a log -----------------------------------------------------------------


def game_log(seat: Seat, fmt: str) -> tuple[str, str, str]:
    """``(text, media type, file name)``: the game's finished rounds as a log that
    ``tichusim review`` and ``import`` read: ``tch`` (a Brettspielwelt log, Nanjing) or
    ``json`` (the game record, every table). Written to a string only."""
    game = seat.game
    record = game.record()
    name = f"tichusim-{game.variant}-{game.seed}"
    if fmt == "json":
        return record.to_json(), "application/json", f"{name}.json"
    if fmt == "tch":
        if game.variant != "nanjing":
            raise BadInput(f"format: a BSW log holds Nanjing games; take json for {game.variant}")
        if not record.rounds:
            raise BadInput("format: tch: no round finished yet (json holds none either)")
        return write_tch(record), "text/plain; charset=utf-8", f"{name}.tch"
    raise BadInput(f"format: tch or json, not {fmt!r}")


def failed(exc: BaseException) -> str:
    """A failure no request caused, said in one line (the server goes on)."""
    return one_line(f"internal error: {type(exc).__name__}: {exc}")
