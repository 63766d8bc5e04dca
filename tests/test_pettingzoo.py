"""tichusim.pettingzoo: PettingZoo's own API test, random masked rollouts
that only ever play legal actions and are scored as the rounds' tables score them, the same
seed giving the same episodes, and observations built from the deciding seat's view alone
(RULES.md §6)."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from tichusim import IllegalChoice  # noqa: E402
from tichusim import pettingzoo as tichu_pettingzoo  # noqa: E402

VARIANTS = ["nanjing", "tientsin", "wuwang"]


def player(agent: str) -> int:
    return int(agent.split("_")[1])


def round_points(env, agent: str) -> int:
    """The agent's round score as the tables give it: its seat's ``points`` (its team's
    score), Wu Wang's per-player score (the seats table has positions, which rotate)."""
    rounds, seats = env.round.tables()
    if env.variant == "wuwang":
        return int(rounds[f"score_player{player(agent)}"].iloc[0])
    return int(seats.loc[seats.seat == player(agent), "points"].iloc[0])


def play_episode(env, pick, seed=None) -> tuple[dict, list]:
    """One episode with ``pick(obs, env)`` choosing every action: the rewards summed per agent,
    and the observations seen."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        seen.append(obs["observation"])
        env.step(pick(obs, env))
    return totals, seen


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")  # a Dict, as classic's
def test_api(variant):
    api_test(tichu_pettingzoo.env(variant, seed=1), num_cycles=1000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_masked_rollouts_are_legal_and_scored_as_the_rounds(variant):
    """50 rounds of random masked actions: each mask holds exactly the awaited decision's legal
    choices (the Round rejects anything else with IllegalChoice), and each agent's rewards sum
    to its round score."""
    env = tichu_pettingzoo.env(variant, seed=3)
    rng = np.random.default_rng(0)

    def pick(obs, env):
        mask, kind, legal = obs["action_mask"], env.round.decision, env.round.legal()
        if kind == "pass":
            chosen = sum(int(c) for c in env._chosen)
            assert tichu_pettingzoo.card_vector(int(env.round.view().hand) & ~chosen).tolist() == (
                mask[:56].tolist()
            )
            assert not mask[56:].any()
        elif kind == "wish":
            assert np.flatnonzero(mask).tolist() == legal
        else:
            kept = len(tichu_pettingzoo._kept(legal))
            assert mask.sum() == kept and mask[:kept].all()
        return int(rng.choice(np.flatnonzero(mask)))

    for _ in range(50):
        totals, _ = play_episode(env, pick)
        assert totals == {a: round_points(env, a) for a in env.possible_agents}


def test_a_masked_out_action_is_refused():
    env = tichu_pettingzoo.env(seed=2)
    env.reset()
    obs = env.observe(env.agent_selection)
    with pytest.raises(IllegalChoice):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.render().startswith(f"{env.agent_selection}: grand_tichu, View(seat ")


def test_same_seed_same_episodes_and_episodes_differ():
    first = lambda obs, env: int(np.flatnonzero(obs["action_mask"])[0])  # noqa: E731
    a, b = tichu_pettingzoo.env(seed=5), tichu_pettingzoo.env(seed=99)
    runs_a = [play_episode(a, first), play_episode(a, first)]
    runs_b = [play_episode(b, first, seed=5), play_episode(b, first)]  # reseeded: as a
    for (ta, sa), (tb, sb) in zip(runs_a, runs_b, strict=False):
        assert ta == tb and len(sa) == len(sb)
        assert all(np.array_equal(x, y) for x, y in zip(sa, sb, strict=False))
    assert not np.array_equal(runs_a[0][1][0], runs_a[1][1][0])  # a new deal each episode


def test_learners_name_the_agents_and_wu_wang_agents_are_players():
    env = tichu_pettingzoo.env("tientsin", learners=(1,))
    assert env.possible_agents == ["seat_1"]
    env = tichu_pettingzoo.env("wuwang", learners=(0, 1, 2), seed=4)
    env.reset()
    seen = set()
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        seen.add((agent, env.round.to_act))
        assert player(agent) == env.round.player
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    king = int(env.round.tables()[0].king.iloc[0])
    assert (f"seat_{king}", 2) in seen  # the King decides for his Minister's position (§4)
    with pytest.raises(ValueError):
        tichu_pettingzoo.env("nanjing", learners=(0, 4))


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_reads_only_the_deciding_seats_view(variant):
    """Scrambling the other seats' private records (their hands, gifts, ally hands) never
    changes an observation; scrambling the deciding seat's own hand does (so the check can
    fail). And the card segments decode back to the view's fields."""
    env = tichu_pettingzoo.env(variant, seed=6, learners=tichu_pettingzoo.DEFAULT_LEARNERS[variant])
    env.reset()
    rng = np.random.default_rng(1)
    checked = 0
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        r = env.round
        view = r.view()
        privs = r._kept[2]
        saved = privs.copy()
        for s in range(len(privs)):
            if s != view.seat:
                for field in ("hand", "ally_hand", "given", "received"):
                    privs[field][s] = rng.integers(0, 2**63, privs[field][s].shape, np.uint64)
        r._view = None  # the view is taken again from the scrambled tables
        assert np.array_equal(env.observe(agent)["observation"], obs["observation"])
        privs["hand"][view.seat] ^= np.uint64(int(view.hand) & -int(view.hand))  # lose a card
        r._view = None
        assert not np.array_equal(env.observe(agent)["observation"], obs["observation"])
        privs[:] = saved
        r._view = None
        _decodes(obs["observation"], view)
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 10


def _decodes(o: np.ndarray, view) -> None:
    at = {}
    start = 0
    for name, n in tichu_pettingzoo.SEGMENTS:
        at[name] = o[start : start + n]
        start += n

    def mask(seg):
        return sum(
            1 << int(b) for b, on in zip(tichu_pettingzoo.CARD_BITS, seg, strict=False) if on
        )

    assert mask(at["hand"]) == view.hand and mask(at["played"]) == view.played
    assert mask(at["top_cards"]) == view.top_mask
    assert mask(at["ally_hand"]) == view.ally_hand
    n, seat = view.n_players, view.seat
    counts = view.counts
    assert np.allclose(at["counts"][:n] * 14, [counts[(seat + j) % n] for j in range(n)])
    assert tichu_pettingzoo.DECISIONS[int(np.argmax(at["decision"]))] == view.decision
    assert int(np.argmax(at["wish"])) == view.wish


def test_play_lists_past_the_action_space_keep_the_pass():
    plays = list(range(tichu_pettingzoo.ACTIONS + 500))
    assert tichu_pettingzoo._kept(plays + [None]) == plays[: tichu_pettingzoo.ACTIONS - 1] + [None]
    assert tichu_pettingzoo._kept(plays) == plays[: tichu_pettingzoo.ACTIONS]
    assert tichu_pettingzoo._kept(plays[:5] + [None]) == plays[:5] + [None]
