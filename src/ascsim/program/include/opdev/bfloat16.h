// opdev/bfloat16.h, as ascsim provides it: the host bfloat16 type, bit-compatible with the device's.
#pragma once
#include "ascsim/scalar.h"
namespace op {
using bfloat16 = ::ascsim::bfloat16_t;
}
