"""Rounds stepped from Python: a unit of a game's batch kernel played decision by decision
(``Unit``, ``Round``), and the driver that plays units whose strategies include Python agents
(``seated``, ``stepper``).

One engine: the round's state is the script of answers given so far (``kernels/outside.py``);
``Unit.advance`` calls the game's batch kernel, which plays from the deal and stops at the
first decision past the script, leaving the records where that decision is taken. The team
games' engine keeps where it stopped in the play (a Tichu call before a turn, a play, a
bomb) and goes on from the records it left once that answer is in the script, so a round
stepped from Python costs its own decisions rather than a replay per decision; it replays
from the deal after every other stop (Grand Tichu, the calls around the passing, the
passing, the wish, the Dragon's gift, the Dog's lead), which come early or once a round at
most, and for a logged history. Both ways give the same bytes (``Unit.resume`` switches
the going on off). A seat whose strategy is ``None`` leaves every decision to the caller; an
``Agent`` (``tichusim.games.agents``) leaves those it defines, and ``advance`` asks it for
them itself.

Each game says how its decisions look in Python through a ``Steps`` object (``Game.steps``,
``tichusim.games.base.Steps``: ``team_steps.TeamSteps`` or ``seigneur_steps.SeigneurSteps``):
the records a stepped unit keeps, its legal choices and the script's answers, the engine's own
choice for a strategy row, and the round's public record read from the engine's event log.
That record (``View.history``) is built only when a view is asked for it: a logged replay of
the script so far, so a unit whose agents never read it, and every scripted batch, run as
they would without it. The seat's ``View`` is ``tichusim.games.view``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ..kernels import outside
from ..kernels.errors import ERR_NONE, ERR_PENDING, ERRORS
from .agents import Agent, AgentError, as_agent, is_agent
from .arrow import frames
from .base import Game, Kept, Logged, PlayFn, check_seed, whole_number
from .errors import SimulationError
from .record import Action, RoundRecord
from .registry import game as game_named
from .view import CODES, DECISIONS, Event, View

__all__ = [
    "IllegalAction",
    "IllegalChoice",
    "Round",
    "Unit",
    "seat_strategies",
    "seated",
    "stepper",
]


class IllegalChoice(ValueError):
    """A choice that is not among the decision's legal choices."""


class IllegalAction(IllegalChoice):
    """A recorded action the engine cannot take where it comes (``Round.apply``,
    ``Round.from_record``): ``index`` is its place in the record."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


class Unit:
    """One unit of a game's batch kernel (a round, or a whole game) stepped from Python.

    ``play(kept) -> error`` calls the kernel for this unit with the tables ``kept``
    (``steps.kept_records()``), which keep the script and the records where the unit stopped;
    ``play(kept, log_out=rows)`` does the same with the event log of the unit's round in play
    written to ``rows`` (a zeroed array; no event's row is all zeros), read only when a view's
    history is asked for. ``agents[player]`` is an Agent, ``None`` (the caller decides) or
    absent (a scripted strategy, which never stops the round); ``key`` (the unit's round key
    or game id) seeds the agents' generators with ``seed``. ``logged``: how to replay the unit
    with its log on, when ``play`` cannot. ``resume`` (on by default): let the engine go on
    from the records its last call left where it can (the module docstring); off, every call
    replays from the deal, the reference the going on is tested against."""

    resume = True

    def __init__(
        self,
        game: Game,
        play: PlayFn,
        agents: dict[int, Agent | None],
        where: str,
        seed: int,
        key: int,
        logged: Logged | None = None,
    ):
        self.game = game
        self._play = play
        self._logged = logged
        self._kept = game.steps.kept_records()
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
        self._asked: tuple[int, int, int, int] | None = None
        self._legal: Any = None
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
        return self.game.steps.player_of(self._kept, self._asked[1])

    @property
    def decision(self) -> str | None:
        return None if self._asked is None else DECISIONS[self._asked[0]]

    def legal(self) -> Any:
        """The awaited decision's legal choices (forms in the game's ``Steps``)."""
        asked = self._need_decision()
        if self._legal is None:
            self._legal = self.game.steps.choices(self._kept, asked)
        return self._legal

    def view(self, seat: int | None = None) -> View:
        """What seat ``seat`` (default: the one to act) knows now; only the seat to act has a
        view while a decision is awaited: the others' records are mid-way (a simultaneous
        passing) and a seat's view is given for its own decision."""
        asked = self._need_decision()
        seat = asked[1] if seat is None else seat
        if seat != asked[1]:
            raise ValueError(
                f"seat {seat} is not to act: views are given to the seat that "
                f"decides (seat {asked[1]}, {self.decision})"
            )
        if self._view is None:
            self._view = self._view_of(seat, DECISIONS[asked[0]], int(asked[2]))
        return self._view

    def _view_of(self, seat: int, decision: str, detail: int) -> View:
        """Seat ``seat``'s view of the table as the unit stands, its history read (when asked)
        from a replay of the script as it is now."""
        pub, privs = self._kept[1], self._kept[2]
        player = self.game.steps.player_of(self._kept, seat)
        script = self.decisions

        known = tuple(self.game.steps.seats_of(self._kept, player))

        def history() -> tuple[Event, ...]:
            return self.game.steps.history(self._replayed_log(script), known)

        return View(
            self.game,
            _snapshot(pub),
            _snapshot(privs[seat : seat + 1]),
            decision,
            detail,
            self._generator(player),
            history,
        )

    def _replayed_log(self, script: int) -> np.ndarray:
        """The event log of the unit's round in play, replayed with the script's first
        ``script`` answers on records of its own (the unit's own are left as they are)."""
        kept = self.game.steps.copy_kept(self._kept)
        self._replay_to(kept, script)
        if self._logged is not None:
            return self._logged(kept)
        rows = np.zeros(self.game.steps.log_shape, np.int64)
        self._play(kept, log_out=rows)
        ends = np.flatnonzero(~rows.any(axis=1))
        return rows[: ends[0] if ends.size else len(rows)]

    def _replay_to(self, kept: Kept, script: int) -> None:
        """Set the records ``kept`` (a copy of the unit's) to replay its first ``script``
        answers and stop there."""
        self.game.steps.script_only(kept, script)

    def history(self, seat: int) -> tuple[Event, ...]:
        """The round's public record so far as seat ``seat``'s player knows it (its own
        passing included, RULES.md §6), at any point of the round, its end too: what its
        view's ``history`` would hold (a logged replay of the script so far)."""
        steps = self.game.steps
        if not steps.has_history:
            raise RuntimeError(f"{self.game.name}: its rounds carry no history")
        if not 0 <= seat < steps.seats:
            raise ValueError(f"seat: 0..{steps.seats - 1}, not {seat!r}")
        known = tuple(steps.seats_of(self._kept, steps.player_of(self._kept, seat)))
        return steps.history(self._replayed_log(self.decisions), known)

    # -- moving on ----------------------------------------------------------------------

    def act(self, choice: Any) -> None:
        """Answer the awaited decision with one of ``legal()`` (``IllegalChoice`` if it is
        none of them)."""
        self._need_decision()
        self._answer(self._encoded(choice, self.legal()))

    def _encoded(self, choice: Any, legal: Any) -> int:
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
        asked = self._need_decision()
        n = self.decisions
        if n >= outside.MAX_SCRIPT:
            raise SimulationError(
                f"{self.where}: more than {outside.MAX_SCRIPT} decisions from Python"
            )
        privs = self._kept[2]
        view = self._view
        self._answers[n] = answer
        self._streams[n] = (view.private if view is not None else privs[asked[1] :])[0]["rng"]
        self._asked = None
        self._legal = None
        self._view = None
        self.decisions += 1

    def advance(self) -> None:
        """Play on until a decision is awaited from the caller or the unit is over; agents
        answer their own decisions on the way, and hear the round's outcome at its end."""
        while not self.done:
            if self._asked is None:
                self._run()
                if self.done:
                    self._round_over()
                    return
            asked = self._need_decision()
            agent = self._agents.get(self.game.steps.player_of(self._kept, asked[1]))
            if agent is None:
                return
            self._answer(self._ask(agent))

    def _run(self) -> None:
        self._script_len[0] = self.decisions
        if not self.resume:
            self.game.steps.replay_next(self._kept)
        err = self._play(self._kept)
        if err == ERR_PENDING:
            self._asked = tuple(self._asked_fields.tolist())
            return
        if err != ERR_NONE:
            raise SimulationError(f"{self.where}: {ERRORS[err]}")
        self.done = True

    def _round_over(self) -> None:
        """Each agent that listens (``Agent.round_over``) hears the round's scores with its
        seat's final view; nothing is replayed when none listens."""
        listening = [
            (player, agent)
            for player, agent in self._agents.items()
            if agent is not None and agent.hears_outcome
        ]
        if not listening or not self.game.steps.has_history:
            return
        steps = self.game.steps
        log = self._replayed_log(self.decisions)
        scores = steps.scores(log)
        for player, agent in listening:
            for seat in steps.seats_of(self._kept, player)[:1]:  # the player's own seat
                view = self._view_of(seat, "round_over", 0)
                known = tuple(steps.seats_of(self._kept, player))
                view.__dict__["history"] = steps.history(log, known)  # the replay made above
                try:
                    agent.round_over(view, scores)
                except Exception as exc:  # noqa: BLE001 - any failure of user code is reported
                    raise AgentError(
                        f"agent {agent.name!r} failed at round_over ({self.where}, seat "
                        f"{seat}): {type(exc).__name__}: {exc}"
                    ) from exc

    def _ask(self, agent: Agent) -> int:
        """The agent's answer as the script takes it; an agent that fails or answers outside
        the legal choices names itself, the decision and the round (``AgentError``)."""
        asked = self._need_decision()
        name = DECISIONS[asked[0]]
        legal = self.legal()
        try:
            choice = agent.decide(name, self.view(), legal)
        except Exception as exc:  # noqa: BLE001 - any failure of user code is reported
            raise AgentError(
                f"agent {agent.name!r} failed at {name} ({self.where}, seat "
                f"{asked[1]}): {type(exc).__name__}: {exc}"
            ) from exc
        try:
            return self._encoded(choice, legal)
        except IllegalChoice:
            raise AgentError(
                f"agent {agent.name!r} answered {choice!r} at {name} ({self.where},"
                f" seat {asked[1]}): not a legal choice"
            ) from None

    def _generator(self, player: int) -> np.random.Generator:
        """The player's own generator for this unit, seeded by (seed, key, player)."""
        if player not in self._random:
            self._random[player] = np.random.default_rng([self._seed, self._key, player])
        return self._random[player]

    def _need_decision(self) -> tuple[int, int, int, int]:
        """The decision awaited: ``(code, seat, detail, count)``."""
        if self._asked is None:
            raise RuntimeError(
                "no decision is awaited: call advance() first"
                if not self.done
                else "the round is over"
            )
        return self._asked


class Round(Unit):
    """One round of any game stepped from Python::

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
    (same deal, same records); Grand Seigneur's is game ``key``'s first round. With ``deal``
    (a ``tichusim.games.record.Deal``, team games) the round is dealt so instead, and the
    seed and key seed only the seats' own streams.

    A round played from its record (``Round.from_record``, ``apply``) takes actions, each
    checked against the engine's legal choices where it comes (``IllegalAction`` names the
    action and the rule); ``record()`` writes any round's record so far. A choice given with
    ``act`` leaves the record: the round goes on from there as any stepped round."""

    def __init__(
        self,
        seed: int = 0,
        key: int = 0,
        strategies: Any = None,
        *,
        variant: str = "nanjing",
        players: int | None = None,
        options: Any = None,
        check: bool = True,
        deal: Any = None,
    ):
        g = game_named(variant, players, options)
        seed = check_seed(seed)
        key = whole_number(key, "key")
        if (
            strategies is None
            or isinstance(strategies, str)
            or not isinstance(strategies, (list, tuple))
        ):
            strategies = [strategies] * g.players
        self._chosen, params, agents = seat_strategies(g, strategies)
        play, logged, self.rounds, self.seats = g.steps.round_unit(seed, key, params, check, deal)
        where = f"seed {seed} {g.steps.unit_name} {key}" if deal is None else "the given deal"
        super().__init__(g, play, agents, where, seed, key, logged)
        if deal is not None:
            g.steps.deal_into(self._kept, deal)
        self._actions: list[Action] | None = None  # the record played, while it is
        self._from: RoundRecord | None = None  # the record it was made from

    @classmethod
    def from_record(
        cls,
        record: RoundRecord,
        *,
        seed: int = 0,
        check: bool = True,
        stop: int | None = None,
    ) -> Round:
        """The round of ``record`` played through the engine, every seat decided by its
        actions (``apply``); ``IllegalAction`` for the first the engine cannot take, naming
        it (``record.where``) and the rule. ``stop``: stand before the script's answer
        ``stop`` (the round's ``stop``-th decision, the record's declines counted), its
        view and legal choices then the decision's. A complete record leaves the round
        done; one that stops early leaves it waiting at its next decision."""
        r = cls(
            seed,
            0,
            [None] * record.game.players,
            variant=record.variant,
            options=dict(record.options) or None,
            check=check,
            deal=record.deal,
        )
        r._from = record
        r._play_record(list(record.actions), outside.MAX_SCRIPT if stop is None else stop)
        return r

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions played from the record so far (empty for a round stepped by choices)."""
        return tuple(self._actions or ())

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an ``Action`` or its text) where the round stands: the decisions
        it does not answer are the record's (a call the record does not make is declined,
        §2.2–§2.3; a bomb not played is not, §2.9); ``IllegalAction`` if the engine cannot
        take it, and the round stays where it was."""
        if self._actions is None and self.decisions:
            raise RuntimeError("apply: this round was stepped by choices (act), not a record")
        if isinstance(action, str):
            action = Action.parse(action)
        self._play_record([*(self._actions or ()), action], outside.MAX_SCRIPT)

    def act(self, choice: Any) -> None:
        self._leave_record()
        super().act(choice)

    def advance(self) -> None:
        if self._actions is not None and self._agents:
            self._leave_record()
        super().advance()

    def _replay_to(self, kept: Kept, script: int) -> None:
        """A round played from its record replays as it played: from the record (a Tichu
        called late stands only there, ``engine._calls_left``), stopping at ``script``."""
        if self._actions is None:
            super()._replay_to(kept, script)
            return
        self.game.steps.load_record(kept, self._actions, script)

    def _leave_record(self) -> None:
        """From here the round's script (the record's answers so far) plays it."""
        if self._actions is not None:
            self.game.steps.script_only(self._kept, self.decisions)
            self._actions = None

    def hands(self) -> tuple[int, ...]:
        """Every seat's hand as the engine holds it now, by position: the whole table, no
        seat's view (RULES.md §6 binds the players, not the one who reviews a played round)."""
        return tuple(int(self._kept[2][s]["hand"]) for s in range(self.game.steps.seats))

    def table(self) -> np.void:
        """The table's public record now (``kernels/tichu/view.py``'s ``PUBLIC``), a copy: what
        every seat sees (§6)."""
        return _snapshot(self._kept[1])[0]

    def seek(self, decision: int) -> None:
        """Stand a round played from its record before its decision number ``decision``
        (counted as the script counts them, the record's declines included): its view and
        legal choices are then that decision's (a review's). At or past its last, the round
        is played to where the record ends."""
        if self._actions is None:
            raise RuntimeError("seek: a round played from its record (from_record, apply)")
        self._play_record(self._actions, whole_number(decision, "decision"))

    def _play_record(self, actions: list[Action], stop: int) -> None:
        """Play the round from the deal with ``actions`` answering its decisions; on failure
        the round is played again with the actions it had, and ``IllegalAction`` raised."""
        steps = self.game.steps
        steps.load_record(self._kept, actions, stop)
        err = self._play(self._kept)
        failed = steps.record_failure(self._kept, actions)
        if failed is not None:
            index, why = failed
            where = self._from.where(index) if self._from is not None else f"action {index + 1}"
            if self._actions is not None:  # ``apply``: back where the round stood
                steps.load_record(self._kept, self._actions, outside.MAX_SCRIPT)
                self._play(self._kept)
            raise IllegalAction(f"{where} ({actions[index]}): {why}", index)
        self._actions = actions
        self.decisions = int(self._script_len[0])
        self._asked = None
        self._legal = None
        self._view = None
        if err == ERR_PENDING:
            self._asked = tuple(self._asked_fields.tolist())
            self.done = False
            return
        if err != ERR_NONE:
            raise SimulationError(f"{self.where}: {ERRORS[err]}")
        self.done = True

    def record(self) -> RoundRecord:
        """The round so far as a record (``tichusim.games.record``): its deal and every
        seat's actions, whoever took them (strategies, agents, choices, a record)."""
        log = self._replayed_log(self.decisions)
        return cast(RoundRecord, self.game.steps.record_of(self._kept, log))

    def tables(self) -> Any:
        """The round's ``(rounds, seats)`` DataFrames: ``simulate``'s rows for this round."""
        if not self.done:
            raise RuntimeError("the round is not over yet")
        return frames(self.game.steps.records(self.rounds, self.seats, self._chosen))


def _snapshot(records: np.ndarray) -> np.ndarray:
    """A writable copy of contiguous records, byte for byte (``copy()`` goes field by field,
    much slower on these wide records)."""
    return np.frombuffer(bytearray(records.tobytes()), records.dtype)


def seat_strategies(game: Game, strategies: list) -> tuple[list, np.ndarray, dict]:
    """For one strategy per player (``None``: decided from Python; an Agent), the strategy
    objects the tables name, the kernels' rows (each marking the decisions taken from Python)
    and ``{player: Agent or None}`` for the players that take decisions from Python."""
    if len(strategies) != game.players:
        raise ValueError(f"strategies: give {game.players}, one per player, not {len(strategies)}")
    steps = game.steps
    chosen: list = []
    rows: list[np.ndarray] = []
    agents: dict[int, Agent | None] = {}
    for player, spec in enumerate(strategies):
        if spec is None:
            strategy, row = python_seat(game)
            chosen.append(strategy)
            agents[player] = None
        elif is_agent(spec):
            agent = as_agent(spec)
            base = game.resolve(agent.base, 1)[0]
            row = game.param_rows([base])[0].copy()
            row[steps.outside_slot] = sum(
                1 << CODES[d] for d in agent.decisions if d in steps.decisions
            )
            chosen.append(steps.renamed(base, str(agent.name)))
            agents[player] = agent
        else:
            strategy = game.resolve(spec, 1)[0]
            row = game.param_rows([strategy])[0]
            chosen.append(strategy)
        rows.append(row)
    return chosen, np.stack(rows), agents


_PYTHON_SEATS: dict[tuple, tuple[Any, np.ndarray]] = {}


def python_seat(game: Game) -> tuple[Any, np.ndarray]:
    """The strategy object and kernel row of a player decided from Python at every decision,
    made once per configured table: a Round is made for every round stepped, and working the
    row out again cost more than a few of its decisions. (The row is copied into the
    Round's own rows; the strategy object is frozen.)"""
    key = (type(game), game.name, game.players, repr(game.options))
    if key not in _PYTHON_SEATS:
        steps = game.steps
        base = game.resolve(steps.default_base, 1)[0]
        row = game.param_rows([base])[0].copy()
        row[steps.outside_slot] = sum(1 << CODES[d] for d in steps.decisions)
        _PYTHON_SEATS[key] = (steps.renamed(base, "python"), row)
    return _PYTHON_SEATS[key]


def seated(game: Game, strategies: Any) -> tuple[list, np.ndarray, dict | None]:
    """``(strategy objects, kernel rows, agents)`` for a batch: ``agents`` (``{player:
    Agent}``) is ``None`` unless a strategy is an Agent (then the batch is played through
    ``stepper``)."""
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
    return seat_strategies(game, list(listed))


def stepper(
    game: Game, agents: dict | None, seed: int, units: Any, what: str = "round key"
) -> Callable[[int, PlayFn], None] | None:
    """The kernels' ``stepper`` for ``units`` (round keys, or game ids: ``what``) played with
    Agents; ``None`` without agents (the batch runs on the kernels' threads)."""
    if agents is None:
        return None

    def step(i: int, play: PlayFn) -> None:
        key = int(units[i])
        Unit(game, play, agents, f"seed {seed} {what} {key}", seed, key).advance()

    return step
