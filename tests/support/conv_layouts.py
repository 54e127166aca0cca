"""The half conv2d operand layouts of Huawei's 950 conv kernels, written from the doc text: the feature map
as NC1HWC0 and the weights as B^T in Nz with K in the img2col column order (LoadData_3D.md 数据格式说明).
Shared by isa/test_load3d_partial_window.py and isa/test_conv2d_950_nchw.py.
"""

from __future__ import annotations

import numpy as np

C0 = 16  # half


def fmap_nc1hwc0(x: np.ndarray) -> np.ndarray:
    """(C, H, W) -> NC1HWC0 with C padded to 16 (关键分形格式详解.md: C0 is the lowest dimension)."""
    c, h, w = x.shape
    c1 = -(-c // C0)
    out = np.zeros((c1, h, w, C0))
    for ch in range(c):
        out[ch // C0, :, :, ch % C0] = x[ch]
    return out.ravel()


def weights_bt_nz(wt: np.ndarray) -> tuple[np.ndarray, int, int]:
    """B^T (Cout x K) in Nz, K ordered as the img2col columns (c1, kh, kw, c0) of LoadData_3D.md 数据格式说明;
    returns (flat, N padded, K)."""
    cout, cin, kh, kw = wt.shape
    c1 = -(-cin // C0)
    k = c1 * kh * kw * C0
    n = -(-cout // 16) * 16
    bt = np.zeros((n, k))
    for o in range(cout):
        for c in range(cin):
            for i in range(kh):
                for j in range(kw):
                    bt[o, ((c // C0 * kh + i) * kw + j) * C0 + c % C0] = wt[o, c, i, j]
    # Nz: fractal column q holds columns 16q..16q+15 of all n rows
    flat = np.concatenate([bt[:, q * C0:(q + 1) * C0].ravel() for q in range(k // C0)])
    return flat, n, k
