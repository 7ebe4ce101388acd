"""OR-Tools' ``cp_model``, imported without pandas (issue 21: ``kraton solve`` on a puzzle ≤ 1 s
as a whole process).

``ortools.sat.python.cp_model`` imports pandas at the top only for its ``pd.Series`` helpers
(``new_int_var_series`` and the like), which kraton never calls; pandas is 0.25 s of the
0.4-s import, a third of ``kraton solve`` on a puzzle (benchmarks/README.md, "Puzzles
in-process"). While ``cp_model`` is imported, a stand-in with the two names it reads at import
(``Index``, ``Series``) takes pandas' place; it leaves ``sys.modules`` straight after, so a later
``import pandas`` (dask's, a user's) gets the real one. Where pandas is already loaded, or the
stand-in is not enough for another OR-Tools release, the plain import runs. Every solver
module imports ``cp_model`` from here.
"""

from __future__ import annotations

import sys
import types

_CP_MODEL = "ortools.sat.python.cp_model"


def _stand_in() -> types.ModuleType:
    pd = types.ModuleType("pandas", "kraton's stand-in while cp_model imports (ortools_cp.py)")
    pd.Index = type("Index", (), {})  # type: ignore[attr-defined]
    pd.Series = type("Series", (), {})  # type: ignore[attr-defined]
    return pd


def _import_without_pandas() -> None:
    if _CP_MODEL in sys.modules or "pandas" in sys.modules:
        return
    stand_in = _stand_in()
    sys.modules["pandas"] = stand_in
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:  # needs more of pandas than the stand-in has: the plain import below
        sys.modules.pop(_CP_MODEL, None)
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]


_import_without_pandas()

from ortools.sat.python import cp_model

__all__ = ["cp_model"]
