"""The fractal formulas of 关键分形格式详解.md / 辅助矩阵分形格式详解.md, written out from the doc text
("pad -> reshape -> transpose") — never ascsim's own layout helpers — and the 4:2 densification table.

Shared by the doc-example tests (isa/test_doc_examples_2d.py) and the front-end tests that compare kernels
run from source with the same formulas (program/test_program_docs*.py, test_program_examples.py,
isa/test_copy_l1_gm.py).
"""

from __future__ import annotations

import numpy as np


def cdiv(a: int, b: int) -> int:  # the docs' CeilDivision
    return -(-a // b)


# -- fractal formulas, from 关键分形格式详解.md / 辅助矩阵分形格式详解.md ------------------------------------


def pad2(x: np.ndarray, rows: int, cols: int, fill=0) -> np.ndarray:
    out = np.full((rows, cols), fill, dtype=x.dtype)
    out[: x.shape[0], : x.shape[1]] = x
    return out


def zz(x: np.ndarray, c0: int, fill=0) -> np.ndarray:
    """(M, K)->pad->(M1*M0, K1*K0)->reshape->(M1, M0, K1, K0)->transpose->(M1, K1, M0, K0); M0 = 16."""
    m1, k1 = cdiv(x.shape[0], 16), cdiv(x.shape[1], c0)
    return pad2(x, m1 * 16, k1 * c0, fill).reshape(m1, 16, k1, c0).transpose(0, 2, 1, 3).ravel()


def zn(b: np.ndarray, k0: int, fill=0) -> np.ndarray:
    """(K, N)->pad->(K1*K0, N1*N0)->reshape->(K1, K0, N1, N0)->transpose->(K1, N1, N0, K0); N0 = 16."""
    k1, n1 = cdiv(b.shape[0], k0), cdiv(b.shape[1], 16)
    return pad2(b, k1 * k0, n1 * 16, fill).reshape(k1, k0, n1, 16).transpose(0, 2, 3, 1).ravel()


def nz(x: np.ndarray, c0: int, fill=0) -> np.ndarray:
    """(M, N)->pad->(M1*M0, N1*N0)->reshape->(M1, M0, N1, N0)->transpose->(N1, M1, M0, N0); M0 = 16."""
    m1, n1 = cdiv(x.shape[0], 16), cdiv(x.shape[1], c0)
    return pad2(x, m1 * 16, n1 * c0, fill).reshape(m1, 16, n1, c0).transpose(2, 0, 1, 3).ravel()


def unlayout(flat: np.ndarray, layout, rows: int, cols: int, *args) -> np.ndarray:
    """Read a rows x cols matrix back out of `flat`, stored with `layout` (one of the formulas above)."""
    where = layout(np.arange(rows * cols).reshape(rows, cols), *args, fill=-1)
    out = np.empty(rows * cols, dtype=np.asarray(flat).dtype)
    valid = where >= 0
    out[where[valid]] = np.asarray(flat)[: where.size][valid]
    return out.reshape(rows, cols)

# 辅助矩阵分形格式详解.md 稠密化算法规则 (2 nonzeros) + MmadWithSparse.md 表2 for the dense slots of groups
# with fewer nonzeros: positions of the nonzeros -> (index 0, index 1, dense slot sources).
_DENSIFY = {
    (2, 3): (2, 2), (1, 3): (1, 2), (0, 3): (0, 2), (1, 2): (1, 1), (0, 2): (0, 1), (0, 1): (0, 0),
    (3,): (0, 2), (2,): (2, 0), (1,): (1, 0), (0,): (0, 0), (): (0, 0),
}


def doc_densify(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """4:2 densify of B (K x N, K % 4 == 0) per the doc table: returns dense (K/2 x N) and index codes."""
    k, n = b.shape
    dense = np.zeros((k // 2, n), dtype=b.dtype)
    codes = np.zeros((k // 2, n), dtype=np.int64)
    for g in range(k // 4):
        for j in range(n):
            grp = b[4 * g : 4 * g + 4, j]
            pos = tuple(int(p) for p in np.nonzero(grp)[0])
            i0, i1 = _DENSIFY[pos]
            codes[2 * g, j], codes[2 * g + 1, j] = i0, i1
            if pos == (3,):  # (0,0,0,X): codes (0, 2) select A elements 0 and 3 -> dense (0, X)
                dense[2 * g + 1, j] = grp[3]
            else:
                dense[2 * g : 2 * g + len(pos), j] = grp[list(pos)]
    return dense, codes
