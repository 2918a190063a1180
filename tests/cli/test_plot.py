"""`autodiff plot`: the drawing rendered to text, and a real PNG/SVG file when the `plot` extra is installed."""

from __future__ import annotations

import pytest


def test_the_terminal_drawing_has_every_curve_and_a_legend(cli):
    out = cli("plot", "x**2", "x=-1:1", "--order", "1", "--format", "plain", "--width", "40", "--height", "8")
    assert out.code == 0
    lines = out.stdout.splitlines()
    assert lines[0].startswith("┌") and lines[-1].strip() == "██ x**2   ██ d1 (d/dx)"
    assert "▄" in out.stdout or "▀" in out.stdout


def test_second_derivative_in_the_legend(cli):
    out = cli("plot", "sin(x)", "x=0:2*pi", "--order", "2", "--format", "plain")
    assert out.stdout.splitlines()[-1].strip() == "██ sin(x)   ██ d1 (d/dx)   ██ d2 (d2/dx2)"


def test_undefined_points_are_left_out(cli):
    out = cli("plot", "log(x)", "x=-1:1", "--format", "plain")
    assert out.code == 0 and "██ log(x)" in out.stdout


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_image_files(cli, tmp_path, suffix):
    pytest.importorskip("matplotlib")
    path = tmp_path / f"f{suffix}"
    out = cli("plot", "x**3 - 2*x", "x=-2:2", "--order", "2", "--out", str(path))
    assert out.code == 0 and out.stdout == f"wrote {path}\n"
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:500]


def test_a_bad_image_name_is_a_usage_error(cli):
    out = cli("plot", "x", "x=0:1", "--out", "f.jpg")
    assert out.code == 2 and "must be a .png or .svg file" in out.stderr
