"""Regenerate the golden transcripts in tests/golden/ (run after an intended engine change).

python scripts/regen_golden.py
"""

from pathlib import Path

from tichusim.games.transcript import transcript

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"

# (seed, round, strategies): chosen to show bombs, the Dog, the Dragon, a wish, a double victory
CASES = [
    (1, 3, "random"),
    (1, 0, "lowest"),
    (7, 12, "random"),
    (7, 15, "random"),  # a bomb, a wish and a Dragon gift
    (42, 5, "random,lowest,random,lowest"),
]

# (variant, seed, round, strategies) of the other tables (RULES.md §3, §4)
VARIANT_CASES = [
    # Tientsin: the Dog to one of two partners, a bomb, a Dragon gift, a wish, the fifth
    # player out's and the last player's transfers
    ("tientsin", 7, 110, "random"),
    ("tientsin", 7, 50, "random"),  # a triple victory after Grand Tichu calls
    # Wu Wang: Tichu called for the Minister, the Minister free of the wish, a Dragon gift
    ("wuwang", 7, 4, "random"),
    ("wuwang", 7, 24, "heuristic,lowest,random"),  # a double victory, the Dog
]


def name(seed, round_, strategies):
    return f"seed{seed}_round{round_}_{strategies.replace(',', '-')}.txt"


def variant_name(variant, seed, round_, strategies):
    return f"{variant}_{name(seed, round_, strategies)}"


def _strategies(text):
    parts = text.split(",")
    return parts[0] if len(parts) == 1 else parts


def variant_transcript(variant, seed, round_, strategies):
    return transcript(seed, round_, strategies=_strategies(strategies), variant=variant)


def main():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for seed, round_, strategies in CASES:
        text = transcript(seed, round_, strategies=_strategies(strategies))
        (GOLDEN / name(seed, round_, strategies)).write_text(text)
        print("wrote", name(seed, round_, strategies))
    for case in VARIANT_CASES:
        (GOLDEN / variant_name(*case)).write_text(variant_transcript(*case))
        print("wrote", variant_name(*case))


if __name__ == "__main__":
    main()
