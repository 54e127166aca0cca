// A whole program in catlass's style: host main + the mini template library (examples/catlass_style/mini/).
// C (m x n, float) = A (m x k, half) @ B (k x n, half), every shape (ragged tiles included), on as many cube
// cores as there are output tiles (at most the chip's). Reads input/a.bin and input/b.bin (row-major
// half), writes output/c.bin (row-major float), checks C against its own float reference and prints
// "Compare success." or "Compare failed." as catlass's examples do.
//
//   cd examples/data/catlass && ascsim run ../../catlass_style/basic_matmul.cpp --chip a2 -- 100 70 300
//   (-D MINI_SYNC_BUG: a missing WaitFlag; -D MINI_RACE_BUG: two blocks write one output tile)
// tests/program/test_program_catlass_style.py runs it on A2 and 950 against numpy and breaks it both ways.

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"
#include "mini/matmul_kernel.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <class T>
static bool ReadFile(const char* path, std::vector<T>& v) {
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return false;
    size_t n = std::fread(v.data(), sizeof(T), v.size(), f);
    std::fclose(f);
    return n == v.size();
}

int main(int argc, char** argv) {
    if (argc < 4) {
        std::printf("usage: basic_matmul m n k\n");
        return 2;
    }
    mini::GemmCoord problem(std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3]));
    const size_t sa = size_t(problem.m) * problem.k, sb = size_t(problem.k) * problem.n;
    const size_t sc = size_t(problem.m) * problem.n;
    std::vector<half> a(sa), b(sb);
    if (!ReadFile("input/a.bin", a) || !ReadFile("input/b.bin", b)) {
        std::printf("cannot read input/a.bin, input/b.bin\n");
        return 2;
    }
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    uint8_t *dA, *dB, *dC;
    aclrtMalloc((void**)&dA, sa * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dB, sb * sizeof(half), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&dC, sc * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dA, sa * sizeof(half), a.data(), sa * sizeof(half), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dB, sb * sizeof(half), b.data(), sb * sizeof(half), ACL_MEMCPY_HOST_TO_DEVICE);

    uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic();
    uint32_t blockDim = mini::LaunchBasicMatmul(stream, cores, problem, dA, dB, dC);
    aclrtSynchronizeStream(stream);

    std::vector<float> c(sc);
    aclrtMemcpy(c.data(), sc * sizeof(float), dC, sc * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    FILE* f = std::fopen("output/c.bin", "wb");
    if (f != nullptr) {
        std::fwrite(c.data(), sizeof(float), sc, f);
        std::fclose(f);
    }
    size_t bad = 0;
    for (uint32_t i = 0; i < problem.m; ++i) {
        for (uint32_t j = 0; j < problem.n; ++j) {
            double want = 0;
            for (uint32_t k = 0; k < problem.k; ++k) {
                want += double(float(a[size_t(i) * problem.k + k])) * double(float(b[size_t(k) * problem.n + j]));
            }
            if (std::fabs(c[size_t(i) * problem.n + j] - want) > 1e-3 * (1 + std::fabs(want))) ++bad;
        }
    }
    std::printf("blockDim %u, m %u n %u k %u\n", blockDim, problem.m, problem.n, problem.k);
    std::printf(bad == 0 ? "Compare success.\n" : "Compare failed. %zu errors\n", bad);
    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dC);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
