"""Strategies: a policy for each decision plus numeric parameters, by name or composed.

A ``Strategy`` picks one policy per decision (``play``, ``grand_tichu``, ``tichu``, ``pass``,
``wish``, ``dragon``, ``dog``) and may override parameters; ``param_row`` turns it into the row of
floats the kernels read (layout in ``tichusim/kernels/tichu/slots.py``) at a variant: the value
policy's call coefficients default to the ones fitted at that variant (``VARIANT_PARAMS``), and
for the learned play to its own where they are fitted under it (``PLAY_PARAMS``). Four
complete strategies have names (``random``, ``lowest``, ``heuristic``, ``expert``, the default:
``DEFAULT_STRATEGY``);
users compose others from a base (``heuristic`` when none is named: ``BOOK.plain``)::

    resolve({"base": "heuristic", "pass": "lowest", "params": {"bomb_points": 20}})

``tichusim strategies`` prints every policy and parameter documented here.

Every policy is defined for every variant (partners are the seats of one's own parity, RULES.md
§3, §4), except a few that name a card given to an opponent: Tientsin passes to partners only
(§3), so ``resolve(..., variant="tientsin")`` refuses them (``INAPPLICABLE``). The ``dog``
decision is only asked in Tientsin, where the Dog goes to a partner of the player's choice.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..kernels.tichu import learned as kernel_learned
from ..kernels.tichu import policies, slots, table_models
from ..kernels.tichu.records import N_PARAMS
from . import DEFAULT_STRATEGY, learned, passnet
from . import expert_params as _fitted
from . import learned_params as _learned_calls
from .book import Param, StrategyBook, _field, policy_of, renamed_policy

__all__ = [
    "BOOK",
    "DECISIONS",
    "DEFAULT_STRATEGY",
    "INAPPLICABLE",
    "PARAMS",
    "POLICIES",
    "RENAMED",
    "STRATEGIES",
    "TICHU_FEATURES",
    "TICHU_SHAPE",
    "VARIANT_PARAMS",
    "Param",
    "Strategy",
    "build",
    "check_variant",
    "resolve",
    "weights_identities",
]

DECISIONS = ("play", "grand_tichu", "tichu", "pass", "wish", "dragon", "dog")
_DECISION_SLOT = {
    "play": slots.P_PLAY,
    "grand_tichu": slots.P_GRAND_TICHU,
    "tichu": slots.P_TICHU,
    "pass": slots.P_PASS,
    "wish": slots.P_WISH,
    "dragon": slots.P_DRAGON,
    "dog": slots.P_DOG,
}

_CALLS = {
    "never": (policies.CALL_NEVER, "never calls"),
    "always": (policies.CALL_ALWAYS, "always calls"),
    "random": (policies.CALL_RANDOM, "calls with probability 1/2"),
    "threshold": (
        policies.CALL_THRESHOLD,
        "calls when the hand-strength score (the w_* weights) reaches "
        "the threshold; a Tichu threshold policy never calls after its partner did",
    ),
    "value": (
        policies.CALL_VALUE,
        "calls when the fitted value score of the hand and of the calls "
        "already made (the tichu_value_*, tichu_after_* or gt_value_* coefficients, "
        "fitted by scripts/fit_expert_calls.py) is positive; Tichu before passing "
        "(tichu_value_*) or after it (tichu_after_*), over a partner's call only past "
        "tichu_over_partner as well",
    ),
}

POLICIES: dict[str, dict[str, tuple[int, str]]] = {
    "play": {
        "random": (
            policies.PLAY_RANDOM,
            "a random legal play or pass (a lead draws a kind first); bombs "
            "out of turn with probability 1/(bombs+1)",
        ),
        "lowest": (
            policies.PLAY_LOWEST,
            "always the lowest legal play (a bomb only when nothing else "
            "beats the trick); never bombs out of turn",
        ),
        "heuristic": (
            policies.PLAY_HEURISTIC,
            "plans the hand into few combinations, leads the weakest, "
            "prices control cards, never overtakes its partner, attacks callers, bombs "
            "to stop an opponent going out, leads the Dog to its partner (parameters "
            "below)",
        ),
        "expert": (
            policies.PLAY_EXPERT,
            "heuristic's pricing plus card tracking from the public "
            "record: keeps sure winners (nothing left can beat them but a bomb) for last "
            "and plays one first when the rest goes out, avoids leads an opponent could go "
            "out on, leads singles to a calling partner, the Dog to a partner who called "
            "or is nearer to going out, first the kinds no sure winner of its own could "
            "retake (retake_lead); never overtakes its partner but as a caller taking a "
            "cheap trick to lead (caller_overtake), never goes out ahead of a partner "
            "whose call is open (hold_margin); bombs a threat, an opponent's call "
            "getting close or a big trick (bomb_worth: bomb_threat, support_threat, "
            "caller_bomb, bomb_points, bomb_keep); support and attack of a call by "
            "caller_sure, support_sure, support_defer, attack_split",
        ),
        "learned": (
            policies.PLAY_LEARNED,
            "a network trained on simulated rounds scores every legal play and "
            "the pass, every bomb offered out of turn and not bombing, and plays the best "
            "(kernels/tichu/learned.py); its weights: the package's own, or the file the "
            "strategy's weights names (learned[weights=path/to/w.npz]; docs/strategies.md)",
        ),
    },
    "grand_tichu": _CALLS,
    "tichu": _CALLS,
    "pass": {
        "random": (policies.PASS_RANDOM, "three random cards"),
        "lowest": (
            policies.PASS_LOWEST,
            "the three lowest cards (right opponent, partner, left "
            "opponent, in that order; in other variants to the seats passed to, in "
            "turn order)",
        ),
        "partner-best": (
            policies.PASS_PARTNER_BEST,
            "the best card (Dragon, Phoenix, then highest "
            "outside a bomb) to the partner, the two lowest cards to the opponents "
            "(two partners: the best to the one who called or holds fewer cards, "
            "the next best to the other)",
        ),
        "keep-combos": (
            policies.PASS_KEEP_COMBOS,
            "only cards that break no pair, straight or bomb: the "
            "highest such card to the partner, the lowest (the Dog first) to the "
            "opponents",
        ),
        "odd-even": (
            policies.PASS_ODD_EVEN,
            "keep-combos, but an even rank to the right opponent (the next "
            "player) and an odd rank to the left (the signalling convention)",
        ),
        "dog-partner": (
            policies.PASS_DOG_PARTNER,
            "keep-combos, but the Dog (if held) to the partner",
        ),
        "dog-opponent": (
            policies.PASS_DOG_OPPONENT,
            "keep-combos, the Dog (if held) always to an "
            "opponent (the left one when keep-combos did not already give it)",
        ),
        "support-call": (
            policies.PASS_SUPPORT_CALL,
            "partner-best when the partner called (Grand) Tichu, keep-combos otherwise",
        ),
        "expert": (
            policies.PASS_EXPERT,
            "partner-best when the partner called; after its own call "
            "keeps Dragon, Phoenix, Aces and Mah Jong, gives the partner the Dog (else its "
            "highest loose card below an Ace); keep-combos otherwise",
        ),
        "learned": (
            policies.PASS_LEARNED,
            "a network trained on simulated rounds scores a fixed set of candidate passes "
            "(the scripted policies' and a structured set: kernels/tichu/passnet.py) and "
            "gives the best; at Nanjing and Wu Wang (each its own network), and only when "
            "neither the seat nor its partner called before the passing: expert otherwise "
            "and at Tientsin (its weights: the package's own, or the file pass_weights names)",
        ),
    },
    "wish": {
        "none": (policies.WISH_NONE, "no wish"),
        "random": (policies.WISH_RANDOM, "no wish or a rank 2..A, uniformly"),
        "passed-right": (
            policies.WISH_PASSED_RIGHT,
            "the rank of the card passed to the right opponent, the next player (none if it "
            "was a special card)",
        ),
        "highest-missing": (
            policies.WISH_HIGHEST_MISSING,
            "the highest rank the player does not hold and that is not all played",
        ),
        "expert": (
            policies.WISH_EXPERT,
            "the rank of a card passed to an opponent (one who called "
            "first), never a rank passed to a partner or held; else the highest such rank "
            "not all played",
        ),
    },
    "dragon": {
        "right": (policies.DRAGON_RIGHT, "to the right opponent, the next player in turn order"),
        "more-cards": (policies.DRAGON_MORE_CARDS, "to the opponent holding more cards"),
        "next": (policies.DRAGON_NEXT, "to the opponent who plays next (the right one unless out)"),
        "random": (policies.DRAGON_RANDOM, "to an opponent drawn at random"),
        "expert": (
            policies.DRAGON_EXPERT,
            "to the opponent least likely to keep it: the one holding "
            "more cards, ties to one who did not call",
        ),
    },
    "dog": {
        "next": (policies.DOG_NEXT, "Tientsin: the Dog's lead to the partner next in turn order"),
        "fewer-cards": (policies.DOG_FEWER_CARDS, "Tientsin: to the partner holding fewer cards"),
        "support-call": (
            policies.DOG_SUPPORT_CALL,
            "Tientsin: to the partner who called (Grand) Tichu, else the one holding fewer cards",
        ),
        "random": (policies.DOG_RANDOM, "Tientsin: to either partner, at random"),
    },
}

# policies renamed when their labels took the rule books' sides (RULES.md §2.1: the next seat is
# the right-hand opponent): the old names still work, with a notice, until the next release
_SIDES = "RULES.md §2.1: the next player is the right-hand opponent, as the rule books say"
RENAMED: dict[str, dict[str, tuple[str, str]]] = {
    "wish": {"passed-left": ("passed-right", _SIDES)},
    "dragon": {"left": ("right", _SIDES)},
}

# policies a variant refuses, with the reason (RULES.md §3: only partners receive cards)
INAPPLICABLE: dict[str, dict[str, dict[str, str]]] = {
    "tientsin": {
        "pass": {
            "odd-even": "signals with the cards given to the opponents, and in Tientsin only "
            "partners receive cards (RULES.md §3)",
            "dog-opponent": "gives the Dog to an opponent, and in Tientsin only partners "
            "receive cards (RULES.md §3)",
        },
        "wish": {
            "passed-right": "wishes the card given to the right opponent, and in Tientsin only "
            "partners receive cards (RULES.md §3)",
        },
    },
}


PARAMS: dict[str, Param] = {
    "w_dragon": Param(slots.W_DRAGON, 3.0, -10, 10, "calls", "score of the Dragon"),
    "w_phoenix": Param(slots.W_PHOENIX, 2.5, -10, 10, "calls", "score of the Phoenix"),
    "w_ace": Param(slots.W_ACE, 1.25, -10, 10, "calls", "score per Ace"),
    "w_king": Param(slots.W_KING, 0.25, -10, 10, "calls", "score per King"),
    "w_bomb": Param(slots.W_BOMB, 3.0, -10, 10, "calls", "score per four-of-a-kind bomb"),
    "w_dog": Param(slots.W_DOG, -0.5, -10, 10, "calls", "score of the Dog"),
    "w_mah_jong": Param(slots.W_MAH_JONG, 0.0, -10, 10, "calls", "score of the Mah Jong"),
    "w_play": Param(
        slots.W_PLAY,
        1.0,
        0,
        10,
        "calls",
        "score lost per play the hand needs (greedy partition into combinations)",
    ),
    "gt_threshold": Param(
        slots.GT_THRESHOLD,
        2.5,
        -50,
        50,
        "calls",
        "Grand Tichu when the score of the first 8 cards reaches this",
    ),
    "tichu_threshold": Param(
        slots.TICHU_THRESHOLD,
        0.0,
        -50,
        50,
        "calls",
        "Tichu when the score of the hand reaches this",
    ),
    "bomb_threat": Param(
        slots.BOMB_THREAT,
        4,
        0,
        14,
        "play",
        "bomb an opponent's trick when that opponent holds this many cards or fewer",
    ),
    "bomb_points": Param(
        slots.BOMB_POINTS,
        15,
        -100,
        200,
        "play",
        "bomb an opponent's trick worth this many points or more",
    ),
    "point_weight": Param(
        slots.POINT_WEIGHT,
        0.02,
        0,
        1,
        "play",
        "how much each point in a trick raises the price the player pays to win it",
    ),
    "follow_margin": Param(
        slots.FOLLOW_MARGIN,
        5.0,
        -20,
        20,
        "play",
        "highest price of a play on "
        "an opponent's trick (plays still needed + rank/15 + control cost)",
    ),
    "control_cost": Param(
        slots.CONTROL_COST,
        0.0,
        0,
        5,
        "play",
        "price of spending a control card (Dragon, Phoenix, Ace; King once both are gone)",
    ),
    "dog_partner_cards": Param(
        slots.DOG_PARTNER_CARDS,
        14,
        0,
        14,
        "play",
        "lead the Dog when the partner holds this many cards or fewer (or called)",
    ),
    "attack_bonus": Param(
        slots.ATTACK_BONUS,
        0.5,
        0,
        5,
        "play",
        "extra price the player pays to beat an opponent who called, or when its partner called",
    ),
    "sure_keep": Param(
        slots.SURE_KEEP,
        1.0,
        -5,
        5,
        "play",
        "expert: extra price of leading a sure "
        "winner while more than one play would be left after it",
    ),
    "sure_cost": Param(
        slots.SURE_COST,
        0.5,
        -5,
        5,
        "play",
        "expert: extra price of spending a sure "
        "winner on an opponent's trick (none when an opponent is about to go out)",
    ),
    "short_opp": Param(
        slots.SHORT_OPP,
        2.0,
        -5,
        10,
        "play",
        "expert: extra price of leading a beatable combination as long as an opponent's cards left",
    ),
    "partner_lead": Param(
        slots.PARTNER_LEAD,
        0.5,
        -5,
        5,
        "play",
        "expert: how much cheaper a single lead is when a partner called",
    ),
    "caller_sure": Param(
        slots.CALLER_SURE,
        0.0,
        -5,
        5,
        "play",
        "expert: extra price of spending a "
        "sure winner on an opponent's trick while its own call is open",
    ),
    "caller_bomb": Param(
        slots.CALLER_BOMB,
        1,
        0,
        14,
        "play",
        "expert: while its own call is open, "
        "bomb an opponent's trick when at most this many plays are left after",
    ),
    "support_threat": Param(
        slots.SUPPORT_THREAT,
        0,
        0,
        14,
        "play",
        "expert: while a partner's call "
        "is open, an opponent holding this many cards or fewer is stopped "
        "(a bomb, sure winners spent, no deferring)",
    ),
    "support_defer": Param(
        slots.SUPPORT_DEFER,
        100.0,
        -5,
        100,
        "play",
        "expert: while a partner's "
        "call is open, highest price to take an opponent's trick that partner "
        "still plays on after this seat (left to them above it)",
    ),
    "caller_overtake": Param(
        slots.CALLER_OVERTAKE,
        -100.0,
        -100,
        10,
        "play",
        "expert: while its "
        "own call is open, take a partner's trick with a play priced this "
        "or less (-50 or less: never)",
    ),
    "attack_split": Param(
        slots.ATTACK_SPLIT,
        0.0,
        -5,
        5,
        "play",
        "expert: on a calling opponent's "
        "trick, how much less the last of the side who can still beat it pays "
        "to spend a sure winner, and how much more one whose partner plays "
        "after it",
    ),
    "bomb_keep": Param(
        slots.BOMB_KEEP,
        0,
        0,
        3,
        "play",
        "expert: no bomb for a trick's points when "
        "(1) an opponent may still hold a higher bomb, (2) a call is still open "
        "(bits; 3 both)",
    ),
    "hold_margin": Param(
        slots.HOLD_MARGIN,
        0.0,
        -14,
        14,
        "play",
        "expert: no going out while a "
        "calling partner is in, nobody is out and that partner holds fewer "
        "cards than every opponent plus this many (0: fewer than every "
        "opponent; 14: always)",
    ),
    "support_sure": Param(
        slots.SUPPORT_SURE,
        0.0,
        -5,
        5,
        "play",
        "expert: extra price of spending "
        "a sure winner on an opponent's trick while a partner's call is open",
    ),
    "retake_lead": Param(
        slots.RETAKE_LEAD,
        0.0,
        -5,
        5,
        "play",
        "expert: how much cheaper a lead "
        "that can be beaten is when the hand keeps a sure winner of its kind "
        "and length to win the lead back (negative: dearer, those kinds led "
        "last)",
    ),
    "caller_gift": Param(
        slots.CALLER_GIFT,
        13,
        2,
        13,
        "pass",
        "expert: after its own call, the "
        "highest rank of the loose card it gives a partner (when it has one)",
    ),
    "tichu_over_partner": Param(
        slots.TICHU_OVER_PARTNER,
        0.0,
        -50,
        50,
        "calls",
        "value policy: "
        "extra score a Tichu needs over a partner's call (besides the "
        "fitted tichu_value_partner, tichu_after_partner)",
    ),
}
# the value call policy's coefficients (kernels/tichu/expert.py: call_value, tichu_value),
# fitted by scripts/fit_expert_calls.py on paired expert self-play at each team game; intercept
# first. Tichu's scores (before passing on the 14 cards, after passing on the hand then held) add
# coefficients of the hand's plan shape (expert.plan_shape) and of the public context of the
# call (expert.call_context): a partner's call, else an opponent's Grand Tichu, else an
# opponent's Tichu
CALL_FEATURES = (
    "intercept",
    "aces",
    "kings",
    "dragon",
    "phoenix",
    "dog",
    "mah_jong",
    "bomb",
    "pairs",
    "plays",
)
TICHU_SHAPE = ("low_singles", "straights")
CALL_CONTEXT = ("partner", "opp_grand", "opp_tichu")
TICHU_FEATURES = CALL_FEATURES + TICHU_SHAPE + CALL_CONTEXT
_CALL_VALUES = {
    "tichu_value": _fitted.TICHU_VALUE,
    "tichu_after": _fitted.TICHU_AFTER,
    "gt_value": _fitted.GT_VALUE,
}
_CALL_SLOTS = {
    "tichu_value": (slots.TICHU_VALUE, slots.TICHU_EXTRA),
    "tichu_after": (slots.TICHU_AFTER_VALUE, slots.TICHU_AFTER_EXTRA),
    "gt_value": (slots.GT_VALUE, None),
}
_CALL_WHAT = {
    "tichu_value": "Tichu score before passing (14 cards)",
    "tichu_after": "Tichu score after passing (the hand then held)",
    "gt_value": "Grand Tichu score (8 cards)",
}
_CONTEXT_WHAT = {
    "partner": "when a partner called",
    "opp_grand": "when an opponent called Grand Tichu (no partner's call)",
    "opp_tichu": "when an opponent called Tichu (no partner's call, no opponent's Grand Tichu)",
    "low_singles": "per single of rank 9 or lower (the Mah Jong "
    "too) in the hand's plan, less one the Phoenix pairs",
    "straights": "per straight in the hand's plan (0 to 2)",
}
_DEFAULT_TABLE = "nanjing"  # the Params' defaults: the 4-player game's fit
for _prefix, (_first, _extra) in _CALL_SLOTS.items():
    _names = CALL_FEATURES if _extra is None else TICHU_FEATURES
    for _i, _f in enumerate(_names):
        if _i < len(CALL_FEATURES):
            _slot = _first + _i
        else:  # a feature of TICHU_FEATURES only: the score has its extra slots
            assert _extra is not None
            _slot = _extra + _i - len(CALL_FEATURES)
        if _f == "intercept":
            _what = "the constant"
        elif _f in _CONTEXT_WHAT:
            _what = _CONTEXT_WHAT[_f]
        else:
            _what = f"per unit of {_f}"
        PARAMS[f"{_prefix}_{_f}"] = Param(
            _slot,
            _CALL_VALUES[_prefix][_DEFAULT_TABLE][_i],
            -50,
            50,
            "calls",
            f"value policy: {_CALL_WHAT[_prefix]}, {_what}; fitted per variant (Nanjing's shown)",
        )
assert max(p.slot for p in PARAMS.values()) < slots.N_SLOTS <= N_PARAMS

# each team game's own defaults of the call coefficients (a strategy's override still wins):
# the row a strategy plays with is built for its variant (TeamGame passes its name)
VARIANT_PARAMS: dict[str, dict[str, float]] = {}
for _prefix, _by_table in _CALL_VALUES.items():
    for _table, _coef in _by_table.items():
        _names = CALL_FEATURES if _CALL_SLOTS[_prefix][1] is None else TICHU_FEATURES
        VARIANT_PARAMS.setdefault(_table, {}).update(
            {f"{_prefix}_{_f}": _c for _f, _c in zip(_names, _coef, strict=True)}
        )

# the learned play's own call coefficients where they are fitted under its play
# (learned_params): a strategy playing the learned policy calls by them at that table
PLAY_PARAMS: dict[tuple[str, str], dict[str, float]] = {
    (_table, "learned"): dict(_coefs) for _table, _coefs in _learned_calls.CALLS.items()
}


@dataclass(frozen=True)
class Strategy:
    """A policy per decision and parameter overrides (``params``: name -> value)."""

    name: str
    play: str
    grand_tichu: str = "never"
    tichu: str = "never"
    pass_: str = "lowest"
    wish: str = "none"
    dragon: str = "right"
    params: tuple[tuple[str, float], ...] = field(default=())
    description: str = ""
    dog: str = "next"
    # the learned play's weights file as written ("": the package's own, ``learned.SHIPPED``)
    weights: str = ""
    # the learned passing's weights file ("": the package's own, ``passnet.SHIPPED``)
    pass_weights: str = ""

    def __post_init__(self) -> None:
        # a policy given by its old name (``RENAMED``) plays under its new one, with a notice
        for decision in RENAMED:
            old = policy_of(self, decision)
            new = renamed_policy(RENAMED, decision, old)
            if new != old:
                object.__setattr__(self, _field(decision), new)
        if self.weights and self.play != "learned":
            raise ValueError(
                f"strategy {self.name!r}: weights only play with play=learned, not {self.play!r}"
            )
        if self.pass_weights and self.pass_ != "learned":
            raise ValueError(
                f"strategy {self.name!r}: pass_weights only pass with pass=learned, not "
                f"{self.pass_!r}"
            )

    def pass_network_at(self, variant: str | None) -> passnet.PassWeights | None:
        """The pass network the learned passing plays with at the table ``variant`` (``None``:
        the 4-player game), read once and checked: the file it names, else the package's
        own for that table (``passnet.shipped``: Nanjing's, Wu Wang's); ``None`` for another
        passing policy, and at a table the package has no pass network for (the learned
        passing then passes as ``expert``). A file of another decision or table:
        ``WeightsError``, one line."""
        if self.pass_ != "learned":
            return None
        table = variant or "nanjing"
        if self.pass_weights:
            return passnet.load(self.pass_weights, table)
        path = passnet.shipped(table)
        if path is None:
            return None
        if not path.is_file():
            raise learned.WeightsError(
                f"strategy {self.name!r}: the package's pass network {path} is "
                "missing; name one: learned[pass_weights=path/to/p.npz]"
            )
        return passnet.load(path, table)

    def pass_network_named(self) -> passnet.PassWeights | None:
        """The pass network a table of the strategy names (``to_dict``, ``build``): the file
        it names, whatever its table, else the package's 4-player one."""
        if self.pass_ == "learned" and self.pass_weights:
            return passnet.load(self.pass_weights, None)
        return self.pass_network_at(None)

    @property
    def learned_weights(self) -> learned.Weights | None:
        """The weights the learned play plays at the 4-player table (``learned_weights_at``)."""
        return self.learned_weights_at(None)

    def learned_weights_at(self, variant: str | None) -> learned.Weights | None:
        """The weights the learned play plays with at the table ``variant`` (read once,
        checked): the file it names, else the package's own for that table
        (``learned.shipped``); ``None`` for another play policy. ``WeightsError`` (a
        ``ValueError``): one line naming the problem."""
        if self.play != "learned":
            return None
        if self.weights:
            return learned.load(self.weights)
        path = learned.shipped(variant)
        if not path.is_file():
            raise learned.WeightsError(
                f"strategy {self.name!r}: the package's weights file {path} is "
                "missing; name one: learned[weights=path/to/w.npz]"
            )
        return learned.load(path)

    def policy(self, decision: str) -> str:
        return policy_of(self, decision)

    def param_values(self, variant: str | None = None) -> dict[str, float]:
        return BOOK.param_values(self, variant)

    def param_row(self, variant: str | None = None) -> np.ndarray:
        """The kernels' row at ``variant`` (a team game's name; ``None``: the Params' defaults,
        Nanjing's); a learned play's row names its weights (``kernel_learned.mark_row``)."""
        row = BOOK.param_row(self, variant)
        weights = self.learned_weights_at(variant)
        if weights is not None:
            kernel_learned.mark_row(row, weights.identity)
        if self.pass_ == "learned":
            network = self.pass_network_at(variant)
            if network is None:  # no pass network for this table: expert's passing
                row[slots.P_PASS] = policies.PASS_EXPERT
            else:
                table_models.mark_pass_row(row, network.identity)
        return row

    def to_dict(self) -> dict[str, Any]:
        """``BOOK.to_dict``'s table, with the identity of a learned play's weights
        (``weights_id``: ``build`` refuses the table if the file now holds other weights)."""
        out = BOOK.to_dict(self)
        weights = self.learned_weights
        if weights is not None:
            out["weights_id"] = weights.identity
        network = self.pass_network_named()
        if network is not None:
            out["pass_weights_id"] = network.identity
        return out


STRATEGIES = {
    "random": Strategy(
        "random",
        "random",
        "random",
        "random",
        "random",
        "random",
        "random",
        description="a uniformly random choice at every decision (calls, passes, "
        "plays, bombs, wish, Dragon, Dog's partner)",
        dog="random",
    ),
    "lowest": Strategy(
        "lowest",
        "lowest",
        description="always the lowest legal play, never "
        "calls, never bombs out of turn, passes its lowest cards, no wish, "
        "Dragon to the right opponent, Dog to the next partner",
    ),
    "heuristic": Strategy(
        "heuristic",
        "heuristic",
        "threshold",
        "threshold",
        "support-call",
        "highest-missing",
        "more-cards",
        description="heuristic "
        "play, threshold calls, support-call passing, highest-missing wish, "
        "Dragon to the opponent with more cards, Dog to the partner who "
        "called or holds fewer cards",
        dog="support-call",
    ),
    "expert": Strategy(
        "expert",
        "expert",
        "value",
        "value",
        "expert",
        "expert",
        "expert",
        description="the default: card-tracking play that keeps sure winners "
        "for last and never overtakes its partner (but a caller takes its "
        "partner's low lead), never goes out ahead of a calling partner, bombs "
        "only a threat or a big trick, Tichu and Grand Tichu called "
        "by a value model fitted by simulation in each variant, passing that "
        "supports a call, a wish at a rank given to an opponent, Dragon to the "
        "opponent least likely to keep it, Dog to the partner who called or holds "
        "fewer cards",
        dog="support-call",
        params=tuple(sorted(_fitted.PLAY.items())),
    ),
}
STRATEGIES["learned"] = Strategy(
    **{
        **STRATEGIES["expert"].__dict__,
        "name": "learned",
        "play": "learned",
        "pass_": "learned",
        "description": "expert, but its plays and bombs chosen by a network trained on "
        "simulated rounds (the play policy learned, the package's weights; "
        "learned[weights=path/to/w.npz] plays other weights) and, at Nanjing and Wu Wang, "
        "its pass by another (the passing policy learned; learned[pass=expert] passes as "
        "expert); its calls by the value model, at Wu Wang fitted under its own play; wish, "
        "Dragon and Dog as expert",
    }
)

BOOK = StrategyBook(
    Strategy,
    DECISIONS,
    _DECISION_SLOT,
    POLICIES,
    PARAMS,
    STRATEGIES,
    N_PARAMS,
    name_form="{base}[{changes}]",
    default=DEFAULT_STRATEGY,
    plain="heuristic",
    variant_defaults=VARIANT_PARAMS,
    play_defaults=PLAY_PARAMS,
    renamed=RENAMED,
    texts=("weights", "pass_weights"),
)


def build(spec: dict) -> Strategy:
    """A strategy from a table: ``base`` (a named strategy, default ``heuristic``:
    ``BOOK.plain``), any of the decisions with a policy name, ``weights`` (a learned play's
    file), ``params`` (name -> number) and an optional ``name``; the name derived from the
    changes reads ``heuristic[pass=lowest,bomb_points=20]``. ``weights_id`` (as ``to_dict``
    writes it) must be the identity of the weights the strategy plays with."""
    spec = dict(spec)
    expected = spec.pop("weights_id", None)
    expected_pass = spec.pop("pass_weights_id", None)
    strategy = BOOK.build(spec)
    if expected_pass is not None:
        network = strategy.pass_network_named()
        if network is None or network.identity != expected_pass:
            found = "no learned passing" if network is None else f"pass network {network.identity}"
            raise ValueError(
                f"strategy {strategy.name!r}: saved with the pass network {expected_pass}, now "
                f"plays {found}: the weights file changed"
            )
    if expected is not None:
        weights = strategy.learned_weights
        if weights is None or weights.identity != expected:
            found = "no learned play" if weights is None else f"weights {weights.identity}"
            raise ValueError(
                f"strategy {strategy.name!r}: saved with the weights {expected}, now plays "
                f"{found}: the weights file changed"
            )
    return strategy


def _one(spec) -> Strategy:
    if isinstance(spec, Strategy):
        return spec
    if isinstance(spec, str):  # a name, or a composed one's text: ``BOOK.parse``
        return STRATEGIES[spec] if spec in STRATEGIES else BOOK.parse(spec)
    if isinstance(spec, dict):
        return build(spec)
    raise ValueError(f"a strategy is a name, a table or a Strategy, not {spec!r}")


def check_variant(strategy: Strategy, variant: str) -> None:
    """Refuse a strategy using a policy that means nothing in ``variant`` (one line)."""
    for decision, refused in INAPPLICABLE.get(variant, {}).items():
        policy = strategy.policy(decision)
        if policy in refused:
            raise ValueError(
                f"strategy {strategy.name!r}: {decision} policy {policy!r} does not "
                f"apply to {variant}: it {refused[policy]}"
            )


def resolve(strategies, seats: int = 4, *, variant: str | None = "nanjing") -> list[Strategy]:
    """One strategy per seat (per player) from a name, a composed strategy's text
    (``heuristic:pass=lowest``, ``expert[tichu=never]``), a table, a ``Strategy``, or a list
    of them; each checked against ``variant`` (``check_variant``; a network played at another
    table than its training's warns), or against no table when ``variant`` is ``None`` (text
    read before the table is known: the table checks it when it seats it)."""
    if isinstance(strategies, (str, Strategy, dict)):
        strategies = [strategies] * seats
    if not isinstance(strategies, (list, tuple)) or len(strategies) != seats:
        raise ValueError(f"strategies: give one strategy or a list of {seats}, one per seat")
    out = [_one(s) for s in strategies]
    for s in out:
        weights = s.learned_weights_at(variant)  # readable, or one line saying why not
        if variant is None:
            continue
        check_variant(s, variant)
        if weights is not None and weights.variant not in (None, variant):
            warnings.warn(
                f"strategy {s.name!r}: its network was trained at {weights.variant}, not "
                f"{variant}, and plays weakly there; train one at {variant} with "
                "tichusim learn ([data] variant)",
                learned.OtherTableWarning,
                stacklevel=2,
            )
    return out


def weights_identities(strategy, variant: str | None = None) -> list[str]:
    """The identities of the learned weights a strategy plays with at the table ``variant``
    (``None``: the 4-player game): a scripted one's (``Strategy.learned_weights_at``), or for
    an agent's table those of the strategies among its parameters (``search``'s ``base`` and
    ``rollout``); empty when none plays a model."""
    if isinstance(strategy, dict) and "agent" in strategy:
        found: list[str] = []
        for value in strategy.get("params", {}).values():
            if not isinstance(value, (str, dict)) or (isinstance(value, dict) and "agent" in value):
                continue
            try:
                found += [i for i in weights_identities(value, variant) if i not in found]
            except ValueError:  # a parameter that names no strategy
                continue
        return found
    one = _one(strategy)
    weights = one.learned_weights_at(variant)
    found = [] if weights is None else [weights.identity]
    network = one.pass_network_at(variant)
    return found if network is None else [*found, f"pass:{network.identity}"]
