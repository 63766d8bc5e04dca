"""Strategies from Python: named, composed from a base with policies and parameters
(``tables``: one mechanism for both families), for the team games (``tichu``) and Grand
Seigneur (``seigneur``), and their text form on the command line (``specs``). A strategy
becomes the row of numbers its family's kernels read.
"""
