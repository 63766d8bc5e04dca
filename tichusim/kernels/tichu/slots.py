"""The row of floats that configures one seat's strategy (``N_PARAMS`` long, see records.WORK).

Slots ``P_PLAY`` .. ``P_DRAGON`` and ``P_DOG`` hold the policy chosen for each decision (ids in
``policies.py``); the others hold numeric parameters. ``tichusim.strategies`` names every slot
and gives its default and meaning; kernels index the row with these constants.
"""

# policy per decision
P_PLAY, P_GRAND_TICHU, P_TICHU, P_PASS, P_WISH, P_DRAGON = range(6)
# call strength (policies.strength): feature weights and the two thresholds
W_DRAGON, W_PHOENIX, W_ACE, W_KING, W_BOMB, W_DOG, W_MAH_JONG, W_PLAY = range(6, 14)
GT_THRESHOLD, TICHU_THRESHOLD = 14, 15
# heuristic play (heuristic.py)
(BOMB_THREAT, BOMB_POINTS, POINT_WEIGHT, FOLLOW_MARGIN, CONTROL_COST, DOG_PARTNER_CARDS) = range(
    16, 22
)
ATTACK_BONUS = 22
# the Dog's target among two partners (Tientsin, RULES.md §3)
P_DOG = 23
# expert play (expert.py)
SURE_KEEP, SURE_COST, SHORT_OPP, PARTNER_LEAD, TICHU_OVER_PARTNER = range(24, 29)
CALLER_SURE = 29  # expert: the caller's extra price of a sure winner on an opponent's trick
# expert calls by value (expert.call_value): 10 coefficients each, intercept first, in the
# order of expert.N_CALL_FEATURES (Tichu on 14 cards before passing, Grand Tichu on 8)
TICHU_VALUE = 30
GT_VALUE = 40
# the decisions taken from Python: a bit per ``outside.D_*`` (0 for a scripted strategy)
P_OUTSIDE = 50
# expert play around a call and its bombs (expert.py), after the Python-side slot
CALLER_BOMB, SUPPORT_THREAT, SUPPORT_DEFER, CALLER_OVERTAKE, ATTACK_SPLIT, BOMB_KEEP = range(51, 57)
HOLD_MARGIN, SUPPORT_SURE, RETAKE_LEAD, CALLER_GIFT = 57, 58, 59, 60
# expert's Tichu before passing: after TICHU_VALUE's 10, the coefficients of the hand's plan
# shape (expert.plan_shape: low singles, straights) and of the public context of the call
# (expert.call_context: a partner called, else an opponent's Grand Tichu, else an opponent's
# Tichu), 5 in all
TICHU_EXTRA = 61
# expert's Tichu after passing, on the hand then held: 10 coefficients as TICHU_VALUE's, then 5
# as TICHU_EXTRA's
TICHU_AFTER_VALUE = 66
TICHU_AFTER_EXTRA = 76
# the learned play (learned.py): the model the seat plays with, as an index into the table's
# models (set per table by ``table_models.models_for``), and the identity of its weights
# file, 64 bits in two halves of 32 (each exact in a float): zeros for every other strategy
P_MODEL = 81
P_WEIGHTS = 82  # the identity's high half; ``P_WEIGHTS + 1`` its low half
# the learned passing (passnet.py): its model's index into the table's models and the identity
# of its weights file, as P_MODEL and P_WEIGHTS are the learned play's
P_PASS_MODEL = 84
P_PASS_WEIGHTS = 85  # the identity's high half; ``P_PASS_WEIGHTS + 1`` its low half
N_SLOTS = 87
