"""Rounds stepped from Python: the decisions a seat leaves to Python, their legal choices, the
seat's view, and the driver that plays units whose strategies include Python agents.

One engine: the round's state is the script of answers given so far (``kernels/outside.py``);
``Unit.advance`` calls the game's batch kernel, which plays from the deal and stops at the
first decision past the script, leaving the table where that decision is taken. A seat whose
strategy is ``None`` leaves every decision to the caller; an ``Agent``
(``tichusim.strategies.agents``) leaves those it defines, and ``advance`` asks it for them
itself. Each game says how its decisions
look in Python (``Game.steps``: ``team_steps`` or ``seigneur_steps``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import outside as O
from ..kernels.errors import ERR_NONE, ERR_PENDING, ERRORS
from .errors import SimulationError

if TYPE_CHECKING:
    from .base import Game

__all__ = ["DECISIONS", "IllegalChoice", "Round", "Unit", "View"]

# the decisions by the engine's code (kernels/outside.py) and the Agent method taking each
DECISIONS = {
    O.D_GRAND_TICHU: "grand_tichu",
    O.D_TICHU: "tichu",
    O.D_PASS: "pass",
    O.D_PLAY: "play",
    O.D_BOMB: "bomb",
    O.D_WISH: "wish",
    O.D_DRAGON: "dragon",
    O.D_DOG: "dog",
    O.D_GIVE_BACK: "give_back",
}
CODES = {name: code for code, name in DECISIONS.items()}


class IllegalChoice(ValueError):
    """A choice that is not among the decision's legal choices."""


class View:
    """What one seat may know when it decides (RULES.md §6): the table's public record and the
    seat's own private record, copies taken where the round stopped; never another seat's
    hand. Fields read as attributes (``view.hand``, ``view.counts``, ``view.wish``: the
    private record first, then the public one); ``decision`` and ``detail`` say what is asked;
    ``random`` is the seat's own generator for a Python agent, seeded by (seed, key, seat)."""

    def __init__(
        self,
        game: Game,
        public: np.ndarray,
        private: np.ndarray,
        decision: str,
        detail: int,
        random: np.random.Generator | None = None,
    ):
        self.game = game
        self.public = public  # one-record arrays: a scripted strategy's kernel takes them
        self.private = private
        self.decision = decision
        self.detail = detail
        self.random = random

    @property
    def variant(self) -> str:
        return self.game.name

    def __getattr__(self, name):
        for rec in ("private", "public"):
            arr = self.__dict__.get(rec)
            if arr is not None and name in arr.dtype.names:
                value = arr[0][name]
                return value.copy() if isinstance(value, np.ndarray) else value.item()
        raise AttributeError(f"a view has no field {name!r}")

    def fields(self) -> dict:
        """Every field of the view: public ones, then private ones (these win a name clash)."""
        out = {}
        for arr in (self.public, self.private):
            for name in arr.dtype.names:
                value = arr[0][name]
                out[name] = value.copy() if isinstance(value, np.ndarray) else value.item()
        return out

    def __repr__(self) -> str:
        return f"View(seat {self.seat}, {self.decision}, hand {self.game.steps.hand_text(self)})"


class Unit:
    """One unit of a game's batch kernel (a round, or a whole game) stepped from Python.

    ``play(kept) -> error`` calls the kernel for this unit with the tables ``kept``
    (``steps.kept_tables()``), which keep the script and the table where the unit stopped;
    ``agents[player]`` is an Agent, ``None`` (the caller decides) or absent (a scripted
    strategy, which never stops the round); ``key`` (the unit's round key or game id) seeds
    the agents' generators with ``seed``."""

    def __init__(self, game: Game, play, agents: dict, where: str, seed: int, key: int):
        self.game = game
        self._play = play
        self._kept = game.steps.kept_tables()
        work = self._kept[0]
        # views of the script's fields: an answer is written once, where the engine reads it
        self._answers = work["script"][0]
        self._streams = work["script_rng"][0]
        self._script_len = work["script_len"]
        self._asked_fields = work["asked"][0]
        self._agents = agents
        self.where = where
        self._seed = seed
        self._key = key
        self._random: dict[int, np.random.Generator] = {}
        self._asked: tuple | None = None
        self._legal = None
        self._view: View | None = None
        self.done = False
        self.decisions = 0  # decisions answered from Python so far

    # -- where the unit stands ----------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited (``None`` when done or not yet advanced)."""
        return None if self._asked is None else self._asked[1]

    @property
    def player(self) -> int | None:
        """The player whose decision is awaited: ``to_act``, but Wu Wang's King for his
        Minister (§4), as the strategies given to ``Round`` are numbered."""
        if self._asked is None:
            return None
        return self.game.steps.player_of(self.game, self._kept, self.to_act)

    @property
    def decision(self) -> str | None:
        return None if self._asked is None else DECISIONS[self._asked[0]]

    def legal(self):
        """The awaited decision's legal choices (forms in ``Game.steps``)."""
        self._need_decision()
        if self._legal is None:
            self._legal = self.game.steps.choices(self.game, self._kept, self._asked)
        return self._legal

    def view(self, seat: int | None = None) -> View:
        """What seat ``seat`` (default: the one to act) knows now; only the seat to act has a
        view while a decision is awaited: the others' records are mid-way (a simultaneous
        passing) and a seat's view is given for its own decision."""
        self._need_decision()
        seat = self.to_act if seat is None else seat
        if seat != self.to_act:
            raise ValueError(
                f"seat {seat} is not to act: views are given to the seat that "
                f"decides (seat {self.to_act}, {self.decision})"
            )
        if self._view is None:
            pub, privs = self._kept[1], self._kept[2]
            player = self.game.steps.player_of(self.game, self._kept, seat)
            self._view = View(
                self.game,
                _snapshot(pub),
                _snapshot(privs[seat : seat + 1]),
                self.decision,
                int(self._asked[2]),
                self._generator(player),
            )
        return self._view

    # -- moving on ----------------------------------------------------------------------

    def act(self, choice) -> None:
        """Answer the awaited decision with one of ``legal()`` (``IllegalChoice`` if it is
        none of them)."""
        self._need_decision()
        self._answer(self._encoded(choice, self.legal()))

    def _encoded(self, choice, legal) -> int:
        """The script's answer for ``choice``; ``IllegalChoice`` names the decision and the
        legal choices."""
        try:
            return self.game.steps.answer_of(choice, legal)
        except ValueError as exc:
            raise IllegalChoice(
                f"{self.decision} (seat {self.to_act}): {choice!r} is {exc}; legal: {legal!r}"
            ) from None

    def _answer(self, answer: int) -> None:
        """Append the answer to the script, with the seat's stream as the answer left it (the
        view's, which a scripted strategy's ``decide`` moves on as the engine would)."""
        n = self.decisions
        if n >= O.MAX_SCRIPT:
            raise SimulationError(f"{self.where}: more than {O.MAX_SCRIPT} decisions from Python")
        privs = self._kept[2]
        view = self._view
        self._answers[n] = answer
        self._streams[n] = (view.private if view is not None else privs[self.to_act :])[0]["rng"]
        self._asked = None
        self._legal = None
        self._view = None
        self.decisions += 1

    def advance(self) -> None:
        """Play on until a decision is awaited from the caller or the unit is over; agents
        answer their own decisions on the way."""
        while not self.done:
            if self._asked is None:
                self._run()
                if self.done:
                    return
            player = self.game.steps.player_of(self.game, self._kept, self.to_act)
            agent = self._agents.get(player)
            if agent is None:
                return
            self._answer(self._ask(agent))

    def _run(self) -> None:
        self._script_len[0] = self.decisions
        err = self._play(self._kept)
        if err == ERR_PENDING:
            self._asked = tuple(self._asked_fields.tolist())
            return
        if err != ERR_NONE:
            raise SimulationError(f"{self.where}: {ERRORS[err]}")
        self.done = True

    def _ask(self, agent) -> int:
        """The agent's answer as the script takes it; an agent that fails or answers outside
        the legal choices names itself, the decision and the round (``AgentError``)."""
        from ..strategies.agents import AgentError

        name = DECISIONS[self._asked[0]]
        legal = self.legal()
        try:
            choice = agent.decide(name, self.view(), legal)
        except Exception as exc:  # noqa: BLE001 - any failure of user code is reported
            raise AgentError(
                f"agent {agent.name!r} failed at {name} ({self.where}, seat "
                f"{self.to_act}): {type(exc).__name__}: {exc}"
            ) from exc
        try:
            return self._encoded(choice, legal)
        except IllegalChoice:
            raise AgentError(
                f"agent {agent.name!r} answered {choice!r} at {name} ({self.where},"
                f" seat {self.to_act}): not a legal choice"
            ) from None

    def _generator(self, player: int) -> np.random.Generator:
        """The player's own generator for this unit, seeded by (seed, key, player)."""
        if player not in self._random:
            self._random[player] = np.random.default_rng([self._seed, self._key, player])
        return self._random[player]

    def _need_decision(self) -> None:
        if self._asked is None:
            raise RuntimeError(
                "no decision is awaited: call advance() first"
                if not self.done
                else "the round is over"
            )


class Round(Unit):
    """One round of any table stepped from Python::

        r = Round(seed=7, key=12, strategies=["heuristic", None, "heuristic", None])
        while not r.done:
            r.advance()
            if r.done:
                break
            seat, kind = r.to_act, r.decision
            r.act(pick(r.view(seat), r.legal()))
        rounds, seats = r.tables()

    ``strategies``: one per player as ``simulate`` takes them, ``None`` for a player decided
    from Python (every decision), or an ``Agent``. The round is ``simulate``'s round ``key``
    (same deal, same records); Grand Seigneur's is game ``key``'s first round."""

    def __init__(
        self,
        seed: int = 0,
        key: int = 0,
        strategies=None,
        *,
        variant: str = "nanjing",
        players: int | None = None,
        options=None,
        check: bool = True,
    ):
        from .base import check_seed, whole_number
        from .registry import game

        g = game(variant, players, options)
        seed = check_seed(seed)
        key = whole_number(key, "key")
        if (
            strategies is None
            or isinstance(strategies, str)
            or not isinstance(strategies, (list, tuple))
        ):
            strategies = [strategies] * g.players
        self._chosen, params, agents = seat_strategies(g, strategies)
        play, self.rounds, self.seats = g.steps.round_unit(g, seed, key, params, check)
        self._first = True
        super().__init__(g, play, agents, f"seed {seed} {g.steps.unit_name} {key}", seed, key)

    def advance(self) -> None:
        """``Unit.advance``; the first call says on stderr when the table's engine compiles."""
        from .registry import compiling

        if self._first:
            self._first = False
            with compiling(self.game.name, "steps"):
                return super().advance()
        return super().advance()

    def tables(self):
        """The round's ``(rounds, seats)`` DataFrames: ``simulate``'s rows for this round."""
        from .arrow import frames

        if not self.done:
            raise RuntimeError("the round is not over yet")
        return frames(self.game.steps.records(self.game, self.rounds, self.seats, self._chosen))


def _snapshot(records: np.ndarray) -> np.ndarray:
    """A writable copy of contiguous records, byte for byte (``copy()`` goes field by field,
    a measurable share of a decision's time)."""
    return np.frombuffer(bytearray(records.tobytes()), records.dtype)


def seat_strategies(game: Game, strategies: list) -> tuple[list, np.ndarray, dict]:
    """For one strategy per player (``None``: decided from Python; an Agent), the strategy
    objects the tables name, the kernels' rows (each marking the decisions taken from Python)
    and ``{player: Agent or None}`` for the players that take decisions from Python."""
    from ..strategies.agents import as_agent, is_agent

    if len(strategies) != game.players:
        raise ValueError(f"strategies: give {game.players}, one per player, not {len(strategies)}")
    chosen, rows, agents = [], [], {}
    for player, spec in enumerate(strategies):
        if spec is None or is_agent(spec):
            agent = None if spec is None else as_agent(spec)
            base = game.resolve(game.steps.default_base if agent is None else agent.base, 1)[0]
            names = game.steps.decisions if agent is None else agent.decisions
            row = game.param_rows([base])[0].copy()
            row[game.steps.outside_slot] = sum(
                1 << CODES[d] for d in names if d in game.steps.decisions
            )
            chosen.append(game.steps.renamed(base, "python" if agent is None else agent.name))
            agents[player] = agent
        else:
            strategy = game.resolve(spec, 1)[0]
            row = game.param_rows([strategy])[0]
            chosen.append(strategy)
        rows.append(row)
    return chosen, np.stack(rows), agents


def seated(game: Game, strategies):
    """``(strategy objects, kernel rows, agents)`` for a batch: ``agents`` (``{player:
    Agent}``) is ``None`` unless a strategy is an Agent (then the batch is played through
    ``stepper``)."""
    from ..strategies.agents import is_agent

    listed = strategies if isinstance(strategies, (list, tuple)) else [strategies]
    if any(s is None for s in listed):
        raise ValueError(
            "strategies: None (a seat decided from Python) only steps a Round; a "
            "batch needs an Agent or a named strategy at every seat"
        )
    if not any(is_agent(s) for s in listed):
        chosen = game.resolve(strategies)
        return chosen, game.param_rows(chosen), None
    if len(listed) == 1:
        listed = listed * game.players
    chosen, params, agents = seat_strategies(game, list(listed))
    return chosen, params, agents


def stepper(game: Game, agents: dict | None, seed: int, units, what: str = "round key"):
    """The kernels' ``stepper`` for ``units`` (round keys, or game ids: ``what``) played with
    Agents; ``None`` without agents (the batch runs on the kernels' threads)."""
    if agents is None:
        return None

    from .registry import compiling

    def step(i: int, play) -> None:
        key = int(units[i])
        unit = Unit(game, play, agents, f"seed {seed} {what} {key}", seed, key)
        if i == 0:  # the stepping engine compiles at its first call
            with compiling(game.name, "steps"):
                return unit.advance()
        unit.advance()

    return step
