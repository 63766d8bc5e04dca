"""The gt-table beside the page's Grand Tichu answer: made once per server at start-up, on a
thread of its own beside the answers' workers (``gttable.experiment`` and ``gttable.by_class``,
as ``tichusim gt-table`` makes it: the 4-player game, the answers' default players,
``PLAYERS``, named in its status, its rows and its command), kept in memory, and read row by
row. Making it compiles (or loads) the Grand Tichu kernels too."""

from __future__ import annotations

import inspect
import threading

import pandas as pd

from ..analysis import gttable
from ..games.errors import one_line

__all__ = ["Table"]

SEED = 0  # gt-table's default seed
# the seat's and the others' strategies: the experiment's defaults, whatever they are
PLAYERS = tuple(
    inspect.signature(gttable.experiment).parameters[name].default
    for name in ("seat_strategy", "others")
)
BATCH = 10_000  # deals between two looks at the stop flag


class _Stopped(Exception):
    pass


class Table:
    """``start()`` makes the table of ``deals`` paired deals on its own thread; ``row(hand)``
    is the hand class's row once made (``None`` before); ``stop()`` ends it within a batch."""

    def __init__(self, deals: int):
        self.deals = deals
        self.classes: pd.DataFrame | None = None
        self.done = 0
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.deals and self._thread is None:
            self._thread = threading.Thread(target=self._make, name="tichusim-gt-table")
            self._thread.start()

    def _make(self) -> None:
        def tell(done: int, total: int) -> None:
            if self._stop.is_set():
                raise _Stopped
            self.done = done

        try:
            me, others = PLAYERS
            df = gttable.experiment(
                self.deals, seed=SEED, seat_strategy=me, others=others, progress=tell, batch=BATCH
            )
            self.classes = gttable.by_class(df, gttable.CLASS_KEYS)
        except _Stopped:
            pass
        except Exception as exc:  # said by /api/info; the answers go on without it
            self.error = one_line(f"{type(exc).__name__}: {exc}")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def status(self) -> dict:
        return {
            "deals": self.deals,
            "done": self.done,
            "ready": self.classes is not None,
            "error": self.error,
            "seat_strategy": PLAYERS[0],
            "others": PLAYERS[1],
            "command": self.command,
        }

    @property
    def command(self) -> str:
        me, others = PLAYERS
        return (
            f"tichusim gt-table --deals {self.deals} --seed {SEED} --seat-strategy {me} "
            f"--others {others}"
        )

    def row(self, hand: str) -> dict | None:
        """The row of the class of 8 cards ``hand``, with the table's deals and command;
        ``None`` while the table is being made (or when the server makes none)."""
        if self.classes is None:
            return None
        try:
            row = gttable.class_row(self.classes, hand)
        except ValueError:
            return None
        return row | {
            "table_deals": self.deals,
            "seat_strategy": PLAYERS[0],
            "others": PLAYERS[1],
            "command": self.command,
        }
