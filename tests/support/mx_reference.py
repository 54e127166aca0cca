"""The MX matmul reference of docs/number_formats.md §9 (C = (scaleA ⊗ A)(scaleB ⊗ B), 32 K elements per
scale): element codes decoded with ml_dtypes / en_dtypes, scales as 2^(E-127), the product in float64.
Shared by isa/test_mx.py and program/test_program_examples.py.
"""

from __future__ import annotations

import en_dtypes
import ml_dtypes
import numpy as np

from ascsim.machine.dtypes import get_dtype

REF_DTYPE = {  # independent decoders for the raw codes
    "fp8_e4m3fn_t": ml_dtypes.float8_e4m3fn, "mx_fp8_e4m3_t": ml_dtypes.float8_e4m3fn,
    "fp8_e5m2_t": ml_dtypes.float8_e5m2, "mx_fp8_e5m2_t": ml_dtypes.float8_e5m2,
    "fp4x2_e2m1_t": ml_dtypes.float4_e2m1fn, "fp4x2_e1m2_t": en_dtypes.float4_e1m2,
}


def ref_decode(dtype: str, codes: np.ndarray) -> np.ndarray:
    return codes.astype(np.uint8).view(REF_DTYPE[dtype]).astype(np.float64)


def random_codes(dtype: str, shape, rng) -> np.ndarray:
    """Finite element codes (fp8 NaN/Inf codes excluded)."""
    if get_dtype(dtype).is_4bit:
        return rng.integers(0, 16, shape)
    c = rng.integers(0, 256, shape)
    bad = (c & 0x7F) == 0x7F if "e4m3" in dtype else (c & 0x7C) == 0x7C
    return np.where(bad, c & 0x3F, c)


def mx_reference(ta: str, tb: str, a, sa, b, sb) -> np.ndarray:
    """number_formats.md §9: C = sum_k A[m,k] 2^(SA[m,k//32]-127) * B[k,n] 2^(SB[k//32,n]-127), float64."""
    av = ref_decode(ta, a) * np.exp2(np.repeat(sa.astype(np.float64), 32, axis=1) - 127)
    bv = ref_decode(tb, b) * np.exp2(np.repeat(sb.astype(np.float64), 32, axis=0) - 127)
    return av @ bv
