"""The training data's files (``tichusim.learn.data``): deterministic whatever the workers and
the shard size, resumable, refused for other settings, read back as arrays."""

import json

import numpy as np
import pytest

from tichusim.kernels.outside import D_BOMB, D_PLAY
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.learn.data import MANIFEST, DataSettings, generate, label_rounds, read_decisions

SMALL = {"rounds": 30, "seed": 4, "label_rate": 0.3, "max_candidates": 6, "explore": 0.1}


def _files(paths):
    return [p.read_bytes() for p in paths]


def _same(a, b):
    for name, x, y in zip(a._fields, a, b, strict=True):
        assert x.dtype == y.dtype, name
        assert np.array_equal(x, y), name


def test_the_files_are_the_same_bytes_whatever_the_workers(tmp_path):
    settings = DataSettings(**SMALL, shard_rounds=8)
    one = generate(settings, tmp_path / "one", progress=False, workers=1)
    two = generate(settings, tmp_path / "two", progress=False, workers=2)
    assert [p.name for p in one] == [f"decisions-{i:05d}.parquet" for i in range(4)]
    assert _files(one) == _files(two)


def test_the_decisions_are_the_same_whatever_the_shard_size(tmp_path):
    a = read_decisions(generate(DataSettings(**SMALL, shard_rounds=7), tmp_path / "a", False))
    b = read_decisions(generate(DataSettings(**SMALL, shard_rounds=30), tmp_path / "b", False))
    _same(a, b)
    assert len(a.round) > 20


def test_a_rerun_writes_only_the_missing_shards_with_the_same_bytes(tmp_path):
    settings = DataSettings(**SMALL, shard_rounds=10)
    paths = generate(settings, tmp_path, progress=False)
    before = _files(paths)
    paths[1].unlink()
    (tmp_path / f".{paths[2].name}.tmp").write_bytes(b"half")  # a stop before the rename
    stamps = [p.stat().st_mtime_ns for p in (paths[0], paths[2])]
    assert generate(settings, tmp_path, progress=False) == paths
    assert _files(paths) == before
    assert [p.stat().st_mtime_ns for p in (paths[0], paths[2])] == stamps
    assert not list(tmp_path.glob(".*"))


def test_a_directory_of_other_settings_is_refused_in_one_line(tmp_path):
    generate(DataSettings(**SMALL), tmp_path, progress=False)
    other = DataSettings(**{**SMALL, "label_rate": 0.5})
    with pytest.raises(ValueError, match="label_rate 0.3 there, 0.5 here") as info:
        generate(other, tmp_path, progress=False)
    assert "\n" not in str(info.value)
    assert json.loads((tmp_path / MANIFEST).read_text())["settings"]["label_rate"] == 0.3
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("")
    with pytest.raises(ValueError, match="holds no decision data"):
        generate(other, tmp_path / "other", progress=False)


def test_a_directory_of_another_player_under_the_same_text_is_refused(tmp_path):
    """Other weights at the same path are another player: the self-play round's data would
    otherwise outlive the network that played it."""
    from support.learned_weights import write_weights

    weights = write_weights(tmp_path / "w.npz", seed=1)
    text = f"learned[weights={weights.as_posix()}]"
    settings = DataSettings(**SMALL, behavior=text, rollout="expert")
    generate(settings, tmp_path / "data", progress=False)
    assert generate(settings, tmp_path / "data", progress=False)  # the same player: kept
    write_weights(weights, seed=2)
    with pytest.raises(ValueError, match="another player than behavior 'learned") as info:
        generate(DataSettings(**SMALL, behavior=text, rollout="expert"), tmp_path / "data")
    assert "\n" not in str(info.value)


def test_the_decisions_read_back_as_the_views_and_candidates_they_were(tmp_path):
    d = read_decisions(generate(DataSettings(**SMALL), tmp_path, False))
    n = len(d.round)
    assert d.public.dtype == PUBLIC and d.private.dtype == PRIVATE
    assert len(d.public) == len(d.private) == len(d.chosen) == len(d.seat) == n
    assert d.start[0] == 0 and d.start[-1] == len(d.masks) == len(d.codes) == len(d.values)
    sizes = np.diff(d.start)
    assert np.all((sizes >= 2) & (sizes <= 6))
    assert np.all((d.chosen >= 0) & (d.chosen < sizes))
    assert set(np.unique(d.decision)) <= {D_PLAY, D_BOMB}
    assert np.all(d.private["seat"] == d.seat)
    assert np.all(d.public["n_players"] == 4)
    assert np.all(np.diff(d.round) >= 0) and d.round.max() < 30
    # a candidate's cards are in the deciding seat's hand (0: the pass or no bomb)
    assert np.all(d.masks & ~np.repeat(d.private["hand"], sizes) == 0)
    assert np.allclose(d.values * 20, np.round(d.values * 20))  # scores move by 5 points
    _same(d, read_decisions(tmp_path))  # the directory: its shards in order


def test_settings_hold_plain_numbers_whatever_they_were_given_as(tmp_path):
    settings = DataSettings(rounds=np.int64(3), label_rate=1, max_candidates=np.int32(4))
    assert settings == DataSettings(rounds=3, label_rate=1.0, max_candidates=4)
    generate(settings, tmp_path, progress=False)
    assert json.loads((tmp_path / MANIFEST).read_text())["settings"]["rounds"] == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": 0}, "rounds: a whole number >= 1, not 0"),
        ({"seed": -1}, "seed: a whole number from 0 to 2**64 - 1, not -1"),
        ({"variant": "grand-seigneur"}, "variant: one of nanjing, tientsin, wuwang"),
        ({"behavior": "nonsense"}, "behavior: "),
        ({"rollout": "expert,expert"}, "rollout: one strategy for every seat"),
        ({"rollout": "search:samples=4"}, "rollout: 'search:samples=4' is played in Python"),
        ({"label_rate": 1.5}, "label_rate: a number between 0 and 1, not 1.5"),
        ({"explore": "a lot"}, "explore: a number between 0 and 1"),
        ({"max_candidates": 1}, "max_candidates: a whole number >= 2, not 1"),
        ({"shard_rounds": 2.5}, "shard_rounds: a whole number >= 1, not 2.5"),
        ({"samples": -1}, "samples: a whole number >= 0, not -1"),
    ],
)
def test_bad_settings_are_refused_in_one_line(change, message):
    with pytest.raises(ValueError) as info:
        DataSettings(**{**SMALL, **change})
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_labels_over_the_searchs_deals_change_only_the_values():
    # the same rounds, decisions and candidates: only the labels are drawn over deals that
    # agree with the seat's view (their mean) instead of the true deal
    common = dict(rounds=40, seed=3, explore=0.0, label_rate=1.0, max_candidates=None)
    true_deal, true_scores = label_rounds(DataSettings(**common), 0, 40)
    searched, searched_scores = label_rounds(DataSettings(**common, samples=4), 0, 40)
    np.testing.assert_array_equal(true_scores, searched_scores)
    for name, column in true_deal.items():
        if name != "values":
            np.testing.assert_array_equal(np.asarray(column), np.asarray(searched[name]), name)
    a, b = true_deal["values"], searched["values"]
    assert not np.array_equal(a, b)
    # a candidate's value on other deals still follows its value on the true one
    assert np.corrcoef(a, b)[0, 1] > 0.3
    # a mean of four rollouts, each a whole number of points over 100 (§2.13) ...
    assert np.allclose(np.round(b * 400), b * 400, atol=1e-2)
    # ... of margins within a round's range
    assert np.all(np.abs(b) <= 8.0)
