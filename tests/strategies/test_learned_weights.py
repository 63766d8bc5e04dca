"""The ``learned`` strategy (``tichusim/strategies/learned.py``): a weights file is checked,
each problem one line naming the file (through the command line: exit status 2, no
traceback); its identity names the weights in the strategy's table and in a run's identity;
its text reads back; it composes with other policies, steps from Python and plays a search's
rollouts."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines
from support.learned_weights import random_arrays, write_weights

import tichusim
from tichusim import Round
from tichusim.cli import main
from tichusim.games import game
from tichusim.games.strategy_text import parse_strategy
from tichusim.kernels.tichu import learned as kernel_learned
from tichusim.runs.config import validate
from tichusim.strategies import learned, passnet
from tichusim.strategies.tichu import STRATEGIES, resolve


@pytest.fixture
def weights(tmp_path) -> Path:
    return write_weights(tmp_path / "w.npz", 16, 8, seed=1)


def _one_line(args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    assert lines[0].startswith("tichusim: error: ")
    return lines[0]


def _bad_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each bad weights file, with the words its error says."""
    text = tmp / "text.npz"
    text.write_text("not an archive")
    torn = write_weights(tmp / "torn.npz")
    torn.write_bytes(torn.read_bytes()[:300])
    npy = tmp / "one.npz"
    with npy.open("wb") as f:
        np.save(f, np.zeros(3, np.float32))
    return {
        "missing": (tmp / "nowhere.npz", "not found"),
        "text": (text, "not a readable .npz"),
        "torn": (torn, "weights file"),
        "npy": (npy, "not an .npz"),
        "no_w2": (write_weights(tmp / "no_w2.npz", w2=None), "missing w2"),
        "dtype": (
            write_weights(tmp / "f64.npz", b1=np.zeros(16, np.float64)),
            "b1 is float64, expected float32",
        ),
        "shape": (write_weights(tmp / "shape.npz", b2=np.zeros(9, np.float32)), "b2 has shape"),
        "layout": (write_weights(tmp / "layout.npz", layout_hash=np.array("0123abcd")), "encoding"),
        "format": (write_weights(tmp / "format.npz", format=np.array(2)), "format 2"),
        "large": (write_weights(tmp / "large.npz", 200, 8), "too large"),
        "nan": (
            write_weights(tmp / "nan.npz", b3=np.array([np.nan], np.float32)),
            "non-finite",
        ),
    }


def test_each_bad_weights_file_is_one_line_through_the_cli(tmp_path):
    for name, (path, words) in _bad_files(tmp_path).items():
        line = _one_line(["simulate", "--rounds", 5, "--strategies", f"learned[weights={path}]"])
        assert str(path) in line and words in line, (name, line)
        with pytest.raises(learned.WeightsError, match="weights file"):
            learned.load(path)


def test_learned_without_the_shipped_weights_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(learned, "SHIPPED", tmp_path / "learned.npz")
    line = _one_line(["simulate", "--rounds", 5, "--strategies", "learned"])
    assert "learned.npz" in line and "missing" in line
    write_weights(tmp_path / "learned.npz", 8, 4)
    rounds = game("nanjing").records(20, seed=1, strategies="learned").rounds
    assert (rounds["error"] == 0).all()


def test_identity_is_of_the_arrays_not_the_file(tmp_path):
    a = write_weights(tmp_path / "a.npz", 8, 4, seed=3)
    b = write_weights(tmp_path / "b.npz", 8, 4, seed=3, meta=np.array('{"other": 1}'))
    c = write_weights(tmp_path / "c.npz", 8, 4, seed=4)
    ids = [learned.load(p).identity for p in (a, b, c)]
    assert ids[0] == ids[1] != ids[2] and len(ids[0]) == 16
    assert ids[0] == learned.identity(random_arrays(8, 4, seed=3))


def test_names_read_back_and_tables_carry_the_identity(weights):
    for text in (
        f"learned[weights={weights}]",
        f"expert:play=learned,weights={weights}",
        f"learned:weights={weights},pass=lowest,tichu=never",
    ):
        s = parse_strategy(text)
        assert s.play == "learned" and s.weights == str(weights)
        assert parse_strategy(s.name) == s
        table = s.to_dict()
        assert table["weights_id"] == learned.load(weights).identity
        assert resolve(table, 1)[0].param_row().tobytes() == s.param_row().tobytes()
    with pytest.raises(ValueError, match="only play with play=learned"):
        parse_strategy(f"expert[weights={weights}]")


def _replace(path: Path, seed: int) -> None:
    """Other weights at ``path``, as a tool saving them writes them: a new file moved in."""
    write_weights(path.with_suffix(".new.npz"), 8, 4, seed=seed).replace(path)


def test_a_table_saved_with_other_weights_is_refused(weights):
    table = parse_strategy(f"learned[weights={weights}]").to_dict()
    _replace(weights, 99)  # the file now holds other weights
    with pytest.raises(ValueError, match="the weights file changed"):
        resolve(table, 1)


def test_two_weight_files_make_two_runs(tmp_path):
    a = write_weights(tmp_path / "a.npz", 8, 4, seed=1)
    b = write_weights(tmp_path / "b.npz", 8, 4, seed=2)
    config = {"rounds": 10, "seed": 1}
    runs = [validate(config | {"strategies": f"learned[weights={p}]"}) for p in (a, b)]
    before = runs[0].hash
    assert before != runs[1].hash
    pass_net = f"pass:{passnet.load(passnet.SHIPPED).identity}"  # the package's pass network
    assert runs[0].data_dict()["weights"] == [[learned.load(a).identity, pass_net]] * 4
    same = validate(config | {"strategies": f"learned[weights={tmp_path / 'a.npz'}]"})
    assert same.hash == before
    plain = validate(config | {"strategies": "expert"})
    assert "weights" not in plain.data_dict()  # the runs of the other strategies unchanged
    _replace(a, 5)  # the same path, other weights: another run
    assert validate(config | {"strategies": f"learned[weights={a}]"}).hash != before
    assert runs[0].hash != before  # a run resumed with the file changed is another run


def test_composition_plays_the_learned_plays_and_the_other_policies(weights):
    g = game("nanjing")
    text = f"learned:weights={weights},pass=lowest"
    rec = g.records(200, seed=4, strategies=text, check=True)
    assert (rec.rounds["error"] == 0).all()
    plain = g.records(200, seed=4, strategies=f"learned[weights={weights}]")
    assert rec.seats["given"].tobytes() != plain.seats["given"].tobytes()
    mixed = g.records(
        200, seed=4, strategies=[f"expert:play=learned,weights={weights}", "expert"] * 2
    )
    assert (mixed.rounds["error"] == 0).all()


def test_a_round_steps_with_learned_seats(weights):
    text = f"learned[weights={weights}]"
    r = Round(seed=2, key=5, strategies=[text, None, text, None])
    pick = tichusim.strategy(text)
    r.advance()
    while not r.done:
        r.act(pick.decide(r.view(), r.legal()))
        r.advance()
    stepped = r.tables()[0]
    alone = tichusim.simulate(6, seed=2, strategies=text)[0].iloc[5]
    assert stepped.iloc[0]["score_team0"] == alone["score_team0"]


def test_search_rollouts_play_the_learned_strategy(weights):
    """``search:rollout=learned[...]``: the rollouts carry the model (their margins differ
    from expert's rollouts on the same deals) and a round with a searching seat plays."""
    from tichusim.search.evaluate import evaluate_plays

    r = Round(seed=1, key=0, strategies=None)
    pick = tichusim.strategy("expert")
    r.advance()
    while not (r.decision == "play" and len(r.legal()) > 2):
        r.act(pick.decide(r.view(), r.legal()))
        r.advance()
    view, legal = r.view(), r.legal()
    text = f"learned[weights={weights}]"
    by_model = evaluate_plays(view, legal[:3], samples=4, seed=1, rollout=text)
    again = evaluate_plays(view, legal[:3], samples=4, seed=1, rollout=text)
    by_expert = evaluate_plays(view, legal[:3], samples=4, seed=1, rollout="expert")
    assert np.array_equal(by_model.margin, again.margin)
    assert not np.array_equal(by_model.margin, by_expert.margin)
    searching = f"search:samples=2,candidates=2,rollout={text}"
    rounds, _ = tichusim.simulate(1, seed=3, strategies=[searching, "expert", "expert", "expert"])
    assert len(rounds) == 1  # a failed round raises


def test_learned_is_a_named_strategy():
    assert STRATEGIES["learned"].play == "learned"
    assert STRATEGIES["learned"].policy("pass") == "learned"  # the pass network (passnet.py)
    for decision in ("grand_tichu", "tichu", "wish", "dragon", "dog"):
        assert STRATEGIES["learned"].policy(decision) == STRATEGIES["expert"].policy(decision)
    assert STRATEGIES["learned"].params == STRATEGIES["expert"].params


def _parts(run_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(run_dir).as_posix(): p.read_bytes()
        for p in sorted(run_dir.glob("*/part-*.parquet"))
    }


def test_a_run_gives_the_same_bytes_on_one_worker_or_two_threads(weights, tmp_path):
    from tichusim.runs.runner import run

    config = {"rounds": 600, "seed": 4, "shard_size": 150}
    config["strategies"] = [f"learned[weights={weights}]", "expert"] * 2
    run(config, out=tmp_path / "one", workers=1, progress=False)
    two = run(config, out=tmp_path / "two", workers=2, progress=False)
    assert two.backend == "2 threads"
    assert _parts(tmp_path / "one") == _parts(tmp_path / "two")


@pytest.mark.slow
def test_worker_processes_load_the_weights_and_give_the_same_bytes(weights, tmp_path):
    """A Python agent at the table makes the workers processes: each reads the weights file
    itself (``learned.load``) and plays the same bytes."""
    from tichusim.runs.runner import run

    root = Path(__file__).resolve().parents[2]
    agent = {"agent": f"{root}/examples/first_legal.py:FirstLegal"}
    config = {"rounds": 60, "seed": 4, "shard_size": 20}
    config["strategies"] = [f"learned[weights={weights}]", agent] * 2
    run(config, out=tmp_path / "one", workers=1, progress=False)
    two = run(config, out=tmp_path / "two", workers=2, progress=False)
    assert two.backend == "2 local processes"
    assert _parts(tmp_path / "one") == _parts(tmp_path / "two")


def test_weights_trained_at_another_table_are_played_with_a_warning(tmp_path):
    # a network knows the table it learned at: played at another it plays weakly, and says so
    import json
    import warnings

    from tichusim.strategies.learned import OtherTableWarning
    from tichusim.strategies.tichu import resolve

    meta = {"config": {"data": {"rounds": 10}}}  # the training's config: Nanjing by default
    path = write_weights(tmp_path / "w.npz", meta=np.array(json.dumps(meta)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resolve(f"learned[weights={path}]", 4, variant="nanjing")
    with pytest.warns(OtherTableWarning, match="trained at nanjing, not tientsin"):
        resolve(f"learned[weights={path}]", 6, variant="tientsin")
    # the command line says it once, in one line, and plays
    args = ["simulate", "--variant", "tientsin", "--rounds", "2"]
    said = CliRunner().invoke(main, [*args, "--strategies", f"learned[weights={path}]"])
    assert said.exit_code == 0, said.output
    notices = [line for line in said.stderr.splitlines() if "warning" in line]
    assert len(notices) == 1, said.stderr
    assert notices[0].startswith("tichusim: warning: strategy 'learned[weights=")
    assert "its network was trained at nanjing, not tientsin" in notices[0]
    # a file that does not say where it learned plays without a word
    plain = write_weights(tmp_path / "plain.npz")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        resolve(f"learned[weights={plain}]", 6, variant="tientsin")


@pytest.mark.parametrize("variant, seats", [("tientsin", 6), ("wuwang", 3)])
def test_each_team_table_plays_its_own_network_without_a_warning(variant, seats, recwarn):
    """The package ships a network per team table (RULES.md §3, §4), trained there: the
    ``learned`` strategy plays it at its table, names it in the kernels' row and in the run's
    identity, and says nothing; the 4-player game keeps its own."""
    import warnings

    own = learned.shipped(variant)
    assert own != learned.SHIPPED and own.is_file()
    weights = learned.load(own)
    assert weights.variant == variant  # its training's table, as its config says
    nanjing = learned.load(learned.SHIPPED)
    assert weights.identity != nanjing.identity and nanjing.variant in (None, "nanjing")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        strategy = resolve("learned", seats, variant=variant)[0]
        rounds, _ = tichusim.simulate(20, seed=3, variant=variant, strategies="learned")
    assert (rounds["strategy0"] == "learned").all()
    row = strategy.param_row(variant)
    assert kernel_learned.row_identity(row) == kernel_learned.identity_number(weights.identity)
    assert kernel_learned.row_identity(strategy.param_row("nanjing")) == (
        kernel_learned.identity_number(nanjing.identity)
    )
    run = validate({"rounds": 10, "seed": 1, "variant": variant, "strategies": "learned"})
    # Wu Wang's learned passes with the table's own pass network too (§4); Tientsin's as expert
    own_pass = passnet.shipped(variant)
    passing = [] if own_pass is None else [f"pass:{passnet.load(own_pass, variant).identity}"]
    assert (variant == "wuwang") == bool(passing)
    assert run.data_dict()["weights"] == [[weights.identity, *passing]] * seats
    # played elsewhere than its table, it warns as any network does
    with pytest.warns(learned.OtherTableWarning, match=f"trained at {variant}, not nanjing"):
        resolve(f"learned[weights={own}]", 4, variant="nanjing")


def test_a_table_without_its_own_network_plays_the_4_player_one(tmp_path, monkeypatch):
    monkeypatch.setattr(learned, "SHIPPED", tmp_path / "learned.npz")
    assert learned.shipped("tientsin") == learned.shipped(None) == tmp_path / "learned.npz"
    (tmp_path / "learned-tientsin.npz").write_bytes(b"")
    assert learned.shipped("tientsin") == tmp_path / "learned-tientsin.npz"


def test_strategy_text_is_read_without_a_table(tmp_path):
    """A strategy's text is read before its table is known (``compare``, ``--strategies``):
    a network trained at another table warns only where it is seated."""
    import json
    import warnings

    meta = {"config": {"data": {"rounds": 10, "variant": "tientsin"}}}
    path = write_weights(tmp_path / "w.npz", meta=np.array(json.dumps(meta)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_strategy(f"learned[weights={path}]")
        resolve(f"learned[weights={path}]", 6, variant="tientsin")
