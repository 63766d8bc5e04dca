"""`tichusim run` refuses a bad config or output directory before anything runs: one line
naming the key, exit status 2, no traceback, nothing written."""

import json

import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim.cli import main
from tichusim.runs.config import ConfigError, load_config, validate

GOOD = 'rounds = 1000\nseed = 1\nstrategies = "random"\n'

BAD = [
    ("rounds = 10\nstrategies = 'random'\nrouns = 5\n", "rouns: unknown key"),
    ("rounds = '10'\nstrategies = 'random'\n", "rounds: input should be a valid integer"),
    ("rounds = 10.5\nstrategies = 'random'\n", "rounds: input should be a valid integer"),
    ("rounds = 0\nstrategies = 'random'\n", "rounds: input should be greater than 0"),
    ("rounds = 10\n", "strategies: missing"),
    ("rounds = 10\nstrategies = 'randm'\n", "strategies.0: unknown strategy 'randm'"),
    ("rounds = 10\nstrategies = ['random', 'lowest']\n", "strategies: give one strategy or a list"),
    (
        (
            "rounds = 10\nstrategies = ['random', 'lowest', { base = 'heuristic', params = "
            "{ bomb_eagerness = 0.5 } }, 'random']\n"
        ),
        "strategies.2: strategy params: unknown parameter",
    ),
    (
        (
            "rounds = 10\nstrategies = ['random', { base = 'heuristic', pass = 'best' }, 'random', "
            "'random']\n"
        ),
        "strategies.1: strategy pass: unknown policy 'best'",
    ),
    ("rounds = 10\nstrategies = 'random'\nseed = -1\n", "seed: input should be greater"),
    ("rounds = 10\nstrategies = 'random'\nmode = 'game'\n", "mode: input should be 'rounds' or"),
    ("rounds = 10\nstrategies = 'random'\nvariant = 'tichu6'\n", "variant: unknown variant"),
    ("games = 10\nstrategies = 'random'\n", 'games: only with mode = "games"'),
    ("mode = 'games'\nstrategies = 'random'\n", "games: missing"),
    ("rounds = 10\nstrategies = 'random'\ntarget = 500\n", 'target: only with mode = "games"'),
    ("rounds = 10\nstrategies = 'random'\nshard_size = 5_000_000\n", "shard_size: at most"),
    ("rounds = 10\nstrategies = 'random'\n[dask]\nadress = 'local'\n", "dask.adress: unknown key"),
    (
        "rounds = 10\nstrategies = 'random'\n[dask]\naddress = 'tcp://x:1'\nn_workers = 2\n",
        "dask.n_workers: only with address",
    ),
    ("rounds = 10\nstrategies = 'random'\nout = 3\n", "out: input should be a valid string"),
    ("rounds = = 10\n", "not valid TOML"),
]


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(res) -> str:
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    assert lines[0].startswith("tichusim: error: "), lines[0]
    return lines[0].removeprefix("tichusim: error: ")


@pytest.mark.parametrize("text, expected", BAD)
def test_bad_config_is_one_line_exit_2_and_writes_nothing(tmp_path, text, expected):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    message = one_line_error(invoke("run", cfg, "--out", tmp_path / "out", "--quiet"))
    assert expected in message, message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_bad_command_lines(tmp_path):
    cfg = tmp_path / "good.toml"
    cfg.write_text(GOOD)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    cases = [
        (("run",), "config: give a CONFIG file"),
        (("run", tmp_path / "missing.toml"), "cannot read"),
        (("run", cfg, "--rounds", "10", "--games", "2"), "--rounds and --games: give one"),
        (("run", cfg, "--rounds", "0"), "--rounds"),
        (("run", cfg, "--workers", "x"), "--workers"),
        (("run", cfg, "--resume", tmp_path / "r"), "--resume: a run resumes as configured"),
        (("run", "--resume", tmp_path / "nothing"), "not a run directory"),
        (("run", cfg, "--out", tmp_path / "other"), "is not empty and holds no run"),
        (("run", cfg, "--out", cfg), "is a file"),
    ]
    for args, expected in cases:
        message = one_line_error(invoke(*args))
        assert expected in message, (args, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.toml", "other"]
    assert [p.name for p in (tmp_path / "other").iterdir()] == ["notes.txt"]


def test_out_holding_a_different_run_is_refused(tmp_path):
    cfg = tmp_path / "good.toml"
    cfg.write_text(GOOD)
    out = tmp_path / "out"
    assert invoke("run", cfg, "--out", out, "--quiet", "--workers", "1").exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    message = one_line_error(invoke("run", cfg, "--out", out, "--seed", "2", "--workers", "1"))
    assert "holds a different run" in message and f"--resume {out}" in message
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    # the same run again is continued: nothing left to play, data untouched
    res = invoke("run", cfg, "--out", out, "--workers", "1")
    assert res.exit_code == 0 and "0 shards played" in res.output, res.output
    data = {p: b for p, b in before.items() if p.suffix == ".parquet"}
    assert {p: p.read_bytes() for p in data} == data


def test_overrides_and_defaults(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        'mode = "games"\ngames = 30\ntarget = 500\nstrategies = "lowest"\n'
        'shard_size = 7\nout = "x"\n'
    )
    c = load_config(cfg)
    assert (c.count, c.shard, c.n_shards, c.shard_span(4)) == (30, 7, 5, (28, 2))
    assert c.strategies == ["lowest"] * 4
    r = c.with_overrides(rounds=100, seed=9)
    assert (r.mode, r.rounds, r.games, r.seed, r.shard, r.out) == ("rounds", 100, None, 9, 100, "x")
    assert "target" not in r.to_json()
    g = c.with_overrides(games=12)
    assert (g.mode, g.games, g.target, g.shard) == ("games", 12, 500, 7)
    # the hash covers what decides the data, not where or how it runs
    assert c.with_overrides(out="elsewhere", dask="local").hash == c.hash
    assert c.with_overrides(seed=1).hash != c.hash
    same = validate(json.loads(json.dumps(c.to_json())))
    assert same == c and same.hash == c.hash


def test_strategy_tables_pass_through_to_resolve():
    spec = {"base": "heuristic", "pass": "lowest", "params": {"bomb_points": 20}}
    c = validate({"rounds": 5, "strategies": ["random", spec, "lowest", "random"]})
    assert c.strategies[1] == spec
    assert c.resolved()[1].policy("pass") == "lowest"
    with pytest.raises(ConfigError) as exc:
        validate({"rounds": 5, "strategies": ["random", spec | {"params": {"nope": 1}}, "x", "y"]})
    assert exc.value.key == "strategies.1"


def test_strategy_objects_become_tables():
    from tichusim.strategies.tichu import resolve

    mine = resolve({"base": "heuristic", "wish": "none", "params": {"bomb_points": 30}}, 1)[0]
    c = validate({"rounds": 5, "strategies": [mine, "random", mine, "random"]})
    assert isinstance(c.strategies[0], dict) and c.resolved()[0] == mine
    assert validate(json.loads(json.dumps(c.to_json()))).hash == c.hash


def test_progress_bar_and_quiet(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(GOOD + "shard_size = 250\n")
    res = invoke("run", cfg, "--out", tmp_path / "a", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert " rounds/s]" in res.output and "100%|" in res.output  # the bar, then the summary
    assert "1,000 rounds in" in [line for line in res.output.splitlines() if line.strip()][-1]
    res = invoke("run", cfg, "--out", tmp_path / "b", "--workers", "1", "--quiet")
    assert res.exit_code == 0 and res.output == ""


def test_every_variants_strategy_objects_become_tables():
    """A Grand Seigneur strategy object (RULES.md §5 decisions) saves as the table that
    rebuilds it, as a Tichu one does; the config is checked per player of the variant."""
    from tichusim.strategies.seigneur import resolve as resolve_seigneur

    mine = resolve_seigneur(
        {"base": "heuristic", "give_back": "lowest", "params": {"endgame": 5}}, 1
    )[0]
    c = validate(
        {
            "variant": "grand-seigneur",
            "players": 6,
            "rounds": 10,
            "strategies": [mine, "random"] * 3,
        }
    )
    assert c.strategies[0]["give_back"] == "lowest" and c.resolved()[0] == mine
    assert validate(json.loads(json.dumps(c.to_json()))).hash == c.hash
    with pytest.raises(ConfigError) as exc:
        validate({"variant": "tientsin", "rounds": 10, "strategies": [mine] * 6})
    assert exc.value.key == "strategies.0" and "strategy" in exc.value.problem
