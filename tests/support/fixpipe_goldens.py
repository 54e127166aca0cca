"""The Fixpipe quantisation goldens: numpy written from 随路量化.md 表1/表2 and 随路量化与随路ReLU场景组合.md,
following the steps of Huawei's generators (asc-devkit examples/01_simd_cpp_api/03_basic_api/
03_matrix_compute/fixpipe_l0c2gm/scripts/gen_data_s322s8.py, gen_data_s322f16.py, gen_data_f322s8.py and
ops-nn matmul_quant_util.py; isa/test_fixpipe_quant.py says how). Shared by isa/test_fixpipe_quant.py,
engine/test_call_boundary.py and program/test_program_docs_companions.py.
"""

from __future__ import annotations

import numpy as np

SIGN = 1 << 46  # Sign bit: int8 results


def word(scale: float, offset: int = 0, signed: bool = True) -> int:
    """A QUANT_PRE word (随路量化.md 表1): the float32 bits of the scale, offset in [45:37], Sign in bit
    46."""
    bits = int(np.array([scale], np.float32).view(np.uint32)[0])
    return bits | ((offset & 0x1FF) << 37) | (SIGN if signed else 0)


def golden_b8(x: np.ndarray, words: np.ndarray, relu: bool) -> np.ndarray:
    """(V)REQ8 / (V)QF322B8_PRE per the generators: x is the int32 or float32 C, words one per column."""
    words = np.broadcast_to(np.asarray(words, np.uint64), x.shape[-1:])
    m1 = (words & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)
    m2 = np.zeros_like(m1) if relu else m1
    off = ((words >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    off = np.where(off >= 256, off - 512, off)
    sign = ((words >> np.uint64(46)) & np.uint64(1)).astype(bool)
    xf = x.astype(np.float32)
    y = np.where(xf >= 0, xf * m1, xf * m2).astype(np.float32)
    q = np.clip(np.round(np.nan_to_num(y, nan=0.0)), -256, 255).astype(np.int64) + off
    return np.where(sign, np.clip(q, -128, 127), np.clip(q, 0, 255)).astype(np.int64)


def golden_deq(x: np.ndarray, words: np.ndarray, relu: bool) -> np.ndarray:
    """(V)DEQF16: int32 -> float32, times M1 / M2 in float32, cast to half."""
    words = np.broadcast_to(np.asarray(words, np.uint64), x.shape[-1:])
    m1 = (words & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)
    m2 = np.zeros_like(m1) if relu else m1
    xf = x.astype(np.float32)
    return np.where(xf >= 0, xf * m1, xf * m2).astype(np.float32).astype(np.float16)
