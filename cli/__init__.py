"""autodiff.cli: the `autodiff` command (options in, engine results out through the renderers)."""

import os as _os
import signal as _signal
import sys as _sys

# The distribution's version (pyproject.toml reads it from here), so that `autodiff --version` needs no
# importlib.metadata (which costs a quarter of a start-up).
VERSION = "0.1.0"


def interrupted_while_starting(signum: int, frame: object) -> None:
    # Ctrl-C before main() runs (while Python imports the command) would end in a KeyboardInterrupt
    # traceback: exit as main() does on Ctrl-C instead. main() puts Python's own handler back.
    _os.write(2, b"autodiff: interrupted\n")
    raise SystemExit(130)


# Only when this process is the command itself: the console script, or `python -m autodiff.cli` (whose
# argv[0] is still "-m" while the package is imported); never in a program that imports autodiff.
# An inherited SIG_IGN (a background job of a shell script: `autodiff run x.py &`) is left alone, so
# Ctrl-C at the terminal does not reach it, as for any other program.
COMMAND_PROCESS = _os.path.basename(_sys.argv[0]) == "autodiff" or _sys.argv[:1] == ["-m"]
if COMMAND_PROCESS and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, interrupted_while_starting)
