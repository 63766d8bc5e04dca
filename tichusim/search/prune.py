"""Which of a decision's legal answers a search scores (``prune``): where they are many, the
base strategy's own choice, passing, the extremes of each combination kind, then the lowest
of the rest; all of them where they are few."""

from __future__ import annotations

from typing import Any

__all__ = ["prune"]


def _sort_key(play: Any) -> int:
    return play.combo.code


def prune(legal: list, cap: int, keep: Any = None) -> list:
    """At most ``cap`` of the ``legal`` answers (plays, ``None`` to pass), in this order:
    ``keep`` (the base strategy's choice), passing, the lowest and the highest play of each
    combination kind, then the lowest of the others; all of them when they are no more than
    ``cap``. ``keep`` first, so that a tie goes to it."""
    cap = max(1, int(cap))
    chosen: list = []

    def take(answer: Any) -> None:
        if len(chosen) < cap and not any(answer is c for c in chosen):
            chosen.append(answer)

    if keep is not None or None in legal:
        take(keep if any(keep is p for p in legal) else legal[0])
    if None in legal:
        take(None)
    plays = sorted((p for p in legal if p is not None), key=_sort_key)
    kinds: dict[int, list] = {}
    for p in plays:
        kinds.setdefault(p.combo.code >> 16, []).append(p)
    for group in kinds.values():
        take(group[0])
    for group in kinds.values():
        take(group[-1])
    for p in plays:
        take(p)
    return chosen
