"""Python agents wherever a strategy goes: the examples through simulate and
compare, run configs (validation, shards, workers, failures, --resume), the odds commands."""

import json
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

import tichusim
from tichusim.cli import main
from tichusim.games.agents import AgentError
from tichusim.runs.config import ConfigError, validate
from tichusim.runs.runner import run

ROOT = Path(__file__).resolve().parents[1]
DOG = f"{ROOT}/examples/dog_passer.py:DogPasser"
FIRST = f"{ROOT}/examples/first_legal.py:FirstLegal"

FLAKY = '''
from tichusim import Agent

BROKEN = {broken}


class Flaky(Agent):
    """First legal play; while BROKEN, fails at about one play decision in 5000."""

    def play(self, view, legal):
        if view.random.random() < 0.0002 and BROKEN:
            raise ValueError("flaky")
        return legal[0]
'''


def frame(run_dir, table):
    """A run's table without the columns naming the run and the shard."""
    t = ds.dataset(Path(run_dir) / table, format="parquet").to_table()
    df = t.to_pandas()
    df = df.drop(columns=[c for c in ("run_id", "shard") if c in df])
    return df.sort_values([c for c in ("round", "seat") if c in df]).reset_index(drop=True)


def parts(run_dir):
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(Path(run_dir).glob("*/part-*.parquet"))
    }


@pytest.mark.parametrize("path", [DOG, FIRST])
def test_examples_play_through_simulate(path):
    rounds, seats = tichusim.simulate(200, seed=3, strategies=[{"agent": path}, "heuristic"] * 2)
    name = path.rsplit(":", 1)[1]
    assert set(seats["strategy"]) == {name, "heuristic"} and len(rounds) == 200
    again = tichusim.simulate(200, seed=3, strategies=[{"agent": path}, "heuristic"] * 2)[0]
    assert rounds.equals(again)  # reproducible: the agents draw from view.random only


def test_dog_passer_passes_as_it_says():
    """The Dog goes to the right opponent, the next seat, when held (RULES.md §2.1, §2.4)."""
    _, seats = tichusim.simulate(200, seed=1, strategies=[{"agent": DOG}, "heuristic"] * 2)
    me = seats[seats["strategy"] == "DogPasser"]
    dog = tichusim.cards.DOG
    assert (me["given_right"] == dog).sum() > 10
    assert not ((me["given_partner"] == dog) | (me["given_left"] == dog)).any()


@pytest.mark.parametrize("path", [DOG, FIRST])
def test_examples_through_compare(path):
    res = CliRunner().invoke(
        main, ["compare", f"agent:{path}", "heuristic", "--deals", "200", "--quiet"]
    )
    assert res.exit_code == 0, res.output
    name = path.rsplit(":", 1)[1]
    assert f"| {name} |" in res.output and f"agent:{path}" in res.output


def test_first_legal_loses_to_heuristic():
    """A complete agent taking every decision really plays them: it loses clearly."""
    from tichusim.analysis.duplicate import duplicate

    res = duplicate({"agent": FIRST}, "heuristic", 200, seed=2)
    assert res.a == "FirstLegal" and res.diff.high < 0


def test_compare_agent_that_cannot_be_imported_exits_2():
    res = CliRunner().invoke(
        main, ["compare", "agent:no_such_module:X", "heuristic", "--deals", "10"]
    )
    assert res.exit_code == 2
    assert "cannot be imported" in res.output and "Traceback" not in res.output


def test_simulate_agent_failing_exits_1_with_the_replay_command(tmp_path):
    (tmp_path / "flaky.py").write_text(FLAKY.format(broken=True))
    res = CliRunner().invoke(
        main,
        [
            "simulate",
            "--rounds",
            "2000",
            "--seed",
            "5",
            "--strategies",
            f"agent:{tmp_path}/flaky.py:Flaky,heuristic,heuristic,heuristic",
        ],
    )
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    line = res.output.strip().splitlines()[-1]  # after a cold cache's compile notice
    assert "agent 'Flaky' failed at play (seed 5 round key" in line
    key = int(line.split("round key ")[1].split(",")[0])
    assert line.endswith(
        f"replay the deal: tichusim show --seed 5 --round {key} --strategies "
        f"agent:{tmp_path}/flaky.py:Flaky,heuristic,heuristic,heuristic"
    )
    again = CliRunner().invoke(main, line.split("replay the deal: tichusim ")[1].split())
    assert again.exit_code == 1  # the same failure, after any compile notice
    assert again.output.strip().splitlines()[-1].startswith(line.split("; replay")[0])


def test_odds_take_agents():
    """gt-odds: an agent at the hand keeps its decisions but the Grand Tichu call; agents
    among the others."""
    from tichusim.analysis.gtodds import gt_odds

    a = gt_odds(
        "Dr Ph A A K K Q J", deals=200, seat_strategy={"agent": DOG}, others={"agent": FIRST}
    )
    assert a.strategies[0] == "DogPasser" and "FirstLegal" in a.strategies[1:]
    res = CliRunner().invoke(
        main,
        [
            "tichu-odds",
            "--hand",
            "Dr Ph Aj As K K Q J T 9 7 5 3 2",
            "--rounds",
            "200",
            "--seat-strategy",
            f"agent:{DOG}",
            "--quiet",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["strategies"][0] == "DogPasser"


# -- run configs ------------------------------------------------------------------------


def config(**changes):
    return {
        "rounds": 600,
        "seed": 9,
        "shard_size": 300,
        "strategies": [{"agent": DOG}, "heuristic", {"agent": FIRST, "params": {}}, "heuristic"],
    } | changes


def test_config_accepts_agent_tables_and_keeps_them():
    cfg = validate(config())
    assert cfg.strategies[0] == {"agent": DOG} and cfg.strategies[2] == {"agent": FIRST}
    assert validate(json.loads(json.dumps(cfg.to_json()))).hash == cfg.hash


@pytest.mark.parametrize(
    "bad, key, words",
    [
        ({"agent": DOG, "agnet": 1}, "strategies.1.agnet", "unknown key"),
        ({"agent": DOG, "params": 3}, "strategies.1.params", "table"),
        ({"agent": "no_such_module:X"}, "strategies.1", "cannot be imported"),
        ({"agent": f"{ROOT}/examples/dog_passer.py:Nope"}, "strategies.1", "cannot be imported"),
        ({"agent": "tichusim.games.agents:Without"}, "strategies.1", "cannot be built"),
    ],
)
def test_config_refuses_bad_agent_tables(bad, key, words):
    strategies = ["heuristic", bad, "heuristic", "heuristic"]
    with pytest.raises(ConfigError) as err:
        validate(config(strategies=strategies))
    assert err.value.key == key and words in err.value.problem


def test_cli_config_error_writes_nothing(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(
        'rounds = 10\nstrategies = ["heuristic", {agent = "nope:X"}, "heuristic", '
        f'"heuristic"]\nout = "{tmp_path}/out"\n'
    )
    res = CliRunner().invoke(main, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 2
    assert res.output.startswith("tichusim: error: strategies.1: agent 'nope:X' cannot be")
    assert not (tmp_path / "out").exists()


def test_agent_instances_in_a_run_become_their_tables():
    from importlib import import_module  # noqa: F401

    spec = validate(config(strategies=tichusim.games.agents.load_agent(DOG)))
    assert spec.strategies == [{"agent": DOG}] * 4

    class Local(tichusim.Agent):
        pass

    with pytest.raises(ConfigError, match="no worker or resumed run can import it"):
        validate(config(strategies=Local()))


@pytest.mark.slow
def test_runs_with_agents_are_the_same_however_split(tmp_path):
    """Same seed: the same data in one shard or two, the same bytes with 1 or 2 workers."""
    one = run(config(shard_size=600), out=tmp_path / "one", workers=1, progress=False)
    two = run(config(), out=tmp_path / "two", workers=1, progress=False)
    procs = run(config(), out=tmp_path / "procs", workers=2, progress=False)
    assert (one.played, two.played, procs.played) == (1, 2, 2)
    assert procs.backend == "2 local processes"  # agents hold the GIL: not threads
    for table in ("rounds", "seats"):
        assert frame(one.run_dir, table).equals(frame(two.run_dir, table))
    assert parts(two.run_dir) == parts(procs.run_dir)
    seats = frame(two.run_dir, "seats")
    assert {"DogPasser", "FirstLegal", "heuristic"} <= set(seats["strategy"])


def test_failed_agent_then_fixed_resumes_to_the_clean_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    agent = tmp_path / "flaky.py"
    strategies = [{"agent": "flaky.py:Flaky"}, "heuristic", "heuristic", "heuristic"]
    cfg = {"rounds": 1200, "seed": 21, "shard_size": 100, "strategies": strategies}
    agent.write_text(FLAKY.format(broken=False))
    clean = run(cfg, out=tmp_path / "clean", workers=1, progress=False)
    agent.write_text(FLAKY.format(broken=True))
    with pytest.raises(AgentError) as err:
        run(cfg, out=tmp_path / "broken", workers=1, progress=False)
    message = str(err.value)
    assert "agent 'Flaky' failed at play (seed 21 round key" in message
    assert message.endswith(f"fix the agent, then tichusim run --resume {tmp_path / 'broken'}")
    manifest = json.loads((tmp_path / "broken" / "manifest.json").read_text())
    done = [s for s in manifest["shards"] if s["state"] == "done"]
    assert 0 < len(done) < 12  # it failed part of the way, the finished shards kept
    assert len(parts(tmp_path / "broken")) == 2 * len(done)  # nothing half-written
    agent.write_text(FLAKY.format(broken=False))
    res = CliRunner().invoke(
        main, ["run", "--resume", str(tmp_path / "broken"), "--quiet", "--workers", "1"]
    )
    assert res.exit_code == 0, res.output
    assert parts(tmp_path / "broken").keys() == parts(clean.run_dir).keys()
    for table in ("rounds", "seats"):
        assert frame(tmp_path / "broken", table).equals(frame(clean.run_dir, table))


def test_cli_run_agent_failure_exits_1(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flaky.py").write_text(FLAKY.format(broken=True))
    (tmp_path / "r.toml").write_text(
        "rounds = 1200\nseed = 21\nshard_size = 100\nstrategies = "
        '[{agent = "flaky.py:Flaky"}, "heuristic", "heuristic", '
        '"heuristic"]\nout = "out"\n'
    )
    res = CliRunner().invoke(main, ["run", "r.toml", "--quiet", "--workers", "1"])
    assert res.exit_code == 1
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert "tichusim show --seed 21 --round" in res.output and "--resume out" in res.output
    assert "--strategies agent:flaky.py:Flaky,heuristic,heuristic,heuristic;" in res.output


def test_show_replays_a_round_an_agent_played():
    """``tichusim show`` steps the agents as simulate does: the transcript ends with the
    round's score in simulate's table."""
    strategies = f"agent:{FIRST},heuristic,heuristic,heuristic"
    res = CliRunner().invoke(
        main, ["show", "--seed", "3", "--round", "5", "--strategies", strategies]
    )
    assert res.exit_code == 0, res.output
    assert "seat 0 FirstLegal" in res.output
    rounds, _ = tichusim.simulate(6, seed=3, strategies=[{"agent": FIRST}] + ["heuristic"] * 3)
    row = rounds.iloc[5]
    assert f"score team 0: {row.score_team0}, team 1: {row.score_team1}" in res.output
