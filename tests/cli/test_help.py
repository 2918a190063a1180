"""Help that works in every shell: examples quoted so zsh runs them, the top-level help with examples and
exit codes, nothing cut, bare `autodiff` as --help, `autodiff ops NAME`, and docs/cli.md and docs/autodiff.1
generated from the commands' help (and current)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from autodiff.cli.group import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
GLOB = set("*?[]()")  # unquoted, zsh takes a word with one of these for a pattern ("no matches found")


def unquoted_words(line: str) -> list[str]:
    """The words of a shell line, with every quoted or escaped character replaced by a NUL."""
    words, current, quote, i = [], "", None, 0
    while i < len(line):
        c = line[i]
        if quote:
            quote = None if c == quote else quote
            current += "" if quote is None else "\0"
        elif c in "'\"":
            quote = c
        elif c == "\\":
            current, i = current + "\0", i + 1
        elif c.isspace() or c in "|;&<>":
            words, current = ([*words, current] if current else words), ""
        else:
            current += c
        i += 1
    return [*words, current] if current else words


def _doc_examples(text: str) -> list[str]:
    """`$ ...` lines of code blocks, and inline `autodiff ...` commands (not synopses with PROGRAM or [...])."""
    out, in_block = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = not in_block
        elif in_block and line.startswith("$ "):
            out.append(line[2:])
        elif not in_block:
            out += [code for code in re.findall(r"`((?:autodiff|echo|printf) [^`]*)`", line)
                    if not re.search(r"\b(PROGRAM|FILE|PATH|ARGS|COMMAND)\b|\.\.\.|\[--", code)]
    return out


def _help_examples() -> list[str]:
    ctx = click.Context(cli)
    lines = [*(cli.epilog or "").splitlines()]
    for name in sorted(COMMANDS):
        command = cli.get_command(ctx, name)
        lines += [*(command.epilog or "").splitlines(), *(command.help or "").splitlines()]
    return [re.split(r"\s{2,}", s)[0] for s in (line.strip() for line in lines)
            if s.startswith(("autodiff ", "echo ", "printf ")) and "autodiff " in s]


def examples() -> list[str]:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [e for path in docs for e in _doc_examples(path.read_text(encoding="utf-8"))] + _help_examples()


def test_the_scanner_sees_unquoted_patterns():
    assert [w for w in unquoted_words("autodiff eval 'x**2' --var x=[1.0] y='[2]' \\(a\\)") if set(w) & GLOB] == \
        ["x=[1.0]"]


def test_every_example_is_quoted_so_zsh_runs_it():
    found = examples()
    assert len(found) > 100
    bad = [(line, word) for line in found for word in unquoted_words(line)
           if set(word) & GLOB and not word.startswith("$")]
    assert bad == []


def _autodiff(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autodiff.cli", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COLUMNS": "100", **(env or {})})


def test_bare_autodiff_prints_the_help_as_help_does():
    bare, helped = _autodiff(), _autodiff("--help")
    assert (bare.returncode, bare.stderr, bare.stdout) == (0, "", helped.stdout)
    assert helped.stdout.startswith("Usage: autodiff [OPTIONS] COMMAND [ARGS]...\n")


def test_the_top_level_help_has_examples_and_exit_codes():
    text = _autodiff("--help").stdout
    assert "Examples:\n    autodiff eval '(2*x)**3' x=1.5\n" in text
    assert ("Exit codes:\n    0    success (check, gradcheck: every derivative is right; newton: converged)\n"
            "    1    the computation failed (kinds shape, autograd, value, limit), or the\n") in text
    assert "    2    the command line is wrong (kinds syntax, name, usage, io)\n    130  interrupted (Ctrl-C)\n" in text


@pytest.mark.parametrize("columns", ["40", "80", "200"])
def test_no_short_help_is_cut(columns):
    text = _autodiff("--help", env={"COLUMNS": columns}).stdout
    listing = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    assert "..." not in listing
    for name, (_, short) in COMMANDS.items():
        assert "".join(short.split()) in "".join(listing.split()), name  # wrapped, but whole


def test_ops_name_shows_one_entry(cli):
    out = cli("ops", "sin", "--format", "plain")
    assert (out.code, out.stdout) == (0, "formulas: the gradient sent to each input, from grad (the result's "
                                         "gradient), the inputs (self, other, ...), result and the parameters\n\n"
                                         "Elementwise functions\n  sin(input)  sine  (also x.sin(...))\n"
                                         "    SinBackward0\n      self:  grad * cos(self)\n")
    assert cli("ops", "torch.sin", "--format", "plain").stdout == out.stdout
    assert cli("ops", "**", "--format", "json").json()["groups"][0]["entries"][0]["name"] == "a ** b"
    out = cli("ops", "sine")
    assert (out.code, out.stderr) == (2, "autodiff: usage error: no function or operator named 'sine'; did you "
                                         "mean 'sin' or 'sinh' or 'sinc'? (autodiff ops lists them all)\n")


def _generator():
    spec = importlib.util.spec_from_file_location("make_cli_docs", ROOT / "docs" / "make_cli_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["cli.md", "autodiff.1"])
def test_the_reference_and_the_man_page_are_current(name):
    make = _generator().FILES[name]
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == make(), \
        f"docs/{name} is out of date: run python docs/make_cli_docs.py"


def test_the_man_page_is_roff_with_every_command():
    page = (ROOT / "docs" / "autodiff.1").read_text(encoding="utf-8")
    assert page.startswith(".TH AUTODIFF 1 ")
    assert [line[len(".SS autodiff "):] for line in page.splitlines() if line.startswith(".SS ")] == sorted(COMMANDS)
    assert not [line for line in page.splitlines() if line.startswith(".") and line.split()[0] not in
                (".TH", ".SH", ".SS", ".B", ".nf", ".fi", ".TP")]


def test_the_docs_link_only_files_in_the_repository():
    """Every Markdown link and every file name in backticks of README.md and docs/*.md that looks like a path of
    the repository exists (docs/scripts.md once pointed at a CONTRACT.md that is not there)."""
    missing = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (path.parent / target).exists():
                missing.append((path.name, target))
        for name in re.findall(r"`([A-Za-z_][\w/.-]*\.md)`", text):
            if not ((ROOT / name).exists() or (path.parent / name).exists()):
                missing.append((path.name, name))
    assert missing == []


def test_debug_is_documented_and_hidden():
    assert "--debug" not in _autodiff("--help").stdout
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`autodiff --debug eval 'x**2' x=1`" in readme
