"""Training (``tichusim/learn/train.py``) on a few hundred real decisions with labels a fixed
linear function of their features: the loss falls and the network's picks beat the random
behaviour's; the held-out rounds share no round with the training; a training stopped and
started again ends with the weights of one never stopped; a checkpoint of other settings is
refused; the losses are what their definition says."""

import numpy as np
import pytest
from support.real_decisions import labelled

torch = pytest.importorskip("torch")

from tichusim.learn import train as training  # noqa: E402
from tichusim.learn.config import TrainSettings  # noqa: E402


@pytest.fixture(scope="module")
def decisions():
    return labelled()


SMALL = {"hidden": [16, 8], "epochs": 4, "batch_size": 16, "learning_rate": 3e-3, "threads": 1}


def test_the_loss_falls_and_the_picks_improve(decisions, tmp_path):
    settings = TrainSettings(**SMALL, checkpoint_every=10_000)
    got = training.train(settings, decisions, tmp_path, progress=False)
    first, last = got.epochs[0], got.epochs[-1]
    assert len(got.epochs) == 4 and last["step"] == got.steps
    early = np.mean(got.train_loss[:5])
    assert np.mean(got.train_loss[-5:]) < 0.5 * early
    assert last["val_loss"] < first["val_loss"]
    assert last["regret"] < 0.6 * last["behaviour_regret"]  # the random behaviour's picks
    assert last["behaviour_regret"] > 0
    for name in ("checkpoint.pt", "metrics.csv", "metrics.json", "loss.png"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "metrics.csv").read_text().count("\n") == 5


def test_held_out_rounds_are_whole(decisions):
    train_rows, held = training.split(decisions, 0.25, 3)
    assert len(held) and len(train_rows)
    assert not set(decisions.round[train_rows]) & set(decisions.round[held])
    assert sorted(np.concatenate([train_rows, held])) == list(range(len(decisions.decision)))
    assert np.array_equal(training.split(decisions, 0.25, 3)[1], held)


def test_a_stopped_training_ends_as_an_unstopped_one(decisions, tmp_path):
    settings = TrainSettings(**SMALL | {"epochs": 2}, checkpoint_every=7)
    whole = training.train(settings, decisions, tmp_path / "whole", progress=False)
    # stopped mid-epoch at step 17: its last checkpoint is step 14, and goes on from there
    stopped = tmp_path / "stopped"
    part = training.train(settings, decisions, stopped, progress=False, stop_after=17)
    assert part.steps == 17
    state = torch.load(stopped / "checkpoint.pt", weights_only=True)
    assert state["step"] == 17
    notes = []
    rest = training.train(settings, decisions, stopped, progress=False, log=notes.append)
    assert notes and "from step 17" in notes[0]
    assert rest.steps == whole.steps
    for (name, a), b in zip(
        whole.model.state_dict().items(), rest.model.state_dict().values(), strict=True
    ):
        assert torch.equal(a, b), name
    assert rest.train_loss == whole.train_loss
    strip = [{k: v for k, v in e.items() if k != "seconds"} for e in whole.epochs]
    assert [{k: v for k, v in e.items() if k != "seconds"} for e in rest.epochs] == strip


def test_an_interrupted_training_goes_on_from_its_last_checkpoint(decisions, tmp_path):
    """A stop between checkpoints loses the steps after the last one, no more."""
    settings = TrainSettings(**SMALL | {"epochs": 1}, checkpoint_every=5)

    class Stop(Exception):
        pass

    real = training.encode_batch
    calls = []

    def flaky(*args):
        calls.append(1)
        if len(calls) == 13:
            raise Stop
        return real(*args)

    training.encode_batch = flaky
    try:
        with pytest.raises(Stop):
            training.train(settings, decisions, tmp_path, progress=False)
    finally:
        training.encode_batch = real
    assert torch.load(tmp_path / "checkpoint.pt", weights_only=True)["step"] == 10


def test_a_checkpoint_of_other_settings_is_refused(decisions, tmp_path):
    settings = TrainSettings(**SMALL | {"epochs": 1})
    training.train(settings, decisions, tmp_path, progress=False, stop_after=3)
    other = TrainSettings(**SMALL | {"epochs": 1, "learning_rate": 1e-2})
    with pytest.raises(training.CheckpointError, match="other \\[train\\] settings or other data"):
        training.train(other, decisions, tmp_path, progress=False)
    # threads and checkpoint spacing do not change what is computed: accepted
    same = TrainSettings(**SMALL | {"epochs": 1, "threads": 2, "checkpoint_every": 3})
    assert training.train(same, decisions, tmp_path, progress=False, stop_after=6).steps == 6


def test_the_losses_by_their_definition():
    q = torch.tensor([1.0, 2.0, 4.0, 0.5, -0.5])
    y = torch.tensor([0.0, 3.0, 3.0, 1.0, 2.0])
    owner = torch.tensor([0, 0, 0, 1, 1])
    diff, value = training.losses(q, y, owner, 2)
    # decision 0: q - 7/3 against y - 2; decision 1: q - 0 against y - 1.5
    want = [(1 - 7 / 3) - (-2), (2 - 7 / 3) - 1, (4 - 7 / 3) - 1, 0.5 + 0.5, -0.5 - 0.5]
    assert float(diff) == pytest.approx(np.mean(np.square(want)))
    assert float(value) == pytest.approx(np.mean(np.square([1, -1, 1, -0.5, -2.5])))


def test_the_metrics_by_their_definition(decisions):
    rows = np.array([0, 1])
    index, first = training.candidate_index(decisions, rows)
    y = decisions.values[index]
    q = -y.copy()  # the worst pick of each decision
    got = training.metrics(q, decisions, rows, 0.5)
    best = [y[first[i] : first[i + 1]].max() for i in range(2)]
    worst = [y[first[i] : first[i + 1]].min() for i in range(2)]
    chosen = [y[first[i] + decisions.chosen[r]] for i, r in enumerate(rows)]
    assert got["regret"] == pytest.approx(100 * np.mean(np.subtract(best, worst)), rel=1e-5)
    assert got["behaviour_regret"] == pytest.approx(
        100 * np.mean(np.subtract(best, chosen)), rel=1e-5
    )
    assert got["top1"] == 0
    assert training.metrics(y, decisions, rows, 0.5)["regret"] == 0
    assert training.metrics(y, decisions, rows, 0.5)["top1"] == 1


def test_torch_settings_are_given_back(decisions, tmp_path):
    threads = torch.get_num_threads()
    settings = TrainSettings(**SMALL | {"epochs": 1, "threads": threads + 1})
    training.train(settings, decisions, tmp_path, progress=False, stop_after=2)
    assert torch.get_num_threads() == threads
    assert not torch.are_deterministic_algorithms_enabled()
