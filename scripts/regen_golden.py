"""Regenerate the golden transcripts in tests/golden/ (run after an intended engine change).

    python scripts/regen_golden.py
"""

from pathlib import Path

from tichusim.transcript import transcript

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"

# (seed, round, strategies): chosen to show bombs, the Dog, the Dragon, a wish, a double victory
CASES = [
    (1, 3, "random"),
    (1, 0, "lowest"),
    (7, 12, "random"),
    (7, 15, "random"),  # a bomb, a wish and a Dragon gift
    (42, 5, "random,lowest,random,lowest"),
]


def name(seed, round_, strategies):
    return f"seed{seed}_round{round_}_{strategies.replace(',', '-')}.txt"


def main():
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for seed, round_, strategies in CASES:
        parts = strategies.split(",")
        text = transcript(seed, round_, strategies=parts[0] if len(parts) == 1 else parts)
        (GOLDEN / name(seed, round_, strategies)).write_text(text)
        print("wrote", name(seed, round_, strategies))


if __name__ == "__main__":
    main()
