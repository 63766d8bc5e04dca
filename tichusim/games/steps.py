"""Rounds stepped from Python: the decisions a seat leaves to Python, their legal choices, the
seat's view, and the driver that plays units whose strategies include Python agents.

One engine: the round's state is the script of answers given so far (``kernels/outside.py``);
``Unit.advance`` calls the game's batch kernel, which plays from the deal and stops at the
first decision past the script, leaving the records where that decision is taken. The team
games' engine keeps where it stopped in the play (a Tichu call before a turn, a play, a
bomb) and goes on from the records it left once that answer is in the script, so a round
stepped from Python costs its own decisions rather than a replay per decision; it replays
from the deal after every other stop (Grand Tichu, the calls around the passing, the
passing, the wish, the Dragon's gift, the Dog's lead), which come early or once a round at
most, and for a logged history. Both ways give the same bytes (``Unit.resume`` switches
the going on off). A seat whose
strategy is ``None`` leaves every decision to the caller; an ``Agent``
(``tichusim.games.agents``) leaves those it defines, and ``advance`` asks it for them
itself.

Each game says how its decisions look in Python through a ``Steps`` object (``Game.steps``:
``team_steps.TeamSteps`` or ``seigneur_steps.SeigneurSteps``): the records a stepped unit
keeps, its legal choices and the script's answers, the engine's own choice for a strategy
row, and the round's public record read from the engine's event log. That record (``View.
history``) is built only when a view is asked for it: a logged replay of the script so far,
so a unit whose agents never read it, and every scripted batch, run as they would without
it. The View's fields are listed in ``docs/view.md``.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from ..cards.combos import Combo
from ..kernels import outside
from ..kernels.errors import ERR_NONE, ERR_PENDING, ERRORS
from .errors import SimulationError

if TYPE_CHECKING:
    from .agents import Agent
    from .base import Game, Records

__all__ = ["DECISIONS", "Event", "IllegalChoice", "Round", "Steps", "Unit", "View"]

# the decisions by the engine's code (kernels/outside.py) and the Agent method taking each
DECISIONS = {
    outside.D_GRAND_TICHU: "grand_tichu",
    outside.D_TICHU: "tichu",
    outside.D_PASS: "pass",
    outside.D_PLAY: "play",
    outside.D_BOMB: "bomb",
    outside.D_WISH: "wish",
    outside.D_DRAGON: "dragon",
    outside.D_DOG: "dog",
    outside.D_GIVE_BACK: "give_back",
}
CODES = {name: code for code, name in DECISIONS.items()}

Kept = tuple[np.ndarray, np.ndarray, np.ndarray]  # a stepped unit's (work, public, privates)
PlayFn = Callable[..., int]  # play(kept[, log_out=...]) -> the engine's error code
Logged = Callable[[Kept], np.ndarray]  # logged(kept) -> the event log's rows


class IllegalChoice(ValueError):
    """A choice that is not among the decision's legal choices."""


class Event(NamedTuple):
    """One event of a round's public record (``View.history``), in the order it happened.

    ``kind`` says what happened (``docs/view.md`` lists them with their RULES.md sections);
    ``seat`` who did it; ``cards`` the cards it showed (a mask, 0 for none); ``combo`` the
    combination a ``play`` or ``bomb`` was played as (``None`` otherwise); ``value`` a number
    the kind gives meaning to (a wished rank, a trick's card points, a place out, a Tichu's
    decision point; 0 when none); ``to`` the seat it reached (the Dog's lead, the Dragon's
    trick, a trick's pile, a passed card; -1 when none)."""

    kind: str
    seat: int
    cards: int = 0
    combo: Combo | None = None
    value: int = 0
    to: int = -1

    def __str__(self) -> str:
        from ..cards import notation

        text = f"seat {self.seat} {self.kind}"
        if self.cards:
            text += f" {notation.format(self.cards)}"
        if self.combo is not None:
            text += f" [{self.combo.kind} {self.combo.rank:g}]"
        if self.value:
            text += f" value {self.value}"
        if self.to >= 0:
            text += f" to seat {self.to}"
        return text


class View:
    """What one seat may know when it decides (RULES.md §6): the table's public record and the
    seat's own private record, copies taken where the round stopped; never another seat's
    hand. ``docs/view.md`` lists every field with its meaning and RULES section.

    Fields read as attributes (``view.hand``, ``view.counts``, ``view.wish``: the private
    record first, then the public one); a field with one entry per seat is as long as the
    table has seats (``Steps.per_seat``), seats past the end of a list padded with -1
    (``out_order``). ``decision`` and ``detail`` say what is asked; ``random`` is the seat's
    own generator for a Python agent, seeded by (seed, key, seat). ``history`` is the round's
    public record so far as ``Event`` s (the seat's own passed cards included), ``trick`` the
    plays and passes of the trick in play, ``next_turn`` the seat whose turn comes next and
    ``trick_over`` whether the trick in play is collected first."""

    def __init__(
        self,
        game: Game,
        public: np.ndarray,
        private: np.ndarray,
        decision: str,
        detail: int,
        random: np.random.Generator | None = None,
        history: Callable[[], tuple[Event, ...]] | None = None,
    ):
        self.game = game
        self.public = public  # one-record arrays: a scripted strategy's kernel takes them
        self.private = private
        self.decision = decision
        self.detail = detail
        self.random = random
        self._history = history

    @property
    def variant(self) -> str:
        return self.game.name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # never a record field: copying and pickling look for these
            raise AttributeError(name)
        for rec in ("private", "public"):
            arr = self.__dict__.get(rec)
            if arr is not None and name in arr.dtype.names:
                return self._field(arr, name)
        raise AttributeError(f"a view has no field {name!r}")

    def _field(self, arr: np.ndarray, name: str) -> Any:
        value = arr[0][name]
        if value.dtype.names:  # a record in the record (the table's ``rules``): by name
            return {k: value[k].item() for k in value.dtype.names}
        if not isinstance(value, np.ndarray):
            return value.item()
        if name in self.game.steps.per_seat:
            return value[: self.game.steps.seats].copy()
        return value.copy()

    def fields(self) -> dict[str, Any]:
        """Every record field of the view: public ones, then private ones (these win a name
        clash)."""
        return {
            name: self._field(arr, name)
            for arr in (self.public, self.private)
            for name in arr.dtype.names or ()
        }

    @functools.cached_property
    def history(self) -> tuple[Event, ...]:
        """The round's public record so far, in order (``Event``), with the seat's own passed
        and received cards: built at the first read by a logged replay of the round."""
        if self._history is None:
            raise RuntimeError(f"{self.game.name}: this view carries no history")
        return self._history()

    @property
    def trick(self) -> tuple[Event, ...]:
        """The plays, passes and bombs of the trick in play, in order (empty when leading)."""
        out: list[Event] = []
        for event in self.history:
            if event.kind in ("trick", "dog"):
                out = []
            elif event.kind in ("play", "pass", "bomb"):
                out.append(event)
        return tuple(out)

    @property
    def next_turn(self) -> int:
        """The seat whose turn (a play or a pass) comes next if nobody bombs: the seat itself
        at ``play`` and at a Tichu asked before its turn; after a bomb offer, a wish or the
        Dragon's gift, the next seat holding cards (after the trick is collected when
        ``trick_over``); -1 before the play begins and where it depends on the answer
        (``grand_tichu``, the passing, ``dog``)."""
        return self.game.steps.next_turn(self)

    @property
    def trick_over(self) -> bool:
        """Whether, unless a bomb comes, the trick in play is collected by ``top_seat`` before
        the next turn (at a bomb offer after the last pass)."""
        return self.game.steps.trick_over(self)

    def encode(self, candidates: Any) -> np.ndarray:
        """The features a learned player scores, one row per candidate (a legal ``Play``,
        ``None`` for a pass or no bomb, or a ``(mask, code)`` pair): a team game's view only
        (``tichusim.games.encoding.encode``; the layout: ``docs/encoding.md``)."""
        from .encoding import encode

        return encode(
            self.public, self.private, CODES.get(self.decision, outside.D_NONE), candidates
        )

    def __repr__(self) -> str:
        return (
            f"View(seat {self.seat}, {self.decision}, detail {self.detail}, hand "
            f"{self.game.steps.hand_text(self)})"
        )

    def __str__(self) -> str:
        """The view as a person reads it: the decision, the hand, the table, the trick."""
        return self.game.steps.view_text(self)


class Steps(ABC):
    """How one game's decisions look in Python: the contract between a stepped unit (``Unit``,
    ``Round``) and the game's engine. One object per configured game (``Game.steps``).

    Class attributes: ``unit_name`` (what a Round's key names), ``outside_slot`` (the strategy
    row's slot marking the decisions taken from Python), ``decisions`` (those the game asks)
    and ``per_seat`` (the view's fields with one entry per seat)."""

    unit_name: ClassVar[str]
    outside_slot: ClassVar[int]
    decisions: ClassVar[tuple[str, ...]]
    per_seat: ClassVar[frozenset[str]]
    has_history: ClassVar[bool] = True  # its views carry ``history``; agents hear round ends
    log_shape: ClassVar[tuple[int, int]]  # the engine's event log: (rows, row width)

    def __init__(self, game: Game):
        self.game = game

    @property
    def seats(self) -> int:
        """Seats at the table (positions; Grand Seigneur: players)."""
        return self.game.seats

    @property
    @abstractmethod
    def default_base(self) -> Any:
        """The strategy under a seat decided from Python (its row is never read)."""

    def renamed(self, strategy: Any, name: str) -> Any:
        """``strategy`` under another name (the tables' strategy columns)."""
        import dataclasses

        return dataclasses.replace(strategy, name=name)

    @abstractmethod
    def kept_records(self) -> Kept:
        """Fresh ``(work, public, privates)`` records a stepped unit keeps across calls."""

    def copy_kept(self, kept: Kept) -> Kept:
        """A copy of a unit's records, to replay on without touching them."""
        work, public, privates = kept
        return work.copy(), public.copy(), privates.copy()

    @abstractmethod
    def player_of(self, kept: Kept, seat: int) -> int:
        """The player deciding at position ``seat`` where the unit stands."""

    def seats_of(self, kept: Kept, player: int) -> list[int]:
        """The positions player ``player`` decides for where the unit stands."""
        return [s for s in range(self.seats) if self.player_of(kept, s) == player]

    def replay_next(self, kept: Kept) -> None:
        """Make the unit's next call replay from the deal even where its engine could go on
        from the records it left (``Unit.resume`` off); an engine that always replays has
        nothing to forget."""
        return None

    @abstractmethod
    def round_unit(
        self, seed: int, key: int, params: np.ndarray, check: bool
    ) -> tuple[PlayFn, Logged, np.ndarray, np.ndarray]:
        """How ``Round`` plays its unit: ``(play, logged, rounds, seats)``, ``play(kept)``
        filling the records ``rounds`` and ``seats``, ``logged(kept)`` the same replay with
        its event log on."""

    @abstractmethod
    def records(self, rounds: np.ndarray, seats: np.ndarray, chosen: list) -> Records:
        """A finished Round's records as ``simulate`` returns them."""

    @abstractmethod
    def choices(self, kept: Kept, asked: tuple[int, int, int, int]) -> Any:
        """The legal choices of the decision ``asked`` (code, seat, detail, count)."""

    @abstractmethod
    def answer_of(self, choice: Any, legal: Any) -> int:
        """The script's answer for ``choice`` among ``legal``; ``ValueError`` saying why it is
        none of them."""

    @abstractmethod
    def decide(self, row: np.ndarray, view: View, legal: Any) -> Any:
        """The choice the strategy row ``row`` makes at ``view``'s decision, as the engine
        would; the view's stream moves on as the engine's."""

    @abstractmethod
    def hand_text(self, view: View) -> str:
        """The seat's hand in card notation."""

    @abstractmethod
    def history(self, log: np.ndarray, seats: tuple[int, ...]) -> tuple[Event, ...]:
        """The public events of the event log ``log``, and the private ones of ``seats``: the
        positions of the player deciding (Wu Wang's King holds his Minister's too, §4)."""

    @abstractmethod
    def scores(self, log: np.ndarray) -> tuple[int, ...]:
        """A finished round's scores, read from its event log."""

    def next_turn(self, view: View) -> int:
        """``View.next_turn``."""
        return -1

    def trick_over(self, view: View) -> bool:
        """``View.trick_over``."""
        return False

    def view_text(self, view: View) -> str:
        """``str(view)``: the decision and the fields, one per line."""
        lines = [repr(view)]
        lines += [f"  {name}: {value}" for name, value in view.fields().items()]
        return "\n".join(lines)


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
        kept[0]["script_len"] = script
        if self._logged is not None:
            return self._logged(kept)
        rows = np.zeros(self.game.steps.log_shape, np.int64)
        self._play(kept, log_out=rows)
        ends = np.flatnonzero(~rows.any(axis=1))
        return rows[: ends[0] if ends.size else len(rows)]

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
                    from .agents import AgentError

                    raise AgentError(
                        f"agent {agent.name!r} failed at round_over ({self.where}, seat "
                        f"{seat}): {type(exc).__name__}: {exc}"
                    ) from exc

    def _ask(self, agent: Agent) -> int:
        """The agent's answer as the script takes it; an agent that fails or answers outside
        the legal choices names itself, the decision and the round (``AgentError``)."""
        from .agents import AgentError

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
    (same deal, same records); Grand Seigneur's is game ``key``'s first round."""

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
        play, logged, self.rounds, self.seats = g.steps.round_unit(seed, key, params, check)
        where = f"seed {seed} {g.steps.unit_name} {key}"
        super().__init__(g, play, agents, where, seed, key, logged)

    def tables(self) -> Any:
        """The round's ``(rounds, seats)`` DataFrames: ``simulate``'s rows for this round."""
        from .arrow import frames

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
    from .agents import as_agent, is_agent

    if len(strategies) != game.players:
        raise ValueError(f"strategies: give {game.players}, one per player, not {len(strategies)}")
    steps = game.steps
    chosen: list = []
    rows: list[np.ndarray] = []
    agents: dict[int, Agent | None] = {}
    for player, spec in enumerate(strategies):
        if spec is None:
            strategy, row = _python_seat(game)
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


def _python_seat(game: Game) -> tuple[Any, np.ndarray]:
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
    from .agents import is_agent

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
