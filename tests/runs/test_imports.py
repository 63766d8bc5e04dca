"""Played games read in (``tichusim.runs.imports``): the real Brettspielwelt logs replayed into
the simulator's tables and a moves table, every column documented; a round the engine refuses
reported with its file and line and the others kept; nothing readable refused; an import
sharded, resumed and played by any workers to the same bytes."""

import re
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from tichusim.games.record import Action
from tichusim.games.steps import Round
from tichusim.logs import read_game
from tichusim.runs import imports
from tichusim.runs.imports import NothingRead, import_games, inputs, resume
from tichusim.runs.manifest import RunDirError
from tichusim.runs.runner import RunInterrupted
from tichusim.runs.verify import verify

ROOT = Path(__file__).resolve().parents[2]
BSW = sorted((ROOT / "tests" / "data" / "bsw").glob("*.tch"))
TABLES = ("rounds", "seats", "moves", "problems")


def data_files(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.glob("*/part-*.parquet"))
    }


def broken(tmp_path: Path) -> tuple[Path, int]:
    """A real log whose second round has an impossible play: seat 0 answers the Mah Jong with
    the Ace of Jade, which seat 3 holds. Returns the file and the line."""
    lines = BSW[0].read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if "Gr.Tichukarten" in line]
    at = next(i for i in range(starts[1], starts[2]) if lines[i].startswith("Wunsch:")) + 1
    assert lines[at] == "(0)evi_sea: RA " and "GA" in lines[starts[1] + 9]
    lines[at] = "(0)evi_sea: GA "
    path = tmp_path / "broken.tch"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, at + 1


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The three real logs, a log with a refused round, a file that is no log: two shards."""
    folder = tmp_path_factory.mktemp("games")
    for path in BSW:
        shutil.copy(path, folder / path.name)
    bad, line = broken(folder)
    (folder / "notes.json").write_text("{}\n")
    return folder, bad, line


@pytest.fixture(scope="module")
def imported(games, tmp_path_factory):
    folder, _, _ = games
    out = tmp_path_factory.mktemp("import") / "out"
    summary = import_games([folder], out, shard_size=3, workers=1, progress=False)
    return out, summary


def read(out: Path, table: str) -> pd.DataFrame:
    return pd.read_parquet(out / table)


def test_every_table_is_written_and_every_column_documented(imported):
    out, summary = imported
    assert summary.files == 5 and summary.rounds == 39 and summary.played == 2
    assert verify(out).ok
    doc = re.sub(r"```.*?```", "", (ROOT / "docs" / "schema.md").read_text(), flags=re.S)
    names = set()
    for token in re.findall(r"`([^`]+)`", doc):
        names |= {re.sub(r"\d+$", "", part) for part in token.split("/")}
    for table in TABLES:
        columns = pq.read_schema(next((out / table).glob("part-*"))).names
        missing = [c for c in columns if re.sub(r"\d+$", "", c) not in names]
        assert not missing, (table, missing)


def test_rounds_and_seats_are_the_engines_tables_of_each_round(imported):
    """Each round's rows are ``Round.from_record(record).tables()``'s, with where it was read
    and who played it; the scores are the logs' (RULES.md §2.13–§2.14)."""
    out, _ = imported
    rounds, seats = read(out, "rounds"), read(out, "seats")
    read_in = read_game(BSW[0])
    first = rounds[rounds.source.astype(str).str.endswith(BSW[0].name)]
    assert list(first.round_in_game) == list(range(10))
    assert set(rounds.strategy0.astype(str)) == {"human"}
    lines = BSW[0].read_text(encoding="utf-8").splitlines()
    headers = [n for n, line in enumerate(lines, 1) if "Gr.Tichukarten" in line]
    assert list(first.source_line) == headers
    for record, (_, row) in zip(read_in.game.rounds, first.iterrows(), strict=True):
        assert (row.score_team0, row.score_team1) == record.score
        want_r, want_s = Round.from_record(record).tables()
        for column in want_r.columns.drop("round"):
            if not column.startswith("strategy"):
                assert row[column] == want_r[column][0], column
        got = seats[seats["round"] == row["round"]].reset_index(drop=True)
        assert list(got.player_name.astype(str)) == list(read_in.game.players)
        for column in want_s.columns.drop(["round", "strategy"]):
            assert got[column].tolist() == want_s[column].tolist(), column


def test_moves_hold_each_round_record_action_by_action(imported):
    out, _ = imported
    moves, rounds = read(out, "moves"), read(out, "rounds")
    read_in = read_game(BSW[1])
    keys = rounds[rounds.source.astype(str).str.endswith(BSW[1].name)]["round"]
    for record, key in zip(read_in.game.rounds, keys, strict=True):
        rows = moves[moves["round"] == key]
        assert list(rows.action) == list(range(len(record.actions)))
        assert [Action.parse(t) for t in rows.text] == list(record.actions)
        assert list(rows.line) == list(record.lines)
        plays = rows[rows.kind.isin(["play", "bomb"])]
        shown = [a.cards for a in record.actions if a.kind in ("play", "bomb")]
        assert [int(m) for m in plays["mask"]] == shown


def test_a_refused_round_is_reported_with_its_file_and_line_and_the_others_kept(games, imported):
    folder, bad, line = games
    out, summary = imported
    problems = read(out, "problems")
    assert [str(p) for p in summary.problems] == [
        f"{bad}:{line}: round 2, 0 play Aj: seat 0 does not hold Aj",
        f"{folder / 'notes.json'}:1: not a tichusim game record (format 'tichusim-game/1')",
    ]
    assert list(problems.stage) == ["replay", "read"]
    assert list(problems.round_in_game) == [1, -1]
    rounds = read(out, "rounds")
    kept = rounds[rounds.source.astype(str) == str(bad)]
    assert list(kept.round_in_game) == [0, *range(2, 10)]  # the other nine rounds are read


def test_nothing_readable_is_refused_and_nothing_is_left(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    with pytest.raises(NothingRead, match=r"notes.txt:1: not a game log") as caught:
        import_games([notes], tmp_path / "out", workers=1, progress=False)
    assert len(caught.value.problems) == 1
    assert not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="missing.tch: no such file"):
        import_games([tmp_path / "missing.tch"], tmp_path / "out", progress=False)


def test_an_interrupted_import_resumes_to_the_same_bytes(games, imported, tmp_path, monkeypatch):
    folder, _, _ = games
    reference, _ = imported
    out = tmp_path / "out"
    real = imports.import_shard

    def stopped(task):
        if task.index == 1:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(imports, "import_shard", stopped)
    with pytest.raises(RunInterrupted):
        import_games([folder], out, shard_size=3, workers=1, progress=False)
    assert list(data_files(out)) == [f"{t}/part-00000.parquet" for t in sorted(TABLES)]
    monkeypatch.setattr(imports, "import_shard", real)
    summary = resume(out, workers=1, progress=False)
    assert summary.played == 1 and summary.rounds == 39
    assert data_files(out) == data_files(reference)
    # the same import again is complete: nothing played
    assert import_games([folder], out, shard_size=3, progress=False).played == 0


def test_an_import_continues_only_with_the_same_inputs(games, tmp_path):
    folder, _, _ = games
    out = tmp_path / "out"
    import_games([BSW[0]], out, workers=1, progress=False)
    with pytest.raises(RunDirError, match="holds another import"):
        import_games([BSW[1]], out, progress=False)
    copy = tmp_path / "g.tch"
    shutil.copy(BSW[0], copy)
    import_games([copy], tmp_path / "other", workers=1, progress=False)
    copy.write_text(copy.read_text() + "\n")
    with pytest.raises(RunDirError, match="g.tch changed since the import started"):
        resume(tmp_path / "other", progress=False)


def test_inputs_are_files_directories_and_globs(games):
    folder, bad, _ = games
    listed = inputs([folder / "2417500.tch", folder, str(folder / "*.tch")])
    assert listed[0] == str(folder / "2417500.tch")
    assert sorted(listed) == sorted(str(p) for p in folder.iterdir())
    assert len(listed) == len(set(listed))
    with pytest.raises(ValueError, match="no file matches"):
        inputs([str(folder / "*.xyz")])


@pytest.mark.slow
def test_two_worker_processes_and_dask_write_the_same_bytes(games, imported, tmp_path):
    folder, _, _ = games
    reference, _ = imported
    two = import_games([folder], tmp_path / "two", shard_size=3, workers=2, progress=False)
    assert two.backend == "2 local processes"
    assert data_files(tmp_path / "two") == data_files(reference)
    pytest.importorskip("dask.distributed")
    on_dask = import_games([folder], tmp_path / "dask", shard_size=3, dask="local", progress=False)
    assert on_dask.backend.startswith("dask LocalCluster")
    assert data_files(tmp_path / "dask") == data_files(reference)


def test_our_own_games_of_another_table_are_read_at_that_table(tmp_path):
    """Game records tichusim wrote (JSON) of Wu Wang (RULES.md §4): read with
    ``variant="wuwang"``, each seat row named by its player (the Minister's row by the King,
    who plays it), played by ``recorded``; at the default table they are another table's."""
    from tichusim.games.record import GameRecord
    from tichusim.logs import write_game

    records = []
    for key in range(3):
        r = Round(3, key, "random", variant="wuwang")
        r.advance()
        records.append(r.record())
    path = tmp_path / "ww.json"
    write_game(GameRecord(tuple(records), ("ann", "bob", "cy"), "wuwang"), path)
    out = tmp_path / "out"
    summary = import_games([path], out, variant="wuwang", workers=1, progress=False)
    assert summary.rounds == 3 and summary.problems == []
    rounds, seats = read(out, "rounds"), read(out, "seats")
    assert list(rounds.score_team0) == [r.score[0] for r in records]
    assert set(rounds.strategy0.astype(str)) == {"recorded"} and set(rounds.source_line) == {0}
    for _, row in rounds.iterrows():
        rows = seats[seats["round"] == row["round"]]
        names = ["ann", "bob", "cy", ["ann", "bob", "cy"][row.king]]
        assert list(rows.player_name.astype(str)) == names
    moves = read(out, "moves")
    assert [Action.parse(t) for t in moves[moves["round"] == 0].text] == list(records[0].actions)
    with pytest.raises(NothingRead, match="a wuwang game; this import reads nanjing games"):
        import_games([path], tmp_path / "nanjing", progress=False)


@pytest.mark.slow
def test_an_import_killed_mid_way_resumes_to_the_same_bytes(tmp_path):
    """``tichusim import`` killed (SIGKILL) after a few shards, then resumed on two worker
    processes, leaves the bytes of the import done at once in this process."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "games"
    folder.mkdir()
    for i in range(60):
        shutil.copy(BSW[i % 3], folder / f"{i:03d}.tch")
    reference = tmp_path / "reference"
    import_games([folder], reference, shard_size=2, workers=1, progress=False)
    out = tmp_path / "out"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tichusim.cli", "import", str(folder), "--out", str(out)]
    proc = subprocess.Popen([*command, "--shard-size", "2", "--workers", "1", "--quiet"], env=env)
    deadline, done = time.monotonic() + 120, 0
    while done < 3:
        assert proc.poll() is None and time.monotonic() < deadline
        try:
            shards = json.loads((out / "manifest.json").read_text())["shards"]
        except (OSError, ValueError):
            shards = []
        done = sum(s["state"] == "done" for s in shards)
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    summary = resume(out, workers=2, progress=False)
    assert 0 < summary.played <= 30 - done and summary.rounds == 600
    assert data_files(out) == data_files(reference)
