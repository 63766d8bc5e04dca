"""The ``tichusim`` group that every command joins: its errors in one line with their exit
statuses, and the warnings it says in one line too."""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..games import errors


class UserError(click.ClickException):
    exit_code = 2

    def show(self, file=None):  # one line, no traceback (a newline in a value is escaped)
        click.echo(f"tichusim: error: {errors.one_line(self.format_message())}", err=True)


class PlayError(UserError):
    """A Python agent failed while playing (it raised, or answered outside the legal
    choices): the input was fine, the play was not, so exit status 1."""

    exit_code = 1


class OneLineErrors(click.Command):
    """Bad options are one line with exit status 2, like every other error of the command."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None


class _Main(click.Group):
    """Every command's usage errors (and an unknown command) as one line, exit status 2."""

    command_class = OneLineErrors

    def parse_args(self, ctx, args):
        if not args:  # bare `tichusim`: click's help, as usual
            return super().parse_args(ctx, args)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None

    def invoke(self, ctx):
        """The command, with the compile notice's switch as it was restored after it, however
        it ends: a ``--quiet`` parsed before another option's error turns it off too."""
        from .._compile.notice import compile_notices, notices_on

        with compile_notices(notices_on()):
            return super().invoke(ctx)


def guard(fn, *args, **kwargs):
    """Bad input (``ValueError``, an agent that cannot be loaded) exits 2; an agent failing
    during play exits 1: one line each (``games.errors.guard``, which the server shares)."""
    try:
        return errors.guard(fn, *args, **kwargs)
    except errors.BadInput as exc:
        raise (PlayError if exc.exit_code == PlayError.exit_code else UserError)(str(exc)) from None


@click.group(cls=_Main)
@click.version_option(__version__, prog_name="tichusim")
def main():
    """Monte Carlo simulation of Tichu (the rules as implemented: RULES.md)."""
    from .._compile import frame_stack

    frame_stack.install()  # this process is ours alone: see docs/compile.md
    _renamed_policies_in_one_line()


# the warnings a command says in one line: (module, class)
ONE_LINE = (
    ("tichusim.strategies.book", "RenamedPolicyWarning"),
    ("tichusim.strategies.learned", "OtherTableWarning"),
)


def _renamed_policies_in_one_line() -> None:
    """A policy named by its old name (``RenamedPolicyWarning``) or a network played at
    another table than its own (``OtherTableWarning``) is said on stderr in one line, like the
    command's errors; other warnings show as Python shows them."""
    import warnings

    shown = warnings.showwarning
    if getattr(shown, "one_line", False):  # installed by an earlier command in this process
        return

    said: set[str] = set()  # once each: a strategy is resolved more than once a command

    def one_line(category) -> bool:
        # looked up only among the modules loaded: a warning's module is loaded by the time
        # it warns, and importing strategies.learned here would load numba and compile
        # kernels before every command, even one that plays nothing
        kinds = (getattr(sys.modules.get(module), name, None) for module, name in ONE_LINE)
        return any(kind is not None and issubclass(category, kind) for kind in kinds)

    def show(message, category, filename, lineno, file=None, line=None):
        if one_line(category):
            if str(message) not in said:
                said.add(str(message))
                click.echo(f"tichusim: warning: {message}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)

    show.one_line = True  # type: ignore[attr-defined]
    warnings.showwarning = show
