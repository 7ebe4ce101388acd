"""The core and the analysis tools import no UI (Harlequin-style layering), and the analysis
modules import one another without a cycle."""

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_core_and_analysis_never_import_textual() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import core, analysis\n"
        "for pkg in (core, analysis):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui'))\n"
        "print(','.join(bad))\n"
    )
    assert _run(code) == ""


def test_core_never_imports_solver_code() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('analysis', 'ortools'))\n"
        "print(','.join(bad))\n"
    )
    assert _run(code) == ""


def test_the_solver_imports_cp_model_without_pandas_and_pandas_stays_whole() -> None:
    """Issue 21 (kraton solve <= 1 s as a process): pandas is most of cp_model's import and the
    solver never uses it; an ``import pandas`` after the solver's still gets the real one."""
    out = _run(
        "import sys\n"
        "from analysis.solver.model import solve_model\n"
        "from puzzles.loader import load_puzzles\n"
        "pz = load_puzzles()[0]\n"
        "r = solve_model(pz.state, time_limit=5)\n"
        "print('pandas' in sys.modules, r.best == pz.best)\n"
        "import pandas\n"
        "print(hasattr(pandas, 'DataFrame'), pandas.Series([1, 2]).sum())\n"
    )
    assert out.split("\n") == ["False True", "True 3"]


def test_cp_model_keeps_pandas_when_it_is_already_loaded() -> None:
    out = _run(
        "import pandas\n"
        "from analysis.solver.ortools_cp import cp_model\n"
        "print(cp_model.pd is pandas)\n"
    )
    assert out == "True"


def _imports_between_modules(package: str) -> "nx.DiGraph[str]":
    """Module -> module edges for every ``from X import`` / ``import X`` of ``package`` inside
    ``package``, wherever it stands (a function-level import closes a cycle just as well)."""
    root = Path(__file__).resolve().parent.parent
    g: nx.DiGraph[str] = nx.DiGraph()
    for path in (root / package).rglob("*.py"):
        mod = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        g.add_node(mod)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name.split(".")[0] == package and name != mod:
                    g.add_edge(mod, name)
    return g


def test_the_analysis_modules_import_no_cycle() -> None:
    """Issue 21: the solver's modules (the bound's among them) and the players that use the
    solver stand in layers; an import cycle, even a lazy one, would join them again."""
    g = _imports_between_modules("analysis")
    assert "analysis.solver.bound_view" in g and "analysis.search_players" in g
    assert list(nx.simple_cycles(g)) == []


def test_the_cycle_check_sees_a_lazy_import() -> None:
    g = _imports_between_modules("analysis")
    g.add_edge("analysis.search_players", "analysis.players")  # players imports search_players
    assert list(nx.simple_cycles(g))
