"""`[[expect]]` tables of a scenario: layout assertions checked while the scenario runs
(`ascsim.expect`, module ascsim.expectations).

    [[expect]]
    after = 0                          # step index after which to check (default: after the last step)
    tensor = "l0a"                     # a tensor, or { tensor = "l0a", index = 256 }
    layout = "zz"                      # nd | zz | nz | zn | fmap
    of = { img2col = "x", kernel = [3, 3], pad = [1, 1, 1, 1] }
    rows = [0, 36]                     # optional window of `of`: [start, stop] (or a count)
    cols = [0, 144]

`of` is one builder, reading the initial (logical) values of the scenario's tensors or a .npy file:
`{ tensor = NAME }` (optionally `shape = [...]`), `{ npy = "file.npy" }`,
`{ img2col = NAME, kernel, stride, pad, dilation, channels }` (NAME has shape [C, H, W]),
`{ transpose = <of> }`, `{ densify_2to4 = <of> }` (the inner builder a table or a tensor name).
Other keys: `c0`, `height` (nz column height), `ld` (nd row pitch).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base.errors import AscsimError
from ..expectations import LAYOUTS, ExpectResult, densify_2to4, expect, img2col, transpose
from .schema import ScenarioError, expect_type, only_keys, resolve, tensor_ref
from .values import initial_values

_KEYS = {"after", "tensor", "layout", "of", "rows", "cols", "c0", "height", "ld", "note"}
_BUILDERS = ("tensor", "npy", "img2col", "transpose", "densify_2to4")


@dataclass
class ExpectSpec:
    index: int
    raw: dict
    loc: str  # "expect[2]"

    @property
    def after(self) -> int | None:
        return self.raw.get("after")


def parse_expects(sc: Any, items: Any) -> list[ExpectSpec]:
    """Check the `[[expect]]` tables of scenario `sc` (errors name the file and expect[i].key)."""

    items = expect_type(sc, "expect", items, list, "an array of tables ([[expect]])")
    out = []
    for i, e in enumerate(items):
        loc = f"expect[{i}]"
        expect_type(sc, loc, e, dict, "a table")
        only_keys(sc, loc, e, _KEYS)
        for req in ("tensor", "layout", "of"):
            if req not in e:
                raise sc.error(f"{loc}.{req}", "missing")
        tensor_ref(sc, f"{loc}.tensor", e["tensor"])
        if e["layout"] not in LAYOUTS:
            raise sc.error(f"{loc}.layout", f"unknown layout {e['layout']!r}; known: {', '.join(LAYOUTS)}")
        after = e.get("after")
        if after is not None and (not isinstance(after, int) or isinstance(after, bool)
                                  or not 0 <= after < len(sc.steps)):
            raise sc.error(f"{loc}.after", f"expected a step index in [0, {len(sc.steps) - 1}], "
                                           f"got {after!r}")
        _check_of(sc, f"{loc}.of", e["of"])
        out.append(ExpectSpec(i, e, loc))
    return out


def _check_of(sc: Any, loc: str, of: Any) -> None:
    if isinstance(of, str):
        of = {"tensor": of}
    if not isinstance(of, dict):
        raise sc.error(loc, f"expected a builder table ({', '.join(_BUILDERS)}) or a tensor name, got {of!r}")
    kinds = [k for k in of if k in _BUILDERS]
    if len(kinds) != 1:
        raise sc.error(loc, f"expected exactly one of {', '.join(_BUILDERS)}, got {sorted(of)}")
    kind = kinds[0]
    if kind in ("tensor", "img2col") and of[kind] not in sc.tensors:
        raise sc.error(f"{loc}.{kind}", f"no tensor named {of[kind]!r} (known: {', '.join(sc.tensors)})")
    if kind in ("transpose", "densify_2to4"):
        _check_of(sc, f"{loc}.{kind}", of[kind])


def _initial(sc: Any, name: str, loc: str) -> np.ndarray:

    spec = sc.tensors[name]
    if spec.init is None:
        raise sc.error(loc, f"tensor {name!r} has no init, so it has no logical values to expect")
    vals = initial_values(sc, name)
    return vals.reshape(spec.shape) if spec.shape else vals


def logical(sc: Any, of: Any, loc: str) -> np.ndarray:
    """The expected logical tensor an `of` table builds."""
    if isinstance(of, str):
        of = {"tensor": of}
    if "tensor" in of:
        v = _initial(sc, of["tensor"], loc)
    elif "npy" in of:
        v = np.load(sc.path.parent / str(of["npy"]))
    elif "img2col" in of:
        x = _initial(sc, of["img2col"], loc)
        kw = {k: of[k] for k in ("kernel", "stride", "pad", "dilation", "channels", "c0") if k in of}
        kw.setdefault("c0", sc.tensors[of["img2col"]].dtype.c0)
        try:
            v = img2col(x, **{"kernel": 1, **kw})
        except (AscsimError, TypeError) as e:
            raise sc.error(loc, str(e)) from None
    elif "transpose" in of:
        v = transpose(logical(sc, of["transpose"], f"{loc}.transpose"))
    else:
        v = densify_2to4(logical(sc, of["densify_2to4"], f"{loc}.densify_2to4"))
    if "shape" in of:
        v = np.asarray(v).reshape(of["shape"])
    return np.asarray(v)


def run_expects(run: Any, step_index: int, last: bool) -> list[ExpectResult]:
    """Check the expectations due after `step_index` (those without `after` run after the last step);
    a mismatch raises ScenarioError naming the expectation, with `.result` for a picture."""

    sc = run.scenario
    out = []
    for e in sc.expects:
        if e.after != step_index and not (e.after is None and last):
            continue
        r = e.raw
        t = resolve(run.tensors, r["tensor"])
        what = (f"{e.loc} ({_name(r['tensor'])} as {r['layout']} of {_describe(r['of'])}, "
                f"after step {step_index})")
        try:
            res = expect(t, r["layout"], logical(sc, r["of"], f"{e.loc}.of"), _win(r.get("rows")),
                         _win(r.get("cols")), c0=r.get("c0"), height=r.get("height"), ld=r.get("ld"),
                         check=False, what=what)
        except AscsimError as err:
            raise ScenarioError(f"{sc.path.name}: {e.loc}: {err}") from None
        if not res.ok:
            err = ScenarioError(f"{sc.path.name}: {res.message()}")
            err.result = res  # type: ignore[attr-defined]
            raise err
        out.append(res)
    return out


def _win(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def _name(ref: Any) -> str:
    return ref if isinstance(ref, str) else f"{ref['tensor']}[{ref.get('index', 0)}]"


def _describe(of: Any) -> str:
    if isinstance(of, str):
        return of
    for k in _BUILDERS:
        if k in of:
            inner = of[k]
            if k == "tensor":
                return inner
            return f"{k}({_describe(inner) if isinstance(inner, dict) else inner})"
    return "?"
