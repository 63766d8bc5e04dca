"""What each answer is asked: its request's fields, written once.

An answer (``gt-odds``, ``tichu-odds``, ``pass-advice``, ``advise``) is asked three ways: by
the command's options, by the server's JSON request (``tichusim serve``), and by the command
line the server gives back, which asks the same question again. A ``Question`` lists its
fields in the order the command's help shows them, and each ``Field`` says what those three
need: its name (the request's key and the command's parameter), the command's flag, the kind
of value and its range, the library's default and the help text. The command takes its
options from them (``tichusim.cli.options.question_options``), the server its checks
(``tichusim.web.answers``), and ``Question.command`` writes the equivalent command line.

A field's ``default`` is the library's: ``Question.library`` names the function the answer
calls, and ``tests/analysis/test_questions.py`` holds every default to that function's
signature (the command's help shows the default without loading the library, which compiles
kernels). This module loads nothing heavy: the command line imports it to build its options.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..checks import SEED_LIMIT
from ..games import DEFAULT_GAME, TEAM_GAMES
from ..kernels.tichu import rules as team_rules
from ..strategies import ANSWER_STRATEGY

__all__ = [
    "ADVISE",
    "GT_ODDS",
    "KINDS",
    "PASS_ADVICE",
    "PLAYERS",
    "QUESTIONS",
    "TICHU_ODDS",
    "Field",
    "Question",
]

# What a field holds, and how the command and the server take it:
KINDS = (
    "text",  # a string (the server strips it; empty is absent)
    "whole",  # an int in low..high (either end open when None)
    "number",  # a float strictly between low and high (the command's only)
    "flag",  # a switch, true or false
    "texts",  # strings, the command's option repeated
    "seed",  # a seed, 0..2**64 - 1 (checks.seed)
    "strategy",  # one strategy: a name, a name with changes (the command: a file, an agent)
    "others",  # the other players' strategies: one, or one each (the table's players - 1)
    "choice",  # one of ``choices``
    "options",  # a table's rules options: the command's KEY=VALUE, repeated; the server's object
    "path",  # a file (the command's only)
    "position",  # a position (``games.position``): the server's object; the command's file
    #              and one option for each of its ``parts``
)
PLAYERS = ("strategy", "others")  # the kinds that seat players


@dataclass(frozen=True)
class Field:
    """One field of an answer's request."""

    name: str  # the request's key and the command's parameter
    flags: tuple[str, ...] = ()  # the command's option; a command line says the first
    kind: str = "text"  # one of KINDS
    help: str | None = None  # the command's help text
    default: Any = None  # the library's default (the command's help shows it)
    low: int | float | None = None  # the range, both ends included ("number": excluded)
    high: int | float | None = None
    what: str = ""  # what a number counts or a choice is, in the server's messages
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    missing: str | None = None  # required; what to give, said when it is missing
    keyword: str | None = ""  # the library's parameter ("": the name; None: it has none)
    bound: str | None = None  # the server's ``Limits`` field bounding it (deals, samples, ...)
    server_default: Any = None  # the server's default where it differs from the library's
    server: bool = True  # False: the command's only
    said_at_default: bool = True  # False: a command line leaves it out at its default
    parts: tuple[Field, ...] = ()  # a position's fields

    def __post_init__(self):
        assert self.kind in KINDS, self.kind

    @property
    def library_keyword(self) -> str | None:
        """The library function's parameter this field is, or ``None``."""
        return self.name if self.keyword == "" else self.keyword

    @property
    def request_default(self) -> Any:
        """The value of a request that leaves the field out (before the server's bound)."""
        return self.default if self.server_default is None else self.server_default

    def said(self, value: Any) -> list[str]:
        """The command-line arguments that give ``value`` (none for an absent, false or empty
        value)."""
        if value is None or value is False or (isinstance(value, (str, list, dict)) and not value):
            return []
        if not self.said_at_default and value == self.default:
            return []
        flag = self.flags[0]
        if self.kind == "flag":
            return [flag]
        if self.kind == "options":
            args: list[str] = []
            for key, v in value.items():
                args += [flag, f"{key}={str(v).lower() if isinstance(v, bool) else v}"]
            return args
        if self.kind == "texts":  # the option repeated: one item, a list, {key: value}
            if isinstance(value, str):
                items = [value]
            elif isinstance(value, dict):
                items = [f"{k}={v}" for k, v in value.items()]
            else:
                items = list(value)
            return [a for item in items for a in (flag, str(item))]
        if isinstance(value, list):
            return [flag, ",".join(map(str, value))]
        return [flag, str(value)]


@dataclass(frozen=True)
class Question:
    """An answer's request: its fields in the command's order, and the library function that
    answers it (``module:function``)."""

    name: str  # the command and the server's answer
    library: str
    fields: tuple[Field, ...]

    def __getitem__(self, name: str) -> Field:
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(name)

    @property
    def key(self) -> str:
        """The name as a JSON key (``gt_odds``)."""
        return self.name.replace("-", "_")

    def command(self, values: Mapping[str, Any]) -> str:
        """The command line that asks this question with ``values`` (field name -> value; what
        is absent, false or empty is not said), each argument quoted for a POSIX shell. A
        position's keys that have no option (``first_drawer``, ...) are named in a comment:
        they need a position file."""
        args: list[str] = []
        extra: list[str] = []
        for field in self.fields:
            value = values.get(field.name)
            if field.kind != "position":
                args += field.said(value)
                continue
            parts = {part.name: part for part in field.parts}
            for key, v in (value or {}).items():
                if key in parts:
                    args += parts[key].said(v)
                elif not (key == "variant" and v == DEFAULT_GAME):
                    extra.append(key)
        line = " ".join(["tichusim", self.name, *(shlex.quote(a) for a in args)])
        if extra:
            line += "  # with a position file for: " + ", ".join(sorted(extra))
        return line


# ---- the fields the answers share ---------------------------------------------------------

SPEC_HELP = (
    "a name, base:key=value,... or base[key=value,...], a .toml file, search:key=value,..., "
    "or agent:module:Class / agent:file.py:Class (docs/strategies.md#strategy-arguments)"
)
ODDS_OTHERS_HELP = (
    "one strategy for the other players, or one each in turn order from the "
    "next player (nanjing: right opponent, partner, left opponent)"
)
# the team games' options (the odds commands, compare), named from the rules record
TEAM_OPTION_HELP = (
    "a rules option, KEY=VALUE, repeatable (e.g. " + f"{team_rules.EVERY_TABLE[0]}=true)"
)

SEED = Field("seed", ("--seed",), "seed", default=0, low=0, high=SEED_LIMIT - 1)
OPTIONS = Field("options", ("--option",), "options", TEAM_OPTION_HELP, metavar="KEY=VALUE")


def seat_strategy(
    help: str, flags: tuple[str, ...] = ("--seat-strategy",), keyword: str = ""
) -> Field:
    """The hand's seat's strategy, ``help`` saying what the experiment changes in it."""
    return Field(
        "seat_strategy",
        flags,
        "strategy",
        f"{help} ({SPEC_HELP})",
        default=ANSWER_STRATEGY,
        keyword=keyword,
    )


def others(help: str = ODDS_OTHERS_HELP) -> Field:
    """The other players' strategies."""
    return Field("others", ("--others",), "others", help, default=ANSWER_STRATEGY)


# the odds commands' table, deals and precision
VARIANT = Field(
    "variant",
    ("--variant",),
    "choice",
    "the game (wuwang: the hand is an opponent's, RULES.md §4)",
    default=DEFAULT_GAME,
    choices=TEAM_GAMES,
    what="a team game",
    said_at_default=False,
)
ODDS_DEALS = Field(
    "deals",
    ("--rounds",),
    "whole",
    "most deals to play (each is played twice: with and without the call)",
    default=100_000,
    low=1,
    what="deals",
    bound="deals",
    server_default=2000,  # an answer in seconds (docs/serve.md)
)
PRECISION = Field(
    "precision",
    ("--precision",),
    "number",
    "stop once P(success) is known to +/- this (0.01 = 1 point)",
    low=0,
    high=0.5,
    server=False,
)


# ---- the answers --------------------------------------------------------------------------

GT_ODDS = Question(
    "gt-odds",
    "tichusim.analysis.gtodds:gt_odds",
    (
        Field(
            "hand",
            ("--hand",),
            help='the first 8 cards (tientsin: 6), e.g. "Dr Ph A A K 9 5 3" (a rank alone: any '
            "suit)",
            missing='the first 8 cards, e.g. "Dr Ph A A K 9 5 3"',
        ),
        ODDS_DEALS,
        PRECISION,
        SEED,
        seat_strategy("the hand's strategy, its Grand Tichu policy replaced"),
        others(),
        Field(
            "model",
            ("--model",),
            "path",
            "answer at once from a fitted model (gt-table's model.json)",
            keyword=None,
            server=False,
        ),
        VARIANT,
        OPTIONS,
    ),
)

TICHU_ODDS = Question(
    "tichu-odds",
    "tichusim.analysis.tichuodds:tichu_odds",
    (
        Field(
            "hand",
            ("--hand",),
            help='the cards held after the passing: 14 (tientsin: 10 or 9), e.g. "Dr Ph Aj '
            'As K K Q J T 9 7 5 3 2" (a rank alone: any suit)',
            missing="the 14 cards held after the passing",
        ),
        Field(
            "received",
            ("--received",),
            help="the hand's cards received in the passing, one from each seat passing to "
            "it in turn order from the next player (nanjing: right opponent, partner, left "
            "opponent); default: drawn among the hand",
        ),
        Field(
            "played",
            ("--played",),
            "whole",
            "call before the seat's first own turn once this many cards are played "
            "at the table (default: right after the passing)",
            low=0,
            high=56,
            what="cards",
        ),
        ODDS_DEALS,
        PRECISION,
        SEED,
        seat_strategy("the hand's strategy, its Tichu call set by the experiment"),
        others(),
        VARIANT,
        OPTIONS,
    ),
)

PASS_ADVICE = Question(
    "pass-advice",
    "tichusim.analysis.passadvice:pass_advice",
    (
        Field(
            "hand",
            ("--hand",),
            help='the 14 cards dealt, before the passing, each with its suit, e.g. "Dog Ma 2j '
            '3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"',
            missing="the 14 cards dealt, each with its suit",
        ),
        Field(
            "candidates",
            ("--candidate",),
            "texts",
            "a pass to rank too: the cards to the right opponent (the next player), the "
            "partner and the left opponent; repeatable",
            metavar="RIGHT,PARTNER,LEFT",
            what="passes",
            bound="candidates",
        ),
        Field(
            "only_given",
            ("--only-given",),
            "flag",
            "rank only the --candidate passes",
            keyword=None,  # the library's generated=False
        ),
        Field(
            "deals",
            ("--rounds", "--deals"),
            "whole",
            "fresh deals the finalists play, after screening the field on fewer deals "
            "(successive halving); their figures are on these deals only",
            default=4_000,
            low=1,
            what="deals",
            bound="pass_deals",
        ),
        SEED,
        seat_strategy(
            "the hand's strategy, its passes set by the experiment",
            ("--seat-strategy", "--strategy"),
            keyword="strategy",
        ),
        others(),
    ),
)

# a position's keys that the command takes as options (the rest only from a position file)
POSITION = Field(
    "position",
    kind="position",
    missing="hand, seat, trick, played, ... as advise takes them",
    parts=(
        Field("hand", ("--hand",), help='the seat\'s cards, e.g. "Dr Ph Aj As Kj 9j 9s"'),
        Field("seat", ("--seat",), "whole", "the seat to advise, 0..3 (Tientsin 0..5; default 0)"),
        Field(
            "played",
            ("--played",),
            "texts",
            "cards a seat played in the tricks before this one (repeatable)",
            metavar="SEAT=CARDS",
        ),
        Field(
            "trick",
            ("--trick",),
            help="the trick in play, in order (none: the seat leads)",
            metavar="'SEAT: CARDS; SEAT: pass; ...'",
        ),
        Field("tichu", ("--tichu",), help="seats that called Tichu, e.g. 1,2", metavar="SEATS"),
        Field(
            "grand_tichu",
            ("--grand-tichu",),
            help="seats that called Grand Tichu",
            metavar="SEATS",
        ),
        Field("wish", ("--wish",), help="the open wished rank (§2.11)", metavar="RANK"),
        Field("out", ("--out",), help="seats already out, in order", metavar="SEATS"),
        Field(
            "taken",
            ("--taken",),
            "texts",
            "card points in a seat's won tricks (repeatable)",
            metavar="SEAT=POINTS",
        ),
        Field(
            "gave",
            ("--gave",),
            "texts",
            "the card the seat passed to SEAT (repeatable)",
            metavar="SEAT=CARD",
        ),
        Field(
            "received",
            ("--received",),
            "texts",
            "the card the seat received from SEAT (repeatable)",
            metavar="SEAT=CARD",
        ),
    ),
)

ADVISE = Question(
    "advise",
    "tichusim.analysis.advise:advise",
    (
        POSITION,
        Field(
            "samples",
            ("--samples",),
            "whole",
            "deals of the unseen cards, each played out once per play",
            default=2000,
            low=2,
            what="deals",
            bound="samples",
        ),
        Field(
            "candidates",
            ("--candidates",),
            "whole",
            "the most plays scored (pruned as the search strategy prunes)",
            default=40,
            low=1,
            what="plays",
            bound="candidates",
        ),
        Field(
            "rollout",
            ("--rollout",),
            "strategy",
            "the scripted strategy playing every seat after the play",
            default=ANSWER_STRATEGY,
        ),
        replace(SEED, high=None),  # the command's range is open above (the server's is not)
    ),
)

QUESTIONS = (GT_ODDS, TICHU_ODDS, PASS_ADVICE, ADVISE)
