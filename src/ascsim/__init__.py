"""ascsim: Huawei Ascend C's cube data path (LoadData family, Mmad, DataCopy, Fill, Fixpipe) simulated on a
CPU (data movement bit for bit; float Mmad as documented in docs/mmad.md).

Names are imported on first use (PEP 562), so `ascsim --help` and `ascsim chips` start without loading
numpy's dtype extensions; `from ascsim import Core` works as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base.lazy import lazy_getattr

__version__ = "0.1.0"

# public name -> the submodule that defines it
_WHERE: dict[str, str] = {
    "ALL_CHIPS": "machine.chips", "get_chip": "machine.chips", "Core": "core", "get_dtype": "machine.dtypes",
    "Bits": "machine.dtypes", "LocalTensor": "machine.memory", "Memory": "machine.memory", "History": "view",
    "load_kernel": "program",
    "load_program": "program",
    "expect": "expectations", "img2col": "expectations", "LayoutMismatch": "expectations",
    **{n: "base.errors" for n in (
        "AlignmentError", "AscsimError", "BoundsError", "DocConflictError", "DocConflictWarning",
        "HazardError", "HazardWarning", "NotImplementedFeature", "OverlapError", "ParamRangeError",
        "UnsupportedError")},
    **{n: "params" for n in (
        "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load2DBitModeParam", "Load3DBitModeParam",
        "LoadData2DMxParams", "LoadData2DParams", "LoadData2DParamsV2", "LoadData2dTransposeParams",
        "LoadData2dTransposeParamsV2", "LoadData3DParamsV1", "LoadData3DParamsV2", "LoadData3DParamsV2Pro",
        "LoadDataRepeatParam", "LoadDataRepeatParamWithStride", "MmadParams")},
}

__all__ = sorted(_WHERE)


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # what static tools see
    from .base.errors import (  # noqa: F401
        AlignmentError,
        AscsimError,
        BoundsError,
        DocConflictError,
        DocConflictWarning,
        HazardError,
        HazardWarning,
        NotImplementedFeature,
        OverlapError,
        ParamRangeError,
        UnsupportedError,
    )
    from .core import Core  # noqa: F401
    from .expectations import LayoutMismatch, expect, img2col  # noqa: F401
    from .machine.chips import ALL_CHIPS, get_chip  # noqa: F401
    from .machine.dtypes import Bits, get_dtype  # noqa: F401
    from .machine.memory import LocalTensor, Memory  # noqa: F401
    from .params import (  # noqa: F401
        IS_RESER_LOAD3D_DEFAULT_CONFIG,
        IsResetLoad3dConfig,
        Load2DBitModeParam,
        Load3DBitModeParam,
        LoadData2DMxParams,
        LoadData2DParams,
        LoadData2DParamsV2,
        LoadData2dTransposeParams,
        LoadData2dTransposeParamsV2,
        LoadData3DParamsV1,
        LoadData3DParamsV2,
        LoadData3DParamsV2Pro,
        LoadDataRepeatParam,
        LoadDataRepeatParamWithStride,
        MmadParams,
    )
    from .program import load_kernel, load_program  # noqa: F401
    from .view import History  # noqa: F401
