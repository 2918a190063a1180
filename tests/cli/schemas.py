"""A small JSON Schema validator (the subset docs/schemas/ uses: type, enum, required, properties,
additionalProperties, items, minItems, maxItems, minimum, anyOf, local $ref), and the check the `cli`
fixture runs on every JSON document the suite's commands print.

Why not the `jsonschema` package: the schemas use a dozen keywords, and a dependency (with its own
dependencies) for the tests alone is not worth it; this reads them in 60 lines."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
_loaded: dict[str, dict] = {}


def schema(name: str) -> dict:
    if name not in _loaded:
        _loaded[name] = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return _loaded[name]


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return type(value) is int
    if kind == "number":
        return type(value) in (int, float)
    return isinstance(value, _TYPES[kind]) and not (kind != "boolean" and isinstance(value, bool))


def errors(document: Any, root: dict, rule: dict | None = None) -> list[str]:
    """Where the document breaks the schema `root` (or its part `rule`); empty: it is valid."""
    found: list[str] = []
    pending = [(document, root if rule is None else rule, "$")]
    while pending:
        value, rule, where = pending.pop()
        while "$ref" in rule:
            rule = root["$defs"][rule["$ref"].rsplit("/", 1)[-1]]
        if "anyOf" in rule:
            if not any(not errors(value, root, option) for option in rule["anyOf"]):
                found.append(f"{where}: {json.dumps(value)[:80]} matches none of {rule['anyOf']}"[:300])
            continue
        kinds = rule.get("type")
        if kinds is not None and not any(_is(value, k) for k in ([kinds] if isinstance(kinds, str) else kinds)):
            found.append(f"{where}: {json.dumps(value)[:80]} is not {kinds}")
            continue
        if "enum" in rule and value not in rule["enum"]:
            found.append(f"{where}: {value!r} is not one of {rule['enum']}")
        if "minimum" in rule and _is(value, "number") and value < rule["minimum"]:
            found.append(f"{where}: {value} < {rule['minimum']}")
        if isinstance(value, dict):
            found += [f"{where}: {key!r} is missing" for key in rule.get("required", ()) if key not in value]
            properties, other = rule.get("properties", {}), rule.get("additionalProperties", True)
            for key, item in value.items():
                if key in properties:
                    pending.append((item, properties[key], f"{where}.{key}"))
                elif other is False:
                    found.append(f"{where}: {key!r} is not allowed")
                elif isinstance(other, dict):
                    pending.append((item, other, f"{where}.{key}"))
        if isinstance(value, list):
            if len(value) < rule.get("minItems", 0) or len(value) > rule.get("maxItems", len(value)):
                found.append(f"{where}: {len(value)} items")
            if "items" in rule:
                pending.extend((item, rule["items"], f"{where}[{i}]") for i, item in enumerate(value))
    return found


def json_command(args: tuple[str, ...]) -> str | None:
    """The schema of the command's output when it writes JSON (the command's name), else None."""
    if not args:
        return None
    command, rest = args[0], args[1:]
    batch = any(a == "--batch" or a.startswith("--batch=") for a in rest)
    pairs = list(itertools.pairwise(rest))
    fmt = "--format=json" in rest or ("--format", "json") in pairs
    graph = command == "graph" and ("--to", "json") in pairs
    if "--help" in rest or "-h" in rest:
        return None
    return command if (batch or fmt or graph) else None


def check_output(args: tuple[str, ...], stdout: str) -> None:
    """Every JSON document in stdout is valid against its command's schema (an error document against
    error.schema.json). Raises AssertionError naming the first problem."""
    command = json_command(args)
    if command is None or not (SCHEMAS / f"{command}.schema.json").exists():
        return
    for text in stdout.splitlines():
        if not text.startswith("{"):
            continue
        try:
            document = json.loads(text)
        except ValueError:
            continue  # a test of a broken pipe, a partial line: the test itself says what it expects
        name = "error" if "error" in document else command
        problems = errors(document, schema(name))
        assert not problems, f"autodiff {' '.join(args)[:200]}: its JSON breaks docs/schemas/{name}.schema.json: " \
                             f"{problems[:3]}"
