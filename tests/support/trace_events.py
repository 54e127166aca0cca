"""A JSON schema of the Chrome trace-event format, written from its documentation ("Trace Event Format",
Google, the JSON Object Format; what chrome://tracing and Perfetto's legacy JSON importer read):

- the file is an object with `traceEvents` (an array of events), optional `displayTimeUnit` ("ms" or
  "ns") and `otherData` (an object of free metadata);
- every event has `ph` (its phase), `pid` and `tid` (process and thread ids, integers here), `name`;
- complete events (ph "X") have `ts` and `dur` in microseconds (numbers >= 0), `cat`, and `args` (an
  object);
- flow events (ph "s" start, "f" finish) have `ts`, `cat`, an `id` binding the pair, and a finish may bind
  to its enclosing slice (`bp` "e");
- metadata events (ph "M") name a process or thread (`process_name` / `thread_name`: args.name a string)
  or order them (`process_sort_index` / `thread_sort_index`: args.sort_index an integer).
"""

from __future__ import annotations

import jsonschema

_ID = {"type": "integer", "minimum": 0}
_TIME = {"type": "number", "minimum": 0}

COMPLETE = {
    "type": "object",
    "required": ["ph", "name", "cat", "pid", "tid", "ts", "dur", "args"],
    "properties": {"ph": {"const": "X"}, "name": {"type": "string", "minLength": 1},
                   "cat": {"type": "string"}, "pid": _ID, "tid": _ID, "ts": _TIME, "dur": _TIME,
                   "args": {"type": "object"}},
}
FLOW = {
    "type": "object",
    "required": ["ph", "name", "cat", "pid", "tid", "ts", "id"],
    "properties": {"ph": {"enum": ["s", "t", "f"]}, "name": {"type": "string"}, "cat": {"type": "string"},
                   "pid": _ID, "tid": _ID, "ts": _TIME, "id": {"type": ["integer", "string"]},
                   "bp": {"const": "e"}},
}
META = {
    "type": "object",
    "required": ["ph", "name", "pid", "args"],
    "properties": {"ph": {"const": "M"}, "pid": _ID, "tid": _ID,
                   "name": {"enum": ["process_name", "process_labels", "process_sort_index", "thread_name",
                                     "thread_sort_index"]},
                   "args": {"type": "object"}},
    "allOf": [
        {"if": {"properties": {"name": {"enum": ["process_name", "thread_name"]}}},
         "then": {"properties": {"args": {"required": ["name"],
                                          "properties": {"name": {"type": "string"}}}}}},
        {"if": {"properties": {"name": {"enum": ["process_sort_index", "thread_sort_index"]}}},
         "then": {"properties": {"args": {"required": ["sort_index"],
                                          "properties": {"sort_index": {"type": "integer"}}}}}},
    ],
}

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "traceEvents": {"type": "array", "items": {"oneOf": [COMPLETE, FLOW, META]}},
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
    },
}


def check_trace(doc: object) -> None:
    """Raise jsonschema.ValidationError unless `doc` is a trace the format documents; and every flow
    start has its finish (same id) at a time no earlier."""
    jsonschema.validate(doc, SCHEMA)
    assert isinstance(doc, dict)
    starts = {e["id"]: e for e in doc["traceEvents"] if e["ph"] == "s"}
    ends = {e["id"]: e for e in doc["traceEvents"] if e["ph"] == "f"}
    assert starts.keys() == ends.keys()
    for i, s in starts.items():
        assert ends[i]["ts"] >= s["ts"], (s, ends[i])
