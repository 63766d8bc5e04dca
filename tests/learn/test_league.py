"""The league that judges a network before it ships (``tichusim.learn.league``): a network
that loses to one member, does not beat the shipped one, or gains less than the shipped one
against a member is refused with the figure that says so; one that passes every match ships;
and through ``tichusim learn`` a refused network is not copied to ``[output] weights``."""

import shutil
import sys

import numpy as np
import pytest
from test_learn_config import GOOD, _config, _fake_data, run

from tichusim.learn.config import ConfigError, load_learn_config
from tichusim.learn.league import LeagueSettings, judge, network
from tichusim.stats import mean_ci
from tichusim.strategies.learned import SHIPPED, shipped


class Played:
    """A match's result as ``duplicate`` gives it: the margin per deal and its estimate."""

    def __init__(self, margins):
        self.margins = np.asarray(margins, float)
        self.diff = mean_ci(self.margins)
        self.deals = len(self.margins)


def _fake_play(margins_of, calls):
    """``play`` whose match of a against b has the per-deal margins ``margins_of[(a, b)]``."""

    def play(a, b, deals, *, seed, variant, workers):
        calls.append((a, b, deals, seed, variant))
        return Played(margins_of[(a, b)][:deals])

    return play


@pytest.fixture
def files(tmp_path):
    """Two networks of different identities: the one judged and the one shipped."""
    cand, ship = tmp_path / "new.npz", tmp_path / "shipped.npz"
    shutil.copyfile(shipped("tientsin"), cand)
    shutil.copyfile(SHIPPED, ship)
    return cand, ship


def _around(mean, seed=5, n=400):
    return mean + np.random.default_rng(seed).normal(0, 10, n)


def _margins(cand, ship, *, vs_shipped, vs_expert, shipped_vs_expert):
    c, s = network(cand), network(ship)
    return {
        (c, s): _around(vs_shipped),
        (c, "expert"): _around(vs_expert, 6),
        (s, "expert"): _around(shipped_vs_expert, 7),
    }


SETTINGS = LeagueSettings(deals=400, slow_deals=50, seed=9, members=["expert"])


def test_a_network_that_passes_every_match_ships(files):
    cand, ship = files
    calls = []
    margins = _margins(cand, ship, vs_shipped=5, vs_expert=30, shipped_vs_expert=25)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(margins, calls))
    assert verdict.ships and verdict.line() == "ships"
    assert [(m.b, m.role) for m in verdict.matches] == [
        (network(ship), "shipped"),
        ("expert", "member"),
    ]
    assert all(c[2:] == (400, 9, "nanjing") for c in calls)  # held-out seed, every match
    assert "| expert | member | 400 | +" in verdict.to_markdown()


def test_the_shipped_file_being_this_network_is_said_as_such(files):
    """Re-running a learning that rebuilds the shipped network bit for bit: no head-to-head,
    and the page says the shipped file is this network, not that nothing is shipped."""
    cand, _ = files
    margins = {(network(cand), "expert"): _around(20)}
    verdict = judge(cand, cand, SETTINGS, "nanjing", _fake_play(margins, []))
    page = verdict.to_markdown()
    assert verdict.ships and [m.b for m in verdict.matches] == ["expert"]
    assert "the file shipped is this network" in page and "Shipped now" not in page


def test_a_network_losing_to_one_member_is_refused(files):
    """Nothing shipped yet, so no head-to-head: it loses to expert, and that alone refuses it;
    with a shipped network that does not lose to expert, too."""
    cand, ship = files
    margins = _margins(cand, ship, vs_shipped=12, vs_expert=-6, shipped_vs_expert=-6)
    verdict = judge(cand, None, SETTINGS, "nanjing", _fake_play(margins, []))
    loss = verdict.matches[0].margin
    assert loss.high < 0 and verdict.matches[0].kept is None
    assert (
        verdict.line() == f"does not ship, because it loses to expert: {loss.pts()} over 400 deals"
    )
    margins = _margins(cand, ship, vs_shipped=12, vs_expert=-3, shipped_vs_expert=1)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(margins, []))
    assert verdict.reasons[0].startswith("it loses to expert: -")


def test_a_member_that_beats_the_shipped_network_too_holds_it_to_its_margin(files):
    """search far the stronger: a network that loses to it by less than the shipped one ships;
    one that loses by more does not."""
    cand, ship = files
    better = _margins(cand, ship, vs_shipped=8, vs_expert=-20, shipped_vs_expert=-30)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(better, []))
    assert verdict.ships, verdict.line()
    assert any(n.startswith("expert beats the shipped network too") for n in verdict.notes)
    worse = _margins(cand, ship, vs_shipped=8, vs_expert=-40, shipped_vs_expert=-30)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(worse, []))
    assert verdict.reasons[0].startswith("against expert it gains less than the shipped network")
    assert len(verdict.reasons) == 1


def test_a_network_that_beat_only_its_parent_is_refused(files):
    """It beats the shipped network and expert, but expert by less than the shipped one does:
    it learned to beat itself."""
    cand, ship = files
    margins = _margins(cand, ship, vs_shipped=11.5, vs_expert=20, shipped_vs_expert=30)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(margins, []))
    assert verdict.reasons == [
        f"against expert it gains less than the shipped network: its margin less the shipped "
        f"one's {verdict.matches[1].kept.pts()} over 400 deals"
    ]
    assert verdict.matches[1].kept.high < 0


def test_a_network_that_does_not_beat_the_shipped_one_is_refused(files):
    cand, ship = files
    margins = _margins(cand, ship, vs_shipped=0, vs_expert=25, shipped_vs_expert=25)
    verdict = judge(cand, ship, SETTINGS, "nanjing", _fake_play(margins, []))
    assert verdict.line().startswith(
        "does not ship, because it does not beat the shipped network head to head: "
    )


def test_slow_members_and_previous_networks(files, tmp_path):
    """search plays the fewer deals; a previous network is a member by its weights file."""
    cand, ship = files
    calls = []
    settings = LeagueSettings(
        deals=400, slow_deals=50, seed=9, members=["search"], previous=[str(ship)]
    )
    c = network(cand)
    margins = {(c, "search"): _around(3), (c, network(ship)): _around(4)}
    verdict = judge(cand, None, settings, "wuwang", _fake_play(margins, calls))
    assert verdict.ships and verdict.shipped is None
    assert [(c[1], c[2]) for c in calls] == [("search", 50), (network(ship), 400)]
    assert "no network is shipped there yet" in verdict.to_markdown()


@pytest.mark.parametrize(
    "extra, message",
    [
        ("", "output.weights: a network is copied there only when the league ships it"),
        ("[league]\nseed = 0\n", "league.seed: 0 is data.seed: the league plays deals no data"),
        ("[league]\nmembers = ['expert', 'expert']\n", "league.members: "),
        ("[league]\ndeals = 0\n", "league.deals: input should be greater than 0"),
    ],
)
def test_a_config_without_a_held_out_league_is_refused(tmp_path, extra, message):
    text = GOOD + 'weights = "{dir}/shipped.npz"\n' + extra
    with pytest.raises(ConfigError) as err:
        load_learn_config(_config(tmp_path, text)).check_league()
    assert str(err.value).startswith(message), str(err.value)


def test_learn_does_not_copy_a_network_the_league_refuses(tmp_path, monkeypatch):
    """A network trained on a dozen rounds loses to expert on held-out deals: the command
    says why and leaves the shipped file as it was."""
    pytest.importorskip("torch")
    monkeypatch.setitem(sys.modules, "tichusim.learn.data", _fake_data([]))
    before = SHIPPED.read_bytes()
    text = (
        GOOD
        + 'weights = "{dir}/shipped/learned.npz"\n'
        + "[league]\ndeals = 40\nseed = 11\nmembers = ['expert']\n"
    )
    config = _config(tmp_path, text)
    target = tmp_path / "out" / "shipped" / "learned.npz"
    target.parent.mkdir(parents=True)
    target.write_bytes(before)
    res = run("learn", str(config), "--quiet")
    assert res.exit_code == 0, res.output
    assert "the network does not ship, because" in res.output
    assert "it loses to expert" in res.output
    assert target.read_bytes() == before
    assert (tmp_path / "out" / "league.md").read_text().count("| expert | member | 40 |") == 1


def test_a_shipped_file_of_another_format_is_no_head_to_head(files, tmp_path):
    """A re-export after the weights format changed: the old file cannot be played, so the
    network is judged by its members alone (and still refused when it loses to one)."""
    cand, _ = files
    old = tmp_path / "old.npz"
    old.write_bytes(b"not a weights file")
    margins = {(network(cand), "expert"): _around(-6)}
    verdict = judge(cand, old, SETTINGS, "nanjing", _fake_play(margins, []))
    assert verdict.shipped is None and [m.b for m in verdict.matches] == ["expert"]
    assert any(n.startswith("the file shipped cannot be played") for n in verdict.notes)
    assert verdict.reasons[0].startswith("it loses to expert")


def test_a_pass_network_is_judged_as_learned_passing_with_it(tmp_path):
    """A pass network plays as ``learned``'s pass network (its play network the shipped
    one); it is refused for losing to ``learned:pass=expert`` as a play network would be,
    and a play network's file judged as a pass network is refused in one line."""
    from tichusim.strategies import passnet
    from tichusim.strategies.learned import WeightsError

    arrays, variant, meta = passnet.read(passnet.SHIPPED)
    other = {k: v * 1.01 for k, v in arrays.items()}
    shipped_pass = passnet.export(arrays, tmp_path / "shipped-pass.npz", variant, meta)
    cand = passnet.export(other, tmp_path / "new-pass.npz", variant, meta)
    c, s = network(cand, "pass"), network(shipped_pass, "pass")
    assert c == f"learned[pass_weights={cand.as_posix()}]"
    old = "learned:pass=expert"
    settings = LeagueSettings(deals=400, slow_deals=50, seed=9, members=[old])
    margins = {(c, s): _around(4), (c, old): _around(-5, 6), (s, old): _around(8, 7)}
    verdict = judge(
        cand, shipped_pass, settings, "nanjing", _fake_play(margins, []), decision="pass"
    )
    assert not verdict.ships
    assert any(r.startswith(f"it loses to {old}: -") for r in verdict.reasons)
    margins = {(c, s): _around(4), (c, old): _around(12, 6), (s, old): _around(8, 7)}
    verdict = judge(
        cand, shipped_pass, settings, "nanjing", _fake_play(margins, []), decision="pass"
    )
    assert verdict.ships
    with pytest.raises(WeightsError):
        judge(SHIPPED, None, settings, "nanjing", _fake_play({}, []), decision="pass")
