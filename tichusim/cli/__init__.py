"""The ``tichusim`` command: thin click commands over the library functions.

Each command parses its options, builds typed objects, calls a library function and prints
its answer; one module per area adds its commands to the group ``main`` (``group.py``, with
the errors every command shows in one line):

* ``runs``: show, simulate, run, report, verify (playing rounds and batch runs);
* ``answers``: legal, gt-odds, tichu-odds, pass-advice, gt-table, advise (about a hand or a
  position);
* ``players``: strategies, compare, learn;
* ``serve``: serve (the answers in a browser);
* ``games``: import (played games read into the simulator's tables);
* ``install``: warmup, doctor;
* ``review``: review (a played game's decisions weighed).

``options.py`` holds the options several commands share, and derives the answers' options
from their requests' declaration (``analysis.questions``), which the server reads too.
"""

from . import answers, games, install, players, review, runs, serve  # noqa: F401  each adds its commands
from .group import main

__all__ = ["main"]
