"""The parts of :mod:`studeval.bench`: timing, peers, agreement checks, the run, the report.

>>> from studeval._bench import peers, run
>>> run.DEFAULT_SEED, peers.PEER_NAMES[0]
(20240601, 'pkrbot')
"""
