"""The command group: each command's module is loaded when the command is used, and the listing of
`autodiff --help` (read from group.COMMANDS without loading them) says what each command's own help says."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from autodiff.cli.group import COMMANDS, cli


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listing_says_what_each_command_says(name):
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.name == name
    own = command.short_help or (command.help or "").split("\n\n")[0].replace("\n", " ").strip()
    assert COMMANDS[name][1] == own


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["eval", "--help"]])
def test_help_and_version_load_no_command_and_no_numpy(args):
    code = ("import sys\nfrom autodiff.cli.main import main\ntry:\n    main(" + repr(args) + ")\nexcept SystemExit:\n"
            "    pass\nprint('numpy' in sys.modules, "
            "[m for m in sys.modules if m.endswith('_cmd') and 'eval' not in m])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False []", done.stdout + done.stderr


def _installed_command() -> str:
    import os
    import shutil

    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    found = beside if os.path.exists(beside) else shutil.which("autodiff")
    if found is None:
        pytest.skip("the autodiff command is not installed")
    return found


@pytest.mark.parametrize(("args", "env"), [
    (["--help"], {}),
    (["--version"], {}),
    (["eval", "--help"], {}),
    ([], {"_AUTODIFF_COMPLETE": "bash_complete", "COMP_WORDS": "autodiff ev", "COMP_CWORD": "1"}),
    ([], {"_AUTODIFF_COMPLETE": "zsh_complete", "COMP_WORDS": "autodiff ", "COMP_CWORD": "1"}),
    ([], {"_AUTODIFF_COMPLETE": "fish_complete", "COMP_WORDS": "autodiff g", "COMP_CWORD": "g"}),
    ([], {"_AUTODIFF_COMPLETE": "bash_source"}),
    ([], {"_AUTODIFF_COMPLETE": "zsh_source"}),
    ([], {"_AUTODIFF_COMPLETE": "fish_source"}),
])
def test_the_installed_command_imports_no_numpy_to_help_version_or_complete(args, env):
    """The console script itself (its entry point, not cli.main), with Python's import log: nothing that
    computes is imported to answer --help, --version or shell completion."""
    import os

    done = subprocess.run([_installed_command(), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env, "PYTHONPROFILEIMPORTTIME": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert imported, "no import log"
    heavy = sorted(m for m in imported if m.split(".")[0] in ("numpy", "sympy", "rich", "importlib_metadata")
                   or m in ("importlib.metadata", "autodiff.engine") or (m.endswith("_cmd") and "eval" not in m))
    assert heavy == [], heavy
    if args == ["--version"]:
        from importlib.metadata import version

        assert done.stdout.strip() == f"autodiff, version {version('autodiff-cli')}"
    if env:
        assert ("eval" if env["_AUTODIFF_COMPLETE"] in ("bash_complete", "zsh_complete") else
                "graph" if env["_AUTODIFF_COMPLETE"] == "fish_complete" else "_autodiff_completion") in done.stdout


@pytest.mark.parametrize(("shell", "words", "word", "expected"), [
    ("bash", "autodiff ev", "1", "plain,eval\n"),
    ("zsh", "autodiff ev", "1", "plain\neval\nEvaluate PROGRAM, run backward, and show the gradients.\n"),
    ("fish", "autodiff gradc", "gradc", "plain,gradcheck\tCompare autograd with central finite differences, in "
                                         "float64.\n"),
])
def test_completion_names_each_command_with_its_whole_help_line(shell, words, word, expected):
    import os

    done = subprocess.run([_installed_command()], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "_AUTODIFF_COMPLETE": f"{shell}_complete", "COMP_WORDS": words,
                               "COMP_CWORD": word})
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")
