"""What the wheel ships besides the package: the man page, as data (PREFIX/share/man/man1/autodiff.1)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None

ROOT = Path(__file__).resolve().parent.parent
MAN_PAGE = "share/man/man1/autodiff.1"


def test_pyproject_installs_the_man_page():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if tomllib is None:
        assert '"share/man/man1" = ["docs/autodiff.1"]' in text
    else:
        assert tomllib.loads(text)["tool"]["setuptools"]["data-files"] == {"share/man/man1": ["docs/autodiff.1"]}
    assert (ROOT / "docs" / "autodiff.1").read_text(encoding="utf-8").startswith(".TH AUTODIFF 1")


def test_the_wheel_ships_the_man_page(tmp_path):
    """A real build (about 10 s; offline: the environment's own setuptools, no build isolation), of a copy of the
    source (a build writes build/ and *.egg-info beside pyproject.toml)."""
    setuptools = pytest.importorskip("setuptools")
    version = tuple(int(p) for p in setuptools.__version__.split(".")[:2] if p.isdigit())
    if version < (68, 0) or (version < (70, 1) and importlib.util.find_spec("wheel") is None):
        pytest.skip(f"an offline build needs pyproject's setuptools>=68 with bdist_wheel, not {setuptools.__version__}")
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__",
                                                                "benchmarks", "examples"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(tmp_path)], capture_output=True, text=True, timeout=300)
    if built.returncode != 0 and "No module named pip" in built.stderr:
        pytest.skip("no pip in this environment")
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("autodiff_cli-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        pages = [n for n in archive.namelist() if n.endswith(MAN_PAGE)]
        assert pages == [f"autodiff_cli-{wheel.name.split('-')[1]}.data/data/{MAN_PAGE}"]
        assert archive.read(pages[0]) == (ROOT / "docs" / "autodiff.1").read_bytes()
