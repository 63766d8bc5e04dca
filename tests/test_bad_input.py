"""Bad input, tried systematically: Hypothesis feeds every command malformed and hostile input
(broken TOML, unknown and misspelt keys, wrong types, negative and huge counts, unknown
strategies, policies and parameters, malformed hands and card notation, paths that do not
exist or cannot be written, a directory holding another run). Each must answer one line
``tichusim: error: ...`` naming the problem, exit status 2, no traceback, nothing written.

Examples are derandomized with fixed counts, so the number of cases is the same every run;
the module prints the total it tried (``CASES``) when it finishes.
"""

import json
import math
import os
import string
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli_output import said_lines

from tichusim.cards.notation import parse, parse_pattern
from tichusim.cli import main
from tichusim.cli.options import strategy_specs
from tichusim.games.simulate import VARIANTS
from tichusim.games.strategy_text import parse_strategy_list
from tichusim.runs.config import RunConfig
from tichusim.strategies.tichu import DECISIONS, PARAMS, POLICIES, STRATEGIES, resolve

ROOT = Path(__file__).resolve().parents[1]
CASES = Counter()  # examples tried per test
FUZZ = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
KEYS = list(RunConfig.model_fields)
VALID = {"rounds": 100, "seed": 1, "strategies": "random", "shard_size": 50}


@pytest.fixture(scope="module", autouse=True)
def count_cases(request):
    yield
    total = sum(CASES.values())
    detail = ", ".join(f"{k} {v}" for k, v in sorted(CASES.items()))
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled():  # shown whatever -s says
        print(f"\ntest_bad_input: {total} inputs tried ({detail})")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(res, what) -> str:
    """The one error line of a refused command (asserting everything else about it)."""
    CASES[what] += 1
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        f"{what}: {type(res.exception).__name__}: {res.exception}"
    )  # a crash, not a refusal
    assert res.exit_code == 2, (what, res.exit_code, res.output)
    lines = said_lines(res.output)
    assert len(lines) == 1 and "Traceback" not in res.output, (what, res.output)
    assert lines[0].startswith("tichusim: error: "), (what, lines[0])
    return lines[0].removeprefix("tichusim: error: ")


def toml(value) -> str:
    """A value in TOML (inline tables for dicts); strings go through JSON escapes, which TOML
    basic strings share (a lone surrogate makes the file invalid TOML: also a bad input)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(
            value, "nan" if math.isnan(value) else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


def toml_doc(data: dict) -> str:
    return "".join(f"{json.dumps(k)} = {toml(v)}\n" for k, v in data.items())


def run_config(tmp: Path, text: str, what: str, *extra) -> str:
    """Run a config text into ``tmp/out``; it must be refused with nothing written."""
    cfg = tmp / "bad.toml"
    cfg.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = sorted(p.name for p in tmp.iterdir())
    message = one_line_error(invoke("run", cfg, "--out", tmp / "out", "--quiet", *extra), what)
    assert sorted(p.name for p in tmp.iterdir()) == before, what  # no out/, nothing else
    return message


# -- strategies of bad values --------------------------------------------------------------

scalars = st.one_of(
    st.text(max_size=12), st.floats(allow_nan=True), st.booleans(), st.integers(-(2**63), 2**63 - 1)
)
anything = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
not_int = anything.filter(lambda v: not isinstance(v, int) or isinstance(v, bool))
identifier = st.text(string.ascii_lowercase + "_", min_size=1, max_size=14)


@st.composite
def misspelt(draw, known):
    """A known name with one character deleted, doubled, replaced or two swapped."""
    word = draw(st.sampled_from(known))
    i = draw(st.integers(0, len(word) - 1))
    edit = draw(st.sampled_from(["delete", "double", "replace", "swap"]))
    if edit == "delete":
        out = word[:i] + word[i + 1 :]
    elif edit == "double":
        out = word[:i] + word[i] + word[i:]
    elif edit == "replace":
        out = word[:i] + draw(st.sampled_from(string.ascii_lowercase)) + word[i + 1 :]
    else:
        out = (
            word[:i] + word[i + 1 : i + 2] + word[i] + word[i + 2 :] if i + 1 < len(word) else word
        )
    return draw(st.just(out).filter(lambda w: w and w not in known))


@st.composite
def bad_configs(draw):
    """``(config, key the error must name)``: a valid config with one thing wrong."""
    data = dict(VALID)
    kind = draw(
        st.sampled_from(
            [
                "unknown",
                "misspelt",
                "type",
                "negative",
                "huge",
                "strategy",
                "policy",
                "param",
                "range",
                "variant",
                "mode",
                "dask",
                "players",
                "options",
                "table",
            ]
        )
    )
    if kind == "unknown":
        key = draw(identifier.filter(lambda k: k not in KEYS))
        data[key] = draw(anything)
    elif kind == "misspelt":
        key = draw(misspelt(KEYS))
        data[key] = draw(scalars)
    elif kind == "type":
        key = draw(st.sampled_from(["rounds", "seed", "shard_size", "check", "out", "mode"]))
        bad = {
            "check": anything.filter(lambda v: not isinstance(v, bool)),
            "out": anything.filter(lambda v: not isinstance(v, str)),
            "mode": anything.filter(lambda v: v not in ("rounds", "games")),
        }
        data[key] = draw(bad.get(key, not_int))
    elif kind == "negative":
        key = draw(st.sampled_from(["rounds", "seed", "shard_size"]))
        data[key] = draw(st.integers(-(2**63), -1 if key == "seed" else 0))
    elif kind == "huge":
        key = draw(st.sampled_from(["rounds", "shard_size"]))
        data[key] = draw(st.integers(100_000 * 50 + 1 if key == "rounds" else 1_000_001, 2**63 - 1))
        key = "shard_size"  # too many shards of 50 rounds, or too large a shard
    elif kind == "strategy":
        key = "strategies"
        name = draw(
            st.one_of(identifier, st.text(max_size=10)).filter(lambda s: s not in STRATEGIES)
        )
        seats = ["random"] * 4
        seats[draw(st.integers(0, 3))] = name
        data["strategies"] = draw(st.sampled_from([name, seats, {"base": name}]))
    elif kind == "policy":
        key = "strategies"
        decision = draw(st.sampled_from(DECISIONS))
        policy = draw(
            st.one_of(st.text(max_size=10), anything).filter(
                lambda p: not (isinstance(p, str) and p in POLICIES[decision])
            )
        )
        data["strategies"] = {"base": "heuristic", decision: policy}
    elif kind == "param":
        key = "strategies"
        param = draw(
            st.one_of(misspelt(list(PARAMS)), identifier.filter(lambda p: p not in PARAMS))
        )
        data["strategies"] = {"base": "heuristic", "params": {param: 0.5}}
    elif kind == "range":
        key = "strategies"
        name = draw(st.sampled_from(list(PARAMS)))
        p = PARAMS[name]
        value = draw(
            st.one_of(
                st.floats(max_value=p.low, exclude_max=True),
                st.floats(min_value=p.high, exclude_min=True),
                st.just(float("nan")),
                st.text(max_size=5),
                st.booleans(),
            )
        )
        data["strategies"] = {"base": "heuristic", "params": {name: value}}
    elif kind == "variant":
        key = "variant"
        data["variant"] = draw(st.text(max_size=12).filter(lambda v: v not in VARIANTS))
    elif kind == "players":  # RULES.md §5: 5 to 12, and only Grand Seigneur has a choice
        key = "players"
        variant = draw(st.sampled_from(VARIANTS))
        data["variant"] = variant
        if variant == "grand-seigneur":
            bad = st.one_of(st.integers(-(2**40), 4), st.integers(13, 2**40), not_int, st.none())
        else:
            bad = st.integers(1, 20)
        players = draw(bad)
        if players is not None:
            data["players"] = players
    elif kind == "options":
        key = "options"
        variant = draw(st.sampled_from(VARIANTS))
        data["variant"] = variant
        if variant == "grand-seigneur":
            data["players"] = draw(st.integers(5, 12))
        if variant in ("wuwang", "grand-seigneur") and draw(st.booleans()):
            data |= {"mode": "games", "games": data.pop("rounds")}
        games = data.get("mode") == "games"
        known = {
            "wuwang": ["rotating_king", "game_rounds", "phoenix_led_half"],
            "grand-seigneur": [
                "decks",
                "russian_deck",
                "distinct_triples",
                "russian_seating",
                "game_rounds",
            ],
        }.get(variant, ["phoenix_led_half"])
        choices = [
            st.fixed_dictionaries({draw(identifier.filter(lambda k: k not in known)): scalars})
        ]
        if known:
            name = draw(st.sampled_from(known))
            if name == "game_rounds":
                value = st.one_of(st.integers(-(2**40), 0), not_int, st.integers(2**16, 2**40))
                if variant == "wuwang":
                    value = st.one_of(value, st.integers(1, 200).filter(lambda v: v % 3))
                if not games:  # a game's length means nothing for independent rounds
                    value = st.integers(1, 9)
            elif name == "rotating_king" and not games:
                value = st.booleans()
            elif name == "decks":
                value = st.one_of(
                    st.integers().filter(lambda v: v not in (1, 2)), st.text(max_size=3)
                )
            else:
                value = anything.filter(lambda v: not isinstance(v, bool))
            choices.append(st.fixed_dictionaries({name: value}))
        other = not_int.filter(
            lambda v: v != "russian" and not (isinstance(v, dict) and set(v) <= set(known))
        )
        data["options"] = draw(st.one_of(*choices, other))
    elif kind == "table":  # strategies that do not fit the variant's table
        key = "strategies"
        variant = draw(st.sampled_from(VARIANTS))
        data["variant"] = variant
        seats = {"nanjing": 4, "tientsin": 6, "wuwang": 3, "grand-seigneur": 7}[variant]
        if variant == "grand-seigneur":
            data["players"] = 7
        wrong = draw(st.integers(2, 13).filter(lambda n: n != seats))
        tichu_only = {
            "base": "heuristic",
            draw(st.sampled_from(["tichu", "pass", "dragon"])): "random",
        }
        refused = {"base": "heuristic", "pass": draw(st.sampled_from(["odd-even", "dog-opponent"]))}
        data["strategies"] = draw(
            st.sampled_from(
                [["random"] * wrong]
                + (
                    [tichu_only, "keep-combos"]
                    if variant == "grand-seigneur"
                    else [refused]
                    if variant == "tientsin"
                    else []
                )
            )
        )
    elif kind == "mode":
        key = draw(st.sampled_from(["games", "target"]))  # the other mode's settings
        data[key] = 10
    else:
        key = "dask"
        data["dask"] = draw(
            st.one_of(
                not_int,
                st.fixed_dictionaries(
                    {"address": st.just("tcp://x:1"), "n_workers": st.integers(1, 8)}
                ),
                st.fixed_dictionaries({"adress": st.just("local")}),
            )
        )
    return data, key, kind


@settings(FUZZ, max_examples=600)
@given(case=bad_configs())
def test_bad_configs(tmp_path_factory, case):
    data, key, kind = case
    tmp = tmp_path_factory.mktemp("cfg")
    text = toml_doc(data)
    message = run_config(tmp, text, f"config: {kind}")
    if "not valid TOML" not in message:  # e.g. a lone surrogate in a string
        assert message.startswith((f"{key}:", f"{key}.")), (key, message)


@FUZZ
@given(text=st.text(max_size=200))
def test_garbage_toml(tmp_path_factory, text):
    run_config(tmp_path_factory.mktemp("cfg"), text, "config: garbage text")


@settings(FUZZ, max_examples=60)
@given(text=st.binary(max_size=100))
def test_binary_config_file(tmp_path_factory, text):
    tmp = tmp_path_factory.mktemp("cfg")
    (tmp / "bad.toml").write_bytes(text)
    message = one_line_error(
        invoke("run", tmp / "bad.toml", "--out", tmp / "out", "--quiet"), "config: binary file"
    )
    assert message and not (tmp / "out").exists()


def option_values(low: int | None = None):
    """Command-line values an integer option must refuse: text, floats, below ``low``."""
    below = [] if low is None else [st.integers(-(2**70), low - 1).map(str)]
    return st.one_of(
        st.text(max_size=8).filter(lambda t: not t.strip().lstrip("+-").isdigit()),
        st.floats().map(repr).filter(lambda t: not t.isdigit()),
        *below,
    )


@FUZZ
@given(option=st.sampled_from(["--rounds", "--games", "--seed", "--workers"]), data=st.data())
def test_run_options(tmp_path_factory, option, data):
    tmp = tmp_path_factory.mktemp("opt")
    (tmp / "good.toml").write_text(toml_doc(VALID))
    value = data.draw(option_values(0 if option == "--seed" else 1))
    if option == "--seed" and data.draw(st.booleans()):
        value = str(data.draw(st.integers(2**64, 2**80)))
    message = one_line_error(
        invoke("run", tmp / "good.toml", "--out", tmp / "out", "--quiet", option, value),
        f"run {option}",
    )
    assert option in message, message
    assert not (tmp / "out").exists()


@settings(FUZZ, max_examples=40)
@given(rounds=st.integers(5_000_001, 2**80))
def test_run_option_too_many_rounds(tmp_path_factory, rounds):
    tmp = tmp_path_factory.mktemp("opt")
    (tmp / "good.toml").write_text(toml_doc(VALID))
    message = one_line_error(
        invoke("run", tmp / "good.toml", "--out", tmp / "out", "--quiet", "--rounds", rounds),
        "run --rounds huge",
    )
    assert message.startswith("shard_size: ") and "at most 100,000" in message, message
    assert not (tmp / "out").exists()


# -- card notation: legal, gt-odds, show, simulate ------------------------------------------

TOKENS = [
    "Ma",
    "Dog",
    "Dr",
    "Ph",
    "2j",
    "3s",
    "Tp",
    "Jt",
    "Qj",
    "Ks",
    "Ap",
    "A",
    "K",
    "9",
    "5",
    "10",
    "1",
    "0",
    "Aa",
    "Zz",
    "mj",
    "ph",
    "dr",
    "x",
    "-",
    "♠",
    "Ph ",
    "\t",
    "\n",
    "7j7s",
    ",",
    "Bomb",
    "",
    "  ",
]
notation = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=16).map(" ".join), st.text(max_size=30)
)


def parses(fn, text) -> bool:
    try:
        fn(text)
        return True
    except ValueError:
        return False


@settings(FUZZ, max_examples=300)
@given(
    hand=notation,
    top=st.one_of(st.none(), notation),
    wish=st.one_of(st.none(), st.text(max_size=3), st.integers(-5, 20).map(str)),
    phoenix=st.one_of(st.none(), st.text(max_size=3)),
)
def test_legal(hand, top, wish, phoenix):
    args = ["legal", hand]
    for name, value in (("--top", top), ("--wish", wish), ("--phoenix-on", phoenix)):
        if value is not None:
            args += [name, value]
    res = invoke(*args)
    if res.exit_code == 0:  # a legal position: the plays were listed
        CASES["legal: valid"] += 1
        assert parses(parse, hand) and res.output.splitlines()[-1].endswith("allowed")
    else:
        message = one_line_error(res, "legal: bad")
        assert message and "\n" not in message


@FUZZ
@given(hand=notation, others=st.text(max_size=12))
def test_gt_odds_hands(hand, others):
    if parses(parse_pattern, hand):
        # a hand that parses would start a simulation: give the other seats a strategy that
        # is refused instead, before any deal is played
        if parses(parse_strategy_list, others):
            others = "no-such-strategy"
        message = one_line_error(
            invoke("gt-odds", "--hand", hand, "--others", others, "--quiet"),
            "gt-odds: bad --others",
        )
        assert message
    else:
        message = one_line_error(invoke("gt-odds", "--hand", hand, "--quiet"), "gt-odds: bad hand")
        assert message


@settings(FUZZ, max_examples=60)
@given(
    content=st.one_of(
        st.binary(max_size=60).map(lambda b: b.decode("latin-1")), anything.map(json.dumps)
    )
)
def test_gt_odds_bad_model_file(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("model") / "model.json"
    path.write_text(content, encoding="latin-1")
    message = one_line_error(
        invoke("gt-odds", "--hand", "A A K K Q Q J J", "--model", path), "gt-odds: bad model file"
    )
    assert "model" in message


@settings(FUZZ, max_examples=60)
@given(
    strategies=st.one_of(
        st.text(max_size=20), st.lists(identifier, min_size=2, max_size=6).map(",".join)
    ).filter(lambda t: not parses(lambda text: resolve(strategy_specs(text)), t)),
    command=st.sampled_from(["show", "simulate"]),
)
def test_show_and_simulate_strategies(strategies, command):
    message = one_line_error(
        invoke(
            command,
            "--strategies",
            strategies,
            "--rounds" if command == "simulate" else "--round",
            "1",
        ),
        f"{command}: bad --strategies",
    )
    assert "strateg" in message, message


# -- paths ---------------------------------------------------------------------------------


def test_paths_that_do_not_exist_or_cannot_be_written(tmp_path):
    cfg = tmp_path / "good.toml"
    cfg.write_text(toml_doc(VALID))
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty").mkdir()
    (tmp_path / "badrun").mkdir()
    (tmp_path / "badrun" / "manifest.json").write_text("{not json")
    unwritable = "/proc/tichusim-no-such/run"  # /proc refuses new entries even to root
    cases = [
        (("run", tmp_path / "nothing.toml"), "cannot read"),
        (("run", tmp_path / "empty"), ""),
        (("run", cfg, "--out", tmp_path / "afile"), "is a file"),
        (("run", cfg, "--out", unwritable, "--quiet"), "/proc/tichusim-no-such"),
        (("run", "--resume", tmp_path / "afile"), ""),
        (("run", "--resume", tmp_path / "badrun"), "unreadable"),
        (("report", tmp_path / "nothing"), "is not a directory"),
        (("report", tmp_path / "empty"), "holds no run"),
        (("report", tmp_path / "badrun"), "unreadable"),
        (("gt-table", "--run", tmp_path / "nothing"), "is not a directory"),
        (("gt-table", "--run", tmp_path / "badrun"), "unreadable"),
        (("verify", tmp_path / "nothing"), "not a run directory"),
        (("verify", tmp_path / "badrun"), "unreadable"),
        (("verify", tmp_path / "afile"), ""),
        (("gt-odds", "--hand", "A A K K Q Q J J", "--model", tmp_path / "nothing.json"), "model"),
        (("gt-odds", "--hand", "A A K K Q Q J J", "--model", tmp_path / "empty"), ""),
        (("simulate", "--rounds", "10", "--out", tmp_path / "afile"), "is a file"),
        (("simulate", "--rounds", "10", "--out", tmp_path / "badrun"), "holds other files"),
        (("gt-table", "--run", tmp_path / "empty"), "holds no run"),
        (("gt-table", "--deals", "5"), "--deals"),
        (("gt-table", "--run", tmp_path / "badrun", "--out", tmp_path / "afile"), "is a file"),
        (("compare", "heuristic"), "at least two"),
        (("compare", "heuristic", "no-such"), "no-such"),
        (("compare", "heuristic", "lowest", "--out", tmp_path / "empty"), "is a directory"),
        (("show", "--round", "-1"), "--round"),
        (("no-such-command",), "No such command"),
    ]
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    for args, expected in cases:
        message = one_line_error(invoke(*args), f"path: {args[0]}")
        assert expected in message, (args, message)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_directory_holding_a_different_run_is_refused_untouched(tmp_path):
    cfg = tmp_path / "a.toml"
    cfg.write_text(toml_doc(VALID))
    out = tmp_path / "run"
    assert invoke("run", cfg, "--out", out, "--quiet", "--workers", "1").exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for extra in (("--seed", "2"), ("--rounds", "99"), ("--games", "3")):
        message = one_line_error(
            invoke("run", cfg, "--out", out, "--quiet", *extra), "path: a different run"
        )
        assert "holds a different run" in message
    (tmp_path / "b.toml").write_text(toml_doc(VALID | {"strategies": "lowest"}))
    message = one_line_error(
        invoke("run", tmp_path / "b.toml", "--out", out, "--quiet"), "path: a different run"
    )
    assert "holds a different run" in message
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


# -- the real process: exit status and stderr, no traceback ---------------------------------


@pytest.mark.parametrize(
    "args, expected",
    [
        (["run", "{cfg}"], "not valid TOML"),
        (["run", "{tmp}/missing.toml"], "cannot read"),
        (["legal", "Ma 2j 2j"], "given twice"),
        (["gt-odds", "--hand", "Dr Ph A A A A A K"], "there are 4"),
        (["verify", "{tmp}"], "not a run directory"),
        (["run", "--resume", "{tmp}", "--workers", "0"], "--workers"),
    ],
)
def test_real_process_exit_status(tmp_path, args, expected):
    (tmp_path / "broken.toml").write_text("rounds = = 3\n")
    args = [a.format(cfg=tmp_path / "broken.toml", tmp=tmp_path) for a in args]
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "tichusim.cli", *args],
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    CASES["subprocess"] += 1
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tichusim: error: ") and expected in lines[0], (
        proc.stderr
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]
