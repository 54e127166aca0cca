// ascsim's runtime for compiled Ascend C programs: the program's end of the bridge to the engine.
//
// Compiled once per compiler and cached (ascsim/program/build.py), linked into every program. It
//   - connects to the engine at start-up (file descriptors in ASCSIM_BRIDGE, the GM memfd in ASCSIM_GM);
//   - encodes requests and waits for replies (only one thread ever talks: the one holding the baton);
//   - runs a kernel launch's blocks, one thread per block, handing a baton between them in the order the
//     engine decides (so the run is deterministic however many blocks synchronise with each other);
//   - maps GM allocations of the shared memfd at the addresses the engine hands out;
//   - reports a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) with its address before dying.
// The wire format is src/ascsim/program/protocol.py's; docs/cpp.md describes the process model.

#include "ascsim/bridge.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ascsim {
namespace rt {
namespace {

constexpr uint32_t PROTOCOL_VERSION = 1;
constexpr int QUIT_STATUS = 86;  // the engine said stop: it has reported the reason itself

int g_req = -1;  // requests: program -> engine
int g_rep = -1;  // replies: engine -> program
int g_gm_fd = -1;
char* g_gm_base = nullptr;
size_t g_gm_size = 0;
size_t g_page = 4096;

// ---- raw I/O -------------------------------------------------------------------------------------

[[noreturn]] void die_quietly() { _exit(QUIT_STATUS); }

void write_all(int fd, const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) die_quietly();  // the engine is gone
        p += w;
        n -= static_cast<size_t>(w);
    }
}

void read_all(int fd, void* data, size_t n) {
    char* p = static_cast<char*>(data);
    while (n) {
        ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) die_quietly();
        p += r;
        n -= static_cast<size_t>(r);
    }
}

// ---- the outgoing frame ----------------------------------------------------------------------------
// One frame is built at a time (the baton holder's), so one buffer serves every thread.

std::vector<uint8_t> g_out;

void put_raw(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    g_out.insert(g_out.end(), b, b + n);
}
template <class T>
void put_le(T v) {
    static_assert(std::is_integral<T>::value, "integers only");
    uint8_t b[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i) b[i] = static_cast<uint8_t>(static_cast<unsigned long long>(v) >> (8 * i));
    put_raw(b, sizeof(T));
}
void put_str(const char* s) {
    size_t n = s ? strlen(s) : 0;
    put_le<uint32_t>(static_cast<uint32_t>(n));
    put_raw(s, n);
}
void frame_begin(uint8_t kind) {
    g_out.clear();
    put_le<uint32_t>(0);  // length, patched by frame_send
    g_out.push_back(kind);
}
void frame_send() {
    uint32_t n = static_cast<uint32_t>(g_out.size() - 4);
    for (int i = 0; i < 4; ++i) g_out[i] = static_cast<uint8_t>(n >> (8 * i));
    write_all(g_req, g_out.data(), g_out.size());
}

// ---- the incoming reply -------------------------------------------------------------------------------

struct Reply {
    uint8_t kind = 0;
    std::vector<uint8_t> body;
    size_t at = 0;
    uint64_t u64() {
        uint64_t v = 0;
        for (int i = 0; i < 8 && at < body.size(); ++i) v |= static_cast<uint64_t>(body[at++]) << (8 * i);
        return v;
    }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4 && at < body.size(); ++i) v |= static_cast<uint32_t>(body[at++]) << (8 * i);
        return v;
    }
};

Reply read_reply() {
    uint8_t head[4];
    read_all(g_rep, head, 4);
    uint32_t n = head[0] | head[1] << 8 | head[2] << 16 | static_cast<uint32_t>(head[3]) << 24;
    Reply r;
    if (n == 0) die_quietly();
    std::vector<uint8_t> buf(n);
    read_all(g_rep, buf.data(), n);
    r.kind = buf[0];
    r.body.assign(buf.begin() + 1, buf.end());
    return r;
}

// ---- interning: ops, sites and struct types are defined once, then sent as ids ----------------------

std::mutex& g_intern_mutex = *new std::mutex;
std::unordered_map<std::string, uint32_t> g_ops;
std::map<std::pair<const void*, unsigned long long>, uint32_t> g_sites;
std::unordered_map<std::string, uint32_t> g_structs;

void define(uint8_t what, uint32_t id, const char* a, const char* b, uint32_t n, uint32_t n2 = 0) {
    std::vector<uint8_t> keep;
    keep.swap(g_out);  // a definition may be needed while a call frame is being built
    frame_begin('D');
    g_out.push_back(what);
    put_le<uint32_t>(id);
    put_str(a);
    if (b) put_str(b);
    put_le<uint32_t>(n);
    if (what == 'l') put_le<uint32_t>(n2);
    frame_send();
    g_out.swap(keep);
}

uint32_t op_id(const char* name) {
    std::lock_guard<std::mutex> lock(g_intern_mutex);
    auto it = g_ops.find(name);
    if (it != g_ops.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(g_ops.size());
    g_ops.emplace(name, id);
    define('o', id, name, nullptr, 0);
    return id;
}

uint32_t site_id(Site s) {
    std::lock_guard<std::mutex> lock(g_intern_mutex);
    auto key = std::make_pair(static_cast<const void*>(s.file),
                              static_cast<unsigned long long>(s.line) << 32 | s.column);
    auto it = g_sites.find(key);
    if (it != g_sites.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(g_sites.size());
    g_sites.emplace(key, id);
    define('l', id, s.file ? s.file : "?", nullptr, s.line, s.column);
    return id;
}

// ---- blocks and the baton -------------------------------------------------------------------------------

constexpr int HOST = -1;
thread_local int t_block = HOST;
int g_block_num = 0;

// Never destroyed: a program may exit() from a block thread while the host thread waits on them, and
// destroying a condition variable with a waiter blocks forever.
std::mutex& g_baton_mutex = *new std::mutex;
std::condition_variable& g_baton_cv = *new std::condition_variable;
int g_holder = HOST;  // who may run: a block index, or HOST
bool g_launch_done = true;

struct BlockThread {
    pthread_t thread{};
    bool started = false;
    bool joined = false;
    std::atomic<bool> finished{false};  // its block ended: the thread is returning (join frees its stack)
    BlockThread() = default;
    BlockThread(const BlockThread&) {}  // (a launch's vector is made of fresh ones)
    BlockThread& operator=(const BlockThread&) {
        started = joined = false;
        finished = false;
        return *this;
    }
};
std::vector<BlockThread> g_threads;
void (*g_body)(void*) = nullptr;
void* g_body_ctx = nullptr;
size_t g_stack_size = 16u << 20;

void install_alt_stack();

void wait_for_baton(int me) {
    std::unique_lock<std::mutex> lock(g_baton_mutex);
    g_baton_cv.wait(lock, [me] { return g_holder == me; });
}

void* block_main(void* arg) {
    int me = static_cast<int>(reinterpret_cast<intptr_t>(arg));
    t_block = me;
    install_alt_stack();
    wait_for_baton(me);
    g_body(g_body_ctx);
    // the block is done: the engine says who runs next (or that the launch is over)
    Call c("block_end", Site{__FILE__, __LINE__});
    c.send();  // hands the baton to the next block (or ends the launch); this thread then ends
    g_threads[static_cast<size_t>(me)].finished = true;
    return nullptr;
}

void start_block(int b) {
    BlockThread& t = g_threads[static_cast<size_t>(b)];
    if (t.started) return;
    // the threads of ended blocks give their stacks back first: a launch of many blocks that run one
    // after another holds a few stacks, not blockDim of them (the stacks count in the program's memory)
    for (BlockThread& done : g_threads) {
        if (done.started && !done.joined && done.finished) {
            pthread_join(done.thread, nullptr);
            done.joined = true;
        }
    }
    t.started = true;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, g_stack_size);
    if (pthread_create(&t.thread, &attr, block_main, reinterpret_cast<void*>(static_cast<intptr_t>(b))) != 0) {
        fprintf(stderr, "ascsim: cannot start the thread of block %d\n", b);
        die_quietly();
    }
    pthread_attr_destroy(&attr);
}

// Hand the baton to block `b` (starting its thread on first use).
void pass_baton(int b) {
    std::lock_guard<std::mutex> lock(g_baton_mutex);
    if (b < 0 || b >= static_cast<int>(g_threads.size())) {
        fprintf(stderr, "ascsim: the engine named block %d of a launch of %zu\n", b, g_threads.size());
        die_quietly();
    }
    g_holder = b;
    start_block(b);
    g_baton_cv.notify_all();
}

void finish_launch() {
    std::lock_guard<std::mutex> lock(g_baton_mutex);
    g_launch_done = true;
    g_holder = HOST;
    g_baton_cv.notify_all();
}

// After sending a request: wait for the reply, following baton switches. Returns the final reply.
Reply await_reply(bool ends_block) {
    for (;;) {
        Reply r = read_reply();
        if (r.kind == 'w') {  // switch: block r.u32() runs now; this thread resumes when it gets the baton
            int next = static_cast<int>(r.u32());
            int me = t_block;
            pass_baton(next);
            if (ends_block) return r;  // this block's thread ends
            wait_for_baton(me);
            return Reply{'k', {}, 0};  // resumed: the engine has completed this thread's call
        }
        if (r.kind == 'd') {  // the launch is over (the last block ended)
            finish_launch();
            return r;
        }
        if (r.kind == 'q') die_quietly();
        return r;
    }
}

// ---- GM -------------------------------------------------------------------------------------------------

struct Alloc {
    size_t offset;
    size_t size;
};
std::map<char*, Alloc> g_allocs;  // start address -> allocation

void map_at(size_t offset, size_t len) {
    if (offset + len > g_gm_size) {
        fprintf(stderr, "ascsim: GM mapping [%zu, %zu) outside the reservation\n", offset, offset + len);
        die_quietly();
    }
    void* p = mmap(g_gm_base + offset, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, g_gm_fd,
                   static_cast<off_t>(offset));
    if (p == MAP_FAILED) {
        fprintf(stderr, "ascsim: cannot map GM [%zu, %zu): %s\n", offset, offset + len, strerror(errno));
        die_quietly();
    }
}

void unmap_at(size_t offset, size_t len) {
    // back to the reservation's inaccessible pages, so a use after free faults
    mmap(g_gm_base + offset, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
}

// ---- faults ---------------------------------------------------------------------------------------------

void put_le_static(uint8_t* b, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
}

void on_fault(int sig, siginfo_t* info, void*) {
    // async-signal-safe: one write of a fixed frame ('F', signal, address, block), then the default action
    uint8_t f[4 + 1 + 4 + 8 + 4];
    put_le_static(f, sizeof f - 4, 4);
    f[4] = 'F';
    put_le_static(f + 5, static_cast<uint64_t>(sig), 4);
    put_le_static(f + 9, reinterpret_cast<uint64_t>(info ? info->si_addr : nullptr), 8);
    put_le_static(f + 17, static_cast<uint64_t>(static_cast<int64_t>(t_block)), 4);
    if (g_req >= 0) {
        ssize_t ignored = ::write(g_req, f, sizeof f);
        (void)ignored;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void install_alt_stack() {
    static thread_local std::vector<char> stack(1 << 16);
    stack_t ss{};
    ss.ss_sp = stack.data();
    ss.ss_size = stack.size();
    sigaltstack(&ss, nullptr);
}

void install_fault_handlers() {
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(s, &sa, nullptr);
}

// ---- start-up ---------------------------------------------------------------------------------------------

size_t env_size(const char* name, size_t fallback) {
    const char* v = getenv(name);
    if (!v || !*v) return fallback;
    return static_cast<size_t>(strtoull(v, nullptr, 10));
}

__attribute__((constructor)) void connect_to_engine() {
    const char* bridge = getenv("ASCSIM_BRIDGE");
    const char* gm = getenv("ASCSIM_GM");
    if (!bridge || !gm || sscanf(bridge, "%d,%d", &g_req, &g_rep) != 2) {
        fprintf(stderr,
                "this program was built by ascsim against its simulated Ascend C runtime: run it with "
                "`ascsim run`\n");
        _exit(2);
    }
    unsigned long long size = 0;
    if (sscanf(gm, "%d,%llu", &g_gm_fd, &size) != 2) _exit(2);
    g_gm_size = static_cast<size_t>(size);
    g_page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    g_stack_size = env_size("ASCSIM_STACK", g_stack_size);
    void* base = mmap(nullptr, g_gm_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        fprintf(stderr, "ascsim: cannot reserve %zu bytes of address space for GM\n", g_gm_size);
        _exit(2);
    }
    g_gm_base = static_cast<char*>(base);
    install_alt_stack();
    install_fault_handlers();
    frame_begin('H');
    put_le<uint32_t>(PROTOCOL_VERSION);
    put_le<uint32_t>(static_cast<uint32_t>(getpid()));
    put_le<uint64_t>(reinterpret_cast<uint64_t>(g_gm_base));
    put_le<uint64_t>(g_gm_size);
    frame_send();
}

}  // namespace

// ---- Call -------------------------------------------------------------------------------------------------

Call::Call(const char* op, Site site) { begin_frame(op, site); }

void Call::begin_frame(const char* op, Site site) {
    uint32_t o = op_id(op);
    uint32_t s = site_id(site);
    frame_begin('C');
    put_le<int32_t>(t_block);
    put_le<uint32_t>(o);
    put_le<uint32_t>(s);
}

Call& Call::none() {
    g_out.push_back(TAG_NONE);
    return *this;
}
Call& Call::boolean(bool v) {
    g_out.push_back(TAG_BOOL);
    g_out.push_back(v ? 1 : 0);
    return *this;
}
Call& Call::i64(long long v) {
    g_out.push_back(TAG_INT);
    put_le<int64_t>(v);
    return *this;
}
Call& Call::u64(unsigned long long v) {
    g_out.push_back(TAG_UINT);
    put_le<uint64_t>(v);
    return *this;
}
Call& Call::f64(double v) {
    g_out.push_back(TAG_FLOAT);
    uint64_t b;
    memcpy(&b, &v, 8);
    put_le<uint64_t>(b);
    return *this;
}
Call& Call::str(const char* s) {
    g_out.push_back(TAG_STR);
    put_str(s);
    return *this;
}
Call& Call::enumv(const char* type, const char* member) {
    g_out.push_back(TAG_ENUM);
    put_str(type);
    put_str(member);
    return *this;
}
Call& Call::bits(const char* dtype, unsigned long long raw) {
    g_out.push_back(TAG_BITS);
    put_str(dtype);
    put_le<uint64_t>(raw);
    return *this;
}
Call& Call::local(unsigned position, const char* dtype, uint32_t byte_addr, uint32_t byte_len) {
    g_out.push_back(TAG_LOCAL);
    g_out.push_back(static_cast<uint8_t>(position));
    put_str(dtype);
    put_le<uint32_t>(byte_addr);
    put_le<uint32_t>(byte_len);
    return *this;
}
Call& Call::global(const char* dtype, const void* ptr, unsigned long long elements) {
    g_out.push_back(TAG_GLOBAL);
    put_str(dtype);
    put_le<uint64_t>(reinterpret_cast<uint64_t>(ptr));
    put_le<uint64_t>(elements);
    return *this;
}
Call& Call::struct_begin(unsigned type_id) {
    g_out.push_back(TAG_STRUCT);
    put_le<uint32_t>(type_id);
    return *this;
}
Call& Call::array_begin(unsigned n) {
    g_out.push_back(TAG_ARRAY);
    put_le<uint32_t>(n);
    return *this;
}

void Call::send() {
    frame_send();
    // "block_end" is the only request after which the calling thread does not continue
    static const uint32_t block_end = op_id("block_end");
    uint32_t op = g_out[9] | g_out[10] << 8 | g_out[11] << 16 | static_cast<uint32_t>(g_out[12]) << 24;
    await_reply(op == block_end);
}

size_t Call::send_for_value(void* out, size_t capacity) {
    frame_send();
    Reply r = await_reply(false);
    if (r.kind != 'r') return 0;
    size_t n = r.body.size() < capacity ? r.body.size() : capacity;
    memcpy(out, r.body.data(), n);
    return n;
}

unsigned struct_type(const char* name, const char* fields) {
    std::lock_guard<std::mutex> lock(g_intern_mutex);
    auto it = g_structs.find(name);
    if (it != g_structs.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(g_structs.size());
    g_structs.emplace(name, id);
    define('t', id, name, fields, 0);
    return id;
}

void not_modelled(const char* api, Site site) {
    Call c("not_modelled", site);
    c.str(api);
    c.send();
    die_quietly();  // the engine replies 'q'; never reached
}

void kernel_type(int type, const char* file, unsigned line) {
    if (type != 0 && type != 7) return;  // KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_VECTORCORE
    Call c("aiv_only", Site{file, line, 0});
    c.str("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)");
    c.send();
}

int block_idx() { return t_block; }
int block_num() { return t_block == HOST ? 0 : g_block_num; }

// ---- launches ----------------------------------------------------------------------------------------------

void launch_blocks(const char* callee, Site site, uint32_t block_dim, void (*body)(void*), void* ctx) {
    if (t_block != HOST) {
        Call c("nested_launch", site);
        c.str(callee);
        c.send();
        die_quietly();
    }
    Call c("launch", site);
    c.str(callee).u64(block_dim);
    frame_send();
    Reply r = read_reply();
    if (r.kind == 'q') die_quietly();
    if (r.kind != 'w') return;  // no block to run (blockDim 0: the engine reported it)
    g_block_num = static_cast<int>(block_dim);
    g_body = body;
    g_body_ctx = ctx;
    g_threads.assign(block_dim, BlockThread{});
    {
        std::lock_guard<std::mutex> lock(g_baton_mutex);
        g_launch_done = false;
    }
    pass_baton(static_cast<int>(r.u32()));
    {
        std::unique_lock<std::mutex> lock(g_baton_mutex);
        g_baton_cv.wait(lock, [] { return g_launch_done; });
    }
    for (BlockThread& t : g_threads)
        if (t.started && !t.joined) pthread_join(t.thread, nullptr);
    g_threads.clear();
    g_block_num = 0;
}

// ---- GM allocations ---------------------------------------------------------------------------------------

void* gm_malloc(size_t size, Site site) {
    Call c("gm_malloc", site);
    c.u64(size);
    uint64_t v[2] = {0, 0};  // offset, mapped length (0: refused, the engine said why)
    c.send_for_value(v, sizeof v);
    if (v[1] == 0) return nullptr;
    map_at(v[0], v[1]);
    char* p = g_gm_base + v[0];
    g_allocs[p] = Alloc{v[0], size};
    return p;
}

int gm_free(void* ptr, Site site) {
    auto it = g_allocs.find(static_cast<char*>(ptr));
    Call c("gm_free", site);
    c.u64(reinterpret_cast<uint64_t>(ptr));
    uint64_t v[2] = {0, 0};  // status, mapped length
    c.send_for_value(v, sizeof v);
    if (v[0] != 0 || it == g_allocs.end()) return static_cast<int>(v[0]);
    unmap_at(it->second.offset, v[1]);
    g_allocs.erase(it);
    return 0;
}

bool gm_contains(const void* ptr, size_t size) {
    const char* p = static_cast<const char*>(ptr);
    auto it = g_allocs.upper_bound(const_cast<char*>(p));
    if (it == g_allocs.begin()) return false;
    --it;
    return p >= it->first && p + size <= it->first + it->second.size;
}

void gm_sync(Site site) {
    Call c("sync_stream", site);
    c.send();
}

void* gm_param(const char* name, Site site) {
    Call c("gm_param", site);
    c.str(name);
    uint64_t v[3] = {0, 0, 0};  // offset, mapped length (0: unbound), the address to hand out
    c.send_for_value(v, sizeof v);
    if (v[1]) {
        map_at(v[0], v[1]);
        g_allocs[g_gm_base + v[0]] = Alloc{v[0], v[1]};
    }
    return g_gm_base + v[2];
}

uint32_t kernel_blocks() {
    Call c("kernel_config", Site{__FILE__, __LINE__});
    uint64_t v = 1;
    c.send_for_value(&v, sizeof v);
    return static_cast<uint32_t>(v);
}

}  // namespace rt
}  // namespace ascsim
