"""A PettingZoo environment for learning code: one round of a team game as an AEC episode.
Needs the ``rl`` extra (``pip install tichusim[rl]``); ``import tichusim``
never loads PettingZoo or Gymnasium.

``env(variant, opponents, seed, learners=...)``: the agents are the learners' players
(``"seat_0"``, ``"seat_2"``: player numbers, the positions of Nanjing and Tientsin; in Wu Wang
the player, whose position changes every round, and the King's agent also decides for his
Minister, §4); every other player plays the scripted strategy ``opponents``. The round is a
``tichusim.Round``: the engine plays the scripted players and stops at each learner decision.

Actions (``Discrete(ACTIONS)``, ``ACTIONS`` = 2048), by decision kind:

* ``grand_tichu``, ``tichu``: 0 (no call) or 1 (call);
* ``pass`` (§2.4, §3): one sub-step per receiver, in ``Gifts.receivers`` order; the action is
  a card index 0..55 (``CARD_BITS``), the mask the hand's cards not given in earlier sub-steps;
* ``play``, ``bomb``: action ``i`` is the ``i``-th of ``Round.legal()`` (pass, ``None``, at its
  index: the last). A list longer than ``ACTIONS`` keeps its first ``ACTIONS - 1`` plays and
  the pass (its first ``ACTIONS`` when passing is not allowed). Leads of 14 random cards
  list up to 1,057 plays (the longest of 120,000; 1 in 100,000 above 1,024), hence 2048;
* ``wish`` (§2.11): the rank, 0 (no wish) or 2..14;
* ``dragon`` (§2.12), ``dog`` (§3): the index into ``Round.legal()`` (lowest seat first).

Observations: ``{"observation": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1,
(ACTIONS,), int8)}``, the convention of ``pettingzoo.classic``. The observation is built from
the seat's ``View`` alone (RULES.md §6: never another seat's hand), in the segments of
``SEGMENTS``. Cards are 56 0/1 entries (``CARD_BITS`` order); per-seat entries are relative to
the deciding seat (entry ``j``: the seat ``j`` places after it, 6 entries, zeros past the
table's seats). An agent not to act observes what it last saw, with an empty mask.

Rewards: 0 until the round ends, then each agent's round score (its team's, §2.14; Wu Wang's
per-player score, §4); every agent terminates then. One episode is one round; ``reset(seed)``
reseeds the environment's generator, which draws each episode's (seed, round key): the same
seed gives the same episodes.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .cards.notation import DECK
from .games.registry import game as make_game
from .games.steps import IllegalChoice, Round

__all__ = [
    "ACTIONS",
    "CARD_BITS",
    "OBS_SIZE",
    "SEGMENTS",
    "TichuEnv",
    "card_vector",
    "env",
    "observation",
]

ACTIONS = 2048  # more than any 14-card lead of 120,000 random ones (module docstring)
CARD_BITS = np.array([b for b in range(64) if DECK >> b & 1], np.uint64)  # card index -> bit
SEATS = 6  # the largest table (Tientsin, §3)
KINDS = 10  # combination kinds of a code (kernels/combos.py KIND_NAMES)
DECISIONS = ("grand_tichu", "tichu", "pass", "play", "bomb", "wish", "dragon", "dog")
VARIANTS = ("nanjing", "tientsin", "wuwang")
DEFAULT_LEARNERS = {"nanjing": (0, 2), "tientsin": (0, 2, 4), "wuwang": (0,)}

SEGMENTS = (
    ("hand", 56),
    ("ally_hand", 56),  # ally: Wu Wang's other hand the King plays (§4)
    ("exposed", 56),  # Wu Wang: the Minister's hand, face up after passing (§4)
    ("played", 56),
    ("trick_cards", 56),
    ("top_cards", 56),
    ("given", 56),
    ("received", 56),  # this seat's passing
    ("chosen", 56),  # the cards picked in this passing's earlier sub-steps
    ("top_kind", KINDS),  # one-hot, all zeros when leading
    ("top_length", 1),
    ("top_rank", 1),  # cards / 16, rank / 32 (a Phoenix single: +1/2)
    ("counts", SEATS),  # cards in hand / 14
    ("grand_tichu", SEATS),
    ("tichu", SEATS),
    ("has_played", SEATS),
    ("out", SEATS),
    ("passed", SEATS),
    ("top_seat", SEATS),
    ("leader", SEATS),
    ("wish_free", SEATS),
    ("points_taken", SEATS),  # card points in tricks, (points + 25) / 150
    ("position", SEATS),  # the deciding seat's own position, one-hot (Wu Wang's roles)
    ("wish", 15),  # one-hot: 0 none, 2..14
    ("decision", len(DECISIONS)),
    # a Tichu's decision point (§2.3): before passing, after, its turn, its bomb out of turn
    ("tichu_point", 4),
    ("pass_allowed", 1),  # a play decision that allows passing
    ("receiver", SEATS),  # the passing sub-step's receiver, relative
    ("variant", len(VARIANTS)),
    ("phoenix_led_half", 1),
)
OBS_SIZE = sum(n for _, n in SEGMENTS)
_AT: dict[str, slice] = {}  # segment name -> its slice of the observation
for _name, _n in SEGMENTS:
    _start = max((s.stop for s in _AT.values()), default=0)
    _AT[_name] = slice(_start, _start + _n)


def env(variant: str = "nanjing", opponents="heuristic", seed: int | None = None, **options):
    """The AEC environment of ``variant`` (``TichuEnv``; ``learners=`` picks the agents'
    players, the rest of ``options`` are the game's options)."""
    return TichuEnv(variant, opponents, seed, **options)


def card_vector(mask: int) -> np.ndarray:
    """The 56 entries of a card mask, in ``CARD_BITS`` order."""
    return ((np.uint64(mask) >> CARD_BITS) & np.uint64(1)).astype(np.float32)


def observation(view, chosen: int = 0, receiver: int | None = None) -> np.ndarray:
    """The observation of ``view`` (fields of one seat's ``View`` only, RULES.md §6);
    ``chosen``: the cards picked so far in a passing, ``receiver``: the seat given to now."""
    f = view.fields()
    n, seat = f["n_players"], f["seat"]  # the seats (positions: Wu Wang has 4, §4)
    out = np.zeros(OBS_SIZE, np.float32)

    def put(name, value):
        out[_AT[name]] = value

    for name, field in (
        ("hand", "hand"),
        ("ally_hand", "ally_hand"),
        ("exposed", "exposed"),
        ("played", "played"),
        ("trick_cards", "trick_cards"),
        ("top_cards", "top_mask"),
    ):
        put(name, card_vector(f[field]))
    put("given", card_vector(np.bitwise_or.reduce(f["given"])))
    put("received", card_vector(np.bitwise_or.reduce(f["received"])))
    put("chosen", card_vector(chosen))
    code = f["top_code"]
    if code:
        out[_AT["top_kind"].start + (code >> 16)] = 1
        put("top_length", ((code >> 8) & 255) / 16)
        put("top_rank", min((code & 255) / 64, 1))
    order = [(seat + j) % n for j in range(n)]  # relative seat j -> absolute seat

    def per_seat(name, values):
        out[_AT[name].start : _AT[name].start + n] = [values[s] for s in order]

    per_seat("counts", f["counts"] / 14)
    for name in ("grand_tichu", "tichu", "has_played"):
        per_seat(name, f[name] != 0)
    gone = set(int(s) for s in f["out_order"][: f["n_out"]])
    per_seat("out", [s in gone for s in range(n)])
    per_seat("passed", [f["passed"] >> s & 1 for s in range(n)])
    per_seat("wish_free", [f["wish_free"] >> s & 1 for s in range(n)])
    if code:
        per_seat("top_seat", [s == f["top_seat"] for s in range(n)])
        per_seat("leader", [s == f["leader"] for s in range(n)])
    per_seat("points_taken", (f["points_taken"] + 25) / 150)
    out[_AT["position"].start + seat] = 1
    out[_AT["wish"].start + f["wish"]] = 1
    out[_AT["decision"].start + DECISIONS.index(view.decision)] = 1
    if view.decision == "tichu":
        out[_AT["tichu_point"].start + view.detail] = 1
    if view.decision == "play":
        put("pass_allowed", view.detail != 0)
    if receiver is not None:
        out[_AT["receiver"].start + (receiver - seat) % n] = 1
    out[_AT["variant"].start + f["variant"]] = 1
    put("phoenix_led_half", f["rules"]["phoenix_led_half"])  # the §2.6 Option
    return out


class TichuEnv(AECEnv):
    """One round of a team game per episode, the learners' decisions as AEC steps (encoding
    in the module docstring)."""

    metadata = {"name": "tichusim_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "nanjing",
        opponents="heuristic",
        seed: int | None = None,
        learners=None,
        render_mode: str | None = None,
        **options,
    ):
        super().__init__()
        self.render_mode = render_mode
        if variant not in VARIANTS:
            raise ValueError(
                f"variant: one of {', '.join(VARIANTS)}, not {variant!r} (Grand "
                f"Seigneur has no environment yet)"
            )
        self.variant = variant
        self._options = options or None
        players = make_game(variant, None, self._options).players
        learners = DEFAULT_LEARNERS[variant] if learners is None else tuple(learners)
        if (
            not learners
            or any(p not in range(players) for p in learners)
            or len(set(learners)) != len(learners)
        ):
            raise ValueError(f"learners: distinct players 0..{players - 1}, not {learners!r}")
        self._learners = learners
        self._strategies = [None if p in learners else opponents for p in range(players)]
        self.possible_agents = [f"seat_{p}" for p in learners]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(ACTIONS)
        self._rng = np.random.default_rng(seed)
        self.round: Round | None = None

    @property
    def _current(self) -> Round:
        """The round under way (``reset`` starts one)."""
        if self.round is None:
            raise RuntimeError("no round under way: call reset() first")
        return self.round

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        """A new round: its (seed, key) drawn from the generator ``seed`` reseeds, so
        episodes differ and the same seed replays them."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        round_seed, key = (int(x) for x in self._rng.integers(0, 2**62, 2))
        self.round = Round(
            round_seed, key, self._strategies, variant=self.variant, options=self._options
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        empty: dict[str, np.ndarray] = {
            "observation": np.zeros(OBS_SIZE, np.float32),
            "action_mask": np.zeros(ACTIONS, np.int8),
        }
        self._last: dict[str, dict[str, np.ndarray]] = {a: empty for a in self.agents}
        self._chosen: list[int] = []  # the cards picked in the passing's sub-steps so far
        self._play_on()

    def observe(self, agent):
        if self._current.done or agent != self.agent_selection:
            last = self._last[agent]
            return {
                "observation": last["observation"].copy(),
                "action_mask": np.zeros(ACTIONS, np.int8),
            }
        legal = self._current.legal()
        view = self._current.view()
        receiver = None
        if view.decision == "pass":
            receiver = legal.receivers[len(self._chosen)]
        obs = {
            "observation": observation(view, sum(self._chosen), receiver),
            "action_mask": self.action_mask(),
        }
        self._last[agent] = obs
        return {k: v.copy() for k, v in obs.items()}

    def action_mask(self) -> np.ndarray:
        """The legal actions of the awaited decision (module docstring)."""
        mask = np.zeros(ACTIONS, np.int8)
        legal, kind = self._current.legal(), self._current.decision
        if kind == "pass":
            free = int(self._current.view().hand) & ~sum(self._chosen)
            mask[:56] = card_vector(free)
        elif kind == "wish":
            mask[legal] = 1
        else:
            mask[: len(_kept(legal))] = 1
        return mask

    def choice(self, action: int):
        """The ``Round`` choice of ``action`` (a card mask in a passing's sub-step);
        ``IllegalChoice`` for an action the mask excludes."""
        if not 0 <= action < ACTIONS or not self.action_mask()[action]:
            raise IllegalChoice(
                f"{self._current.decision} ({self.agent_selection}): action {action} is masked out"
            )
        kind = self._current.decision
        if kind == "pass":
            return 1 << int(CARD_BITS[action])
        if kind == "wish":
            return action
        return _kept(self._current.legal())[action]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        choice = self.choice(int(action))
        if self._current.decision == "pass":
            self._chosen.append(choice)
            if len(self._chosen) < len(self._current.legal().receivers):
                self._clear_rewards()
                return  # the same seat picks its next gift
            choice, self._chosen = tuple(self._chosen), []
        self._last[agent] = self.observe(agent)
        self._current.act(choice)
        self._play_on()
        self._accumulate_rewards()

    def _play_on(self) -> None:
        """Play the scripted seats up to the next learner decision; score a finished round."""
        self._clear_rewards()
        self._current.advance()
        if not self._current.done:
            self.agent_selection = f"seat_{self._current.player}"
            return
        rounds, _ = self._current.tables()
        for agent, p in zip(self.possible_agents, self._learners, strict=False):
            self.rewards[agent] = int(rounds[_score_column(self.variant, p)].iloc[0])
            self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def render(self) -> str:
        """The awaited decision and what its seat sees (the view shows its own hand only), or
        the round's scores once it is over."""
        if self._current.done:
            rounds, _ = self._current.tables()
            scores = [f"{c} {rounds[c].iloc[0]}" for c in rounds.columns if c.startswith("score_")]
            return "round over: " + ", ".join(scores)
        return f"{self.agent_selection}: {self._current.decision}, {self._current.view()!r}"

    def close(self) -> None:
        """Nothing to release (a Round holds arrays only); PettingZoo's API test wants it
        beside ``render``."""


def _kept(legal: list) -> list:
    """A play list cut to ``ACTIONS`` choices, keeping the pass (module docstring)."""
    if len(legal) <= ACTIONS:
        return legal
    return legal[: ACTIONS - 1] + [None] if legal[-1] is None else legal[:ACTIONS]


def _score_column(variant: str, player: int) -> str:
    """The rounds table's score of ``player``: Wu Wang's per player, else the team's."""
    return f"score_player{player}" if variant == "wuwang" else f"score_team{player % 2}"
