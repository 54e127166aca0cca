"""README's Python example runs as printed, and says what the doc's img2col definition says.

W[m][k] = x[c, ho*strideH + kh*dilationH - padTop, wo*strideW + kw*dilationW - padLeft] (LoadData_3D.md,
功能说明; k = ((c1*Kh + kh)*Kw + kw)*C0 + c0), or the pad value outside the map — computed here by hand
for the elements the example's comment talks about.
"""

from __future__ import annotations

import re

import numpy as np
from support.paths import ROOT


def _readme_python() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Use it from Python\n\n```python\n(.*?)```", text, re.S)
    assert block is not None, "README lost its Python example"
    return block.group(1)


def test_the_readme_python_example() -> None:
    env: dict = {}
    exec(compile(_readme_python(), "README.md", "exec"), env)  # noqa: S102 - the README's own code
    x, img2col, report = env["x"], env["img2col"], env["report"]
    # 4x4 map, 2x2 kernel, dilation 2, pad 1, stride 1 -> Ho = Wo = 4; C0 = 16, C = 32 (C1 = 2)
    def w(m: int, k: int) -> float:
        ho, wo = divmod(m, 4)
        c1, rest = divmod(k, 2 * 2 * 16)
        kh, rest = divmod(rest, 2 * 16)
        kw, c0 = divmod(rest, 16)
        h, ww = ho + 2 * kh - 1, wo + 2 * kw - 1
        return 0.0 if not (0 <= h < 4 and 0 <= ww < 4) else float(x[c1 * 16 + c0, h, ww])
    expected = np.array([[w(m, k) for k in range(128)] for m in range(16)])
    np.testing.assert_array_equal(img2col.astype(np.float64), expected)
    line = str(report.explain(dst=37)).splitlines()[-1]  # dst 37: fractal 0, row 2, col 5 = (m 2, k 5)
    assert line.startswith("dst[37] ") and "pad" in line and "h -1, w 1" in line
    assert "l0a" in str(report.explain(dst=37)) and "fmap" in str(report.explain(dst=37))
