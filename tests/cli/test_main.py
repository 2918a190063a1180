"""The command group: each command's module is loaded when the command is used, and the listing of
`autodiff --help` (read from main.COMMANDS without loading them) says what each command's own help says."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from autodiff.cli.main import COMMANDS, cli


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
