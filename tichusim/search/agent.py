"""``search``: a player that thinks with the simulator (determinised Monte Carlo search).

At a decision it searches (its play, its bombs out of turn and its Grand Tichu call, by
default), ``Search`` keeps some of the legal answers (``prune``), measures each on many deals
of the cards it has not seen (``evaluate_plays``: deals consistent with its view, the rest of
the round played out by a scripted strategy at every seat, ``expert`` by default), and answers
the candidate whose rollouts gave its team the best mean score margin (RULES.md §2.13, §2.14).
Every decision it does not search is its ``base`` strategy's (``expert`` unless composed
otherwise), at the engine's speed (an ``Agent``'s ``base``); a searched decision keeps the
base's choice (``strategy(base).decide``) among its candidates and on a tie. The Tichu and
Grand Tichu calls can be searched too (``searches``).

A decision with one legal answer costs nothing. The deals are seeded from the seat's own
generator (``view.random``, seeded by the run's seed, the round and the player), so a run
gives the same bytes whatever its threads, shards or workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import checks
from ..games.agents import Agent
from ..games.scripted import strategy
from ..strategies.tichu import resolve
from .evaluate import CALLS, SEARCHED, TICHU_POINTS, NoDeal, evaluate_plays
from .prune import prune

if TYPE_CHECKING:
    from ..games.view import View

__all__ = ["CALL_EVIDENCE", "Search"]

CALL_EVIDENCE = 1.64  # standard errors by which a searched call must beat the base's answer


def _text(value: Any) -> str:
    """A parameter's value in the agent's name: booleans as the command line writes them, a
    composed strategy by its name."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return str(resolve(value, 1)[0].name)
    return str(value)


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
        searches: str | list[str] = "play+bomb+grand_tichu",
        paired: bool = True,
        inference: bool = True,
        base: Any = "expert",
    ) -> None:
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
        checks.whole(samples, "samples", 1)
        checks.whole(candidates, "candidates", 1)
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
        self._base = strategy(base)  # its answers, as the engine gives them
        self.paired, self.inference = paired, inference
        self.samples = samples
        self.cap = candidates
        self.rollout = rollout
        self.searched = tuple(d for d in SEARCHED if d in names)
        changes = ",".join(f"{k}={_text(v)}" for k, v in self.params.items())
        self.name = f"search:{changes}" if changes else "search"

    @property
    def decisions(self) -> tuple[str, ...]:
        return self.searched

    def _search(self, view: View, legal: Any) -> Any:
        if len(legal) == 1:
            return legal[0]
        keep = self._base.decide(view, legal)
        if view.decision in CALLS:
            if view.decision == "tichu" and view.detail not in TICHU_POINTS:
                return keep
            candidates = [keep, not keep]
        else:
            candidates = prune(legal, self.cap, keep)
        if len(candidates) == 1:
            return candidates[0]
        assert view.random is not None  # a stepped unit gives its views their generator
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

    def play(self, view: View, legal: Any) -> Any:
        return self._search(view, legal)

    def bomb(self, view: View, legal: Any) -> Any:
        return self._search(view, legal)

    def tichu(self, view: View, legal: Any) -> Any:
        return self._search(view, legal)

    def grand_tichu(self, view: View, legal: Any) -> Any:
        return self._search(view, legal)
