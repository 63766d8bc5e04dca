"""Run configurations: a TOML file validated into a ``RunConfig`` before anything runs.

Validation is the one way of ``tichusim.runs.settings`` (pydantic: strict types, unknown keys
forbidden); the variant, its players, options and strategies are checked by the game itself
(``tichusim.games.game``), so a config accepts exactly what the library accepts. Every
problem becomes one ``ConfigError`` naming the key, which the command line prints as one line.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from ..games import game, game_type
from ..games.agents import AgentLoadError, is_agent, spec_of
from ..games.base import GAME_OPTIONS
from ..games.strategy_text import strategy_spec
from ..strategies import tichu as tichu_strategies
from ..strategies.book import split_strategies
from .settings import ConfigError, Strict, problem_of, read_toml, validated

__all__ = ["ConfigError", "DaskConfig", "RunConfig", "load_config", "problem_of"]

DEFAULT_SHARD = {"rounds": 50_000, "games": 200}  # about one to a few seconds of work per core
MAX_SHARD = {"rounds": 1_000_000, "games": 5_000}  # keeps a shard's memory well under 1 GiB
MAX_SHARDS = 100_000  # the manifest lists every shard and is rewritten after each one
DATA_KEYS = (
    "variant",
    "players",
    "options",
    "mode",
    "rounds",
    "games",
    "target",
    "seed",
    "strategies",
    "shard_size",
)

PositiveInt = Annotated[int, Field(gt=0)]


class DaskConfig(Strict):
    """Where shards go when they run on Dask: ``"local"`` (a ``LocalCluster`` on this machine)
    or a scheduler address such as ``"tcp://10.0.0.5:8786"``."""

    address: str
    n_workers: PositiveInt | None = None  # LocalCluster only; default: one per core

    @model_validator(mode="after")
    def _local_only(self):
        if self.n_workers is not None and self.address != "local":
            raise ConfigError("n_workers", 'only with address = "local" (a cluster has its own)')
        return self


class RunConfig(Strict):
    """One batch run. Fields in ``DATA_KEYS`` decide the data (and the run's hash); ``out``,
    ``check`` and ``dask`` only decide where and how it runs.

    ``variant`` is any game of ``tichusim.games.GAMES``; ``players`` (5..12) only for the game
    that takes a number of players (Grand Seigneur); ``options`` the game's switches
    (``Game.option_defaults``), saved with every default filled in. Fields are validated in
    order, so the later ones can depend on the earlier (strategies on the variant and the
    players)."""

    variant: str = "nanjing"
    players: Annotated[int, Field(ge=5, le=12)] | None = Field(None, validate_default=True)
    mode: Literal["rounds", "games"] = "rounds"
    rounds: PositiveInt | None = None
    games: PositiveInt | None = None
    target: PositiveInt = 1000
    seed: Annotated[int, Field(ge=0, lt=2**64)] = 0
    options: dict[str, Any] | None = Field(None, validate_default=True)
    strategies: Any
    shard_size: PositiveInt | None = None
    out: str | None = None
    check: bool = False
    dask: DaskConfig | None = None

    @field_validator("variant")
    @classmethod
    def _variant(cls, value):
        game_type(value)
        return value

    @field_validator("players")
    @classmethod
    def _players(cls, value, info: ValidationInfo):
        variant = info.data.get("variant")
        if variant is None:
            return value  # its own error is reported
        if game_type(variant).takes_players and value is None:
            raise ValueError("missing: grand-seigneur is played by 5 to 12 players (RULES.md §5)")
        if not game_type(variant).takes_players and value is not None:
            raise ValueError(f"only for grand-seigneur ({variant} has a fixed table)")
        return value

    @field_validator("options", mode="before")
    @classmethod
    def _options(cls, value, info: ValidationInfo):
        """Checked by the game and saved complete; options that shape games are refused (and
        left out) in rounds mode."""
        variant, mode = info.data.get("variant"), info.data.get("mode")
        if variant is None or mode is None:
            return value  # their own error is reported
        if mode == "rounds":
            for key in GAME_OPTIONS:
                if isinstance(value, dict) and key in value:
                    raise ValueError(
                        f'{key}: only with mode = "games" (independent rounds '
                        "are each a game's first)"
                    )
        kind = game_type(variant)
        values = kind.written_options(kind.check_options(value), info.data.get("players"))
        if mode == "rounds":
            values = {k: v for k, v in values.items() if k not in GAME_OPTIONS}
        return values or None

    @field_validator("out", mode="before")
    @classmethod
    def _path(cls, value):
        value = os.fspath(value) if isinstance(value, os.PathLike) else value
        if isinstance(value, str) and not value.strip():  # "" would mean the current directory
            raise ValueError("an empty path; name the run directory")
        return value

    @field_validator("strategies", mode="before")
    @classmethod
    def _strategies(cls, value, info: ValidationInfo):
        """Expand to one spec per player (strategy objects become their tables; a text is
        read as the command line reads ``--strategies``: ``specs.strategy_spec``, a file or
        an agent becoming its table) and check each as the variant's strategies are checked,
        naming the player that fails."""
        variant = info.data.get("variant")
        players = info.data.get("players")
        if variant is None or (game_type(variant).takes_players and players is None):
            return value  # their own error is reported
        played = game(variant, players)
        players = played.players
        if isinstance(value, str):  # the command line's text: one, or one per player
            value = split_strategies(value)
            value = value[0] if len(value) == 1 else value
        if isinstance(value, (str, dict)) or hasattr(value, "param_row") or is_agent(value):
            value = [value] * players
        if not isinstance(value, (list, tuple)) or len(value) != players:
            raise ValueError(
                f"give one strategy or a list of {players}, one per "
                f"{played.strategy_per} ({variant})"
            )
        specs = [s.to_dict() if hasattr(s, "to_dict") else s for s in value]
        for seat, spec in enumerate(specs):
            if isinstance(spec, str):  # a file or an agent's text becomes its table
                try:
                    spec = specs[seat] = strategy_spec(spec, played.strategy_book)
                except ValueError as exc:
                    raise _SeatError(seat, str(exc)) from None
            if is_agent(spec):
                specs[seat] = _agent(seat, spec)
                continue
            try:
                played.resolve(spec, 1)
            except ValueError as exc:
                raise _SeatError(seat, str(exc)) from None
        return specs

    @model_validator(mode="after")
    def _mode(self):
        mine, other = (self.mode, "games" if self.mode == "rounds" else "rounds")
        if getattr(self, other) is not None:
            raise ConfigError(other, f'only with mode = "{other}" (this config plays {mine})')
        if getattr(self, mine) is None:
            raise ConfigError(mine, f'missing (mode = "{mine}" needs the number of {mine})')
        if self.mode == "rounds" and "target" in self.model_fields_set:
            raise ConfigError("target", 'only with mode = "games"')
        if "target" in self.model_fields_set and not game_type(self.variant).team_game:
            raise ConfigError(
                "target",
                f"a {self.variant} game lasts options.game_rounds rounds, not to a target score",
            )
        if self.shard_size is not None and self.shard_size > MAX_SHARD[self.mode]:
            raise ConfigError(
                "shard_size", f"at most {MAX_SHARD[self.mode]:,} {self.mode} per shard (memory)"
            )
        if self.n_shards > MAX_SHARDS:  # a typo'd count must not start an endless manifest
            key = "shard_size" if self.shard_size is not None else self.mode
            raise ConfigError(
                key,
                f"{self.count:,} {self.mode} in shards of {self.shard:,} make "
                f"{self.n_shards:,} shards; at most {MAX_SHARDS:,} (a larger "
                f"shard_size, or fewer {self.mode})",
            )
        return self

    # -- derived values -------------------------------------------------------------------

    @property
    def count(self) -> int:
        """Rounds (mode rounds) or games (mode games) to play."""
        count = self.rounds if self.mode == "rounds" else self.games
        assert count is not None  # the mode's count is required (``_mode``)
        return count

    @property
    def shard(self) -> int:
        return self.shard_size or min(DEFAULT_SHARD[self.mode], self.count)

    @property
    def n_shards(self) -> int:
        return -(-self.count // self.shard)

    def shard_span(self, index: int) -> tuple[int, int]:
        """``(first, count)`` of the rounds or games of shard ``index``."""
        first = index * self.shard
        return first, min(self.shard, self.count - first)

    @property
    def python_agents(self) -> bool:
        """Whether a seat is played by a Python agent (``{agent = ...}``): its decisions hold
        the GIL, so its shards run in parallel only in separate processes."""
        specs = self.strategies if isinstance(self.strategies, list) else [self.strategies]
        return any(isinstance(spec, dict) and "agent" in spec for spec in specs)

    def resolved(self) -> list:
        """Each player's strategy object (``Strategy``; Grand Seigneur ``SeigneurStrategy``;
        an agent's base, named after it)."""
        from ..games.steps import seated

        return seated(game(self.variant, self.players), self.strategies)[0]

    def data_dict(self) -> dict:
        """What decides the data: hashed, and compared when a run is resumed. A learned
        play's weights are named by a path (or by the name ``learned``, the package's file),
        which says nothing of what the file holds: ``weights`` adds each player's weights'
        identities (``strategies.learned.identity``) when any player plays with a model, so
        that a run with other weights is another run."""
        out = {k: v for k, v in self.to_json().items() if k in DATA_KEYS}
        weights = self.weights()
        if any(weights):
            out["weights"] = weights
        return out

    def weights(self) -> list[list[str]]:
        """Each player's learned weights' identities (``weights_identities``; empty lists
        for a game without a learned play)."""
        specs = self.strategies if isinstance(self.strategies, list) else [self.strategies]
        if game(self.variant, self.players).strategy_book is not tichu_strategies.BOOK:
            return [[] for _ in specs]
        return [tichu_strategies.weights_identities(spec, self.variant) for spec in specs]

    @property
    def hash(self) -> str:
        text = json.dumps(self.data_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def to_json(self) -> dict:
        """The resolved config as saved in a run directory (reloads with ``model_validate``)."""
        d = self.model_dump(exclude_none=True) | {"shard_size": self.shard}
        if self.mode == "rounds" or not game_type(self.variant).team_game:
            del d["target"]
        return d

    def with_overrides(self, **changes) -> RunConfig:
        """A copy with command-line overrides (``None`` = keep). ``rounds`` or ``games``
        switches the mode; ``dask`` is an address."""
        data = self.model_dump(exclude_unset=True)
        data["strategies"] = self.strategies
        changes = {k: v for k, v in changes.items() if v is not None}
        for mode in ("rounds", "games"):
            if mode in changes and data.get("mode", "rounds") != mode:
                for key in ("rounds", "games", "target", "shard_size"):  # the other mode's
                    data.pop(key, None)
                if mode == "rounds" and data.get("options"):
                    data["options"] = {
                        k: v for k, v in data["options"].items() if k not in GAME_OPTIONS
                    }
                data["mode"] = mode
        if "dask" in changes:
            changes["dask"] = {"address": changes["dask"]}
        return validate(data | changes)


class _SeatError(ConfigError):
    """A problem of player ``seat``'s strategy (at its ``key``, if any)."""

    def __init__(self, seat: int, problem: str, key: str | None = None):
        super().__init__(f"{seat}.{key}" if key else str(seat), problem)


def _agent(seat: int, spec) -> dict:
    """A Python agent's table as a run keeps it (``{agent = "module:Class", params = {...}}``:
    plain data that workers and a resumed run rebuild it from), checked now: unknown keys,
    an agent that cannot be imported or built are config errors before anything runs."""
    if isinstance(spec, dict):
        for key in spec:
            if key not in ("agent", "params"):
                raise _SeatError(seat, "unknown key (known: agent, params)", key)
        if not isinstance(spec["agent"], str):
            raise _SeatError(
                seat, f"'module:Class' or 'file.py:Class', got {spec['agent']!r}", "agent"
            )
        if "params" in spec and not isinstance(spec["params"], dict):
            raise _SeatError(
                seat, f"a table of the agent's arguments, got {spec['params']!r}", "params"
            )
    try:
        return spec_of(spec)
    except AgentLoadError as exc:
        raise _SeatError(seat, str(exc)) from None


def validate(data: Any) -> RunConfig:
    """``RunConfig`` from a mapping, or a ``ConfigError`` naming the first bad key."""
    return validated(RunConfig, data)


def load_config(path: str | os.PathLike) -> RunConfig:
    """Read and validate a TOML config file."""
    return validate(read_toml(path))
