// opdev/fp16_t.h, as ascsim provides it: the host half type, bit-compatible with the device's half.
#pragma once
#include "ascsim/scalar.h"
namespace op {
using fp16_t = ::ascsim::half;
}
