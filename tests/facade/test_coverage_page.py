"""docs/pytorch-coverage.md is what docs/make_pytorch_coverage.py writes (when the PyTorch version the page was
made with is installed), and a name it lists as present is one the facade really has."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _script():
    spec = importlib.util.spec_from_file_location("make_pytorch_coverage", DOCS / "make_pytorch_coverage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_page_is_up_to_date():
    torch = pytest.importorskip("torch")
    page = (DOCS / "pytorch-coverage.md").read_text(encoding="utf-8")
    made_with = re.search(r"against PyTorch (\S+?);", page).group(1)
    if torch.__version__.split("+")[0] != made_with:
        pytest.skip(f"the page was made with PyTorch {made_with}, {torch.__version__} is installed")
    assert _script().build() == page, "run docs/make_pytorch_coverage.py"


def test_present_names_exist_in_the_facade():
    """Without torch too: every name the page lists as present is an attribute of the facade's module."""
    script = _script()
    page = (DOCS / "pytorch-coverage.md").read_text(encoding="utf-8")
    modules = dict(script.MODULES)
    for section in page.split("\n## ")[1:]:
        name = section.split("`")[1]
        present = re.search(r"\*\*Present \(\d+\):\*\* (.*)", section).group(1)
        owner = script.facade_object(modules[name])
        missing = [n for n in re.findall(r"`([^`]+)`", present) if not hasattr(owner, n)]
        assert not missing, f"{name}: listed as present but absent: {missing}"
