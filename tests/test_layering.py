"""The core and the analysis tools import no UI (Harlequin-style layering), and the analysis
modules import one another without a cycle."""

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx


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
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_core_never_imports_solver_code() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "import core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('analysis', 'ortools'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


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
