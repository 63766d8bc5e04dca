"""The search: players and advice that think with the simulator, above the games they play.

``evaluate`` measures candidate answers of one decision on deals consistent with a seat's
view (``evaluate_plays``, ``SearchResult``); ``prune`` picks the candidates where the legal
answers are many; ``agent`` is the ``search`` strategy (``Search``), a Python agent named like
the scripted ones (``games/agents.py``'s ``NAMED``). Each module is imported where used.
"""
