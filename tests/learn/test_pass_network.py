"""The learned passing's training: its config, and the kernel scoring passes as the trained
torch network does (float tolerance) once exported and read back as the strategy reads it."""

import numpy as np
import pytest

from tichusim.learn.config import ConfigError, validate

torch = pytest.importorskip("torch")

from tichusim.kernels.tichu import passnet  # noqa: E402
from tichusim.learn.passdata import candidates, deal_hand  # noqa: E402
from tichusim.learn.passtrain import PassNet, _gain, features  # noqa: E402
from tichusim.strategies import passnet as pass_file  # noqa: E402
from tichusim.strategies.tichu import STRATEGIES  # noqa: E402


def _data(n_hands=30, seed=2):
    row = STRATEGIES["expert"].param_row()
    hands, starts, cands = [], [0], []
    for h in range(n_hands):
        hand = deal_hand(seed, h)
        c = candidates(row, hand)
        hands.append(hand)
        starts.append(starts[-1] + len(c))
        cands.append(c)
    all_cands = np.concatenate(cands)
    return {
        "hands": np.array(hands, np.uint64),
        "start": np.array(starts, np.int64),
        "cands": all_cands,
        "values": np.random.default_rng(seed).normal(0, 1, len(all_cands)).astype(np.float32),
    }


@pytest.mark.parametrize("sizes", [(16, 8), (64, 32)])
def test_the_kernel_scores_as_the_trained_network(tmp_path, sizes):
    data = _data()
    torch.manual_seed(sum(sizes))
    net = PassNet(*sizes)
    with torch.no_grad():  # far from its start: larger weights, live units
        for p in net.parameters():
            p.mul_(3.0)
    path = pass_file.export(net.arrays(), tmp_path / "p.npz", "nanjing", {"test": True})
    model = pass_file.load(path).model
    with torch.no_grad():
        want = net(torch.from_numpy(features(data))).numpy()
    for h in range(len(data["hands"])):
        lo, hi = data["start"][h], data["start"][h + 1]
        got = np.zeros(hi - lo)
        passnet.values(model, data["hands"][h], data["cands"][lo:hi], hi - lo, got)
        np.testing.assert_allclose(got, want[lo:hi], rtol=1e-4, atol=1e-4)


def test_the_held_out_gain_is_the_chosen_label_less_experts():
    start = np.array([0, 3, 5])
    values = np.array([0.1, 0.5, -0.2, 0.0, -0.3], np.float32)
    q = np.array([0.0, 1.0, 0.0, 2.0, 1.0])
    assert _gain(q, values, start, np.array([0, 1])) == pytest.approx(100 * (0.4 + 0.0) / 2)


def test_a_pass_config_is_checked_before_any_work():
    base = {"decision": "pass", "output": {"dir": "x"}}
    assert validate(base).pass_settings().variant == "nanjing"
    with pytest.raises(ConfigError, match="data.variant"):
        validate(base | {"data": {"variant": "tientsin"}}).pass_settings()
    with pytest.raises(ConfigError, match="data.rounds"):
        validate(base | {"data": {"rounds": 5}}).pass_settings()
    with pytest.raises(ConfigError, match="selfplay"):
        validate(base | {"selfplay": {}}).pass_settings()
    with pytest.raises(ConfigError, match="decision"):
        validate(base | {"decision": "wish"})
