"""Benchmark harness: wrk against a fresh livecore server, figures as ratios to a bare baseline.

Run ``python -m benchmarks --help``; add scenarios in :mod:`benchmarks.scenarios`; see README.md.
"""
