"""The answers' options, made from their requests' declaration (``analysis.questions``, which
``tichusim serve`` reads too): each command takes every field of its question as the option
the field names, and the command line a question gives (the server's ``command``) parses
back, by the command's own options, to the values it was made from. Nothing here plays."""

import shlex

import pytest

from tichusim.analysis.questions import ADVISE, GT_ODDS, PASS_ADVICE, QUESTIONS, TICHU_ODDS
from tichusim.cli import main
from tichusim.cli.options import rules_options


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.name)
def test_the_command_takes_every_field(question):
    command = main.commands[question.name]
    params = {p.name: p for p in command.params}
    for field in question.fields:
        for part in field.parts or (field,):
            assert part.name in params, f"{question.name}: {part.name}"
            assert list(part.flags) == [*params[part.name].opts, *params[part.name].secondary_opts]


HAND8 = "Dr Ph A A K 9 5 3"
HAND14 = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
ASKED = [
    (
        GT_ODDS,
        {
            "hand": HAND8,
            "deals": 300,
            "seed": 7,
            "seat_strategy": "heuristic:pass=lowest",
            "others": "expert,learned,expert",
            "variant": "wuwang",
            "options": {"phoenix_led_half": True},
        },
    ),
    (GT_ODDS, {"hand": HAND8, "deals": 2000, "seed": 0, "variant": "nanjing"}),
    (
        TICHU_ODDS,
        {"hand": HAND14, "received": "Dog Ma 2j", "played": 0, "deals": 50, "seed": 2**64 - 1},
    ),
    (
        PASS_ADVICE,
        {
            "hand": HAND14,
            "candidates": ["Dr,Ks,2j", "2j,Dr,Dog"],
            "only_given": True,
            "deals": 100,
            "seat_strategy": "expert",
        },
    ),
    (
        ADVISE,
        {
            "position": {
                "hand": "Aj Kj 5t",
                "seat": 0,
                "trick": "1: 9p; 2: pass; 3: Ks",
                "played": ["0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj", "1=9s"],
                "taken": {"0": 15},
                "tichu": [1, 2],
                "wish": "",
            },
            "samples": 300,
            "candidates": 5,
            "rollout": "expert",
            "seed": 9,
        },
    ),
]


@pytest.mark.parametrize("question, values", ASKED, ids=lambda x: getattr(x, "name", ""))
def test_a_questions_command_line_parses_back_to_its_values(question, values):
    line = question.command(values)
    args = shlex.split(line)
    assert args[:2] == ["tichusim", question.name]
    command = main.commands[question.name]
    parsed = command.make_context(question.name, args[2:]).params
    for field in question.fields:
        value = values.get(field.name)
        if field.kind == "position":
            for part in field.parts:
                given = value.get(part.name)
                got = parsed[part.name]
                if part.kind == "texts":
                    items = (
                        [f"{k}={v}" for k, v in given.items()] if isinstance(given, dict) else given
                    )
                    assert list(got) == (items or []), part.name
                elif isinstance(given, list):
                    assert got == ",".join(map(str, given)), part.name
                else:
                    assert got == (None if given == "" else given), part.name  # "": not said
        elif field.kind == "options":
            assert rules_options(parsed[field.name]) == value
        elif field.kind == "texts":
            assert list(parsed[field.name]) == (value or [])
        elif value is None:  # not said: the command's default
            assert parsed[field.name] in (field.default, (), False)
        else:
            assert parsed[field.name] == value, field.name
