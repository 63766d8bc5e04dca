"""The errors every front end shares: the one a simulation raises when a round breaks, and
bad input said in one line (the command line's error and exit status, the server's 4xx)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .agents import AgentError

__all__ = ["BadInput", "PlayFailed", "SimulationError", "guard", "one_line"]

T = TypeVar("T")


class SimulationError(RuntimeError):
    """A round broke an invariant of RULES.md §7 (only with ``check=True``) or a strategy
    answered outside its choices."""


def one_line(message: str) -> str:
    """``message`` on one line: a newline in a value is escaped, never printed."""
    return message.replace("\n", "\\n")


class BadInput(Exception):
    """Input a front end refuses, with the one line that says why (``str``). The command
    line exits with ``exit_code``; the server answers 400."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(one_line(message))


class PlayFailed(BadInput):
    """A Python agent failed while playing (it raised, or answered outside the legal
    choices): the input was fine, the play was not (exit status 1)."""

    exit_code = 1


def guard(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, its bad input (``ValueError``, an agent that cannot be loaded)
    raised as ``BadInput`` and an agent failing during play as ``PlayFailed``: one line each,
    the library's own message."""
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except AgentError as exc:
        raise PlayFailed(str(exc)) from None
