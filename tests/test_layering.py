"""The core and the analysis tools import no UI (Harlequin-style layering)."""

import subprocess
import sys


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
