"""What the wheel ships: every module of the four folders (engine, grammar, app, cli) under `autodiff`, the
grammar file, and the man page, as data (PREFIX/share/man/man1/autodiff.1)."""

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
LAYERS = ("engine", "grammar", "app", "cli")


def _packages_on_disk() -> list[str]:
    return sorted(".".join(["autodiff", *init.parent.relative_to(ROOT).parts])
                  for layer in LAYERS for init in (ROOT / layer).rglob("__init__.py"))


def _package_dirs_without_init() -> list[str]:
    folders = [d for layer in LAYERS for d in [ROOT / layer, *(ROOT / layer).rglob("*")] if d.is_dir()]
    return sorted(str(d.relative_to(ROOT)) for d in folders
                  if d.name != "__pycache__" and any(d.glob("*.py")) and not (d / "__init__.py").exists())


def test_pyproject_lists_every_package():
    """setuptools installs only the packages listed: a folder left out would be missing from every install."""
    assert _package_dirs_without_init() == []
    if tomllib is None:
        pytest.skip("tomllib is Python 3.11's")
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    assert sorted(listed) == _packages_on_disk()


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
        shipped = {n for n in archive.namelist() if n.startswith("autodiff/")}
    expected = {"autodiff/" + p.relative_to(ROOT).as_posix() for layer in LAYERS for p in (ROOT / layer).rglob("*")
                if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts}
    assert sorted(expected - shipped) == []
