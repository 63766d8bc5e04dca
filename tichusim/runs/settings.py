"""Settings validated one way: a run's config (``runs.config``), a learning's ``[train]`` and
``[output]`` (``learn.config``) and its ``[data]`` (``learn.data.DataSettings``) are pydantic
models on one strict base (``Strict``: strict types, unknown keys refused, frozen), and every
failure becomes one ``ConfigError`` naming its key (``train.epochs: input should be greater
than 0, got 0``), worded by one function (``first_error``) whether the model was validated
from a file's table or built in Python. Field checks beyond a type come from
``tichusim.checks`` (``Whole1``, ``Share``, ``Seed``, ...), with their wording.
"""

from __future__ import annotations

import os
import tomllib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from .. import checks

__all__ = [
    "ConfigError",
    "Seed",
    "Share",
    "Strict",
    "Whole0",
    "Whole1",
    "Whole2",
    "first_error",
    "problem_of",
    "read_toml",
    "validated",
]

_Model = TypeVar("_Model", bound=BaseModel)  # a config model, for ``validated``


class ConfigError(ValueError):
    """A config problem: ``key`` (dotted, e.g. ``strategies.2``) and what is wrong with it."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


class Strict(BaseModel):
    """The one base of validated settings: strict types, unknown keys refused, frozen. Built
    in Python (``DataSettings(rounds=0)``) as from a table, a bad value is one
    ``ConfigError`` naming its key."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise first_error(exc, type(self)) from None


def _checked(problem: Callable[[Any], str | None]) -> BeforeValidator:
    """A field check of ``tichusim.checks`` as pydantic runs it before the type: the value as
    a plain Python number, or its problem (the key is added by ``first_error``)."""

    def check(value: Any) -> Any:
        said = problem(value)
        if said:
            raise ValueError(said)
        return value.item() if hasattr(value, "item") else value

    return BeforeValidator(check)


Whole0 = Annotated[int, _checked(lambda v: checks.whole_problem(v, 0))]
Whole1 = Annotated[int, _checked(lambda v: checks.whole_problem(v, 1))]
Whole2 = Annotated[int, _checked(lambda v: checks.whole_problem(v, 2))]
Share = Annotated[float, _checked(checks.share_problem)]
Seed = Annotated[int, _checked(checks.seed_problem)]

_PROBLEMS = {
    "extra_forbidden": "unknown key",
    "missing": "missing (required)",
}


def problem_of(err: Any) -> str:
    """What is wrong, in words, of one of a pydantic failure's errors (``exc.errors()``)."""
    problem = _PROBLEMS.get(err["type"])
    if problem is None:
        msg = err["msg"].removeprefix("Value error, ")
        problem = msg[:1].lower() + msg[1:]
        if err["type"] not in ("value_error", "assertion_error"):
            problem += f", got {err['input']!r}"
    return problem


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The settings model a field holds (``X``, ``X | None``), or ``None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType, Annotated):
        for arg in get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _known(model: type[BaseModel] | None, table: list[str]) -> list[str] | None:
    """The keys of the table at ``table`` (a path of keys) inside ``model``."""
    for key in table:
        field = model.model_fields.get(key) if model is not None else None
        if field is None:
            return None
        model = _model_in(field.annotation)
    return None if model is None else list(model.model_fields)


def first_error(
    exc: ValidationError, model: type[BaseModel] | None = None, prefix: str = ""
) -> ConfigError:
    """The most useful error of a pydantic failure of ``model`` (an unknown key first), as
    one ``ConfigError`` under ``prefix``: a validator's own ``ConfigError`` goes under the
    key it was raised at; an unknown key lists the known ones of its table."""
    err = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
    loc = [str(p) for p in err["loc"]]
    where = ([prefix] if prefix else []) + loc
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, ConfigError):
        return ConfigError(".".join(where + [cause.key]), cause.problem)
    if err["type"] == "extra_forbidden":
        known = _known(model, loc[:-1])
        listed = f" (known: {', '.join(known)})" if known else ""
        return ConfigError(".".join(where), "unknown key" + listed)
    return ConfigError(".".join(where) or "config", problem_of(err))


def validated(model: type[_Model], data: Any) -> _Model:
    """A ``model`` (a pydantic config) from a mapping, or the ``ConfigError`` of its first bad
    key (``first_error``)."""
    if isinstance(data, model):
        return data
    if not isinstance(data, dict):
        raise ConfigError("config", f"expected a table of settings, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise first_error(exc, model) from None


def read_toml(path: str | os.PathLike) -> dict[str, Any]:
    """A TOML file's table, or a ``ConfigError`` naming the file and why it cannot be read."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(str(path), f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8; a binary or Latin-1 file is not TOML
        raise ConfigError(str(path), f"not valid TOML: not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), f"not valid TOML: {exc}") from None
