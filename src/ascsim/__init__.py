"""ascsim: Huawei Ascend C cube-side data loads (LoadData family, Mmad) simulated bit-exactly on a CPU."""

from .chips import ALL_CHIPS, get_chip
from .core import Core
from .dtypes import get_dtype
from .errors import (
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
from .memory import LocalTensor, Memory
from .params import (
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

__version__ = "0.1.0"


def load_kernel(path, chip: str = "a2", defines=None):  # noqa: ANN001, ANN201 - lazy import below
    """Preprocess and parse an Ascend C kernel file for `chip`: `ascsim.load_kernel("k.cpp").run(gm=...)`
    (docs/cpp_frontend.md). The C++ front-end (tree-sitter, pcpp) is imported on first use."""
    from .frontend import load_kernel as _load

    return _load(path, chip, defines)

__all__ = [
    "ALL_CHIPS", "AlignmentError", "AscsimError", "BoundsError", "Core", "DocConflictError",
    "DocConflictWarning", "HazardError", "HazardWarning", "NotImplementedFeature",
    "LocalTensor", "Memory", "OverlapError", "ParamRangeError", "UnsupportedError", "get_chip", "get_dtype",
    "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load3DBitModeParam", "LoadData3DParamsV1",
    "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "LoadDataRepeatParam", "LoadDataRepeatParamWithStride",
    "MmadParams", "Load2DBitModeParam", "LoadData2DMxParams", "LoadData2DParams", "LoadData2DParamsV2",
    "LoadData2dTransposeParams", "LoadData2dTransposeParamsV2", "load_kernel",
]
