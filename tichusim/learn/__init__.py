"""Learning a player from the simulator: labelled decisions (``decisions.py``, written by the
data generator), the value network and its weights file (``model.py``), its training
(``train.py``) and the config that runs them all (``config.py``; ``tichusim learn CONFIG``,
``docs/learn.md``). torch, the ``learn`` extra, is imported by ``model.py`` and ``train.py``
only: importing this package does not need it."""
