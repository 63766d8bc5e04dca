"""Batch runs: validated configs, the shard runner (worker threads, processes or Dask), the
run directory's manifest, verification, atomic files and reading a run's tables back.
"""
