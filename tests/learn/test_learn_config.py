"""The learn config and the ``tichusim learn`` command: every bad setting is one line naming
its key, before torch is looked for; the command runs the data generator, then the training
(going on from its checkpoint when run again), and writes the weights file; with
``[selfplay]`` that network then plays and labels a data set of its own and a second network
learns from both; without torch it says how to install it."""

import json
import sys
import types

import numpy as np
import pytest
from click.testing import CliRunner
from pydantic import field_validator
from support.real_decisions import labelled

from tichusim.cli import main
from tichusim.learn.config import ConfigError, TrainSettings, load_learn_config, validate
from tichusim.runs.settings import Strict

GOOD = """
[data]
rounds = 12

[train]
hidden = [16, 8]
epochs = 2
batch_size = 32
threads = 1

[output]
dir = "{dir}"
"""


# a league with nothing to play: nothing shipped at the target yet, no members (the league's
# own tests, test_league.py, play it)
NO_MEMBERS = "\n[league]\nmembers = []\n"


def _config(tmp_path, text=GOOD, name="learn.toml"):
    path = tmp_path / name
    path.write_text(text.format(dir=(tmp_path / "out").as_posix()))
    return path


def test_a_good_config(tmp_path):
    cfg = load_learn_config(_config(tmp_path))
    assert cfg.train.hidden == [16, 8] and cfg.train.epochs == 2
    assert cfg.train.value_weight == TrainSettings().value_weight  # defaults filled in
    assert cfg.data == {"rounds": 12}
    assert cfg.weights_path == tmp_path / "out" / "learned.npz"


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"train": {"epoch": 3}, "output": {"dir": "x"}},
            "train.epoch: unknown key (known: hidden,",
        ),
        ({"train": {"epochs": 0}, "output": {"dir": "x"}}, "train.epochs: input should be greater"),
        (
            {"train": {"epochs": "3"}, "output": {"dir": "x"}},
            "train.epochs: input should be a valid",
        ),
        ({"train": {"hidden": [16]}, "output": {"dir": "x"}}, "train.hidden: list should have at"),
        ({"train": {"hidden": [16, 0]}, "output": {"dir": "x"}}, "train.hidden.1: input should be"),
        ({"train": {"validation_share": 1.0}, "output": {"dir": "x"}}, "train.validation_share"),
        ({"train": {"learning_rate": -1.0}, "output": {"dir": "x"}}, "train.learning_rate"),
        ({"train": {}}, "output: missing (required)"),
        ({"output": {"dir": ""}}, "output.dir: an empty path"),
        (
            {"output": {"dir": "x"}, "extra": 1},
            "extra: unknown key (known: decision, data, train, selfplay, league, output)",
        ),
        ({"output": {"dir": "x"}, "data": 3}, "data: input should be a valid dictionary"),
    ],
)
def test_a_bad_setting_is_one_line_naming_its_key(data, message):
    with pytest.raises(ConfigError) as info:
        validate(data)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_a_bad_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_learn_config(tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_learn_config(_config(tmp_path, "[train\n"))


# --- the command, with a stand-in for the data generator -----------------------------------


class FakeSettings(Strict):
    rounds: int
    seed: int = 0
    variant: str = "nanjing"

    @field_validator("rounds")
    @classmethod
    def _rounds(cls, value):
        if value < 1:
            raise ValueError(f"at least 1, not {value}")
        return value


def _fake_data(calls):
    """A data module whose ``generate`` writes real decisions with learnable labels."""
    import pyarrow.parquet as pq

    from tichusim.learn.decisions import to_table

    def generate(settings, out_dir, progress=True):
        calls.append(settings)
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "decisions-00000.parquet"
        if not path.exists():
            pq.write_table(to_table(labelled(settings.rounds, settings.seed)), path)
        return [path]

    return types.SimpleNamespace(DataSettings=FakeSettings, generate=generate)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_learn_makes_the_weights_and_goes_on_when_run_again(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from tichusim.learn.model import read_weights

    calls = []
    monkeypatch.setitem(sys.modules, "tichusim.learn.data", _fake_data(calls))
    text = GOOD + 'weights = "{dir}/shipped/learned.npz"\n' + NO_MEMBERS
    config = _config(tmp_path, text)
    res = run("learn", str(config), "--quiet")
    assert res.exit_code == 0, res.output
    assert "weights written:" in res.output and "held-out regret" in res.output
    weights = read_weights(tmp_path / "out" / "learned.npz")
    assert weights["w1"].shape[1] == 16
    meta = weights["meta"]
    assert meta["config"]["train"]["hidden"] == [16, 8]
    assert meta["data"]["decisions"] > 100 and meta["metrics"]["regret"] >= 0
    shipped = tmp_path / "out" / "shipped" / "learned.npz"
    assert shipped.read_bytes() == (tmp_path / "out" / "learned.npz").read_bytes()
    for name in ("metrics.csv", "metrics.json", "loss.png", "checkpoint.pt"):
        assert (tmp_path / "out" / "train" / name).exists(), name
    assert len(json.loads((tmp_path / "out" / "train" / "metrics.json").read_text())["epochs"]) == 2
    # again: the data kept, the training finished, the same weights
    before = (tmp_path / "out" / "learned.npz").read_bytes()
    assert run("learn", str(config), "--quiet").exit_code == 0
    with np.load(tmp_path / "out" / "learned.npz") as again:
        assert np.array_equal(again["w1"], weights["w1"])
    assert (tmp_path / "out" / "learned.npz").read_bytes() == before
    assert len(calls) == 2


def test_learn_errors_are_one_line(tmp_path, monkeypatch):
    """Each before torch is looked for: the same lines where it is missing."""
    monkeypatch.setitem(sys.modules, "tichusim.learn.data", _fake_data([]))
    monkeypatch.setitem(sys.modules, "torch", None)
    cases = [
        (GOOD.replace("epochs = 2", "epochs = -2"), "train.epochs: input should be greater"),
        (GOOD.replace("rounds = 12", "rounds = 0"), "data.rounds: at least 1, not 0"),
        (
            GOOD.replace("rounds = 12", "round = 12"),
            "data.round: unknown key (known: rounds, seed, variant)",
        ),
        (GOOD.replace("rounds = 12", "seed = 1"), "data.rounds: missing (required)"),
    ]
    for i, (text, message) in enumerate(cases):
        res = run("learn", str(_config(tmp_path, text, f"c{i}.toml")), "--quiet")
        assert res.exit_code == 2, res.output
        assert res.output.startswith(f"tichusim: error: {message}"), res.output
        assert res.output.count("\n") == 1


def test_learn_without_torch_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tichusim.learn.data", _fake_data([]))
    for name in ("tichusim.learn.train", "tichusim.learn.model"):
        monkeypatch.delitem(sys.modules, name, raising=False)  # imported afresh
    monkeypatch.setitem(sys.modules, "torch", None)  # and `import torch` fails
    res = run("learn", str(_config(tmp_path)), "--quiet")
    assert res.exit_code == 2, res.output
    assert res.output == (
        "tichusim: error: learn: torch is not installed; install the learn extra: "
        "pip install -e '.[learn]'\n"
    )


def test_the_shipped_config_is_valid():
    """configs/learn.toml validates, and its [data] table is the data generator's (checked
    where the generator is installed)."""
    from pathlib import Path

    cfg = load_learn_config(Path(__file__).resolve().parents[2] / "configs" / "learn.toml")
    assert cfg.output.weights == "tichusim/strategies/weights/learned.npz"
    assert cfg.train.threads == 1
    data = pytest.importorskip("tichusim.learn.data")
    assert isinstance(cfg.data_settings(), data.DataSettings)
    selfplay = cfg.selfplay_settings()  # the package's network standing in for the first's
    assert isinstance(selfplay, data.DataSettings) and selfplay.behavior == "learned[pass=expert]"
    assert cfg.weights_path == cfg.out_dir / "selfplay" / "learned.npz"
    cfg.check_league()  # judged on held-out deals before it is copied


@pytest.mark.parametrize("table", ["tientsin", "wuwang"])
def test_each_tables_config_makes_the_package_network_of_that_table(table):
    """configs/learn-<table>.toml trains at that table and writes the file ``learned`` plays
    there (``strategies.learned.shipped``): Tientsin's its first stage alone, Wu Wang's with a
    self-play round; each judged by a league on held-out deals."""
    from pathlib import Path

    from tichusim.strategies import learned

    root = Path(__file__).resolve().parents[2]
    cfg = load_learn_config(root / "configs" / f"learn-{table}.toml")
    assert (root / cfg.output.weights).resolve() == learned.shipped(table).resolve()
    assert cfg.data["variant"] == table
    if table == "wuwang":
        assert cfg.weights_path == cfg.selfplay_dir / "learned.npz"
    else:
        assert cfg.selfplay is None and cfg.weights_path == cfg.first_weights_path
    assert learned.load(learned.shipped(table)).variant == table
    cfg.check_league()  # a league on held-out deals judges it
    assert cfg.league is not None and "expert" in cfg.league.members
    for path in cfg.league.previous:  # the previous networks are the package's tables'
        assert learned.load(root / path).variant == table


SELFPLAY = (
    GOOD.replace("rounds = 12", "rounds = 24\nshard_rounds = 12")
    + """
[selfplay]
rounds = 12
seed = 5
shard_rounds = 6
"""
)


def test_learn_with_a_self_play_round(tmp_path):
    """The first network plays and labels the self-play data (its identity in the data's
    strategy rows), a second network learns from both data sets, and that one is the
    finished file; run again, everything is kept."""
    pytest.importorskip("torch")
    from tichusim.learn.data import generate, read_decisions
    from tichusim.learn.model import read_weights
    from tichusim.strategies.learned import identity

    text = SELFPLAY.replace("[output]", '[output]\nweights = "{dir}/shipped/learned.npz"')
    text += NO_MEMBERS
    config = _config(tmp_path, text)
    res = run("learn", str(config), "--quiet")
    assert res.exit_code == 0, res.output
    out = tmp_path / "out"
    first, second = read_weights(out / "learned.npz"), read_weights(out / "selfplay/learned.npz")
    assert (out / "shipped/learned.npz").read_bytes() == (out / "selfplay/learned.npz").read_bytes()
    assert "weights written:" in res.output and "selfplay/learned.npz" in res.output
    assert not np.array_equal(first["w1"], second["w1"])
    assert second["meta"]["first_stage"] == identity(first)
    manifest = json.loads((out / "selfplay/data/manifest.json").read_text())["settings"]
    played_by = f"learned[weights={(out / 'learned.npz').as_posix()},pass=expert]"
    assert manifest["behavior"] == manifest["rollout"] == played_by
    assert (manifest["rounds"], manifest["seed"], manifest["variant"]) == (12, 5, "nanjing")
    # the self-play data is what that network plays, generated on its own
    cfg = load_learn_config(config)
    alone = generate(cfg.selfplay_settings(out / "learned.npz"), tmp_path / "alone", progress=False)
    kept = sorted((out / "selfplay/data").glob("decisions-*.parquet"))
    assert [p.read_bytes() for p in kept] == [p.read_bytes() for p in alone]
    both = sorted((out / "data").glob("decisions-*.parquet"))
    sizes = [len(read_decisions(paths).decision) for paths in (kept, both)]
    assert second["meta"]["data"]["decisions"] == sum(sizes) and min(sizes) > 0
    assert first["meta"]["data"]["decisions"] == sizes[1]
    # the rounds of both: round 3 of the self-play seed is not round 3 of the first data's
    played = len(set(read_decisions(kept).round))
    assert second["meta"]["data"]["rounds"] == first["meta"]["data"]["rounds"] + played
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert run("learn", str(config), "--quiet").exit_code == 0
    # the same files; the league judged again, the network it copied now the one shipped
    verdict = out / "selfplay" / "league.md"
    assert "the file shipped is this network" in verdict.read_text()
    assert "no network is shipped there yet" in before.pop(verdict).decode()
    before.pop(verdict.with_suffix(".json"))
    league = {verdict, verdict.with_suffix(".json")}
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p not in league} == before


@pytest.mark.parametrize(
    "table, message",
    [
        ("rounds = 10\nbehavior = 'expert'", "selfplay.behavior: set by the first stage"),
        ("rounds = 10\nvariant = 'tientsin'", "selfplay.variant: set by the first stage"),
        ("seed = 3", "selfplay.rounds: missing (required)"),
        ("rounds = 10\nround = 3", "selfplay.round: unknown key (known: rounds, seed, label_rate,"),
        ("rounds = 10\nlabel_rate = 2.0", "selfplay.label_rate: "),
    ],
)
def test_a_bad_self_play_table_is_one_line_before_anything_runs(tmp_path, table, message):
    text = GOOD + f"\n[selfplay]\n{table}\n"
    res = run("learn", str(_config(tmp_path, text)), "--quiet")
    assert res.exit_code == 2, res.output
    assert res.output.startswith(f"tichusim: error: {message}"), res.output
    assert res.output.count("\n") == 1
    assert not (tmp_path / "out").exists()  # nothing made
