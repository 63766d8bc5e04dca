"""The learned passing's training: its config, and the kernel scoring passes as the trained
torch network does (float tolerance) once exported and read back as the strategy reads it."""

import numpy as np
import pytest

from tichusim.cards.notation import cards_of
from tichusim.kernels.tichu.encoding import DECK as _DECK_TEXT
from tichusim.learn.config import ConfigError, validate

torch = pytest.importorskip("torch")
DECK = [int(c) for c in cards_of(_DECK_TEXT)]  # the 56 cards' one-bit masks

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


def _wuwang_data(n_hands=30, seed=4):
    """Wu Wang groups at every role: each hand as the King (a Minister's hand beside it) and
    as each opponent."""
    row = STRATEGIES["learned"].param_row("wuwang")
    rng = np.random.default_rng(seed)
    hands, ministers, seats, starts, cands = [], [], [], [0], []
    for h in range(n_hands):
        hand = deal_hand(seed, h)
        free = [c for c in DECK if not hand & c]
        minister = int(sum(free[i] for i in rng.choice(len(free), 14, replace=False)))
        for seat in (0, 1, 3):
            c = candidates(row, hand, "wuwang", seat)
            hands.append(hand)
            ministers.append(minister if seat == 0 else 0)
            seats.append(seat)
            starts.append(starts[-1] + len(c))
            cands.append(c)
    all_cands = np.concatenate(cands)
    return {
        "hands": np.array(hands, np.uint64),
        "ministers": np.array(ministers, np.uint64),
        "seats": np.array(seats, np.int64),
        "start": np.array(starts, np.int64),
        "cands": all_cands,
        "values": rng.normal(0, 1, len(all_cands)).astype(np.float32),
        "variant": np.array("wuwang"),
    }


@pytest.mark.parametrize("sizes", [(16, 8), (64, 32)])
def test_the_wuwang_kernel_scores_as_the_trained_network(tmp_path, sizes):
    """Wu Wang's network (RULES.md §4) at every role, the King's reading his Minister."""
    data = _wuwang_data()
    torch.manual_seed(sum(sizes))
    net = PassNet(*sizes, passnet.N_FEATURES_WUWANG)
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(3.0)
    path = pass_file.export(net.arrays(), tmp_path / "p.npz", "wuwang", {"test": True})
    model = pass_file.load(path, "wuwang").model
    assert model[3] == passnet.KIND_WUWANG
    x = features(data)
    assert x.shape[1] == passnet.N_FEATURES_WUWANG
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    picks = set()
    for g in range(len(data["hands"])):
        lo, hi = data["start"][g], data["start"][g + 1]
        got = np.zeros(hi - lo)
        hand, minister, seat = data["hands"][g], data["ministers"][g], int(data["seats"][g])
        passnet.wuwang_values(model, hand, minister, seat, data["cands"][lo:hi], hi - lo, got)
        np.testing.assert_allclose(got, want[lo:hi], rtol=1e-4, atol=1e-4)
        best = passnet.wuwang_choose(model, hand, minister, seat, data["cands"][lo:hi], hi - lo)
        assert best == int(np.argmax(got))
        picks.add(best)
    assert len(picks) > 1  # the network is not indifferent among the candidates


def test_the_king_features_read_the_minister_and_the_roles_differ():
    hand = deal_hand(7, 0)
    row = STRATEGIES["learned"].param_row("wuwang")
    cand = candidates(row, hand, "wuwang", 0)[0]
    x = np.zeros((2, passnet.N_FEATURES_WUWANG), np.float32)
    others = [c for c in DECK if not hand & c]
    for i, m in enumerate((sum(others[:14]), sum(others[-14:]))):
        passnet.wuwang_features(np.uint64(hand), np.uint64(m), 0, cand, x[i])
        assert x[i, 17:34].sum() > 0  # the Minister's cards, counted
    assert not np.array_equal(x[0, 17:34], x[1, 17:34])
    np.testing.assert_array_equal(x[0, 34:], x[1, 34:])  # the pass's features alike
    y = np.zeros(passnet.N_FEATURES_WUWANG, np.float32)
    passnet.wuwang_features(
        np.uint64(hand), np.uint64(m), 1, candidates(row, hand, "wuwang", 1)[0], y
    )
    assert y[17:34].sum() == 0  # an opponent does not see the Minister before the passing
    assert list(y[34:37]) == [0, 1, 0] and list(x[0, 34:37]) == [1, 0, 0]


def test_the_held_out_gain_is_the_chosen_label_less_experts():
    start = np.array([0, 3, 5])
    values = np.array([0.1, 0.5, -0.2, 0.0, -0.3], np.float32)
    q = np.array([0.0, 1.0, 0.0, 2.0, 1.0])
    assert _gain(q, values, start, np.array([0, 1])) == pytest.approx(100 * (0.4 + 0.0) / 2)


def test_a_pass_config_is_checked_before_any_work():
    base = {"decision": "pass", "output": {"dir": "x"}}
    assert validate(base).pass_settings().variant == "nanjing"
    assert validate(base | {"data": {"variant": "wuwang"}}).pass_settings().variant == "wuwang"
    with pytest.raises(ConfigError, match="data.variant"):
        validate(base | {"data": {"variant": "tientsin"}}).pass_settings()
    with pytest.raises(ConfigError, match="data.rounds"):
        validate(base | {"data": {"rounds": 5}}).pass_settings()
    with pytest.raises(ConfigError, match="selfplay"):
        validate(base | {"selfplay": {}}).pass_settings()
    with pytest.raises(ConfigError, match="decision"):
        validate(base | {"decision": "wish"})
