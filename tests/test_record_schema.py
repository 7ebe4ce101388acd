"""``docs/java-game.schema.json`` (issue 22): valid JSON Schema, its annotation part agreeing
with ``core.record.annotations_from`` on accepted and refused examples, and the shipped
records valid against it.

The agreement is checked with a small validator of the subset of draft 2020-12 the schema
uses (below), so it runs without dependencies; when the ``jsonschema`` package happens to be
installed, the same checks also run through it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.errors import KratonError
from core.record import annotations_from

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "docs" / "java-game.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text())
GAMES = sorted((ROOT / "puzzles" / "games").glob("*.json"))

TYPES: dict[str, Any] = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _type_ok(v: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def errors(v: Any, s: dict[str, Any], root: dict[str, Any] = SCHEMA, at: str = "$") -> list[str]:
    """What ``v`` breaks of schema ``s`` (the keywords the repository's schema uses)."""
    if "$ref" in s:
        s = root["$defs"][s["$ref"].removeprefix("#/$defs/")]
    out: list[str] = []
    types = s.get("type")
    if types is not None and not any(_type_ok(v, t) for t in ([types] if isinstance(types, str) else types)):
        return [f"{at}: not {types}"]
    if "const" in s and v != s["const"]:
        out.append(f"{at}: not {s['const']!r}")
    if isinstance(v, str):
        if len(v) > s.get("maxLength", len(v)):
            out.append(f"{at}: too long")
        if "pattern" in s and not re.search(s["pattern"], v):
            out.append(f"{at}: does not match {s['pattern']}")
    if _type_ok(v, "number") and not s.get("minimum", v) <= v <= s.get("maximum", v):
        out.append(f"{at}: out of range")
    if isinstance(v, list):
        if not s.get("minItems", 0) <= len(v) <= s.get("maxItems", len(v)):
            out.append(f"{at}: length")
        for i, item in enumerate(v if "items" in s else []):
            out += errors(item, s["items"], root, f"{at}[{i}]")
    if isinstance(v, dict):
        out += [f"{at}: missing {k}" for k in s.get("required", []) if k not in v]
        props = s.get("properties", {})
        for k, item in v.items():
            if "propertyNames" in s:
                out += errors(k, s["propertyNames"], root, f"{at} key {k!r}")
            if k in props:
                out += errors(item, props[k], root, f"{at}.{k}")
            elif s.get("additionalProperties") is False:
                out.append(f"{at}: unknown key {k!r}")
            elif isinstance(s.get("additionalProperties"), dict):
                out += errors(item, s["additionalProperties"], root, f"{at}.{k}")
    return out


def reader_accepts(annotations: Any) -> bool:
    try:
        annotations_from(annotations, 400)
    except KratonError:
        return False
    return True


EVAL = {"player": 2, "first": 137, "end": 145, "played": 10, "best": 12, "bound": 14, "proved": False,
        "line": "tile I5v H4r I4r; palace G7 10", "engine": "cpsat", "seconds": 2.01, "mark": "", "seen": "all"}
EXAMPLES: list[tuple[Any, bool]] = [
    ({}, True),
    ({"comments": {"1": "good"}}, True),
    ({"comments": {"007": "leading zeros are a number"}}, True),
    ({"evaluations": {"22": EVAL}}, True),
    ({"evaluations": {"22": {"best": 3}}}, True),
    ({"comments": {"3": "x" * 2000}, "evaluations": {"1": {"seconds": 1}}}, True),
    ([], False),
    ({"other": {}}, False),
    ({"comments": []}, False),
    ({"comments": {"0": "x"}}, False),
    ({"comments": {"x1": "x"}}, False),
    ({"comments": {"1234567": "x"}}, False),
    ({"comments": {"1": 5}}, False),
    ({"comments": {"1": "x" * 2001}}, False),
    ({"evaluations": {"1": []}}, False),
    ({"evaluations": {"1": {"best": "ten"}}}, False),
    ({"evaluations": {"1": {"best": True}}}, False),
    ({"evaluations": {"1": {"proved": 1}}}, False),
    ({"evaluations": {"1": {"seconds": "1"}}}, False),
    ({"evaluations": {"1": {"secret": 1}}}, False),
    ({"evaluations": {"1": {**EVAL, "line": "x" * 2001}}}, False),
]


def test_the_schema_is_json_schema_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["properties"]["format"] == {"const": "java-game"}
    assert set(SCHEMA["properties"]) >= {"actions", "result", "tags", "annotations", "adjudication"}


@pytest.mark.parametrize("example, accepted", EXAMPLES, ids=[str(i) for i in range(len(EXAMPLES))])
def test_the_schema_and_the_reader_agree_on_annotations(example: Any, accepted: bool) -> None:
    assert reader_accepts(example) is accepted
    assert (errors(example, {"$ref": "#/$defs/annotations"}) == []) is accepted


def test_shipped_and_annotated_records_are_valid(tmp_path: Path) -> None:
    from tests.test_review import mistake_game

    annotated = json.loads(Path(mistake_game(tmp_path)).read_text())
    annotated["annotations"] = {**annotated["annotations"], "evaluations": {"1": EVAL}}
    docs = [json.loads(p.read_text()) for p in GAMES] + [annotated]
    assert all(errors(d, SCHEMA) == [] for d in docs), [errors(d, SCHEMA)[:3] for d in docs]
    bad = dict(annotated, adjudication={"after": 0, "player": 9})
    assert len(errors(bad, SCHEMA)) == 2


def test_with_the_jsonschema_package_when_installed(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    v = jsonschema.Draft202012Validator(SCHEMA)
    for p in GAMES:
        v.validate(json.loads(p.read_text()))
    sub = jsonschema.Draft202012Validator({"$ref": "#/$defs/annotations", "$defs": SCHEMA["$defs"]})
    for example, accepted in EXAMPLES:
        assert sub.is_valid(example) is accepted, example
