"""The value network and its weights file (``tichusim/learn/model.py``): the file holds what
the format says; numpy's forward pass on the exported arrays is torch's on the same inputs;
the split first layer is the network on the whole row; a file made for another encoding or
format, or a broken one, is refused in one line."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tichusim.kernels.tichu.encoding import LAYOUT_HASH, N_FEATURES, STATE_SIZE  # noqa: E402
from tichusim.learn.model import ValueNet, export, forward, load, read_weights  # noqa: E402


def _net(h1=24, h2=12, seed=3):
    torch.manual_seed(seed)
    net = ValueNet(h1, h2)
    with torch.no_grad():  # biases away from zero, so a misplaced one shows
        for p in net.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    return net


def _inputs(rows=40, decisions=7, seed=5):
    """Sparse 0/1 rows as the encoding gives (a few with larger values), and which of
    ``decisions`` states each belongs to."""
    rng = np.random.default_rng(seed)
    states = (rng.random((decisions, STATE_SIZE)) < 0.05).astype(np.float32)
    states[:, :8] = rng.random((decisions, 8))
    owner = np.sort(rng.integers(0, decisions, rows))
    cands = (rng.random((rows, N_FEATURES - STATE_SIZE)) < 0.05).astype(np.float32)
    x = np.concatenate([states[owner], cands], axis=1)
    return states, cands, owner, x


def test_the_file_is_format_1(tmp_path):
    net = _net()
    path = export(net, tmp_path / "w.npz", {"epochs": 3, "note": "é"})
    with np.load(path, allow_pickle=False) as f:
        assert sorted(f.files) == sorted(
            ["w1", "b1", "w2", "b2", "w3", "b3", "layout_hash", "format", "meta"]
        )
        shapes = {k: f[k].shape for k in ("w1", "b1", "w2", "b2", "w3", "b3")}
        assert shapes == {
            "w1": (N_FEATURES, 24),
            "b1": (24,),
            "w2": (24, 12),
            "b2": (12,),
            "w3": (12,),
            "b3": (1,),
        }
        assert all(f[k].dtype == np.float32 for k in shapes)
        assert f["format"].shape == () and f["format"].dtype == np.int64 and int(f["format"]) == 1
        assert f["layout_hash"].shape == () and str(f["layout_hash"]) == LAYOUT_HASH
        assert json.loads(str(f["meta"])) == {"epochs": 3, "note": "é"}
    assert not list(tmp_path.glob("*.tmp"))


def test_numpy_forward_is_torch_forward(tmp_path):
    net = _net()
    states, cands, owner, x = _inputs()
    with torch.no_grad():
        split = net(torch.from_numpy(states), torch.from_numpy(cands), torch.from_numpy(owner))
    weights = read_weights(export(net, tmp_path / "w.npz", {}))
    got = forward(weights, x)
    assert got.shape == (len(x),) and got.dtype == np.float32
    assert np.allclose(got, split.numpy(), rtol=1e-5, atol=1e-5)
    assert np.ptp(got) > 0.01  # the inputs tell the rows apart
    # the weights in float64 give the same values: nothing rests on float32 rounding
    exact = forward({k: np.asarray(v, np.float64) for k, v in weights.items() if k != "meta"}, x)
    assert np.allclose(got, exact, rtol=1e-4, atol=1e-5)


def test_load_gives_the_same_network(tmp_path):
    net = _net(16, 8)
    path = export(net, tmp_path / "w.npz", {})
    back = load(path)
    assert (back.h1, back.h2) == (16, 8)
    for (name, a), (_, b) in zip(net.state_dict().items(), back.state_dict().items(), strict=True):
        assert torch.equal(a, b), name


def _rewrite(path, **changes):
    with np.load(path, allow_pickle=False) as f:
        data = {k: f[k] for k in f.files}
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    np.savez(path, **data)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"layout_hash": np.array("0123456789abcdef")}, "made for the encoding 0123456789abcdef"),
        ({"format": np.array(2, np.int64)}, "format 2; this version reads format 1"),
        ({"w3": None}, "missing w3"),
        ({"w1": np.zeros((N_FEATURES - 1, 24), np.float32)}, r"w1 has shape \(1408, 24\)"),
        ({"b1": np.zeros(24, np.float64)}, "b1 is float64, expected float32"),
    ],
)
def test_a_wrong_file_is_one_line(tmp_path, changes, message):
    path = export(_net(), tmp_path / "w.npz", {})
    _rewrite(path, **changes)
    with pytest.raises(ValueError, match=message) as info:
        load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_a_broken_file_is_one_line(tmp_path):
    path = tmp_path / "w.npz"
    path.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(ValueError, match="not a readable .npz"):
        load(path)
