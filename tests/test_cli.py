"""The command line: one-line errors with exit status 2, tables written whole."""

import pandas as pd
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_writes_parquet_and_summary(tmp_path):
    out = tmp_path / "run"
    res = run("simulate", "--rounds", "2000", "--seed", "3", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "double victories" in res.output and "[" in res.output  # estimates carry intervals
    rounds = pd.read_parquet(out / "rounds.parquet")
    seats = pd.read_parquet(out / "seats.parquet")
    assert len(rounds) == 2000 and len(seats) == 8000
    assert seats["hand14"].dtype == "uint64"
    # the same command again replaces the same tables
    assert run("simulate", "--rounds", "2000", "--seed", "3", "--out", str(out)).exit_code == 0
    assert pd.read_parquet(out / "rounds.parquet").equals(rounds)


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "other.txt").write_text("x")
    cases = [
        ("simulate", "--strategies", "nope"),
        ("simulate", "--strategies", "random,lowest"),
        ("simulate", "--rounds", "10", "--out", str(tmp_path)),
        ("legal", "Ma Ma"),
        ("legal", "Xx"),
        ("legal", "2j", "--top", "3j 4s"),
        ("legal", "2j", "--wish", "1"),
        ("show", "--strategies", "bogus"),
    ]
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        lines = said_lines(res.output)
        assert len(lines) == 1 and "Traceback" not in res.output, (args, res.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt"]  # nothing written


def test_show_and_legal():
    res = run("show", "--seed", "1", "--round", "3")
    assert res.exit_code == 0 and "End: first out" in res.output
    res = run("legal", "5j 5s Ph", "--top", "4j 4s")
    assert res.exit_code == 0 and "3 plays; pass allowed" in res.output


def test_simulate_out_holds_the_tables_of_every_variant(tmp_path):
    """simulate --out writes the tables simulate() returns, for every game (RULES.md §3-§5),
    with the variant's options."""
    import tichusim

    cases = [
        ("tientsin", [], {}),
        ("wuwang", [], {}),
        (
            "grand-seigneur",
            ["--players", "8", "--option", "decks=1"],
            {"players": 8, "options": {"decks": 1}},
        ),
    ]
    for variant, extra, kwargs in cases:
        out = tmp_path / variant
        res = run(
            "simulate",
            "--rounds",
            "300",
            "--seed",
            "4",
            "--variant",
            variant,
            "--strategies",
            "lowest",
            "--out",
            str(out),
            *extra,
        )
        assert res.exit_code == 0, res.output
        if variant == "wuwang":  # §4: sides by role, and a score per player and the Minister
            assert "the King's side" in res.output and "score per round, minister" in res.output
        r, s = tichusim.simulate(300, seed=4, variant=variant, strategies="lowest", **kwargs)
        pd.testing.assert_frame_equal(pd.read_parquet(out / "rounds.parquet"), r)
        pd.testing.assert_frame_equal(pd.read_parquet(out / "seats.parquet"), s)
    assert (r["deck"] == "one").all()


def test_show_options_and_grand_seigneur_games():
    """--option reaches the rules (RULES.md §5 Russian deck: 12 cards each, the rest out of
    play); --game shows a later round of a Grand Seigneur game, with the ranks it carries."""
    res = run(
        "show",
        "--variant",
        "grand-seigneur",
        "--players",
        "6",
        "--game",
        "2",
        "--round",
        "1",
        "--option",
        "russian_deck=true",
    )
    assert res.exit_code == 0, res.output
    assert "Russian edition" in res.output and "dealt 12:" in res.output
    assert "game 2, round 1" in res.output and "(rank 1)" in res.output
    half = run("show", "--variant", "tientsin", "--option", "phoenix_led_half=true")
    assert half.exit_code == 0 and "a led Phoenix is worth ½ (RULES.md §2.6 Option)" in half.output
    assert "worth ½" not in run("show", "--variant", "tientsin").output
    first = run("show", "--variant", "grand-seigneur", "--players", "6", "--round", "2")
    assert "game 2, round 0" in first.output and "(rank 1)" not in first.output
    for args in (
        ["--variant", "nanjing", "--game", "1"],
        ["--variant", "wuwang", "--option", "rotating_king=true"],
        ["--variant", "grand-seigneur", "--players", "6", "--option", "decks=3"],
        ["--variant", "grand-seigneur", "--players", "6", "--option", "nodecks"],
    ):
        res = run("show", *args)
        assert res.exit_code == 2 and res.output.count("\n") == 1, (args, res.output)


def test_strategies_lists_both_games():
    """Every policy and parameter of the Tichu strategies and of Grand Seigneur's (RULES.md
    §5: play, give_back, wish) is listed; --variant keeps one game."""
    from tichusim.strategies import seigneur as seigneur_strategies
    from tichusim.strategies import tichu as strategies

    text = run("strategies").output
    for book in (strategies.BOOK, seigneur_strategies.BOOK):
        for decision in book.decisions:
            assert f"Policies for {decision}:" in text
            assert all(f"  {policy} " in text for policy in book.policies[decision])
        assert all(f"  {name} " in text for name in book.params)
    only = run("strategies", "--variant", "grand-seigneur").output
    assert "give_back" in only and "grand_tichu" not in only
    assert "give_back" not in run("strategies", "--variant", "tientsin").output
