"""The initial contents of a scenario's tensors: `init` values (arange, zeros, random, values, .npy files,
raw byte files) laid out as `layout` says (NC1HWC0, Nz / Zz / Zn)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..machine.dtypes import DType
from ..machine.layouts import chw_to_fmap_l1, nd_to_nz, nd_to_zn, nd_to_zz
from ..machine.memory import LocalTensor
from .schema import Scenario, ScenarioWarning, TensorSpec, brief, flat_numbers, one_line


def _init_values(sc: Scenario, spec: TensorSpec, n: int) -> np.ndarray:
    init = spec.init
    loc = f"tensors.{spec.name}.init"
    kind = init if isinstance(init, str) else next(iter(init))
    arg = {} if isinstance(init, str) else init[kind]
    dt = spec.dtype
    if kind == "zeros":
        return np.zeros(n)
    if kind == "ones":
        return np.ones(n)
    if kind == "fill":
        return np.full(n, arg)
    if kind == "arange":
        vals = np.arange(n)
        if dt.kind == "float":  # keep every value exact in the dtype (small mantissas wrap early)
            top = {4: 4, 8: 16, 16: 256 if dt.name == "bfloat16_t" else 2048}.get(dt.bits, 1 << 20)
            vals = vals % top
        else:
            lo, hi = _int_range(dt)
            vals = lo + (vals - lo) % (hi - lo + 1) if (vals.max(initial=0) > hi) else vals
        return vals
    if kind == "random":
        arg = arg if isinstance(arg, dict) else {}
        rng = np.random.default_rng(arg.get("seed", 0))
        if dt.kind == "float":
            return rng.uniform(arg.get("low", -1.0), arg.get("high", 1.0), n)
        lo, hi = _int_range(dt)
        low, high = max(lo, arg.get("low", lo)), min(hi, arg.get("high", hi))
        if low != int(low) or high != int(high) or low > high:
            raise sc.error(f"{loc}.random", f"{dt.name} needs integer low <= high within [{lo}, {hi}], got "
                                            f"low = {brief(low)}, high = {brief(high)}")
        return rng.integers(int(low), int(high) + 1, n)
    if kind == "values":
        v = np.asarray(flat_numbers(arg))
        if v.dtype.kind not in "iu":  # integers stay exact (64-bit quantisation words)
            v = v.astype(np.float64)
        if v.size != n:
            raise sc.error(loc, f"values has {v.size} entries, the tensor needs {n}")
        return v
    return _load_npy(sc, f"{loc}.npy", str(arg), n)


#: .npy element types a tensor can be initialised from (numbers; no objects, strings, records, complex)
_NPY_KINDS = "biuf"


def _load_npy(sc: Scenario, loc: str, name: str, n: int) -> np.ndarray:
    """The `n` values of a .npy file, read without pickles: header first (dtype and shape checked against
    the tensor), then exactly the bytes those values take — never more than the tensor needs."""
    path = sc.path.parent / name
    try:
        if path.exists() and not path.is_file():  # a folder, a FIFO, /dev/zero: no bounded read
            raise sc.error(loc, f"cannot load {brief(name)}: not a regular file")
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                raise sc.error(loc, f"cannot load {brief(name)}: .npy format version {version} (ascsim reads "
                                    "1.0 and 2.0, what numpy writes for number arrays)")
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            shape, fortran, dtype = read_header(f)
            if dtype.kind not in _NPY_KINDS or dtype.hasobject or dtype.fields or dtype.subdtype:
                raise sc.error(loc, f"cannot load {brief(name)}: its dtype {dtype.str} is not a number type "
                                    "(bool, integer or float)")
            size = math.prod(shape)
            if size != n:
                raise sc.error(loc, f"{name} holds {size} values, the tensor needs {n}")
            data = f.read(size * dtype.itemsize)
    except (OSError, ValueError, EOFError) as e:  # missing file, bad magic or header, NUL in the name
        why = e.strerror if isinstance(e, OSError) and e.strerror else one_line(str(e))
        raise sc.error(loc, f"cannot load {brief(name)}: {why}") from None
    if len(data) != size * dtype.itemsize:
        raise sc.error(loc, f"cannot load {brief(name)}: truncated ({len(data)} of the "
                            f"{size * dtype.itemsize} data bytes its header announces)")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C").ravel()


def init_raw(sc: Scenario, spec: TensorSpec, t: LocalTensor) -> None:
    """init = {raw = FILE}: the tensor's bytes, copied as they are."""
    loc = f"tensors.{spec.name}.init.raw"
    name = spec.init["raw"]
    if not isinstance(name, str):
        raise sc.error(loc, f"expected a file name, got {brief(name)}")
    path = sc.path.parent / name
    try:
        if not path.is_file():  # a folder, a FIFO, /dev/zero: no bounded read
            raise sc.error(loc, f"cannot read {brief(name)}: not a regular file")
        size = path.stat().st_size
        if size != t.nbytes:
            raise sc.error(loc, f"{brief(name)} holds {size} B, the tensor needs {t.nbytes}")
        with open(path, "rb") as f:
            data = f.read(t.nbytes)  # never more than the tensor takes
    except OSError as e:
        raise sc.error(loc, f"cannot read {brief(name)}: {e.strerror}") from None
    if len(data) != t.nbytes:
        raise sc.error(loc, f"{brief(name)} holds {len(data)} B, the tensor needs {t.nbytes}")
    t.bytes()[:] = np.frombuffer(data, dtype=np.uint8)


def _int_range(dt: DType) -> tuple[int, int]:
    if dt.kind == "uint":
        return 0, (1 << dt.bits) - 1
    return -(1 << (dt.bits - 1)), (1 << (dt.bits - 1)) - 1


def _laid_out(spec: TensorSpec, logical: np.ndarray) -> np.ndarray:
    dt = spec.dtype
    if spec.layout == "fmap":
        return chw_to_fmap_l1(logical.reshape(spec.shape), dt.c0)
    conv = {"nz": nd_to_nz, "zz": nd_to_zz, "zn": nd_to_zn}.get(spec.layout)
    return conv(logical.reshape(spec.shape), dt.c0) if conv else logical


def initial_values(sc: Scenario, name: str) -> np.ndarray:
    """The logical initial values of a tensor (its `init`, before `layout`), flat."""
    spec = sc.tensors[name]
    return _init_values(sc, spec, int(np.prod(spec.shape)) if spec.shape else spec.length)


def laid_out_init(sc: Scenario, spec: TensorSpec, n: int) -> np.ndarray:
    return _laid_out(spec, _init_values(sc, spec, n))


def warnings_at(loc: str, fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), each warning it raises (e.g. numpy's, converting init values) re-raised as a
    ScenarioWarning located at `loc` (the CLI prints it as one `warning:` line)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    for w in caught:
        warnings.warn(ScenarioWarning(f"{loc}: {w.category.__name__}: {w.message}"), stacklevel=2)
    return out
