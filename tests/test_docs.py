"""The README's and docs' console examples are run and must print exactly what they show.

In a ```console block, a line starting with `$ ` is a command; the lines after it, up to the next command
or the end of the block, are its output (stdout and stderr as written). `$ echo $?` shows the previous command's
exit code. Commands run with bash in the repository root, with the installed `autodiff` first on PATH.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples() -> list:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for block in BLOCK.finditer(text):
            line = text[: block.start()].count("\n") + 2
            found.append(pytest.param(block.group(1), id=f"{document.name}:{line}"))
    return found


def sessions(block: str) -> list[tuple[str, list[str]]]:
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    return commands


@pytest.mark.parametrize("block", examples())
def test_console_example(block: str) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("FORCE_COLOR", None)
    last_code = None
    for command, expected in sessions(block):
        if command == "echo $?":
            assert [str(last_code)] == expected
            continue
        done = subprocess.run(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=ROOT, env=env, timeout=120, check=False)
        last_code = done.returncode
        shown = done.stdout.splitlines()
        assert shown == expected, f"$ {command}"


def test_the_readme_is_a_landing_page_with_the_test_command():
    """README.md stays short (the manual is docs/), and .ci/run finds the test command where it reads it: the
    ```sh fence on the line after the marker, then the command."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    at = lines.index("<!-- test-command -->")
    assert lines[at + 1] == "```sh"
    assert lines[at + 2].startswith("python3 -m venv .venv && .venv/bin/pip install '.[test,plot]' torch==2.13.0 && ")
    assert ".venv/bin/python -m pytest" in lines[at + 2]


def test_the_docs_are_self_contained():
    """Nothing in the README or docs/ points outside the repository (a sibling checkout, the machine's paths)."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/" not in text, path.name
