"""ascsim: Huawei Ascend C's cube data path (LoadData family, Mmad, DataCopy, Fill, Fixpipe) simulated on a
CPU (data movement bit for bit; float Mmad as documented in docs/mmad.md)."""

from .chips import ALL_CHIPS, get_chip
from .core import Core
from .dtypes import Bits, get_dtype
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

__all__ = [
    "ALL_CHIPS", "AlignmentError", "AscsimError", "BoundsError", "Core", "DocConflictError",
    "DocConflictWarning", "HazardError", "HazardWarning", "NotImplementedFeature",
    "LocalTensor", "Memory", "OverlapError", "ParamRangeError", "UnsupportedError", "get_chip", "get_dtype",
    "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load3DBitModeParam", "LoadData3DParamsV1",
    "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "LoadDataRepeatParam", "LoadDataRepeatParamWithStride",
    "MmadParams", "Load2DBitModeParam", "LoadData2DMxParams", "LoadData2DParams", "LoadData2DParamsV2",
    "LoadData2dTransposeParams", "LoadData2dTransposeParamsV2", "Bits",
]
