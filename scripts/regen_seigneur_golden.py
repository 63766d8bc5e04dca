"""Regenerate the Grand Seigneur golden transcripts in tests/golden/ (after an intended change
to the Grand Seigneur engine, review the diff):

    python scripts/regen_seigneur_golden.py
"""

from pathlib import Path

from tichusim.games.seigneur import transcript

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"

# (seed, game, round, players, options, strategies): chosen to show the exchange, a bomb out of
# turn, a wish fulfilled, a second Dragon on a first, the Russian Dog and leftovers, the
# five-player exchange (2 and 1) and a first round (random seating, no exchange)
CASES = [
    (2, 14, 1, 7, None, "random"),
    (2, 9, 1, 8, "russian", "random"),
    (2, 0, 1, 5, None, "lowest"),
    (3, 1, 2, 12, None, "heuristic"),
    (1, 0, 0, 6, None, "heuristic,lowest,random,heuristic,lowest,random"),
]


def name(seed, game, round_, players, options, strategies):
    opts = f"_{options}" if options else ""
    return (
        f"seigneur_p{players}{opts}_seed{seed}_game{game}_round{round_}_"
        f"{strategies.replace(',', '-')}.txt"
    )


def render(seed, game, round_, players, options, strategies):
    parts = strategies.split(",")
    return transcript(
        seed,
        game,
        round_,
        players=players,
        options=options,
        strategies=parts[0] if len(parts) == 1 else parts,
    )


def main():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        (GOLDEN / name(*case)).write_text(render(*case))
        print("wrote", name(*case))


if __name__ == "__main__":
    main()
