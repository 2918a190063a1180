"""`autodiff repl`: an interactive session through a pseudo-terminal, piped input, and entry continuation."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest

from autodiff.app.script import needs_more

TIMEOUT = 30.0  # seconds for any one answer; the whole session takes well under a second normally
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals need a POSIX system")


class Terminal:
    """`autodiff repl` on a pseudo-terminal: send keys, wait for text, with a bounded timeout."""

    def __init__(self) -> None:
        import pty

        env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1"}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pty is its controlling terminal, so Ctrl-C sends SIGINT
            try:
                os.execve(sys.executable, [sys.executable, "-m", "autodiff.cli", "repl"], env)
            finally:
                os._exit(127)
        self.seen = ""

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def expect(self, text: str, timeout: float = TIMEOUT) -> str:
        """Read until `text` appears; return what came before it (and consume through it)."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"waited {timeout} s for {text!r}; the terminal shows {self.seen!r}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the child exited and closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the session ended before {text!r}; it showed {self.seen!r}")
                self.seen += ANSI.sub("", chunk.decode(errors="replace")).replace("\r\n", "\n")
        before, _, self.seen = self.seen.partition(text)
        return before

    def exit_code(self, timeout: float = TIMEOUT) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:  # drain the terminal so the child never blocks writing to it
                if select.select([self.fd], [], [], 0.05)[0]:
                    os.read(self.fd, 4096)
            except OSError:
                pass
        raise AssertionError("the session did not end")

    def close(self) -> None:
        try:
            if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)


@pytest.fixture
def terminal():
    session = Terminal()
    yield session
    session.close()


def test_an_interactive_session(terminal):
    banner = terminal.expect(">>> ")
    assert banner.startswith("autodiff ")
    assert "Ctrl-D" in banner

    def enter(line: str, prompt: str = ">>> ") -> str:
        """Type a line; what the session printed for it (without the echoed line) before the next prompt."""
        terminal.send(line + "\n")
        echoed_and_output = terminal.expect(prompt)
        echo, _, output = echoed_and_output.partition("\n")
        assert echo == line
        return output

    assert enter("import torch") == ""
    assert enter("x = torch.tensor(2.0, requires_grad=True)") == ""
    assert enter("y = x ** 3; y.backward()") == ""
    assert enter("x.grad") == "tensor(12.)\n"  # a bare expression shows its repr
    assert enter("print('grad', x.grad)") == "grad tensor(12.)\n"
    assert enter("None") == ""
    assert enter("'text'") == "'text'\n"
    assert enter("1, 2") == "(1, 2)\n"
    # a bracket left open continues the entry on a '...' line
    assert enter("(x.grad,", prompt="... ") == ""
    assert enter(" y)") == "(tensor(12.), tensor(8., grad_fn=<PowBackward0>))\n"
    # a trailing backslash continues too
    assert enter("z = x * \\", prompt="... ") == ""
    assert enter("  10") == ""
    assert enter("z") == "tensor(20., grad_fn=<MulBackward0>)\n"
    # errors print their message and the session goes on, names intact
    assert enter("foo + 1") == ("autodiff: name error at line 1, column 1: unknown name 'foo' (hint: assign foo = ... "
                                "before this line)\nfoo + 1\n^\n")
    assert enter("y.backward()").startswith("autodiff: autograd error at line 1, column 1: Trying to backward "
                                            "through the graph a second time")
    assert enter("x + ") .startswith("autodiff: syntax error at line 1, column 4: ")
    assert enter("x.grad") == "tensor(12.)\n"
    # Ctrl-C cancels the entry being typed
    terminal.send("w = (1 +\n")
    terminal.expect("... ")
    # CPython's readline checks for a pending SIGINT only when its wait for input is interrupted: a Ctrl-C
    # that lands between printing the prompt and starting that wait is seen at the next key. A person never
    # types that fast; the test waits as a person would.
    time.sleep(0.3)
    terminal.send("\x03")
    assert "KeyboardInterrupt" in terminal.expect(">>> ")
    assert enter("w").startswith("autodiff: name error")
    # Ctrl-D ends the session with exit code 0
    terminal.send("\x04")
    assert terminal.exit_code() == 0


def test_exit_ends_the_session(terminal):
    terminal.expect(">>> ")
    terminal.send("exit()\n")
    assert terminal.exit_code() == 0


# ---------------------------------------------------------------------------- piped input
def _repl(text: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodiff.cli", "repl"], input=text, capture_output=True, text=True,
                          check=False, timeout=60)


def test_piped_input_shows_values_without_prompts():
    done = _repl("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\nx.grad\n"
                 "[x.grad,\n x.grad.sum()]\nqqq(\n)\nx.grad.sum()\n")
    assert done.returncode == 0
    assert done.stdout == "tensor([3., 3.])\n[tensor([3., 3.]), tensor(6.)]\ntensor(6.)\n"
    assert done.stderr == ("autodiff: name error at line 1, column 1: unknown name 'qqq' (hint: assign qqq = ... "
                           "before this line)\nqqq(\n^\n")


def test_empty_input_ends_at_once():
    done = _repl("")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


# ---------------------------------------------------------------------------- when an entry continues
@pytest.mark.parametrize(("text", "more"), [
    ("x = 1", False),
    ("x = (1 +", True),
    ("x = [[1, 2],", True),
    ("x = [[1, 2],\n [3, 4]]", False),
    ("f(a,\n\n", True),
    ("x = 1 + \\", True),
    ("x = '('", False),
    ('x = "[" + ")"', False),
    ("x = 1  # (", False),
    ("'''open", True),
    ("'''open\n(still a string", True),
    ("'''closed'''", False),
    ('"""a\n"""', False),
    ("x = 'no end", False),  # an unterminated string is the parser's error, not a continuation
    ("x)", False),
    ("s = 'a\\'('", False),
])
def test_needs_more(text, more):
    assert needs_more(text) is more
