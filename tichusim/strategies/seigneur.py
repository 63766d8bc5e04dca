"""Grand Seigneur strategies (RULES.md §5): a policy per decision, by name or composed.

Grand Seigneur has three decisions: ``play`` (plays and out-of-turn bombs), ``give_back``
(the cards a receiver of best cards returns, §5) and ``wish`` (after the Mah Jong, §2.11).
There are no calls, no passing to partners and no Dragon's gift, so a Tichu strategy does not
apply: ``resolve`` refuses one with a ``ValueError`` saying why.

Named strategies: ``random``, ``lowest``, ``heuristic``. Composed ones take a base and
changes, as text (``"heuristic:give_back=lowest,bomb_cards=2"``) or a table
(``{"base": "heuristic", "give_back": "lowest", "params": {"bomb_cards": 2}}``).
The kernels read a row of floats (``kernels.seigneur.policies``: slots ``G_*``). Building and
parsing are the team games' (``tichusim.strategies.book``); a composed strategy's name keeps
the text form (``heuristic:bomb_cards=2``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..kernels.seigneur import policies
from .book import Param, StrategyBook, split_strategies

__all__ = [
    "BOOK",
    "DECISIONS",
    "PARAMS",
    "POLICIES",
    "STRATEGIES",
    "SeigneurStrategy",
    "build",
    "parse_spec",
    "resolve",
]

DECISIONS = ("play", "give_back", "wish")
_SLOT = {"play": policies.G_PLAY, "give_back": policies.G_GIVE, "wish": policies.G_WISH}

POLICIES: dict[str, dict[str, tuple[int, str]]] = {
    "play": {
        "random": (
            policies.PLAY_RANDOM,
            "a uniformly random legal play or pass (a lead draws a kind "
            "first); bombs out of turn with probability 1/(bombs+1)",
        ),
        "lowest": (
            policies.PLAY_LOWEST,
            "always the lowest legal play (a bomb only when nothing else "
            "beats); never bombs out of turn",
        ),
        "heuristic": (
            policies.PLAY_HEURISTIC,
            "goes out at once when it can; leads the play holding "
            "its lowest card with the most cards; follows with the lowest play that "
            "breaks no pair or triple; keeps Dragon, Phoenix and bombs for the end "
            "game (passes rather than spend them); bombs out of turn only near the end",
        ),
    },
    "give_back": {
        "random": (policies.GIVE_RANDOM, "random cards of the hand"),
        "lowest": (policies.GIVE_LOWEST, "the lowest cards (Dog, Mah Jong, 2, 3, ...)"),
        "loose": (
            policies.GIVE_LOOSE,
            "the lowest cards that break no pair, run of five or bomb (the "
            "Dog first), then the lowest ranked cards",
        ),
    },
    "wish": {
        "none": (policies.WISH_NONE, "no wish"),
        "random": (policies.WISH_RANDOM, "no wish or a rank 2..A, uniformly"),
        "highest-missing": (
            policies.WISH_HIGHEST_MISSING,
            "the highest rank the player does not hold and that is still in play",
        ),
    },
}

PARAMS: dict[str, Param] = {  # read by the heuristic play policy only
    "bomb_cards": Param(
        policies.G_BOMB_CARDS,
        4,
        0,
        40,
        "play",
        "bomb out of turn when at most this "
        "many cards are left after the bomb (always when the bomb empties the "
        "hand)",
    ),
    "endgame": Param(
        policies.G_ENDGAME,
        12,
        0,
        40,
        "play",
        "spend Dragon, Phoenix and bombs on a trick once the hand holds this many cards or fewer",
    ),
}


@dataclass(frozen=True)
class SeigneurStrategy:
    """A policy per decision and parameter overrides."""

    name: str
    play: str
    give_back: str
    wish: str
    params: tuple[tuple[str, float], ...] = field(default=())
    description: str = ""

    def param_row(self, variant: str | None = None) -> np.ndarray:
        return BOOK.param_row(self, variant)

    def to_dict(self) -> dict:
        return BOOK.to_dict(self)


STRATEGIES = {
    "random": SeigneurStrategy(
        "random",
        "random",
        "random",
        "random",
        description="a uniformly random choice at every decision",
    ),
    "lowest": SeigneurStrategy(
        "lowest",
        "lowest",
        "lowest",
        "none",
        description="the lowest legal play, gives back its lowest cards, no wish",
    ),
    "heuristic": SeigneurStrategy(
        "heuristic",
        "heuristic",
        "loose",
        "highest-missing",
        description="sheds low cards, keeps control cards for the end, "
        "gives back loose low cards, wishes the highest missing rank",
    ),
}

_TICHU_ONLY = ("grand_tichu", "tichu", "pass", "dragon", "dog")
# Tichu policy names someone might pass by habit (tichusim.strategies): refused with the reason
_TICHU_NAMES = (
    "keep-combos",
    "partner-best",
    "support-call",
    "odd-even",
    "dog-partner",
    "dog-opponent",
    "threshold",
)


def _not_here(what: str) -> ValueError:
    return ValueError(
        f"{what} does not apply to grand-seigneur: it has no calls, no passing "
        "to partners and no Dragon's gift (RULES.md §5); its decisions are "
        f"{', '.join(DECISIONS)} (strategies: {', '.join(STRATEGIES)})"
    )


def _refuse_tichu_key(key: str) -> None:
    if key in _TICHU_ONLY:
        raise _not_here(f"the Tichu decision {key!r}")


DEFAULT = "heuristic"  # Grand Seigneur's default strategy (its own; the team games' is expert)

BOOK = StrategyBook(
    SeigneurStrategy,
    DECISIONS,
    _SLOT,
    POLICIES,
    PARAMS,
    STRATEGIES,
    policies.N_GS_PARAMS,
    name_form="{base}:{changes}",
    default=DEFAULT,
    plain="heuristic",
    refuse=_refuse_tichu_key,
)


def build(spec: dict) -> SeigneurStrategy:
    """A strategy from a table: ``base`` (default ``heuristic``), any decision with a policy
    name, ``params`` (name -> number), an optional ``name``."""
    return BOOK.build(spec)


def parse_spec(text: str) -> SeigneurStrategy:
    """``"base"``, ``"base:key=value,..."`` or ``"base[key=value,...]"``
    (``StrategyBook.split_text``); a key is a decision (its value a policy) or a parameter
    (its value a number)."""
    base, changes = BOOK.split_text(text)
    if base not in STRATEGIES:
        if base in _TICHU_NAMES:
            raise _not_here(f"the Tichu strategy {base!r}")
        raise ValueError(
            f"unknown grand-seigneur strategy {base!r} (known: {', '.join(STRATEGIES)})"
        )
    return BOOK.compose(text, base, changes)


def _one(item) -> SeigneurStrategy:
    if isinstance(item, SeigneurStrategy):
        return item
    if isinstance(item, str):
        return parse_spec(item)
    if isinstance(item, dict):
        return build(item)
    if type(item).__name__ == "Strategy":  # tichusim.strategies.tichu.Strategy: a Tichu strategy
        raise _not_here(f"the Tichu strategy {getattr(item, 'name', item)!r}")
    raise ValueError(f"a strategy must be a name, 'base:key=value,...' or a table, not {item!r}")


def resolve(strategies, players: int) -> list[SeigneurStrategy]:
    """One strategy per player: one for all, or a list (or a comma-separated text:
    ``split_strategies``) of ``players`` entries."""
    if isinstance(strategies, str) and "," in strategies:
        found = split_strategies(strategies)
        strategies = found if len(found) > 1 else strategies
    if isinstance(strategies, (list, tuple)):
        if len(strategies) != players:
            raise ValueError(
                f"{len(strategies)} strategies given for {players} players "
                "(give one for all, or one per player)"
            )
        return [_one(s) for s in strategies]
    return [_one(strategies)] * players
