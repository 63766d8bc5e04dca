"""Which answers a reviewed decision weighs (``candidates``): what was played, the strong
player's own choice, then the best others by the strong player's lights.

* a play or a bomb out of turn: the others its network scores best (``network_scores``: the
  learned play's own values of each answer, in points), or, for a strong player without a
  network, those the search would score (``search.prune``);
* a call (Grand Tichu, Tichu): both answers;
* the passed cards: the passes two other players make with the hand (``PASSERS``);
* the wish: no wish, then the ranks the hand lacks, highest first (a wish for a rank held
  binds nobody who matters);
* the Dragon's gift and the Dog's lead: every answer (two, three at Tientsin).

``same`` compares two answers of one decision (a play's cards and combination; a pass's cards
to each receiver); ``alike`` also takes as one two plays or passes that differ in the suits
of their cards alone where the hand can make no straight flush of them (RULES.md §2.5): the
strong player is deterministic and reads the suits, so two such answers play out
differently, by chance, which is no loss of one against the other.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..cards import notation as cards
from ..cards.combos import Play
from ..games.base import thread_scratch
from ..games.recorded import Decision
from ..games.scripted import Scripted, strategy
from ..games.view import CODES, View
from ..kernels.tichu import learned as learned_kernel
from ..kernels.tichu import table_models
from ..kernels.tichu.slots import P_MODEL
from ..search.prune import prune

__all__ = [
    "PASSERS",
    "alike",
    "candidates",
    "describe",
    "network_scores",
    "same",
    "strong_player",
]

PASSERS = ("expert", "heuristic")  # other players whose passes a pass decision weighs too


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are one answer: the same cards played as the same combination
    (a play, a bomb; ``None`` the pass), the same cards to each receiver, the same call,
    rank or seat."""
    if isinstance(a, Play) or isinstance(b, Play):
        return (
            isinstance(a, Play)
            and isinstance(b, Play)
            and int(a) == int(b)
            and a.combo.code == b.combo.code
        )
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (
            isinstance(a, (tuple, list))
            and isinstance(b, (tuple, list))
            and list(map(int, a)) == list(map(int, b))
        )
    if a is None or b is None:
        return a is b
    return bool(a == b)


_SPECIAL_BITS = (0, 1, 15, 16)  # the Dog, the Mah Jong, the Dragon, the Phoenix (cards.notation)


def _ranks(mask: int) -> list[int]:
    """The cards of ``mask`` by rank (each special card itself), sorted."""
    out = []
    for bit in cards.cards_of(int(mask)):
        i = int(bit).bit_length() - 1
        out.append(i if i in _SPECIAL_BITS else 100 + i % 16)
    return sorted(out)


def _suits_matter(hand: int, near: int) -> bool:
    """Whether ``hand`` holds ``near`` cards or more of one suit within five ranks in a row: a
    straight flush bomb (§2.7), or one in the making."""
    for suit in range(4):
        lane = hand >> (16 * suit) & 0x7FFC  # ranks 2..14
        for low in range(2, 11):
            if bin(lane >> low & 0x1F).count("1") >= near:
                return True
    return False


def alike(decision: str, a: Any, b: Any, hand: int) -> bool:
    """Whether ``a`` and ``b`` are one answer (``same``), or, for a play or a bomb, the same
    combination of the same ranks and, for a pass, the same rank to each receiver, from a
    ``hand`` in which the suits can make no straight flush (the module's docstring)."""
    if same(a, b):
        return True
    if decision in ("play", "bomb") and isinstance(a, Play) and isinstance(b, Play):
        return (
            a.combo.code == b.combo.code and _ranks(a) == _ranks(b) and not _suits_matter(hand, 4)
        )
    if decision == "pass" and isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return all(_ranks(x) == _ranks(y) for x, y in zip(a, b, strict=True)) and not _suits_matter(
            hand, 3
        )
    return False


def describe(decision: str, answer: Any) -> str:
    """An answer in words: a play's cards (``pass``), a call (``call``, ``no call``), the cards
    to each receiver, the wished rank, the seat given the Dragon or the Dog's lead."""
    if decision in ("play", "bomb"):
        if answer is None:
            return "pass" if decision == "play" else "no bomb"
        return cards.format(int(answer))
    if decision in ("tichu", "grand_tichu"):
        return ("Grand Tichu" if decision == "grand_tichu" else "Tichu") if answer else "no call"
    if decision == "pass":
        return ", ".join(cards.format(int(c)) for c in answer)
    if decision == "wish":
        return "no wish" if not answer else f"wish {cards.RANK_CHARS[int(answer) - 2]}"
    if decision == "dragon":
        return f"Dragon to seat {answer}"
    if decision == "dog":
        return f"lead to seat {answer}"
    return str(answer)


@cache
def strong_player(rollout: str) -> Scripted:
    """The strong player's answers from Python (``strategy(rollout).decide``)."""
    return strategy(rollout)


def network_scores(view: View, legal: list, rollout: str) -> np.ndarray | None:
    """The learned play's own value of each answer of a play or a bomb decision, in points of
    the round's margin (its network's output is the margin over 100, ``docs/learn.md``), in
    ``legal``'s order; ``None`` where the strong player has no network or the decision is
    another."""
    if view.decision not in ("play", "bomb"):
        return None
    rows, models = _table(view.game, rollout)
    if models is None:
        return None
    k = int(rows[0][P_MODEL])
    plays = [p for p in legal if p is not None]
    masks = np.array([int(p) for p in plays] or [0], np.uint64)
    codes = np.array([p.combo.code for p in plays] or [0], np.int64)
    out = np.zeros(len(legal), np.float32)
    scratch = thread_scratch(_learn_scratch)
    learned_kernel.scores(
        models[k : k + 1],
        scratch,
        view.public,
        view.private,
        CODES[view.decision],
        masks,
        codes,
        len(plays),
        int(len(plays) < len(legal)),
        out,
    )
    return 100.0 * out.astype(np.float64)


_TABLES: dict[tuple, tuple] = {}  # (table, options, strong player) -> its row and models


def _table(game: Any, rollout: str) -> tuple:
    """The strong player's kernel row and models at ``game``'s table, made once a process."""
    key = (game.name, repr(game.options), rollout)
    if key not in _TABLES:
        row = game.param_rows(game.resolve(rollout, 1))[0]
        _TABLES[key] = table_models.table(np.ascontiguousarray(row, np.float64)[None])
    return _TABLES[key]


def _learn_scratch() -> np.ndarray:
    return np.zeros(learned_kernel.LEARN_FLOATS, np.float32)


def _add(out: list, answer: Any, decision: str = "", hand: int = 0) -> None:
    if not any(alike(decision, answer, c, hand) for c in out):
        out.append(answer)


def candidates(d: Decision, strong: Any, scores: np.ndarray | None, most: int, hand: int) -> list:
    """At most ``most`` answers of decision ``d`` (every one where they are that few), what
    was played first and the strong player's choice ``strong`` second, then the others the
    module's docstring names. ``scores``: the network's values of ``d.legal`` (or ``None``);
    ``hand``: the seat's cards (a wish's)."""
    legal = list(d.legal)
    out: list = []
    kind = d.decision

    def add(answer: Any) -> None:
        _add(out, answer, kind, hand)

    add(d.chosen)
    add(strong)
    if d.decision in ("tichu", "grand_tichu"):
        return [d.chosen, not d.chosen]
    if d.decision in ("dragon", "dog") or (
        d.decision in ("play", "bomb", "wish") and len(legal) <= most
    ):
        for answer in legal:
            add(answer)
        return out
    if d.decision in ("play", "bomb"):
        if scores is not None:
            ranked = [legal[i] for i in np.argsort(-scores, kind="stable")]
        else:
            ranked = prune(legal, most, strong)
        for answer in ranked:
            if len(out) >= most:
                break
            add(answer)
        return out
    if d.decision == "pass":
        for name in PASSERS:
            if len(out) >= most:
                break
            add(strong_player(name).decide(d.view, d.legal))
        if len(out) < 2:  # everybody passes so: the first other pass, to weigh it against
            other = next((p for p in d.legal if not alike(kind, p, d.chosen, hand)), None)
            if other is not None:
                add(other)
        return out
    if d.decision == "wish":
        held = {r for r in range(2, 15) for s in range(4) if hand >> (16 * s + r) & 1}
        ranks = [0] + [r for r in range(14, 1, -1) if r not in held]
        for answer in ranks:
            if len(out) >= most:
                break
            add(answer)
        return out
    raise ValueError(f"no candidates for a {d.decision!r}")
