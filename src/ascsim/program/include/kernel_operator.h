// kernel_operator.h, as ascsim provides it: the Ascend C device API for a CPU build whose cube data path
// runs in the ascsim engine (docs/cpp.md). Written for ascsim; it declares the C++ API's names with the
// C++ API's signatures, executes the calls ascsim models and stops at the others, naming them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "ascsim/keywords.h"
#include "ascsim/bridge.h"
#include "ascsim/encode.h"
#include "ascsim/types.h"
#include "ascsim/enums.h"
#include "ascsim/params.h"
#include "ascsim/tensor.h"
#include "ascsim/calls.h"
#include "ascsim/sync.h"
#include "ascsim/tpipe.h"
#include "ascsim/debug.h"
#include "ascsim/unmodelled.h"
#include "ascsim/launch.h"

// One compile is one core type: ascsim runs the cube core (AIC); vector (AIV) paths compile out.
#ifndef ASCSIM_CORE_TYPE
#define ASCSIM_CORE_TYPE AscendC::AIC
// The device compiler's macros of a cube-side compile (it builds a mix kernel once per core type).
#define __DAV_CUBE__ 1
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
#define __DAV_C220__ 1
#define __DAV_C220_CUBE__ 1
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#define __DAV_C310__ 1
#define __DAV_C310_CUBE__ 1
#endif
#endif
constexpr int32_t g_coreType = ASCSIM_CORE_TYPE;
#define ASCEND_IS_AIV constexpr(g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC constexpr(g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(g_coreType != AscendC::AIC)
