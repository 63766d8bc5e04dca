"""The kernel's learned play scores what the training's network scores: a torch network,
exported, read back as the strategy reads it and run in the kernel, gives the same values on
the same decisions (float tolerance), and the kernel picks their argmax."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from support.real_decisions import real_decisions  # noqa: E402

from tichusim.kernels.tichu import learned  # noqa: E402
from tichusim.learn.model import ValueNet, export  # noqa: E402
from tichusim.learn.train import encode_batch  # noqa: E402
from tichusim.strategies.learned import load  # noqa: E402


@pytest.mark.parametrize("sizes", [(16, 8), (48, 24)])
def test_the_kernel_scores_as_the_trained_network(tmp_path, sizes):
    decisions = real_decisions(6, seed=4)
    torch.manual_seed(sum(sizes))
    net = ValueNet(*sizes)
    with torch.no_grad():  # a network far from its start: larger weights, live units
        for p in net.parameters():
            p.mul_(3.0)
    path = export(net, tmp_path / "w.npz", {"test": True})
    weights = load(path)
    models = np.zeros((1, learned.MODEL_FLOATS), np.float32)
    models[0, : weights.model.size] = weights.model
    scratch = np.zeros(learned.LEARN_FLOATS, np.float32)
    rows = np.arange(len(decisions.decision))
    batch = encode_batch(decisions, rows)
    with torch.no_grad():
        expected = net(batch.state, batch.cand, batch.owner).numpy()
    assert len(rows) > 50
    for d in rows:
        lo, hi = decisions.start[d], decisions.start[d + 1]
        masks, codes = decisions.masks[lo:hi], decisions.codes[lo:hi]
        plays = masks != 0  # the kernel lists the plays, then the pass or no bomb
        order = np.concatenate([np.flatnonzero(plays), np.flatnonzero(~plays)])
        n, with_none = int(plays.sum()), int((~plays).sum())
        out = np.zeros(n + with_none, np.float32)
        pub, priv = decisions.public[d : d + 1], decisions.private[d : d + 1]
        args = (pub, priv, decisions.decision[d], masks[plays].copy(), codes[plays].copy())
        learned.scores(models, scratch, *args, n, with_none, out)
        want = expected[batch.first[d] : batch.first[d + 1]][order]
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        pick = learned.choice(models, scratch, *args, n, with_none)
        assert out[pick if pick >= 0 else n] == out.max()


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_the_kernel_scores_as_each_shipped_network(variant):
    """Every network the package ships, at its own table: the kernel's scores within 1e-4 of
    the network's dense forward pass in float64 on the file's own arrays, and its pick their
    highest."""
    from support.learned_weights import forward

    from tichusim.kernels.tichu.encoding import N_FEATURES, encode
    from tichusim.strategies.learned import read, shipped

    path = shipped(variant)
    assert path.name == ("learned.npz" if variant == "nanjing" else f"learned-{variant}.npz")
    arrays, _ = read(path)
    weights = load(path)
    models = np.zeros((1, learned.MODEL_FLOATS), np.float32)
    models[0, : weights.model.size] = weights.model
    scratch = np.zeros(learned.LEARN_FLOATS, np.float32)
    decisions = real_decisions(4, seed=11, variant=variant)
    x = np.zeros(N_FEATURES, np.float32)
    assert len(decisions.decision) > 30
    for d in range(len(decisions.decision)):
        lo, hi = decisions.start[d], decisions.start[d + 1]
        masks, codes = decisions.masks[lo:hi], decisions.codes[lo:hi]
        plays = masks != 0
        n, with_none = int(plays.sum()), int((~plays).sum())
        pub, priv = decisions.public[d : d + 1], decisions.private[d : d + 1]
        order = [*np.flatnonzero(plays), *np.flatnonzero(~plays)]
        rows = []
        for i in order:
            encode(pub, priv, decisions.decision[d], masks[i], codes[i], x)
            rows.append(x.copy())
        want = forward(np.array(rows), arrays)
        out = np.zeros(n + with_none, np.float32)
        args = (pub, priv, decisions.decision[d], masks[plays].copy(), codes[plays].copy())
        learned.scores(models, scratch, *args, n, with_none, out)
        np.testing.assert_allclose(out, want, rtol=0, atol=1e-4)
        pick = learned.choice(models, scratch, *args, n, with_none)
        assert out[pick if pick >= 0 else n] == out.max()
