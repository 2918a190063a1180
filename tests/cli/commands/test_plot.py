"""`autodiff plot`: the drawing rendered to text, and a real PNG/SVG file when the `plot` extra is installed."""

from __future__ import annotations

import pytest


def test_the_terminal_drawing_has_every_curve_and_a_legend(cli):
    out = cli("plot", "x**2", "x=-1:1", "--order", "1", "--format", "plain", "--width", "40", "--height", "8")
    assert out.code == 0
    lines = out.stdout.splitlines()
    assert lines[0].startswith("┌") and lines[-1].strip() == "++ x**2   xx d1 (d/dx)"
    assert "xxxx" in out.stdout and "++++" in out.stdout  # without colour, each curve has its own character
    one = cli("plot", "x**2", "x=-1:1", "--format", "plain", "--width", "40", "--height", "8", "--order", "1")
    assert one.stdout == out.stdout


def test_second_derivative_in_the_legend(cli):
    out = cli("plot", "sin(x)", "x=0:2*pi", "--order", "2", "--format", "plain")
    assert out.stdout.splitlines()[-1].strip() == "++ sin(x)   xx d1 (d/dx)   oo d2 (d2/dx2)"


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


def _pty_run(args: list[str], env: dict[str, str]) -> str:
    """`autodiff ARGS` with a terminal as standard output (what a user sees), its output read back."""
    import os
    import pty
    import subprocess
    import sys

    main, child = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS")}
    done = subprocess.Popen([sys.executable, "-m", "autodiff.cli", *args], stdout=child, stderr=child,
                            env={**environment, "TERM": "xterm", "COLUMNS": "60", **env})
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    done.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize(("env", "coloured"), [({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False),
                                               ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False)])
def test_plot_decides_colour_as_every_renderer_does(env, coloured):
    plot = _pty_run(["plot", "x**2", "x=-1:1", "--order", "1"], env)
    tree = _pty_run(["graph", "x*2", "x=1"], env)
    assert ("\x1b[" in plot, "\x1b[" in tree) == (coloured, coloured)
    assert ("xx d1" in plot) == (not coloured)  # uncoloured curves are told apart by their characters


def test_force_color_colours_a_pipe_as_it_does_the_tree():
    import os
    import subprocess
    import sys

    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "60"}
    env.pop("NO_COLOR", None)
    outs = [subprocess.run([sys.executable, "-m", "autodiff.cli", *args], capture_output=True, text=True, env=env,
                           timeout=60).stdout for args in (["plot", "x**2", "x=-1:1"], ["graph", "x*2", "x=1"])]
    assert ["\x1b[" in out for out in outs] == [True, True]


@pytest.mark.parametrize("columns", [40, 60, 120])
def test_the_drawing_fits_the_terminal(cli, columns):
    out = cli("plot", "sin(x)", "x=0:2*pi", "--order", "1", "--format", "plain", env={"COLUMNS": str(columns)})
    assert out.code == 0
    assert max(len(line) for line in out.stdout.splitlines()[:-2]) <= columns


def test_f_keeps_its_own_panel_when_its_derivatives_are_much_larger(cli):
    out = cli("plot", "sin(10*x)/10", "x=0:1", "--order", "2", "--format", "plain", "--height", "12",
              env={"COLUMNS": "50"})
    legends = [line.strip() for line in out.stdout.splitlines() if line.strip().startswith("██")]
    assert legends == ["██ sin(10*x)/10", "██ d1 (d/dx)", "██ d2 (d2/dx2)"]
    assert out.stdout.count("┌") == 3
    assert "-0.0" not in out.stdout and "│ 0.1" in out.stdout
    together = cli("plot", "x**2", "x=-1:1", "--order", "2", "--format", "plain", env={"COLUMNS": "50"})
    assert together.stdout.count("┌") == 1
