"""Per-call cost of every instruction family, measured side by side in one run (issue 8 targets).

(a) one-fractal calls per second for each family, also as a multiple of an empty Python call with the
    same arguments (the floor) — targets: >= 150k/s LoadData 2D, >= 50k/s every other family;
(b) a warm 64 KB Load3D v2 tile (half, 3x3, pad 1, A2) / a numpy copy of 64 KB — target <= 3x;
    the whole layer's Load3D traffic (56x56x64, 3x3, pad 1) / a numpy copy of its img2col bytes — <= 3x;
    each with two floors beneath it: the calls' own `take`s alone, and those takes inside the least Python
    a call can have (`_floors`);
(c) a cold 64 KB Load3D (parameters never seen: a sweep of mStartPt) / its warm call — target <= 10x;
    a cold 64 KB int4 LoadDataWithTranspose — target <= 2 ms.

Medians of interleaved batches; `--quick` runs fewer repeats. Run: python benchmarks/bench_calls.py
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable

import numpy as np
from timing import median_time

from ascsim import Core, LoadData3DParamsV2
from ascsim.engine.boundary import CALLS
from ascsim.engine.cache import PLANS
from ascsim.engine.record import ExecReport
from ascsim.machine.layouts import chw_to_fmap_l1
from ascsim.params import (
    DataCopyCO12DstParams,
    DataCopyExtParams,
    DataCopyPadExtParams,
    DataCopyParams,
    FixpipeParamsV220,
    InitConstValueParams,
    Load3DBitModeParam,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    MmadParams,
    Nd2NzParams,
    QuantMode_t,
)

QUICK = False


def _rate(fn: Callable[[], object], core: Core | None = None) -> float:
    """Calls per second (median over batches of 50 calls)."""
    def batch() -> None:
        for _ in range(50):
            fn()
        if core is not None:
            core.log.clear()

    return 50 / median_time(batch, repeat=5 if QUICK else 15, number=5 if QUICK else 20)


def _one_fractal_calls() -> dict[str, tuple[Core, Callable[[], object]]]:
    """family -> (core, thunk) for a one-fractal call of that family."""
    out: dict[str, tuple[Core, Callable[[], object]]] = {}
    c = Core("a2")
    a1, a2 = c.tensor("A1", "half", 256), c.tensor("A2", "half", 256)
    p2d = LoadData2DParams(0, 1, 0, 0, 0, False, 0)
    out["LoadData 2D (A2)"] = (c, lambda: c.load_data(a2, a1, p2d))
    c3 = Core("a2")
    f = c3.tensor("A1", "half", 16 * 4 * 4)
    l0 = c3.tensor("A2", "half", 256)
    p3 = LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1)
    out["Load3D v2 (A2)"] = (c3, lambda: c3.load_data(l0, f, p3))
    c9 = Core("950")
    f9 = c9.tensor("A1", "half", 16 * 4 * 4)
    l9 = c9.tensor("A2", "half", 256)
    c9.set_fmatrix(4, 4, [0, 0, 0, 0])
    bm = Load3DBitModeParam(LoadData3DParamsV2([0, 0, 0, 0], 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1))
    out["Load3DBitMode (950)"] = (c9, lambda: c9.load_data(l9, f9, bm, dst_pos="A2", src_pos="A1"))
    ct = Core("a2")
    b1, b2 = ct.tensor("B1", "half", 256), ct.tensor("B2", "half", 256)
    pt = LoadData2dTransposeParams(0, 1, 1, 0, 0)
    out["LoadDataWithTranspose (A2)"] = (ct, lambda: ct.load_data_with_transpose(b2, b1, pt))
    cv = Core("950")
    v1, v2 = cv.tensor("A1", "half", 256), cv.tensor("A2", "half", 256)
    pv = LoadData2DParamsV2(0, 0, 1, 1, 1, 1, False, 0)
    out["LoadData 2Dv2 (950)"] = (cv, lambda: cv.load_data(v2, v1, pv))
    cd = Core("a2")
    g = cd.global_tensor("half", 256)
    l1 = cd.tensor("A1", "half", 256)
    pd = DataCopyParams(1, 16, 0, 0)
    out["DataCopy GM->L1 (A2)"] = (cd, lambda: cd.data_copy(l1, g, pd))
    cf = Core("a2")
    l0c = cf.tensor("CO1", "float", 256)
    gf = cf.global_tensor("float", 256)
    pf = FixpipeParamsV220(16, 16, 16, 16, False)
    out["Fixpipe L0C->GM (A2)"] = (cf, lambda: cf.fixpipe(gf, l0c, pf))
    cm = Core("a2")
    ma, mb = cm.tensor("A2", "half", 256), cm.tensor("B2", "half", 256)
    mc = cm.tensor("CO1", "float", 256)
    ma.write(np.ones(256)), mb.write(np.ones(256))
    pm = MmadParams(16, 16, 16, 0, False, True)
    out["Mmad 16x16x16 (A2)"] = (cm, lambda: cm.mmad(mc, ma, mb, pm))
    cs = Core("a2")
    sb1 = cs.tensor("B1", "int8_t", 512)
    si1 = cs.tensor("B1", "uint8_t", 128)
    sb2 = cs.tensor("B2", "int8_t", 512)
    sb1.write(np.zeros(512)), si1.write(np.zeros(128))
    ps = LoadData2DParams(0, 1)
    out["LoadDataWithSparse (A2)"] = (cs, lambda: cs.load_data_with_sparse(sb2, sb1, si1, ps))
    cx = Core("950")
    xa1 = cx.tensor("A1", "fp8_e4m3fn_t", 512)
    xs1 = cx.tensor("A1", "fp8_e8m0_t", 64)
    xa2 = cx.tensor("A2", "mx_fp8_e4m3_t", 512)
    px = LoadData2DParamsV2(0, 0, 1, 1, 1, 1, False, 0)
    pxm = LoadData2DMxParams(0, 0, 1, 1, 1, 1)
    out["Load2DMX (950)"] = (cx, lambda: cx.load_data_mx(xa2, xa1, xs1, px, pxm))
    out.update(_more_one_fractal_calls())
    return out


def _more_one_fractal_calls() -> dict[str, tuple[Core, Callable[[], object]]]:
    """The other data-movement families through the call boundary, one fractal each."""
    out: dict[str, tuple[Core, Callable[[], object]]] = {}
    cn = Core("a2")
    gn, ln = cn.global_tensor("half", 256), cn.tensor("A1", "half", 256)
    pn = Nd2NzParams(1, 16, 16, 0, 16, 1, 1, 0)
    out["DataCopy ND2NZ (A2)"] = (cn, lambda: cn.data_copy(ln, gn, pn))
    cp = Core("950")
    gp, lp = cp.global_tensor("half", 256), cp.tensor("A1", "half", 256)
    pp, pad = DataCopyExtParams(16, 30, 2, 0), DataCopyPadExtParams(True, 0, 1, 0)
    out["DataCopyPad (950)"] = (cp, lambda: cp.data_copy_pad(lp, gp, pp, pad))
    cb = Core("a2")
    bs, bt = cb.tensor("A1", "half", 256), cb.tensor("C2", "float", 256)
    pb = DataCopyParams(1, 8, 0, 0)
    out["DataCopy L1->BT half->float (A2)"] = (cb, lambda: cb.data_copy(bt, bs, pb))
    ci = Core("a2")
    fl = ci.tensor("A2", "half", 256)
    pi = InitConstValueParams(1, 1, 0, 1.0)
    out["Fill L0A (A2)"] = (ci, lambda: ci.init_const_value(fl, pi))
    cq = Core("a2")
    q0 = cq.tensor("CO1", "int32_t", 256)
    qg = cq.global_tensor("int8_t", 256)
    pq = FixpipeParamsV220(16, 16, 16, 16, False, QuantMode_t.REQ8, 0x3E000000 | 1 << 46)
    out["Fixpipe REQ8 L0C->GM (A2)"] = (cq, lambda: cq.fixpipe(qg, q0, pq))
    cc = Core("a2")
    c0, cg = cc.tensor("CO1", "float", 256), cc.global_tensor("float", 256)
    pc = DataCopyCO12DstParams(16, 16, 16, 16, nz2ndEn=True)
    out["DataCopy L0C->GM (A2)"] = (cc, lambda: cc.data_copy(cg, c0, pc))
    return out


def bench_one_fractal() -> None:
    def empty(a, b, c):
        return None

    floor = _rate(lambda: empty(None, None, None))
    print(f"(a) one-fractal calls per second (empty Python call: {floor:,.0f}/s)")
    for name, (core, fn) in _one_fractal_calls().items():
        try:
            fn()
        except Exception as e:  # a family this build cannot run: say so, keep going
            print(f"    {name:32} skipped: {type(e).__name__}: {e}")
            continue
        r = _rate(fn, core)
        target = 150_000 if name.startswith("LoadData 2D ") else 50_000
        ok = "ok" if r >= target else "BELOW TARGET"
        print(f"    {name:32} {r:>10,.0f}/s  = empty call / {floor / r:6.1f}   target {target:,}/s  {ok}")


def _load3d_setup(chip: str = "a2"):
    core = Core(chip)
    c, h, w = 64, 56, 56
    x = np.random.default_rng(0).standard_normal((c, h, w)).astype(np.float16)
    src = core.tensor("A1", "half", x.size, data=chw_to_fmap_l1(x, 16))
    dst = core.tensor("A2", "half", 32 * 1024)
    return core, src, dst, (c, h, w)


def _copy_time(nbytes: int, number: int = 200) -> float:
    a = np.zeros(nbytes, np.uint8)
    b = np.empty_like(a)
    return median_time(lambda: np.copyto(b, a), repeat=5 if QUICK else 15, number=number)


def _floors(pls: list) -> tuple[Callable[[], None], Callable[[], None]]:
    """Two lower bounds under warm gather calls with these placements: their `take`s alone, and the least
    Python a call can have around its take (one dict lookup of what the call prepared, the take, the record
    every call returns appended to a log), so that what the figure above them spends elsewhere is plain."""
    def takes() -> None:
        for q in pls:
            q.full.take(q.idx, out=q.dview, mode="wrap")

    prepared = {(i, "dst", "src"): q for i, q in enumerate(pls)}
    log: list[ExecReport] = []

    def call(key: tuple) -> None:
        q = prepared[key]
        q.full.take(q.idx, out=q.dview, mode="wrap")
        log.append(ExecReport("Load3Dv2", q.written, q.read, q.n_pad, None, None, None, q.reads, q.writes,
                              None, q.dst_op, q.src_op, 0, 0))

    def bares() -> None:
        for key in prepared:
            call(key)
        log.clear()

    return takes, bares


def bench_warm_load3d() -> None:
    core, src, dst, (c, h, w) = _load3d_setup()
    p = LoadData3DParamsV2([1, 1, 1, 1], h, w, c, 512, 64, 0, 0, 1, 1, 3, 3, 1, 1)  # 64 x 512 x 2 B
    core.load_data(dst, src, p)
    (pl,) = core.placements.values()  # the call's placement: its one gather, for the floors below
    take, bare = _floors([pl])
    samples, floors, bares = [], [], []
    for _ in range(3 if QUICK else 7):  # interleaved: each sample times all in the same breath
        t_load = median_time(lambda: core.load_data(dst, src, p), repeat=3, number=200)
        t_take = median_time(take, repeat=3, number=200)
        t_bare = median_time(bare, repeat=3, number=200)
        t_copy = _copy_time(64 * 1024)
        samples.append(t_load / t_copy)
        floors.append(t_take / t_copy)
        bares.append(t_bare / t_copy)
        core.log.clear()
    print(f"(b) warm 64 KB Load3D v2 tile / numpy 64 KB copy: {statistics.median(samples):5.1f}x "
          f"(target <= 3x)")
    print(f"    floors / the copy: the call's own gather alone (one numpy.take of {pl.idx.size} 32-B units) "
          f"{statistics.median(floors):4.1f}x; with the least Python a call can have around it "
          f"{statistics.median(bares):4.1f}x")
    k_total, m_total = c * 9, h * w
    m_tile = (64 * 1024 // 2) // k_total // 16 * 16
    calls = [LoadData3DParamsV2([1, 1, 1, 1], h, w, c, k_total, min(m_tile, m_total - m0), 0, m0, 1, 1, 3, 3)
             for m0 in range(0, m_total, m_tile)]

    def layer() -> None:
        for q in calls:
            core.load_data(dst, src, q)
        core.log.clear()

    core.placements.clear()
    layer()
    takes, bares = _floors(list(core.placements.values()))  # the layer's placements
    t_layer = median_time(layer, repeat=5 if QUICK else 11, number=1)
    t_takes = median_time(takes, repeat=5 if QUICK else 11, number=1)
    t_bares = median_time(bares, repeat=5 if QUICK else 11, number=1)
    t_copy = _copy_time(m_total * k_total * 2, number=3)
    mb = m_total * k_total * 2 / 1e6
    print(f"    whole layer ({len(calls)} calls, {mb:.1f} MB img2col) / numpy copy of those bytes: "
          f"{t_layer / t_copy:5.1f}x (target <= 3x)")
    print(f"    floors / the copy: the layer's gathers alone {t_takes / t_copy:4.1f}x; with the least Python "
          f"a call can have around each {t_bares / t_copy:4.1f}x")
    steps = [(core.load_data, dst, src, q) for q in calls]

    def batched() -> None:
        core.run(steps)
        core.log.clear()

    batched()
    t_run = median_time(batched, repeat=5 if QUICK else 11, number=1)
    print(f"    the same calls through core.run (batched gathers) / numpy copy: {t_run / t_copy:5.1f}x "
          f"(= {t_run / t_layer:4.2f} x the calls one by one: gathers this large do not queue)")
    c2 = Core("a2")  # where batching can pay: a loop filling a 32 KB tile fractal by fractal
    l1, l0 = c2.tensor("A1", "half", 64 * 256), c2.tensor("A2", "half", 64 * 256)
    frac = [(c2.load_data, l0[256 * i], l1, LoadData2DParams(i, 1, 1)) for i in range(64)]

    def one_by_one() -> None:
        for fn, *args in frac:
            fn(*args)
        c2.log.clear()

    def queued() -> None:
        c2.run(frac)
        c2.log.clear()

    queued()
    one_by_one()
    t_one = median_time(one_by_one, repeat=5 if QUICK else 11, number=20)
    t_queued = median_time(queued, repeat=5 if QUICK else 11, number=20)
    print(f"    64 one-fractal LoadData 2D calls filling a 32 KB tile: core.run / the calls one by one: "
          f"{t_queued / t_one:4.2f}")


def bench_cold() -> None:
    """Cold = parameters never seen (every cache cleared), after one call of another shape has loaded the
    modules; the median of several sweeps (the first sweep of a fresh process also pays the page faults of
    the memory its caches take for the first time: printed too). Warm = the same sweep again."""
    core, src, dst, (c, h, w) = _load3d_setup()
    sweep = range(0, 56 * 56 - 64, 16)
    fresh = [LoadData3DParamsV2([1, 1, 1, 1], h, w, c, 512, 64, 0, m0, 1, 1, 3, 3, 1, 1) for m0 in sweep]
    core.load_data(dst, src, LoadData3DParamsV2([1, 1, 1, 1], h, w, c, 512, 48, 0, 0, 1, 1, 3, 3, 1, 1))

    def cold_sweep() -> float:
        CALLS.clear()
        PLANS.clear()
        core.placements.clear()
        t0 = time.perf_counter()
        for p in fresh:
            core.load_data(dst, src, p)
        return (time.perf_counter() - t0) / len(fresh)

    sweeps = [cold_sweep() for _ in range(3 if QUICK else 7)]
    cold = statistics.median(sweeps)
    t0 = time.perf_counter()
    for _ in range(5):
        for p in fresh:
            core.load_data(dst, src, p)
    warm = (time.perf_counter() - t0) / len(fresh) / 5
    core.log.clear()
    print(f"(c) cold 64 KB Load3D (mStartPt sweep of {len(fresh)} calls): {cold * 1e6:7.1f} us; warm "
          f"{warm * 1e6:5.1f} us; cold / warm {cold / warm:5.1f}x (target <= 10x); first sweep of the "
          f"process {sweeps[0] * 1e6:5.1f} us = {sweeps[0] / warm:4.1f}x")
    ct = Core("a2")
    n = 64 * 1024 * 2  # int4 elements in 64 KB
    b1 = ct.tensor("B1", "int4b_t", n)
    b2 = ct.tensor("B2", "int4b_t", n)
    times = []
    for start in range(4 if QUICK else 12):  # each call a new shape: nothing cached
        p = LoadData2dTransposeParams(start, 32, 1, 3, 0)
        t0 = time.perf_counter()
        ct.load_data_with_transpose(b2, b1, p)
        times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1e3
    print(f"    cold 64 KB int4 LoadDataWithTranspose: {ms:6.2f} ms (target <= 2 ms)")


def main() -> None:
    global QUICK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    QUICK = ap.parse_args().quick
    warnings.simplefilter("ignore")
    bench_one_fractal()
    bench_warm_load3d()
    bench_cold()


if __name__ == "__main__":
    main()
