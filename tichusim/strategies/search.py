"""``search``: a player that thinks with the simulator (determinised Monte Carlo search).

At a decision it searches (its play, its bombs out of turn and its Grand Tichu call, by
default), ``Search`` deals the cards it has not seen to the other seats many times, each deal
consistent with everything its view holds (``kernels/tichu/rollout.py``: its hand, the cards
played, every seat's count, the cards it passed, the ranks a seat is known to lack, a hand
strong enough for each call made, Wu Wang's open hands), plays the rest of the round out
from each deal once per candidate answer with a scripted strategy at every
seat (``rollout``, ``expert`` by default), and answers the candidate whose rollouts gave its
team the best mean score margin (card points, going out first and second, Tichu and Grand
Tichu results: RULES.md §2.13, §2.14). The candidates share the deals and the seats' random
streams (paired), so their difference is measured with far less noise than their values.
Every decision it does not search is its ``base`` strategy's (``expert`` unless composed
otherwise), at the engine's speed (an ``Agent``'s ``base``). The Tichu and Grand Tichu calls
can be searched too (``searches``).

Where the legal answers are many, ``prune`` keeps ``candidates`` of them: ``expert``'s own
choice, passing, the lowest and highest play of each combination kind, then the lowest of
the rest. A decision with one legal answer costs nothing. The deals are seeded from the
seat's own generator (``view.random``, seeded by the run's seed, the round and the player),
so a run gives the same bytes whatever its threads, shards or workers.

``evaluate_plays`` is the search itself, for any caller holding a ``View`` (the agent, the
advice a command gives): every candidate's margin and first-out result per deal.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ..kernels import outside as O
from ..kernels.errors import ERR_NONE, ERRORS
from ..kernels.tichu import decide as K
from ..kernels.tichu import rollout as R
from ..kernels.tichu.variants import n_seats
from .agents import Agent
from .tichu import resolve

__all__ = ["SEARCHED", "NoDeal", "Search", "SearchResult", "evaluate_plays", "prune"]

SEARCHED = ("play", "bomb", "tichu", "grand_tichu")  # the decisions ``Search`` can search
_CODES = {
    "play": O.D_PLAY,
    "bomb": O.D_BOMB,
    "tichu": O.D_TICHU,
    "grand_tichu": O.D_GRAND_TICHU,
}
CALLS = ("tichu", "grand_tichu")  # the decisions answered by a call or none
# the Tichu questions searched: after the passing and before a turn (RULES.md §2.3; before the
# passing the rollouts would have to play the passing too)
TICHU_POINTS = (1, 2)
CALL_EVIDENCE = 1.64  # standard errors by which a searched call must beat the base's answer
_local = threading.local()  # each thread's kernel buffers (``rollout.scratch``)


class NoDeal(ValueError):
    """No deal of the unseen cards agrees with what the seat knows (``evaluate_plays``)."""


@dataclass
class SearchResult:
    """What a search measured at one decision: ``candidates`` (plays, ``None`` for a pass or
    no bomb), and for each candidate ``c`` and deal ``k`` its team's score margin
    ``margin[c, k]`` (the deciding seat's team minus the other) and ``first[c, k]``, whether
    its team had the first player out. The deals are the columns, shared by every candidate
    (paired): compare two candidates by the mean and spread of their per-deal difference."""

    candidates: list
    margin: np.ndarray
    first: np.ndarray

    @property
    def samples(self) -> int:
        return int(self.margin.shape[1])

    def means(self) -> np.ndarray:
        """Each candidate's mean margin."""
        return self.margin.mean(axis=1)

    def best(self) -> int:
        """The index of the candidate with the highest mean margin (the first on a tie)."""
        return int(np.argmax(self.means()))

    def better(self, c: int, than: int, z: float) -> bool:
        """Whether candidate ``c``'s mean margin exceeds candidate ``than``'s by more than
        ``z`` standard errors of their paired difference."""
        d = self.margin[c] - self.margin[than]
        if d.size < 2:
            return False
        return bool(d.mean() > z * d.std(ddof=1) / np.sqrt(d.size))


def _scratch():
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = _local.buffers = R.scratch()
    return buffers


def _rows(game, rollout) -> np.ndarray:
    """The rollout strategy's kernel row at every seat of ``game``'s table."""
    row = resolve(rollout, 1, variant=game.name)[0].param_row(game.name)
    return np.ascontiguousarray(np.tile(row, (n_seats(game.table), 1)), np.float64)


def evaluate_plays(
    view,
    candidates: list,
    samples: int = 48,
    seed: int = 0,
    rollout="expert",
    *,
    paired: bool = True,
    inference: bool = True,
) -> SearchResult:
    """Play ``samples`` consistent deals out from ``view``'s decision (a play, a bomb out of
    turn, a Tichu question after the passing or before a turn, or the Grand Tichu question)
    once per answer of ``candidates`` (``Play`` objects among the legal choices, ``None`` to
    pass or not bomb; ``True`` or ``False`` for a call), every seat then played by the
    scripted strategy ``rollout``; a Grand Tichu search plays each deal from the start of the
    round (``rollout._grand``). Deal ``k`` and the seats' streams come from ``(seed, k)``: the
    same seed gives the same result. Deals that cannot be made consistent are left out of the
    result's columns. ``paired=False`` plays each candidate on deals of its own and
    ``inference=False`` deals ignoring what the seats' actions tell (the ranks a seat is known
    to lack, the hands the calls announce): both only to measure what they add.
    ``ValueError`` when the view admits no deal at all (an impossible position) or a
    candidate is not a legal answer."""
    if view.decision not in _CODES:
        raise ValueError(
            f"a search evaluates plays, bombs and (Grand) Tichu calls, not {view.decision!r}"
        )
    if view.decision == "tichu" and view.detail not in TICHU_POINTS:
        raise ValueError("a search evaluates the Tichu calls after the passing and before a turn")
    if not candidates:
        raise ValueError("no candidates to evaluate")
    samples = int(samples)
    if samples < 1:
        raise ValueError(f"samples: at least 1, not {samples}")
    game = view.game
    calls = view.decision in CALLS
    cand_m = np.array([0 if c is None else int(c) for c in candidates], np.uint64)
    cand_c = np.array([0 if c is None or calls else c.combo.code for c in candidates], np.int64)
    margin = np.zeros((len(candidates), samples), np.float64)
    first = np.zeros((len(candidates), samples), np.int8)
    dealt, err = R.EVALUATE[game.table](
        _rows(game, rollout),
        view.public,
        view.private,
        np.int64(_CODES[view.decision]),
        np.int64(view.detail),
        cand_m,
        cand_c,
        np.int64(samples),
        np.uint64(seed),
        margin,
        first,
        _scratch(),
        np.int64((0 if paired else R.UNPAIRED) | (0 if inference else R.NO_INFERENCE)),
    )
    if err == R.ERR_CANDIDATE:
        raise ValueError(f"a candidate is not a legal answer at this {view.decision}")
    if err == R.ERR_NO_DEAL and view.decision == "grand_tichu":
        raise NoDeal(
            "no deal found in which the seats before answered the Grand Tichu question as "
            f"they did, their strategy {rollout!r} (in {R.GRAND_TRIES} tries a deal)"
        )
    if err == R.ERR_NO_DEAL:
        raise NoDeal(
            "no deal of the unseen cards agrees with this view (card counts, the cards "
            "passed, the ranks a seat lacks): an impossible position"
        )
    if err != ERR_NONE:
        raise RuntimeError(f"a rollout stopped: {ERRORS[err]}")
    kept = (first >= 0).all(axis=0)
    return SearchResult(list(candidates), margin[:, kept], first[:, kept].astype(bool))


def _text(value) -> str:
    """A parameter's value in the agent's name: booleans as the command line writes them, a
    composed strategy by its name."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return str(resolve(value, 1)[0].name)
    return str(value)


def _sort_key(play) -> int:
    return play.combo.code


def prune(legal: list, cap: int, keep=None) -> list:
    """At most ``cap`` of the ``legal`` answers (plays, ``None`` to pass), in this order:
    ``keep`` (the base strategy's choice), passing, the lowest and the highest play of each
    combination kind, then the lowest of the others; all of them when they are no more than
    ``cap``. ``keep`` first, so that a tie goes to it."""
    cap = max(1, int(cap))
    chosen: list = []

    def take(answer) -> None:
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


class Search(Agent):
    """Determinised Monte Carlo search (the module docstring). Parameters:

    * ``samples`` (48): consistent deals per searched decision, each played out once per
      candidate;
    * ``candidates`` (10): the most answers a decision scores (``prune``);
    * ``rollout`` ("expert"): the scripted strategy that plays every seat in the rollouts;
    * ``searches`` ("play+bomb+grand_tichu"): the decisions it searches, among ``play``,
      ``bomb``, ``tichu`` (the Tichu calls after the passing and before a turn) and
      ``grand_tichu``, joined by ``+`` (or a list); every other decision is its base
      strategy's. A searched call overturns the base's answer only when it is ahead by
      ``CALL_EVIDENCE`` standard errors;
    * ``paired`` (true) and ``inference`` (true): switched off, the candidates are played on
      deals of their own and the deals ignore what the other seats' actions tell (the ranks
      a seat is known to lack, the hands the calls announce: ``evaluate_plays``), to measure
      what each adds;
    * ``base`` ("expert"): the scripted strategy, named or composed (``resolve``), that takes
      every decision it does not search, and whose choice a search keeps on a tie.
    """

    def __init__(
        self,
        samples: int = 48,
        candidates: int = 10,
        rollout: str = "expert",
        searches="play+bomb+grand_tichu",
        paired: bool = True,
        inference: bool = True,
        base="expert",
    ):
        params = {
            "samples": samples,
            "candidates": candidates,
            "rollout": rollout,
            "searches": searches,
            "paired": paired,
            "inference": inference,
            "base": base,
        }
        defaults = {
            "samples": 48,
            "candidates": 10,
            "rollout": "expert",
            "searches": "play+bomb+grand_tichu",
            "paired": True,
            "inference": True,
            "base": "expert",
        }
        super().__init__(**{k: v for k, v in params.items() if v != defaults[k]})
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples: a whole number of deals >= 1, not {samples!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates: a whole number >= 1, not {candidates!r}")
        names = searches.split("+") if isinstance(searches, str) else list(searches)
        wrong = [d for d in names if d not in SEARCHED]
        if wrong or not names:
            raise ValueError(f"searches: {'+'.join(SEARCHED)} or one of them, not {searches!r}")
        for flag in ("paired", "inference"):
            if not isinstance(params[flag], bool):
                raise ValueError(f"{flag}: true or false, not {params[flag]!r}")
        resolve(rollout, 1)  # a known scripted strategy, or one line saying why not
        self.base = base
        resolve(base, 1)
        self.paired, self.inference = paired, inference
        self.samples = samples
        self.cap = candidates
        self.rollout = rollout
        self.searched = tuple(d for d in SEARCHED if d in names)
        self._base_rows: dict[str, np.ndarray] = {}
        changes = ",".join(f"{k}={_text(v)}" for k, v in self.params.items())
        self.name = f"search:{changes}" if changes else "search"

    @property
    def decisions(self) -> tuple[str, ...]:
        return self.searched

    def _expert_choice(self, view, legal):
        """The base strategy's answer (``kernels/tichu/decide.py``), as the engine gives it."""
        game = view.game
        row = self._base_rows.get(game.name)
        if row is None:
            row = self._base_rows[game.name] = resolve(self.base, 1, variant=game.name)[
                0
            ].param_row(game.name)
        calls = view.decision in CALLS
        plays = [] if calls else [p for p in legal if p is not None]
        masks = np.array([int(p) for p in plays] or [0], np.uint64)
        codes = np.array([p.combo.code for p in plays] or [0], np.int64)
        buffers = getattr(_local, "decide", None)
        if buffers is None:
            buffers = _local.decide = K.scratch()
        answer = int(
            K.decide(
                np.ascontiguousarray(row, np.float64),
                view.public,
                view.private,
                _CODES[view.decision],
                int(view.detail),
                masks,
                codes,
                len(plays),
                buffers,
            )
        )
        if calls:
            return answer == 1
        return None if answer < 0 or answer >= len(plays) else plays[answer]

    def _search(self, view, legal):
        if len(legal) == 1:
            return legal[0]
        keep = self._expert_choice(view, legal)
        if view.decision in CALLS:
            if view.decision == "tichu" and view.detail not in TICHU_POINTS:
                return keep
            candidates = [keep, not keep]
        else:
            candidates = prune(legal, self.cap, keep)
        if len(candidates) == 1:
            return candidates[0]
        seed = int(view.random.integers(1 << 62))
        try:
            result = evaluate_plays(
                view,
                candidates,
                self.samples,
                seed,
                self.rollout,
                paired=self.paired,
                inference=self.inference,
            )
        except NoDeal:
            if view.decision != "grand_tichu":
                raise  # a view no deal agrees with: a fault to report
            return keep  # rare calls before it the rollouts seldom make: the base decides
        if view.decision in CALLS:
            # a call overturns the base's answer only on evidence: asked before each turn
            # with the same hand, a plain comparison of noisy means calls too often
            return candidates[1] if result.better(1, 0, CALL_EVIDENCE) else keep
        return candidates[result.best()] if result.samples else keep

    def play(self, view, legal):
        return self._search(view, legal)

    def bomb(self, view, legal):
        return self._search(view, legal)

    def tichu(self, view, legal):
        return self._search(view, legal)

    def grand_tichu(self, view, legal):
        return self._search(view, legal)
