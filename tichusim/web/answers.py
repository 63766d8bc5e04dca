"""A request's answer: its JSON checked and bounded, the library called as the commands call
it (``gt-odds``, ``tichu-odds``, ``pass-advice``, ``advise``), the answer in the commands'
``--json`` shape, and the command line that gives the same answer.

A request's fields are its question's (``analysis.questions``), which the commands' options
are made from too. ``prepare`` does every check a request can fail (unknown fields, types,
the hand, the strategies, the table, the bounds) before anything is played, with the
library's own one-line messages (``games.errors.guard``); what it returns runs on a worker
(``jobs.Jobs``). Nothing here reads or writes a file: a strategy is a name or a name with
changes, never a file or a Python agent (both would reach the file system), and the answers
are kept in memory only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import checks
from ..analysis import advise as advise_mod
from ..analysis import gtodds, passadvice, tichuodds
from ..analysis.questions import (
    ADVISE,
    GT_ODDS,
    PASS_ADVICE,
    PLAYERS,
    QUESTIONS,
    TICHU_ODDS,
    Field,
    Question,
)
from ..games import DEFAULT_GAME, TEAM_GAMES, game, game_type
from ..games.agents import from_text
from ..games.errors import BadInput, guard
from ..games.position import Position
from ..games.strategy_text import parse_strategy_count
from ..strategies.book import split_strategies

__all__ = ["KINDS", "Ask", "Limits", "defaults", "prepare"]

KINDS = tuple(q.name for q in QUESTIONS)  # gt-odds, tichu-odds, pass-advice, advise
Progress = Callable[[int, int, str | None], None]  # done, total, a note (the leader, P)


@dataclass(frozen=True)
class Limits:
    """The most a request may ask for: deals of the odds, of pass-advice's best candidates,
    advise's deals of the unseen cards and its candidate plays (the fields' ``bound``)."""

    deals: int = 50_000
    pass_deals: int = 20_000
    samples: int = 20_000
    candidates: int = 60


@dataclass(frozen=True)
class Ask:
    """A checked request: ``run(progress)`` plays it and returns the answer's JSON;
    ``total`` is what its progress counts to (deals or rounds; 0: no progress), ``command``
    the command line that gives the same answer."""

    kind: str
    run: Callable[[Progress], dict]
    command: str
    total: int


def defaults() -> dict:
    """The controls' defaults, the library's (``analysis.questions``): for each answer, the
    numbers the server bounds (deals, samples, candidates) and the players."""
    shown: dict = {"variant": DEFAULT_GAME, "variants": list(TEAM_GAMES)}
    for question in QUESTIONS:
        shown[question.key] = {
            f.name: f.request_default
            for f in question.fields
            if f.server and (f.bound or f.kind in PLAYERS) and f.request_default is not None
        }
    return shown


# ---- a request, read by its question's fields -----------------------------------------------


class _Request:
    """A request's JSON object read field by field as its question declares them: each
    field's type and range, the server's bounds, the strategies (named ones only) parsed for
    the table; a field the question does not have is refused."""

    def __init__(self, question: Question, body: Any, limits: Limits):
        if not isinstance(body, dict):
            raise BadInput(
                f"{question.name}: the request is a JSON object, not {type(body).__name__}"
            )
        self.question = question
        self.body = body
        self.limits = limits
        self.read: set[str] = set()
        # each field's value, the library's default filled in (the command line names it)
        self.values: dict[str, Any] = {}
        # the strategies a request gives, parsed: the library's keyword -> strategies
        self.players: dict[str, Any] = {}
        fields = [f for f in question.fields if f.server]
        for field in fields:
            if field.kind not in PLAYERS:
                self.values[field.name] = self._field(field)
        players = game_type(self.values.get("variant", DEFAULT_GAME)).players
        for field in fields:
            if field.kind in PLAYERS:
                text = self._text(field.name)
                count = (1,) if field.kind == "strategy" else (1, players - 1)
                if text is not None:
                    assert field.library_keyword is not None
                    self.players[field.library_keyword] = _strategies(text, count, field.name)
                self.values[field.name] = text or field.default
        unknown = sorted(set(body) - self.read)
        if unknown:
            raise BadInput(
                f"{question.name}: unknown field {unknown[0]!r} (known: "
                f"{', '.join(sorted(self.read))})"
            )

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def given(self, name: str) -> bool:
        """Whether the request gave ``name`` (a strategy): the library's default otherwise."""
        return self.question[name].library_keyword in self.players

    def command(self) -> str:
        return self.question.command(self.values)

    def _get(self, name: str, kind: type) -> Any:
        self.read.add(name)
        value = self.body.get(name)
        if value is None:
            return None
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise BadInput(f"{name}: not {value!r}")
        return value

    def _text(self, name: str) -> str | None:
        value = self._get(name, str)
        return None if value is None else value.strip() or None

    def _field(self, field: Field) -> Any:
        name, kind = field.name, field.kind
        if kind == "text":
            value = self._text(name)
            if value is None and field.missing is not None:
                raise BadInput(f"{name}: missing ({field.missing})")
            return value
        if kind == "choice":
            value = self._text(name) or field.default
            if value not in field.choices:
                raise BadInput(f"{name}: {field.what} ({', '.join(field.choices)}), not {value!r}")
            return value
        if kind == "seed":
            value = self._get(name, int)
            return field.default if value is None else guard(checks.seed, value, name)
        if kind == "whole":
            return self._whole(field)
        if kind == "flag":
            return bool(self._get(name, bool))
        if kind == "texts":
            items = self._get(name, list) or []
            if not all(isinstance(item, str) for item in items):
                raise BadInput(f'{name}: {field.what} as text, "{field.metavar}"')
            bound = getattr(self.limits, field.bound) if field.bound else None
            if bound is not None and len(items) > bound:
                raise BadInput(
                    f"{name}: at most {bound} {field.what} a request on this server, "
                    f"not {len(items)}"
                )
            return items
        if kind == "options":
            options = self._get(name, dict)
            if not options:
                return None
            for key, value in options.items():
                if not isinstance(value, (bool, int, float, str)):
                    raise BadInput(f"{name}: {key}: not {value!r}")
            return dict(options)
        if kind == "position":
            data = self._get(name, dict)
            if data is None:
                raise BadInput(f"{name}: missing ({field.missing})")
            return data
        raise AssertionError(f"{name}: the server reads no {kind}")

    def _whole(self, field: Field) -> int | None:
        """A whole number in the field's range; absent: its default, at most the server's
        bound."""
        name = field.name
        bound = getattr(self.limits, field.bound) if field.bound else None
        value = self._get(name, int)
        if value is None:
            default = field.request_default
            return default if bound is None or default is None else min(default, bound)
        if field.high is not None:
            if not field.low <= value <= field.high:
                raise BadInput(
                    f"{name}: a number of {field.what} {field.low}..{field.high}, not {value}"
                )
        elif field.low is not None and value < field.low:
            raise BadInput(f"{name}: at least {field.low:,}, not {value:,}")
        if bound is not None and value > bound:
            raise BadInput(
                f"{name}: at most {bound:,} {field.what} a request on this server, not "
                f"{value:,} (the command line has no such bound)"
            )
        return value


def _strategies(text: str, count: tuple[int, ...], what: str):
    """``text`` as ``count`` scripted strategies (``parse_strategy_count``): names and names
    with changes; a file or a Python agent is refused, as it would read a file or run code."""
    for item in split_strategies(text):
        if item.strip().lower().endswith(".toml") or from_text(item) is not None:
            raise BadInput(
                f"{what}: {item.strip()!r}: the server plays named strategies and their changes "
                "only (expert, heuristic:pass=lowest, ...), not files or Python agents; the "
                "command line takes those"
            )
    return guard(parse_strategy_count, text, count, what)


def _note(estimate) -> str | None:
    if estimate is None:
        return None
    return f"P(out first | call) {estimate.pct()}"


# ---- the answers ------------------------------------------------------------------------


def _gt_odds(r: _Request, table: Callable[[str], dict | None]) -> Ask:
    hand, variant, options = r["hand"], r["variant"], r["options"]
    guard(game, variant, None, options)
    guard(gtodds.check_hand, hand, variant, options)

    def run(progress: Progress) -> dict:
        answer = guard(
            gtodds.gt_odds,
            hand,
            deals=r["deals"],
            seed=r["seed"],
            variant=variant,
            options=options,
            progress=lambda done, total, p: progress(done, total, _note(p)),
            **r.players,
        )
        out = answer.to_dict()
        # the hand class's row of gt-table (the 4-player game's, the default players')
        out["gt_table"] = table(hand) if variant == DEFAULT_GAME and not options else None
        return out

    return Ask("gt-odds", run, r.command(), r["deals"])


def _tichu_odds(r: _Request) -> Ask:
    hand, received, variant, options = r["hand"], r["received"], r["variant"], r["options"]
    guard(game, variant, None, options)
    guard(tichuodds.check_hand, hand, received, variant, options)

    def run(progress: Progress) -> dict:
        answer = guard(
            tichuodds.tichu_odds,
            hand,
            deals=r["deals"],
            seed=r["seed"],
            received=received,
            played=r["played"],
            variant=variant,
            options=options,
            progress=lambda done, total, p: progress(done, total, _note(p)),
            **r.players,
        )
        return answer.to_dict()

    return Ask("tichu-odds", run, r.command(), r["deals"])


def _pass_advice(r: _Request) -> Ask:
    hand, candidates = r["hand"], r["candidates"]
    guard(passadvice.check_candidates, hand, candidates)
    if r["only_given"] and not candidates:
        raise BadInput("only_given: give at least one candidate")

    def run(progress: Progress) -> dict:
        answer = guard(
            passadvice.pass_advice,
            hand,
            deals=r["deals"],
            seed=r["seed"],
            candidates=candidates,
            generated=not r["only_given"],
            progress=progress,
            **r.players,
        )
        return answer.to_dict()

    return Ask("pass-advice", run, r.command(), 0)


def _advise(r: _Request) -> Ask:
    # the rollout goes to the library as its text, once checked (``_Request``)
    rollout = {"rollout": r["rollout"]} if r.given("rollout") else {}
    position = guard(Position.parse, r["position"])

    def run(progress: Progress) -> dict:
        answer = guard(
            advise_mod.advise,
            position,
            r["samples"],
            candidates=r["candidates"],
            seed=r["seed"],
            **rollout,
        )
        return answer.to_dict()

    return Ask("advise", run, r.command(), 0)


def prepare(
    kind: str, body: Any, limits: Limits, table: Callable[[str], dict | None] | None = None
) -> Ask:
    """The request ``body`` (JSON) for the answer ``kind``, checked (``BadInput``: one line);
    ``table(hand)``: the hand class's row of gt-table for gt-odds (or ``None``)."""
    if kind == "gt-odds":
        return _gt_odds(_Request(GT_ODDS, body, limits), table or (lambda hand: None))
    if kind == "tichu-odds":
        return _tichu_odds(_Request(TICHU_ODDS, body, limits))
    if kind == "pass-advice":
        return _pass_advice(_Request(PASS_ADVICE, body, limits))
    if kind == "advise":
        return _advise(_Request(ADVISE, body, limits))
    raise BadInput(f"no answer {kind!r} (answers: {', '.join(KINDS)})")
