"""Parameter structs under their C++ names, one module per instruction family.

Positional order = the C++ constructor / aggregate order, so brace initialisers can be pasted.
"""

from .copy import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    CO2Layout,
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    Dn2NzParams,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsC310,
    FixpipeParamsM300,
    FixpipeParamsV220,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
    PaddingMode,
    QuantMode_t,
    fixpipe_config,
)
from .fill import InitConstValueParams
from .load2d import (
    Load2DBitModeParam,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
)
from .load3d import (
    BITMODE_FIELDS,
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    IsResetLoad3dConfig,
    Load3DBitModeParam,
    LoadData3DParamsV1,
    LoadData3DParamsV2,
    LoadData3DParamsV2Pro,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    SetFMatrixBitModeParams,
)
from .mmad import MmadParams

#: `using LoadData2dParams = struct LoadData2DParams;` (asc-devkit kernel_struct_mm.h)
LoadData2dParams = LoadData2DParams

__all__ = [
    "BITMODE_FIELDS", "IS_RESER_LOAD3D_DEFAULT_CONFIG", "IsResetLoad3dConfig", "Load3DBitModeParam",
    "LoadData3DParamsV1", "LoadData3DParamsV2", "LoadData3DParamsV2Pro", "LoadDataRepeatParam",
    "LoadDataRepeatParamWithStride", "SetFMatrixBitModeParams", "MmadParams", "LoadData2DParams",
    "LoadData2DParamsV2",
    "LoadData2dTransposeParams", "LoadData2dTransposeParamsV2", "LoadData2DMxParams", "Load2DBitModeParam",
    "CFG_COLUMN_MAJOR", "CFG_NZ", "CFG_ROW_MAJOR", "CO2Layout", "DataCopyParams", "Dn2NzParams",
    "FixpipeConfig", "FixpipeParamsArch3510", "FixpipeParamsV220", "Nd2NzParams", "Nz2DnParams",
    "Nz2NdParams", "QuantMode_t", "DataCopyExtParams", "DataCopyPadExtParams", "DataCopyCO12DstParams",
    "PaddingMode",
    "FixpipeParamsC310", "FixpipeParamsM300", "InitConstValueParams", "LoadData2dParams", "fixpipe_config",
]
