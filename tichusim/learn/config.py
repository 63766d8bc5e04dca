"""The config of ``tichusim learn CONFIG``: a TOML file validated into a ``LearnConfig``.

Three tables: ``[data]``, the data generator's settings (``tichusim.learn.data.DataSettings``,
which checks them); ``[train]``, the network and its training (``TrainSettings``); and
``[output]``, where everything goes. An optional fourth, ``[selfplay]``, adds a self-play
round: the first network plays and labels rounds of its own (the generator's settings but
``variant``, ``behavior`` and ``rollout``, which are the first stage's table and network), and
a second network is trained as ``[train]`` says on both data sets. ``[league]``
(``tichusim.learn.league.LeagueSettings``) is the judge of the finished network: it is copied
to ``[output] weights`` only when the league ships it, so a config with ``weights`` needs one,
and the league's seed is none a data set is played with (its deals are held out).
Validation is the one way of run configs and the data's settings (``tichusim.runs.settings``):
strict types, unknown keys refused, every problem one ``ConfigError`` naming its key
(``train.epochs: ...``), which the command line prints as one line. Nothing here imports
torch, so a bad config is reported before the training library is looked for.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, field_validator

from ..runs.settings import ConfigError, Strict, read_toml, validated
from .league import LeagueSettings

if TYPE_CHECKING:
    from .data import DataSettings

__all__ = [
    "ConfigError",
    "LearnConfig",
    "LeagueSettings",
    "OutputSettings",
    "PassDataSettings",
    "TrainSettings",
    "load_learn_config",
]

PositiveInt = Annotated[int, Field(gt=0)]


class TrainSettings(Strict):
    """How the network is trained (``docs/learn.md``).

    ``hidden``: the two hidden layers' sizes (H1, H2). ``batch_size``: decisions per step,
    each with all its candidates. ``value_weight``: the weight of the values' squared error
    beside the within-decision differences' (the loss is ``diff + value_weight * value``).
    ``validation_share``: the share of the rounds held out (a round's decisions are all on
    one side). ``threads``: torch's. ``checkpoint_every``: steps between checkpoints (one is
    also written at the end of each epoch)."""

    hidden: Annotated[list[PositiveInt], Field(min_length=2, max_length=2)] = [64, 32]
    epochs: PositiveInt = 8
    batch_size: PositiveInt = 256
    learning_rate: Annotated[float, Field(gt=0, lt=1)] = 1e-3
    value_weight: Annotated[float, Field(ge=0)] = 0.1
    validation_share: Annotated[float, Field(gt=0, lt=1)] = 0.1
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 0
    threads: PositiveInt = 1
    checkpoint_every: PositiveInt = 500

    @field_validator("hidden")
    @classmethod
    def _hidden(cls, value: list[int]) -> list[int]:
        if max(value) > 4096:
            raise ValueError(
                f"at most 4096 units a layer (the player runs it per candidate), got {value}"
            )
        return value

    def fingerprint(self) -> str:
        """What makes two trainings the same (all but ``threads`` and ``checkpoint_every``,
        which change how it runs, not what it computes)."""
        data = self.model_dump(exclude={"threads", "checkpoint_every"})
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class OutputSettings(Strict):
    """``dir``: the learning's folder (the data in ``data/``, the training's checkpoint,
    metrics and loss curve in ``train/``, the weights as ``learned.npz``); ``weights``: a
    further place to copy the finished weights file to (e.g. the package's own)."""

    dir: str
    weights: str | None = None

    @field_validator("dir", "weights", mode="before")
    @classmethod
    def _path(cls, value: Any) -> Any:
        value = os.fspath(value) if isinstance(value, os.PathLike) else value
        if isinstance(value, str) and not value.strip():
            raise ValueError("an empty path")
        return value


# the self-play data's settings taken from the first stage, not from ``[selfplay]``
FROM_FIRST_STAGE = ("variant", "behavior", "rollout")


class PassDataSettings(Strict):
    """The learned passing's data (``decision = "pass"``; ``tichusim.learn.passdata``):
    ``hands`` hands of 14 cards, each candidate pass of each played out on ``deals`` deals
    (paired), hand ``h`` drawn from ``(seed, h)``, written ``shard_hands`` hands a file. The
    4-player game (``variant = "nanjing"``) and Wu Wang (``"wuwang"``, RULES.md §4: two
    cards a pass) have a learned passing."""

    hands: PositiveInt = 20_000
    deals: PositiveInt = 16
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 1
    shard_hands: PositiveInt = 500
    variant: str = "nanjing"

    @field_validator("variant")
    @classmethod
    def _variant(cls, value: str) -> str:
        if value not in ("nanjing", "wuwang"):
            raise ValueError(
                f"the learned passing is trained at nanjing or wuwang only (its candidates "
                f"are those tables' passes, RULES.md §2.4, §4), not {value!r}"
            )
        return value


DECISIONS = ("play", "pass")


class LearnConfig(Strict):
    """One learning: data generation, then training; with ``selfplay``, a second data set
    played and labelled by the first network, and a second training on both. ``data`` and
    ``selfplay`` are handed to the data generator's ``DataSettings`` (``data_settings()``,
    ``selfplay_settings()``)."""

    decision: str = "play"  # the network's decision: "play" (plays and bombs) or "pass"
    data: dict[str, Any] = {}
    train: TrainSettings = TrainSettings()
    selfplay: dict[str, Any] | None = None
    league: LeagueSettings | None = None
    output: OutputSettings

    @property
    def out_dir(self) -> Path:
        return Path(self.output.dir)

    @property
    def first_weights_path(self) -> Path:
        """Where the first training writes its weights file."""
        return self.out_dir / "learned.npz"

    @property
    def selfplay_dir(self) -> Path:
        """The self-play round's folder: its ``data/``, ``train/`` and ``learned.npz``."""
        return self.out_dir / "selfplay"

    @property
    def weights_path(self) -> Path:
        """Where the last training writes the finished weights file."""
        if self.selfplay is None:
            return self.first_weights_path
        return self.selfplay_dir / "learned.npz"

    @field_validator("decision")
    @classmethod
    def _decision(cls, value: str) -> str:
        if value not in DECISIONS:
            raise ValueError(f"one of {', '.join(DECISIONS)}, not {value!r}")
        return value

    @property
    def pass_weights_path(self) -> Path:
        """Where a pass network's training writes its weights file."""
        return self.out_dir / "learned-pass.npz"

    def pass_settings(self) -> PassDataSettings:
        """The learned passing's data settings from ``[data]`` (``decision = "pass"``); a
        ``ConfigError`` under ``data.`` for what they refuse, or for ``[selfplay]``."""
        if self.selfplay is not None:
            raise ConfigError("selfplay", "a pass network's learning has no self-play round")
        try:
            return validated(PassDataSettings, self.data)
        except ConfigError as exc:
            raise ConfigError(f"data.{exc.key}", exc.problem) from None

    def data_settings(self) -> DataSettings:
        """The data generator's settings from ``[data]``; a ``ConfigError`` under ``data.``
        for what it refuses (its own checks name the key first: ``rounds: ...``)."""
        return _settings("data", self.data, {})

    def selfplay_settings(self, weights: str | os.PathLike | None = None) -> DataSettings | None:
        """The self-play data's settings: ``[selfplay]``, played and labelled at ``[data]``'s
        table by the network of ``weights`` (the first stage's; the package's own to check
        the table before that file exists). ``None`` without ``[selfplay]``."""
        if self.selfplay is None:
            return None
        for key in FROM_FIRST_STAGE:
            if key in self.selfplay:
                raise ConfigError(
                    f"selfplay.{key}", "set by the first stage (its table and its network)"
                )
        first = self.data_settings()
        # the play network passes as expert: its self-play data stays what it was before the
        # pass network (strategies.md, "The learned passing"), so the shipped play network
        # reproduces
        player = (
            "learned[pass=expert]"
            if weights is None
            else f"learned[weights={Path(weights).as_posix()},pass=expert]"
        )
        fixed = {"variant": first.variant, "behavior": player, "rollout": player}
        return _settings("selfplay", self.selfplay, fixed)

    def check_league(self) -> None:
        """A ``ConfigError`` unless the finished network is judged before it is copied (a
        ``[league]`` wherever ``[output] weights`` is given) on held-out deals (a seed neither
        data set is played with)."""
        if self.league is None:
            if self.output.weights is not None:
                raise ConfigError(
                    "output.weights",
                    "a network is copied there only when the league ships it: add a [league] "
                    "table (docs/learn.md)",
                )
            return
        data = self.pass_settings() if self.decision == "pass" else self.data_settings()
        seeds = {"data.seed": data.seed}
        if self.selfplay is not None:
            settings = self.selfplay_settings()
            assert settings is not None  # [selfplay] is there
            seeds["selfplay.seed"] = settings.seed
        for key, seed in seeds.items():
            if seed == self.league.seed:
                raise ConfigError(
                    "league.seed",
                    f"{seed} is {key}: the league plays deals no data set was played with",
                )

    def to_json(self) -> dict:
        return self.model_dump(mode="json")


def _settings(table: str, given: dict[str, Any], fixed: dict[str, Any]) -> DataSettings:
    """The data generator's settings from the config's table ``table`` (``given``) and the
    ``fixed`` ones; a ``ConfigError`` under ``table.`` for what it refuses."""
    from .data import DataSettings  # the generator's module (its kernels) loads when used

    known = [name for name in DataSettings.model_fields if name not in fixed]
    for key in given:
        if key not in known:
            raise ConfigError(f"{table}.{key}", f"unknown key (known: {', '.join(known)})")
    try:
        return DataSettings(**given, **fixed)
    except ConfigError as exc:
        raise ConfigError(f"{table}.{exc.key}", exc.problem) from None


def validate(data: Any) -> LearnConfig:
    """``LearnConfig`` from a mapping, or a ``ConfigError`` naming the first bad key."""
    return validated(LearnConfig, data)


def load_learn_config(path: str | os.PathLike) -> LearnConfig:
    """Read and validate a learning's TOML config."""
    return validate(read_toml(path))
