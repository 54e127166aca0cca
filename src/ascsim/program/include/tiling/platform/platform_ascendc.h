// tiling/platform/platform_ascendc.h, as ascsim provides it: the chip's core counts and buffer sizes
// from ascsim's chip profile (ascsim chips CHIP), which `ascsim run` passes to the program.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND950, RESERVED_VERSION };

class PlatformAscendC {
public:
    uint32_t GetCoreNumAic() const { return env("ASCSIM_AIC_NUM", 1); }
    uint32_t GetCoreNumAiv() const { return env("ASCSIM_AIV_NUM", 0); }
    uint32_t GetCoreNum() const { return GetCoreNumAic(); }
    uint32_t GetCoreNumVector() const { return GetCoreNumAiv(); }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
        static const char* names[] = {"ASCSIM_L0A_SIZE", "ASCSIM_L0B_SIZE", "ASCSIM_L0C_SIZE", "ASCSIM_L1_SIZE",
                                      "ASCSIM_L2_SIZE",  "ASCSIM_UB_SIZE",  "ASCSIM_HBM_SIZE", "ASCSIM_NONE"};
        size = env(names[static_cast<int>(type)], 0);
    }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t) const {
        return sliceNum < aicCoreNum ? sliceNum : aicCoreNum;
    }

private:
    static uint32_t env(const char* name, uint32_t fallback) {
        const char* v = std::getenv(name);
        return v && *v ? static_cast<uint32_t>(std::strtoul(v, nullptr, 10)) : fallback;
    }
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC instance;
        return &instance;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};

}  // namespace platform_ascendc
