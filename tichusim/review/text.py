"""A review as a person reads it (``report``): the players' error rates and calls, each
round's result beside its par, then the worst decisions first, each with its position and
the better answer."""

from __future__ import annotations

from .result import GameReview
from .weigh import Weighed

__all__ = ["report"]


def _decision(i: int, w: Weighed, names: tuple[str, ...]) -> list[str]:
    who = names[w.seat] if w.seat < len(names) else f"seat {w.seat}"
    flag = f"{w.flag}, " if w.flag else ""
    what = w.decision + (f" (detail {w.detail})" if w.decision == "tichu" else "")
    lines = [
        f"{i:>3}. round {w.round + 1}, decision {w.number}, seat {w.seat} ({who}), {what}: "
        f"{flag}lost {w.loss.value:.1f} [{w.loss.low:.1f}, {w.loss.high:.1f}] points",
        f"     hand: {w.hand}" + (f"; trick: {w.trick}" if w.trick else ""),
        f"     played {w.chosen}; better: {w.best} "
        f"({w.best_value.value:+.1f} against {w.value.value:+.1f}; the strong player: {w.strong})",
    ]
    return lines


def report(review: GameReview, worst: int = 20) -> str:
    """The review in words (the module's docstring): ``worst`` decisions at most."""
    s = review.settings
    decisions = review.decisions
    weighed = sum(w.weighed for w in decisions)
    forced = sum(w.status == "forced" for w in decisions)
    lines = [
        f"Review: {review.variant}, {len(review.rounds)} rounds, {len(decisions)} decisions "
        f"({weighed} weighed, {forced} forced), effort {s.effort.name}, {s.rollout} in the "
        f"rollouts, seed {s.seed}, {review.seconds:.0f} s",
        "",
        "Players: the mean points lost per decision weighed (95% interval), the flags "
        "(inaccuracies/mistakes/blunders), the calls made, won and the wins their odds said",
        f"  {'seat':<4}  {'player':<16} {'decisions':>9}  {'loss per decision':<22}"
        f"{'lost':>8}  {'flags':>8}  {'calls':>5} {'won':>4} {'odds':>5}",
    ]
    for p in review.players:
        flags = "/".join(str(p.flags[f]) for f in ("inaccuracy", "mistake", "blunder"))
        lines.append(
            f"  {p.seat:<4}  {p.name[:16]:<16} {p.decisions:>9}  {p.loss.num(1):<22}"
            f"{p.lost:>8.0f}  {flags:>8}  {p.calls:>5} {p.calls_won:>4} {p.calls_expected:>5.1f}"
        )
    lines += [
        "",
        "Rounds: team 0's margin (seats 0 and 2 less 1 and 3) as played, its par (the strong "
        "player at every seat with these hands, 95% interval) and the play (result less par)",
        f"  {'round':>5}  {'score':>11}  {'result':>6}  {'par':<24}{'play':>6}",
    ]
    for r in review.rounds:
        par = (
            "n/a" if r.par is None else f"{r.par.value:+.0f} [{r.par.low:+.0f}, {r.par.high:+.0f}]"
        )
        play = "" if r.par is None else f"{r.play:+.0f}"
        score = f"{r.score[0]} : {r.score[1]}"
        lines.append(f"  {r.index + 1:>5}  {score:>11}  {r.result:>+6}  {par:<24}{play:>6}")
    for line in review.skipped:
        lines.append(f"  skipped: {line}")
    bad = review.worst(worst)
    lines += ["", f"Worst decisions ({len(bad)} shown of {len(review.worst())} that lost points):"]
    for i, w in enumerate(bad, 1):
        lines += _decision(i, w, review.names)
    t = s.thresholds
    lines += [
        "",
        f"Points are the round's margin of the seat's team. Flags: a loss of {t.inaccuracy:g} "
        f"points or more is an inaccuracy, {t.mistake:g} a mistake, {t.blunder:g} a blunder, "
        "when its 95% interval lies above 0 (docs/review.md).",
    ]
    return "\n".join(lines)
