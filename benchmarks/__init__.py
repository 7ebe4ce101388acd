"""pytest-benchmark suites (see benchmarks/README.md); ``benchmarks/run.py`` runs them."""
