"""The league that judges a trained network before it ships (``[league]`` of a learn config).

A network is copied to where the package loads it only when, on held-out deals (a seed that
no data set of the learning was played with), it

1. beats the network shipped there now, head to head: the interval of its duplicate margin
   lies above 0 (skipped when nothing is shipped yet, or the shipped file is this network);
2. loses to none of the league's members (``expert``, ``search``, the previous networks): no
   margin's interval lies wholly below 0. A member that beats the shipped network too (at a
   table where ``search`` is far the stronger, say) is held to rule 3 alone: refusing every
   network that loses to it would refuse the better ones with the worse;
3. keeps the shipped network's margin against every member: on the same deals, its margin
   against the member less the shipped network's margin against it, deal by deal, does not
   lie wholly below 0. A network can beat its parent and still have learned to beat only
   itself: against ``expert`` it then gains less than its parent did, which this catches.

Every figure is a duplicate match (``tichusim.analysis.duplicate``: the same deals from every
side of the table; in Wu Wang every mixed assignment of the two players to the three seats),
points per round (Wu Wang: per player-round) with its 95% interval and the deals it counts.
Matches against a slow member (``search``, tens of rounds a second) play ``slow_deals``
deals, the first of the same sequence, so their intervals are wider and say so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator

from ..runs.settings import Strict
from ..stats import Estimate, Paired

__all__ = ["LeagueSettings", "Match", "Verdict", "judge", "network", "ship"]

PositiveInt = Annotated[int, Field(gt=0)]

SLOW = ("search",)  # the members whose matches play ``slow_deals`` deals


class LeagueSettings(Strict):
    """``deals``: held-out deals of each match; ``slow_deals``: of a match against a slow
    member (a strategy text starting with ``search``); ``seed``: the held-out deals' seed, not
    one a data set of the learning was played with (the config checks); ``members``: the
    strategies the network must not lose to, nor do worse against than the shipped network;
    ``previous``: earlier networks' weights files, members too; ``workers``: processes
    playing a match's deals (the same figures for any number)."""

    deals: PositiveInt = 2_000
    slow_deals: PositiveInt = 200
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 20_261_128
    members: list[str] = ["expert", "search"]
    previous: list[str] = []
    workers: PositiveInt = 1

    @field_validator("members", "previous")
    @classmethod
    def _texts(cls, value: list[str]) -> list[str]:
        for text in value:
            if not text.strip():
                raise ValueError("an empty entry")
        if len(set(value)) != len(value):
            raise ValueError(f"an entry twice: {', '.join(value)}")
        return value


@dataclass(frozen=True)
class Match:
    """One duplicate match of the judged network (``a``) against ``b``: ``margin`` a minus b,
    per round (Wu Wang: per player-round), over ``deals`` held-out deals; ``kept`` (against
    a member, when a network is shipped) the margin less the shipped network's against the
    same member on the same deals."""

    a: str
    b: str
    role: str  # "shipped" or "member"
    margin: Estimate
    deals: int
    kept: Estimate | None = None
    shipped: Estimate | None = None  # the shipped network's margin against the same member

    def to_json(self) -> dict:
        out = {
            "against": self.b,
            "role": self.role,
            "deals": self.deals,
            "margin": self.margin.to_json(2),
        }
        if self.kept is not None:
            out["kept"] = self.kept.to_json(2)
        if self.shipped is not None:
            out["shipped_margin"] = self.shipped.to_json(2)
        return out


@dataclass(frozen=True)
class Verdict:
    """The league's judgement of a network: ``ships``, ``reasons`` (why not, one line each:
    empty when it ships) and every match with its figures."""

    candidate: str
    shipped: str | None
    variant: str
    seed: int
    matches: list[Match] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ships(self) -> bool:
        return not self.reasons

    def line(self) -> str:
        """The verdict in one line: "ships" or "does not ship, because ..."."""
        if self.ships:
            return "ships"
        return "does not ship, because " + "; and ".join(self.reasons)

    def to_json(self) -> dict:
        return {
            "candidate": self.candidate,
            "shipped": self.shipped,
            "variant": self.variant,
            "seed": self.seed,
            "ships": self.ships,
            "verdict": self.line(),
            "matches": [m.to_json() for m in self.matches],
        }

    def to_markdown(self) -> str:
        from ..games import game_type

        unit = game_type(self.variant).duplicate_unit
        lines = [
            f"# League verdict: {self.candidate} ({self.variant})",
            "",
            f"**{self.line()}.**",
            "",
            f"Held-out deals of seed {self.seed} (no data set of the learning was played with "
            f"it); duplicate matches, points per {unit}, 95% intervals."
            + (f" Shipped now: {self.shipped}." if self.shipped else ""),
            "",
        ]
        lines += [f"- {note}" for note in self.notes]
        if self.notes:
            lines.append("")
        lines += [
            "| against | as | deals | network - it | shipped network - it | "
            "network's margin - shipped one's |",
            "|---|---|---|---|---|---|",
        ]
        for m in self.matches:
            kept = m.kept.pts() if m.kept is not None else ""
            ship = m.shipped.pts() if m.shipped is not None else ""
            lines.append(f"| {m.b} | {m.role} | {m.deals:,} | {m.margin.pts()} | {ship} | {kept} |")
        return "\n".join(lines) + "\n"


def _identity(path: str | os.PathLike, decision: str, variant: str) -> str:
    if decision == "pass":
        from ..strategies import passnet

        return passnet.load(Path(path), variant).identity
    from ..strategies.learned import load

    return load(Path(path)).identity


def network(path: str | os.PathLike, decision: str = "play") -> str:
    """The strategy text that plays the network of the weights file ``path``: ``learned``
    with it as its play network, or (``decision="pass"``) as its pass network."""
    key = "pass_weights" if decision == "pass" else "weights"
    return f"learned[{key}={Path(path).as_posix()}]"


def judge(
    candidate: str | os.PathLike,
    shipped: str | os.PathLike | None,
    settings: LeagueSettings,
    variant: str,
    play: Callable[..., Any],
    *,
    decision: str = "play",
    log: Callable[[str], None] | None = None,
) -> Verdict:
    """The league's verdict on the network of the weights file ``candidate`` at the table
    ``variant``, against the network shipped at ``shipped`` (``None`` or a missing file:
    nothing shipped yet). ``play(a, b, deals, seed=, variant=, workers=)`` plays a duplicate
    match and returns its result (``diff``, ``margins``, ``deals``): the command line hands in
    ``tichusim.analysis.duplicate.duplicate``, a layer this package does not import.
    ``decision``: what the networks decide (``"play"``, or ``"pass"``: each plays as
    ``learned``'s pass network, ``learned``'s own play beside it)."""
    cand = network(candidate, decision)
    cand_id = _identity(candidate, decision, variant)
    ship: str | None = None
    notes = [f"the network judged: identity {cand_id}"]
    from ..strategies.learned import WeightsError  # its kernels load when a league is played

    try:
        ship_id = (
            (_identity(shipped, decision, variant))
            if shipped is not None and Path(shipped).is_file()
            else None
        )
    except WeightsError as exc:  # another format: this code cannot play it, the new file can
        notes.append(f"the file shipped cannot be played ({exc}): no head-to-head")
        ship_id = ""
    if ship_id:
        if ship_id == cand_id:
            notes.append(f"the file shipped is this network ({ship_id}): nothing to beat")
        else:
            assert shipped is not None  # it has an identity
            ship = network(shipped, decision)
            notes.append(f"the network shipped: identity {ship_id}")
    elif ship_id is None:
        notes.append("no network is shipped there yet: no head-to-head")
    members = list(settings.members) + [network(p, decision) for p in settings.previous]
    for p in settings.previous:
        notes.append(
            f"previous network {Path(p).as_posix()}: identity {_identity(p, decision, variant)}"
        )

    def match(a: str, b: str) -> Any:
        deals = settings.slow_deals if b.startswith(SLOW) else settings.deals
        if log is not None:
            log(f"league: {a} vs {b}, {deals:,} held-out deals")
        return play(a, b, deals, seed=settings.seed, variant=variant, workers=settings.workers)

    matches: list[Match] = []
    reasons: list[str] = []
    if ship is not None:
        r = match(cand, ship)
        matches.append(Match(cand, ship, "shipped", r.diff, r.deals))
        if r.diff.low <= 0:
            reasons.append(
                f"it does not beat the shipped network head to head: "
                f"{r.diff.pts()} over {r.deals:,} deals"
            )
    for member in members:
        if member in (cand, ship):
            continue
        r = match(cand, member)
        kept = shipped_margin = None
        if ship is not None:
            s = match(ship, member)
            shipped_margin = s.diff
            pair = Paired.on_shared_deals(r.margins, s.margins)
            kept = pair.difference(0, 1)
        diff = r.diff
        matches.append(Match(cand, member, "member", diff, r.deals, kept, shipped_margin))
        if diff.high < 0 and shipped_margin is not None and shipped_margin.high < 0:
            notes.append(
                f"{member} beats the shipped network too ({shipped_margin.pts()}): against "
                "it the network must keep the shipped one's margin (rule 3)"
            )
        elif diff.high < 0:
            reasons.append(f"it loses to {member}: {diff.pts()} over {r.deals:,} deals")
        if kept is not None and kept.high < 0:
            reasons.append(
                f"against {member} it gains less than the shipped network: its margin less "
                f"the shipped one's {kept.pts()} over {kept.n:,} deals"
            )
    return Verdict(cand, ship, variant, settings.seed, matches, reasons, notes)


def ship(
    weights: Path,
    target: Path,
    settings: LeagueSettings,
    variant: str,
    play: Callable[..., Any],
    *,
    decision: str = "play",
    log: Callable[[str], None] | None = None,
) -> tuple[Verdict, dict[str, Path]]:
    """Judge the weights file ``weights`` (``judge``), write the verdict beside it
    (``league.md``, ``league.json``) and copy it to ``target`` (atomically) when it ships;
    the verdict and the files written (``league``, and ``copy`` when it shipped)."""
    import json
    import shutil

    verdict = judge(weights, target, settings, variant, play, decision=decision, log=log)
    where = weights.parent
    (where / "league.json").write_text(json.dumps(verdict.to_json(), indent=1) + "\n")
    (where / "league.md").write_text(verdict.to_markdown())
    files = {"league": where / "league.md"}
    if verdict.ships:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        shutil.copyfile(weights, tmp)
        os.replace(tmp, target)
        files["copy"] = target
    return verdict, files
