"""The learned passing (RULES.md §2.4): its candidates, its network's file, and a table that
plays it, where each seat gives the candidate its network values best."""

import numpy as np
import pytest

from tichusim import cards
from tichusim.games import game
from tichusim.kernels.tichu import passnet, policies, slots, table_models
from tichusim.learn.passdata import candidates, deal_hand
from tichusim.strategies import passnet as pass_file
from tichusim.strategies.learned import WeightsError
from tichusim.strategies.learned import load as load_play
from tichusim.strategies.tichu import STRATEGIES, resolve, weights_identities


def _arrays(seed=0, h1=16, h2=8):
    rng = np.random.default_rng(seed)
    return {
        "w1": rng.normal(0, 0.5, (passnet.N_FEATURES, h1)).astype(np.float32),
        "b1": rng.normal(0, 0.1, h1).astype(np.float32),
        "w2": rng.normal(0, 0.5, (h1, h2)).astype(np.float32),
        "b2": rng.normal(0, 0.1, h2).astype(np.float32),
        "w3": rng.normal(0, 0.5, h2).astype(np.float32),
        "b3": np.array([0.1], np.float32),
    }


@pytest.fixture(scope="module")
def pass_weights(tmp_path_factory):
    path = tmp_path_factory.mktemp("pass") / "p.npz"
    return pass_file.export(_arrays(), path, "nanjing", {"test": True})


def _row():
    return STRATEGIES["expert"].param_row()


def test_candidates_are_few_distinct_legal_passes_expert_first():
    row = _row()
    for h in range(200):
        hand = deal_hand(3, h)
        got = candidates(row, hand)
        assert 1 <= len(got) <= passnet.MAX_CANDIDATES
        assert len({tuple(p) for p in got.tolist()}) == len(got)  # no pass twice
        for p in got:
            assert all(int(c) & hand and int(c) & (int(c) - 1) == 0 for c in p)
            assert len({int(c) for c in p}) == 3  # three different cards
        np.testing.assert_array_equal(got, candidates(row, hand))  # deterministic


@pytest.mark.parametrize(("variant", "seat"), [("nanjing", 0), ("wuwang", 0), ("wuwang", 1)])
def test_the_candidates_are_every_probe_then_the_structured_set(variant, seat):
    """``learned_candidates`` skips the probes whose pass is provably expert's (they would
    be dropped as repeats): its list is every probe's pass then the structured set's, each
    kept once, first come first kept."""
    from tichusim.kernels.tichu.variants import NANJING, WUWANG
    from tichusim.kernels.tichu.view import PRIVATE, PUBLIC

    row = np.asarray(_row(), np.float64)
    pub = np.zeros(1, PUBLIC)
    pub[0]["n_players"] = 4
    pub[0]["variant"] = WUWANG if variant == "wuwang" else NANJING
    pub[0]["counts"][:4] = 14
    me = np.zeros(1, PRIVATE)
    me[0]["seat"] = seat
    with_dog = 0
    for h in range(300):
        hand = deal_hand(8, h)
        with_dog += bool(hand & 1)
        me[0]["hand"] = np.uint64(hand)
        want = np.zeros((passnet.MAX_CANDIDATES, 3), np.uint64)
        n = 0
        for policy in policies.LEARNED_PROBES:
            gifts = np.zeros(3, np.uint64)
            policies.scripted_passes(policy, row, pub[0], me[0], gifts)
            n = passnet.add(want, n, gifts[0], gifts[1], gifts[2])
        if variant == "wuwang":
            n = passnet.wuwang_structured(np.uint64(hand), seat, want, n)
        else:
            n = passnet.structured(np.uint64(hand), want, n)
        got = np.zeros((passnet.MAX_CANDIDATES, 3), np.uint64)
        assert policies.learned_candidates(row, pub[0], me[0], got) == n
        np.testing.assert_array_equal(got[:n], want[:n])
    assert 30 < with_dog < 270  # hands with the Dog and without


def test_the_first_candidate_is_what_expert_passes():
    """Played by ``expert``, a seat gives the first candidate when nobody called first."""
    g = game("nanjing")
    rec = g.rounds(np.arange(300), seed=11, strategies="expert[grand_tichu=never,tichu=never]")
    row = _row()
    for seat in range(4):
        for r in range(300):
            hand = int(rec.seats[r, seat]["hand14"])
            given = tuple(int(x) for x in rec.seats[r, seat]["given"][:3])
            assert given == tuple(int(x) for x in candidates(row, hand)[0])


def test_the_structured_candidates_give_the_partner_a_best_card():
    hand = cards.parse_pattern("Dr Ph Aj Kj 9s 8t 7p 6j 5s 4t 3p 2j 2s Dog", 14)[0]
    got = candidates(_row(), hand)
    partners = {cards.format(int(p[1])) for p in got}
    assert {"Dr", "Ph", "Aj"} <= partners


def test_the_kernel_value_is_the_plain_forward_pass(pass_weights):
    w = pass_file.load(pass_weights)
    a = pass_file.read(pass_weights)[0]
    row = _row()
    for h in range(20):
        hand = deal_hand(5, h)
        cands = candidates(row, hand)
        x = np.zeros((len(cands), passnet.N_FEATURES), np.float32)
        passnet.features_of(np.full(len(cands), hand, np.uint64), cands, x)
        h1 = np.maximum(x @ a["w1"] + a["b1"], 0)
        want = np.maximum(h1 @ a["w2"] + a["b2"], 0) @ a["w3"] + a["b3"][0]
        got = np.zeros(len(cands))
        passnet.values(w.model, np.uint64(hand), cands, len(cands), got)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        assert passnet.choose(w.model, np.uint64(hand), cands, len(cands)) == int(np.argmax(got))
        # ``values`` goes on from the hand's sum once made: the bits of ``value`` from scratch
        h1 = np.zeros(int(w.model[0]))
        one = [passnet.value(w.model, x[i], h1) for i in range(len(cands))]
        assert got.tolist() == one


@pytest.mark.parametrize("which", ["test", "shipped"])
def test_choose_screens_within_its_bound_and_picks_the_first_best_value(pass_weights, which):
    """``choose`` screens in ``float32``: each screened value is within the header's bound
    of its exact one, and the index is always the first best of ``values`` (ties too: the
    candidates given again after themselves, and a pass of the same features)."""
    path = pass_weights if which == "test" else pass_file.SHIPPED
    model = pass_file.load(path).model
    bound = float(model[passnet.SCREEN])
    assert 0.0 < bound < 0.01
    row = _row()
    screened_more = 0
    for h in range(300):
        hand = deal_hand(6, h)
        cands = candidates(row, hand)
        n = len(cands)
        exact = np.zeros(n)
        passnet.values(model, np.uint64(hand), cands, n, exact)
        screen = np.zeros(n)
        passnet._values(model, np.uint64(hand), cands, n, screen, True)
        assert np.abs(screen - exact).max() <= bound
        best = passnet.choose(model, np.uint64(hand), cands, n)
        assert best == int(np.argmax(exact))
        screened_more += int((screen >= screen.max() - 2 * bound).sum() > 1)
        again = np.concatenate([cands, cands])[: passnet.MAX_CANDIDATES]  # every tie twice
        assert passnet.choose(model, np.uint64(hand), again, len(again)) == best
    if which == "shipped":
        assert screened_more > 0  # some hands are valued exactly after the screen


def test_a_model_without_a_screen_bound_values_every_candidate_exactly(pass_weights):
    model = pass_file.load(pass_weights).model.copy()
    model[passnet.SCREEN] = 0.0
    hand = deal_hand(5, 1)
    cands = candidates(_row(), hand)
    exact = np.zeros(len(cands))
    passnet.values(model, np.uint64(hand), cands, len(cands), exact)
    assert passnet.choose(model, np.uint64(hand), cands, len(cands)) == int(np.argmax(exact))


def test_the_padded_units_change_no_bit_of_a_value(pass_weights):
    """The packed row pads each hidden layer to whole blocks of units with zero weights; the
    values are those of the file's own sizes, laid out unpadded, bit for bit."""
    w = pass_file.load(pass_weights)
    a = pass_file.read(pass_weights)[0]
    n1, n2 = a["w1"].shape[1], a["w2"].shape[1]
    assert (n1, n2) == (16, 8) and (w.model[0], w.model[1]) == (16, 16)
    o = passnet.offsets(n1, n2)
    plain = np.zeros(o[-1], np.float32)
    plain[:4] = n1, n2, passnet.N_FEATURES, passnet.KIND
    ends = (*o[1:6], o[5] + 1)
    for name, lo, hi in zip(("w1", "b1", "w2", "b2", "w3", "b3"), o[:6], ends, strict=True):
        plain[lo:hi] = a[name].reshape(-1)
    hand = deal_hand(5, 3)
    cands = candidates(_row(), hand)
    x = np.zeros((len(cands), passnet.N_FEATURES), np.float32)
    passnet.features_of(np.full(len(cands), hand, np.uint64), cands, x)
    got = np.zeros(len(cands))
    passnet.values(w.model, np.uint64(hand), cands, len(cands), got)
    want = [passnet.value(plain, x[i], np.zeros(n1)) for i in range(len(cands))]
    assert got.tolist() == want


def test_a_table_passes_the_candidate_its_network_values_best(pass_weights):
    """Every seat of ``expert[pass=learned,...]`` gives the argmax of its network over its
    candidates wherever neither it nor its partner called before the passing (RULES.md
    §2.3), whatever the opponents called; expert's pass where one of them did."""
    g = game("nanjing")
    name = f"expert[pass=learned,pass_weights={pass_weights}]"
    rec = g.rounds(np.arange(200), seed=3, strategies=name)
    w = pass_file.load(pass_weights)
    row = resolve(name)[0].param_row()
    assert row[slots.P_PASS] == policies.PASS_LEARNED
    plain = _row()
    learned_passes = with_opponent_call = 0
    calls = (rec.seats["tichu_when"] == 0) | (rec.seats["grand_tichu"] != 0)
    for r in range(200):
        for seat in range(4):
            hand = int(rec.seats[r, seat]["hand14"])
            given = tuple(int(x) for x in rec.seats[r, seat]["given"][:3])
            cands = candidates(plain, hand)
            if calls[r, seat] or calls[r, (seat + 2) % 4]:
                continue
            best = passnet.choose(w.model, np.uint64(hand), cands, len(cands))
            assert given == tuple(int(x) for x in cands[best])
            learned_passes += best != 0
            with_opponent_call += bool(calls[r, (seat + 1) % 4] or calls[r, (seat + 3) % 4])
    assert learned_passes > 50  # the network does not just repeat expert's pass
    assert with_opponent_call > 50


def _wuwang_arrays(seed=1, h1=16, h2=8):
    rng = np.random.default_rng(seed)
    out = _arrays(seed, h1, h2)
    out["w1"] = rng.normal(0, 0.5, (passnet.N_FEATURES_WUWANG, h1)).astype(np.float32)
    return out


@pytest.fixture(scope="module")
def wuwang_weights(tmp_path_factory):
    path = tmp_path_factory.mktemp("pass-wuwang") / "p.npz"
    return pass_file.export(_wuwang_arrays(), path, "wuwang", {"test": True})


def _wuwang_players(king):
    """``(position, player)`` of Wu Wang's three real players when ``king`` is King (§4; a
    record's rows are players, the Minister's row 3)."""
    return [(0, king), (1, (king + 1) % 3), (3, (king + 2) % 3)]


def test_wuwang_candidates_are_legal_two_card_passes_at_every_role():
    """RULES.md §4: each real player gives one card to each other real player, the Minister
    (position 2) nothing; the King his two opponents, an opponent the King and the other."""
    row = STRATEGIES["expert"].param_row("wuwang")
    reached = {0: (0, 2), 1: (1, 2), 3: (0, 1)}  # the slots of ``pass_offsets`` (d - 1)
    for seat, slots_given in reached.items():
        sizes = []
        for h in range(150):
            hand = deal_hand(8, h)
            got = candidates(row, hand, "wuwang", seat)
            sizes.append(len(got))
            assert 1 <= len(got) <= passnet.MAX_CANDIDATES
            assert len({tuple(p) for p in got.tolist()}) == len(got)
            for p in got:
                cards_given = [int(p[k]) for k in slots_given]
                assert all(c & hand and c & (c - 1) == 0 for c in cards_given)
                assert cards_given[0] != cards_given[1]
                assert all(int(p[k]) == 0 for k in range(3) if k not in slots_given)
            np.testing.assert_array_equal(got, candidates(row, hand, "wuwang", seat))
        assert min(sizes) >= 10  # a real choice at every role


def test_the_first_wuwang_candidate_is_what_expert_passes():
    g = game("wuwang")
    rec = g.rounds(np.arange(200), seed=12, strategies="expert[grand_tichu=never,tichu=never]")
    row = STRATEGIES["expert"].param_row("wuwang")
    for r in range(200):
        for seat, player in _wuwang_players(int(rec.rounds["king"][r])):
            hand = int(rec.seats[r, player]["hand14"])
            given = tuple(int(x) for x in rec.seats[r, player]["given"][:3])
            assert given == tuple(int(x) for x in candidates(row, hand, "wuwang", seat)[0])


def test_a_wuwang_table_passes_the_candidate_its_network_values_best(wuwang_weights):
    """Every player of ``expert[pass=learned,...]`` at Wu Wang gives the argmax of the Wu Wang
    network over its candidates, the King's read with his Minister's hand (§4), wherever
    neither it nor its partner called before the passing."""
    g = game("wuwang")
    name = f"expert[pass=learned,pass_weights={wuwang_weights}]"
    rec = g.rounds(np.arange(200), seed=5, strategies=name)
    w = pass_file.load(wuwang_weights, "wuwang")
    assert w.model[3] == passnet.KIND_WUWANG
    row = resolve(name, 3)[0].param_row("wuwang")
    assert row[slots.P_PASS] == policies.PASS_LEARNED
    plain = STRATEGIES["expert"].param_row("wuwang")
    calls = (rec.seats["tichu_when"] == 0) | (rec.seats["grand_tichu"] != 0)
    learned_passes = {0: 0, 1: 0, 3: 0}
    for r in range(200):
        minister = int(rec.seats[r, 3]["hand14"])  # the Minister's row
        by_seat = dict(_wuwang_players(int(rec.rounds["king"][r])))
        by_seat[2] = 3
        for seat, player in _wuwang_players(int(rec.rounds["king"][r])):
            if calls[r, player] or calls[r, by_seat[(seat + 2) % 4]]:
                continue
            hand = int(rec.seats[r, player]["hand14"])
            given = tuple(int(x) for x in rec.seats[r, player]["given"][:3])
            cands = candidates(plain, hand, "wuwang", seat, minister)
            best = passnet.wuwang_choose(
                w.model, np.uint64(hand), np.uint64(minister), seat, cands, len(cands)
            )
            assert given == tuple(int(x) for x in cands[best])
            learned_passes[seat] += best != 0
    assert min(learned_passes.values()) > 20  # not just expert's pass, at every role


def test_a_network_of_another_table_is_refused_at_wuwang(pass_weights, wuwang_weights):
    with pytest.raises(WeightsError, match=r"a pass network of nanjing, not of wuwang$"):
        pass_file.load(pass_weights, "wuwang")
    with pytest.raises(WeightsError, match=r"a pass network of wuwang, not of nanjing$"):
        pass_file.load(wuwang_weights)
    with pytest.raises(ValueError, match=r"a pass network of wuwang, not of nanjing$"):
        resolve(f"learned[pass_weights={wuwang_weights}]")[0].param_row()
    with pytest.raises(ValueError, match=r"a pass network of nanjing, not of wuwang$"):
        resolve(f"learned[pass_weights={pass_weights}]", 3)[0].param_row("wuwang")


def test_a_wuwang_file_claiming_the_other_layout_is_refused(tmp_path):
    """A file whose arrays are the 4-player game's features but which says Wu Wang."""
    path = tmp_path / "bad.npz"
    pass_file.export(_arrays(), path, "wuwang", {})
    with pytest.raises(WeightsError, match=r"w1 has shape \(88, 16\), expected \(90, 16\)$"):
        pass_file.load(path, "wuwang")


def test_a_wuwang_network_is_named_in_the_strategy_and_the_hash(wuwang_weights):
    w = pass_file.load(wuwang_weights, "wuwang")
    name = f"learned[pass_weights={wuwang_weights}]"
    assert f"pass:{w.identity}" in weights_identities(name, "wuwang")
    row = resolve(name, 3)[0].param_row("wuwang")
    assert table_models.pass_identity(row) == int(w.identity, 16)
    table = resolve(name, 3)[0].to_dict()
    assert table["pass_weights_id"] == w.identity


def test_a_learned_table_hands_the_kernels_its_pass_network():
    g = game("nanjing")
    rows = g.param_rows(g.resolve(["learned", "expert"] * 2, 4))
    marked, models = table_models.table(rows)
    assert models is not None and models.shape[0] == 2  # the play network, the pass network
    k = int(marked[0, slots.P_PASS_MODEL])
    shipped = pass_file.load(pass_file.SHIPPED)
    assert table_models.pass_identity(rows[0]) == int(shipped.identity, 16)
    assert models[k, 3] == passnet.KIND
    np.testing.assert_array_equal(models[k, : shipped.model.size], shipped.model)


def test_learned_passes_as_expert_where_asked_and_at_other_tables():
    assert STRATEGIES["learned"].pass_ == "learned"
    for variant in (None, "wuwang"):
        row = resolve("learned[pass=expert]", 3 if variant else 4)[0].param_row(variant)
        assert row[slots.P_PASS] == policies.PASS_EXPERT
        assert table_models.pass_identity(row) == 0
    row = STRATEGIES["learned"].param_row("tientsin")
    assert row[slots.P_PASS] == policies.PASS_EXPERT
    assert table_models.pass_identity(row) == 0
    assert not any(i.startswith("pass:") for i in weights_identities("learned", "tientsin"))


def test_learned_passes_with_the_shipped_wuwang_network_by_default():
    """At Wu Wang ``learned`` passes with the package's Wu Wang pass network (§4), named in
    its row and its run's identity, and a Wu Wang table hands the kernels that model."""
    path = pass_file.shipped("wuwang")
    assert path is not None and path.name == "learned-pass-wuwang.npz"
    shipped = pass_file.load(path, "wuwang")
    assert shipped.model[3] == passnet.KIND_WUWANG
    row = STRATEGIES["learned"].param_row("wuwang")
    assert row[slots.P_PASS] == policies.PASS_LEARNED
    assert table_models.pass_identity(row) == int(shipped.identity, 16)
    assert f"pass:{shipped.identity}" in weights_identities("learned", "wuwang")
    assert weights_identities("learned", "wuwang") != weights_identities("learned")
    g = game("wuwang")
    marked, models = table_models.table(g.param_rows(g.resolve(["learned", "expert", "expert"], 3)))
    assert models is not None
    k = int(marked[0, slots.P_PASS_MODEL])
    np.testing.assert_array_equal(models[k, : shipped.model.size], shipped.model)


def test_the_pass_network_is_named_in_the_strategy_and_the_hash(pass_weights):
    w = pass_file.load(pass_weights)
    name = f"learned[pass_weights={pass_weights}]"
    assert f"pass:{w.identity}" in weights_identities(name)
    assert f"pass:{w.identity}" not in weights_identities("learned[pass=expert]")
    table = resolve(name)[0].to_dict()
    assert table["pass_weights_id"] == w.identity


def test_a_network_of_another_decision_or_table_is_refused_in_one_line(pass_weights, tmp_path):
    other = pass_file.export(_arrays(), tmp_path / "t.npz", "tientsin", {})
    with pytest.raises(WeightsError, match=r"a pass network of tientsin, not of nanjing$"):
        pass_file.load(other)
    with pytest.raises(WeightsError, match=r"a pass network, not a play network$"):
        load_play(pass_weights)
    from tichusim.strategies.learned import SHIPPED

    with pytest.raises(WeightsError, match=r"a play network .*not a pass network$"):
        pass_file.load(SHIPPED)
    for err in (
        pytest.raises(ValueError, match="pass network"),
        pytest.raises(ValueError, match="pass network"),
    ):
        with err:
            resolve(f"learned[pass_weights={other}]")[0].param_row()
    with pytest.raises(ValueError, match="pass_weights only pass with pass=learned"):
        resolve(f"expert[pass_weights={pass_weights}]")


def test_wuwang_labels_give_each_candidate_at_every_role(tmp_path):
    """The labels (``passdata.label``) at Wu Wang: hands at the three roles (§4); a King's
    deals each a group with its Minister's hand, an opponent's hand one group; every group's
    candidates the learned passing's own, expert's first."""
    from tichusim.learn.passdata import label, read_passes, wuwang_seat

    paths = label(tmp_path, hands=3, deals=2, seed=9, shard_hands=3, variant="wuwang")
    d = read_passes(paths)
    assert str(d["variant"]) == "wuwang"
    assert d["seats"].tolist() == [0, 0, 1, 3]  # the King's two deals, then each opponent
    assert [wuwang_seat(h) for h in range(3)] == [0, 1, 3]
    assert d["ministers"][0] != d["ministers"][1] and not d["ministers"][2:].any()
    for m in d["ministers"][:2]:
        assert int(m) & int(d["hands"][0]) == 0 and bin(int(m)).count("1") == 14
    row = STRATEGIES["learned"].param_row("wuwang")
    for g in range(4):
        want = candidates(row, int(d["hands"][g]), "wuwang", int(d["seats"][g]))
        np.testing.assert_array_equal(d["cands"][d["start"][g] : d["start"][g + 1]], want)
    assert np.all(np.abs(d["values"]) <= 8.0)  # margins over 100, a round's at most ±800
    with pytest.raises(ValueError, match="labelled at nanjing or wuwang, not 'tientsin'$"):
        label(tmp_path / "t", hands=1, deals=1, seed=1, variant="tientsin")
