"""A review's results, typed: each round's (``RoundReview``: its decisions weighed, its score,
its par) and the game's (``GameReview``: the rounds, each player's summary, the settings it was
made with), with the one JSON document and the one table (a row per decision) they are
written as.

Rounds and decisions are numbered from 0 in the results, the JSON and the table, as the
game's ``rounds`` and ``Round.seek`` count them (the text says "round 1" for the first).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..stats import Estimate, mean_ci
from .settings import FLAGS, Settings
from .weigh import Weighed

__all__ = ["FORMAT", "GameReview", "PlayerSummary", "RoundReview", "summarise"]

FORMAT = "tichusim-review/1"  # the JSON document's format


def _est(e: Estimate | None) -> dict | None:
    return None if e is None else e.to_json(3)


@dataclass(frozen=True)
class RoundReview:
    """One round reviewed: its index in the game, where it was read, the engine's score
    (team 0, team 1; Wu Wang: the King's side first), the first player out, the deal's
    ``par`` (team 0's margin with the strong player at every seat, ``par.py``) with each
    playout's margin, its decisions weighed (those of the seats reviewed, in order) and the
    seconds it took."""

    index: int
    source: str
    score: tuple[int, int]
    first_out: int
    par: Estimate | None
    playouts: tuple[int, ...]
    decisions: tuple[Weighed, ...]
    seconds: float

    @property
    def result(self) -> int:
        """Team 0's margin as played."""
        return self.score[0] - self.score[1]

    @property
    def play(self) -> float:
        """Team 0's margin as played less its par: what the play made of the deal (team 1's
        is its negative); ``nan`` without a par."""
        return math.nan if self.par is None else self.result - self.par.value

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "source": self.source,
            "score": list(self.score),
            "first_out": self.first_out,
            "result": self.result,
            "par": _est(self.par),
            "par_playouts": list(self.playouts),
            "play": None if math.isnan(self.play) else round(self.play, 3),
            "seconds": round(self.seconds, 3),
            "decisions": [_decision_dict(w) for w in self.decisions],
        }


def _decision_dict(w: Weighed) -> dict:
    return {
        "round": w.round,
        "number": w.number,
        "seat": w.seat,
        "decision": w.decision,
        "detail": w.detail,
        "hand": w.hand,
        "trick": w.trick,
        "chosen": w.chosen,
        "strong": w.strong,
        "best": w.best,
        "status": w.status,
        "candidates": w.candidates,
        "deals": w.deals,
        "value": _est(w.value),
        "best_value": _est(w.best_value),
        "loss": _est(w.loss),
        "flag": w.flag,
        "called": w.called,
        "odds": _est(w.odds),
        "action": w.action,
        "why": w.why,
    }


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's decisions summed up: how many were weighed (``decisions``, forced ones
    apart), the mean loss per decision with its 95% interval (an error rate, as gnubg's) and
    the total, how many of each flag, and its calls: made, won (out first, §2.14) and the
    wins the odds said at each (their sum)."""

    seat: int
    name: str
    decisions: int
    forced: int
    unweighed: int
    loss: Estimate
    lost: float
    flags: dict[str, int]
    calls: int
    calls_won: int
    calls_expected: float

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "name": self.name,
            "decisions": self.decisions,
            "forced": self.forced,
            "unweighed": self.unweighed,
            "loss_per_decision": _est(self.loss),
            "lost": round(self.lost, 3),
            "flags": dict(self.flags),
            "calls": self.calls,
            "calls_won": self.calls_won,
            "calls_expected": round(self.calls_expected, 3),
        }


def summarise(rounds: tuple[RoundReview, ...], seat: int, name: str = "") -> PlayerSummary:
    """Seat ``seat``'s summary over ``rounds`` (of one game, or one round alone): its
    decisions, its loss per decision, its flags, its calls (won: the caller out first of its
    round, §2.14)."""
    calls_won = sum(
        1
        for r in rounds
        for w in r.decisions
        if w.seat == seat and w.called and r.first_out == seat
    )
    mine = [w for r in rounds for w in r.decisions if w.seat == seat]
    weighed = [w for w in mine if w.weighed]
    losses = np.array([w.lost for w in weighed], np.float64)
    calls = [w for w in mine if w.called]
    return PlayerSummary(
        seat=seat,
        name=name,
        decisions=len(weighed),
        forced=sum(w.status == "forced" for w in mine),
        unweighed=sum(w.status == "unweighed" for w in mine),
        loss=mean_ci(losses) if len(losses) else Estimate(math.nan, math.nan, math.nan, 0),
        lost=float(losses.sum()),
        flags={f: sum(w.flag == f for w in weighed) for f in FLAGS},
        calls=len(calls),
        calls_won=calls_won,
        calls_expected=float(sum(w.odds.value for w in calls if w.odds is not None)),
    )


@dataclass(frozen=True)
class GameReview:
    """A game reviewed: its players (by seat), its table, its rounds reviewed, each reviewed
    seat's summary (``players``), the rounds that could not be played back (``skipped``: one
    line each, ``file:line: why``), the settings and the seconds it took."""

    names: tuple[str, ...]
    variant: str
    rounds: tuple[RoundReview, ...]
    players: tuple[PlayerSummary, ...]
    settings: Settings
    skipped: tuple[str, ...]
    seconds: float

    @property
    def decisions(self) -> list[Weighed]:
        """Every decision reviewed, round by round, in order."""
        return [w for r in self.rounds for w in r.decisions]

    def worst(self, count: int | None = None) -> list[Weighed]:
        """The weighed decisions that lost points, the most first (ties: in play order)."""
        lost = [w for w in self.decisions if w.weighed and w.lost > 0]
        lost.sort(key=lambda w: -w.lost)
        return lost if count is None else lost[:count]

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "variant": self.variant,
            "names": list(self.names),
            "settings": self.settings.to_dict(),
            "seconds": round(self.seconds, 3),
            "skipped": list(self.skipped),
            "players": [p.to_dict() for p in self.players],
            "rounds": [r.to_dict() for r in self.rounds],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def parquet(self) -> bytes:
        """The table (``table``) as a Parquet file's bytes, the settings, players and rounds
        (the JSON document without its decisions) in the file's metadata under
        ``tichusim-review``."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        arrow = pa.Table.from_pandas(self.table(), preserve_index=False)
        about = self.to_dict()
        for r in about["rounds"]:
            del r["decisions"]
        meta = dict(arrow.schema.metadata or {})
        meta[b"tichusim-review"] = json.dumps(about, ensure_ascii=False).encode()
        sink = pa.BufferOutputStream()
        pq.write_table(arrow.replace_schema_metadata(meta), sink)
        return bytes(sink.getvalue().to_pybytes())

    def table(self) -> pd.DataFrame:
        """One row per decision reviewed (the columns: ``docs/review.md``), estimates as
        their value and interval's ends (``loss``, ``loss_low``, ``loss_high``, ...)."""
        rows = []
        for r in self.rounds:
            for w in r.decisions:
                row: dict[str, Any] = {
                    k: v
                    for k, v in _decision_dict(w).items()
                    if k not in ("value", "best_value", "loss", "odds")
                }
                row["player"] = self.names[w.seat] if w.seat < len(self.names) else ""
                for name in ("value", "best_value", "loss", "odds"):
                    e = getattr(w, name)
                    row[name] = np.nan if e is None else e.value
                    row[f"{name}_low"] = np.nan if e is None else e.low
                    row[f"{name}_high"] = np.nan if e is None else e.high
                rows.append(row)
        frame = pd.DataFrame(rows, columns=TABLE_COLUMNS)
        return frame.astype(TABLE_TYPES)


TABLE_COLUMNS = [
    "round",
    "number",
    "seat",
    "player",
    "decision",
    "detail",
    "hand",
    "trick",
    "chosen",
    "strong",
    "best",
    "status",
    "candidates",
    "deals",
    "value",
    "value_low",
    "value_high",
    "best_value",
    "best_value_low",
    "best_value_high",
    "loss",
    "loss_low",
    "loss_high",
    "flag",
    "called",
    "odds",
    "odds_low",
    "odds_high",
    "action",
    "why",
]
_INTS = ("round", "number", "seat", "detail", "candidates", "deals", "action")
_TEXTS = (
    "player",
    "decision",
    "hand",
    "trick",
    "chosen",
    "strong",
    "best",
    "status",
    "flag",
    "why",
)
TABLE_TYPES: dict[str, Any] = (
    {c: "int64" for c in _INTS}
    | {c: "string" for c in _TEXTS}
    | {"called": "bool"}
    | {c: "float64" for c in TABLE_COLUMNS if c not in (*_INTS, *_TEXTS, "called")}
)
