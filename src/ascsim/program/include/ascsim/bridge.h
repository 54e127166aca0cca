// ascsim's bridge: how a compiled Ascend C program hands each modelled call to the ascsim engine.
//
// The program runs as a child process of `ascsim run`. Every call ascsim models (LoadData, Mmad, SetFlag,
// GetValue, aclrtMalloc, a kernel launch, ...) becomes one request on a pipe to the Python engine, which
// validates and executes it on the simulated core and replies; scalar code, host code and file I/O run
// natively. The wire format is src/ascsim/program/protocol.py's (docs/cpp.md "The bridge"); this header
// is the program's side of it. Written for ascsim; nothing here comes from Huawei's headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ascsim {
namespace rt {

// A call's source location. API functions take it as a trailing default argument, so that
// `__builtin_FILE()` / `__builtin_LINE()` name the line of the call, not of the header.
struct Site {
    const char* file;
    unsigned line;
    unsigned column = 0;
};

#define ASCSIM_SITE \
    ::ascsim::rt::Site ascsim_site = ::ascsim::rt::Site{__builtin_FILE(), __builtin_LINE(), __builtin_COLUMN()}

// Value tags of the wire format (protocol.py TAGS).
enum Tag : uint8_t {
    TAG_NONE = 'n',
    TAG_BOOL = 'b',
    TAG_INT = 'i',
    TAG_UINT = 'u',
    TAG_FLOAT = 'f',
    TAG_STR = 's',
    TAG_ENUM = 'e',
    TAG_BITS = 'x',
    TAG_LOCAL = 'L',
    TAG_GLOBAL = 'G',
    TAG_STRUCT = 'S',
    TAG_ARRAY = 'a',
};

// One request: the operation's name (one of the table's operations, generated into ops.h, or a runtime
// operation of protocol.py), its source line and its arguments, encoded as they are added.
class Call {
public:
    Call(const char* op, Site site);
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

    Call& none();
    Call& boolean(bool v);
    Call& i64(long long v);
    Call& u64(unsigned long long v);
    Call& f64(double v);
    Call& str(const char* s);
    Call& enumv(const char* type, const char* member);
    Call& bits(const char* dtype, unsigned long long raw);
    Call& local(unsigned position, const char* dtype, uint32_t byte_addr, uint32_t byte_len);
    Call& global(const char* dtype, const void* ptr, unsigned long long elements);
    Call& struct_begin(unsigned type_id);  // the struct's fields follow, each a tagged value
    Call& array_begin(unsigned n);         // n tagged values follow

    // Send and wait until the engine has executed the call (the engine may run other blocks meanwhile).
    void send();
    // Send and receive a value's raw bytes (GetValue); returns the number of bytes written to `out`.
    size_t send_for_value(void* out, size_t capacity);

private:
    void begin_frame(const char* op, Site site);
};

// The id of a params struct type, defined to the engine once with its field names (comma-separated, in
// declaration order).
unsigned struct_type(const char* name, const char* fields);

// Stops the run: `api` is declared by ascsim's headers (so the program compiles) but not modelled.
[[noreturn]] void not_modelled(const char* api, Site site);

// The block (cube core) the calling thread runs, and the launch's number of blocks; -1 / 0 on the host.
int block_idx();
int block_num();

// GM: the program's device memory is a shared mapping the engine sees too.
void* gm_malloc(size_t size, Site site);
int gm_free(void* ptr, Site site);
bool gm_contains(const void* ptr, size_t size);  // inside one live allocation
void gm_sync(Site site);  // aclrtSynchronizeStream / Device: the engine has executed everything before

// A kernel launch: runs body(ctx) once per block, blocks in the order the engine decides.
void launch_blocks(const char* callee, Site site, uint32_t block_dim, void (*body)(void*), void* ctx);

// Kernel-only files (`ascsim run kernel.cpp --gm a=...`): the driver's view of its bindings.
void* gm_param(const char* name, Site site);
uint32_t kernel_blocks();

}  // namespace rt
}  // namespace ascsim
