"""Self-play Tichu call rate and success of expert with a stricter Tichu call (the value
score's intercept lowered by SHIFT logits), and its duplicate margin against expert: what the
issue's 68%-success target costs (results/expert/README.md).

    NUMBA_NUM_THREADS=1 python scripts/expert_call_frontier.py 0.2 0.3 0.4 0.7
"""

import sys

import tichusim
from tichusim.analysis.duplicate import duplicate
from tichusim.stats import wilson
from tichusim.strategies.expert_params import TICHU_VALUE

for shift in map(float, sys.argv[1:]):
    spec = {
        "base": "expert",
        "name": f"expert-strict{shift}",
        "params": {"tichu_value_intercept": TICHU_VALUE["nanjing"][0] - shift},
    }
    r, s = tichusim.simulate(400_000, seed=2026, strategies=spec)
    c = s[s.tichu]
    d = duplicate(spec, "expert", 50_000, seed=7).diff
    print(
        f"shift {shift}: tichu calls {wilson(len(c), len(s))}, "
        f"success {wilson(int((c.finish == 1).sum()), len(c))}; vs expert {d}",
        flush=True,
    )
