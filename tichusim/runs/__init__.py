"""Batch runs: validated configs, the shard runner (worker processes or Dask), the run directory's
manifest, verification, atomic files and reading a run's tables back.
"""
