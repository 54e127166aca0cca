// Names of the Ascend C API that ascsim declares, so programs using them compile, but does not model:
// calling one stops the run with NotImplementedFeature naming it and the call site. Written for ascsim.
#pragma once

#include "ascsim/encode.h"
#include "ascsim/tensor.h"

// A function template taking anything: declared so code naming it compiles; calling it stops the run.
#define ASCSIM_UNMODELLED_FN(NAME)                                                  \
    template <class... T, class... A>                                               \
    __aicore__ inline void NAME(A&&...) {                                           \
        ::ascsim::rt::not_modelled(#NAME, ::ascsim::rt::Site{__FILE__, __LINE__});  \
    }

namespace AscendC {
}  // namespace AscendC
