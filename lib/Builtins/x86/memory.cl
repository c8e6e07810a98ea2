//===- memory.cl - vloadN/vstoreN and atomics for SKMD's x86 variant ------===//
#include "builtins.h"

// vloadN / vstoreN: N elements at p + offset * N, any alignment of an
// element. Every address space has its own mangled name (CL1.2 kernels
// call the __global/__local/__constant/__private forms, CL2.0+ kernels the
// __generic one), so each gets a definition.
#define VLOADSTORE_N(T, N, AS)                                                 \
  OVL T##N vload##N(size_t o, const AS T *p) {                                 \
    T##N r;                                                                    \
    __builtin_memcpy(&r, p + o * N, sizeof(T) * N);                            \
    return r;                                                                  \
  }
#define VSTORE_N(T, N, AS)                                                     \
  OVL void vstore##N(T##N v, size_t o, AS T *p) {                              \
    __builtin_memcpy(p + o * N, &v, sizeof(T) * N);                            \
  }
#define VLOADSTORE_3(T, AS)                                                    \
  OVL T##3 vload3(size_t o, const AS T *p) {                                   \
    return (T##3)(p[3 * o], p[3 * o + 1], p[3 * o + 2]);                       \
  }
#define VSTORE_3(T, AS)                                                        \
  OVL void vstore3(T##3 v, size_t o, AS T *p) {                                \
    p[3 * o] = v.x;                                                            \
    p[3 * o + 1] = v.y;                                                        \
    p[3 * o + 2] = v.z;                                                        \
  }
#define VLOADS(T, AS)                                                          \
  VLOADSTORE_N(T, 2, AS) VLOADSTORE_3(T, AS) VLOADSTORE_N(T, 4, AS)            \
  VLOADSTORE_N(T, 8, AS) VLOADSTORE_N(T, 16, AS)
#define VSTORES(T, AS)                                                         \
  VSTORE_N(T, 2, AS) VSTORE_3(T, AS) VSTORE_N(T, 4, AS) VSTORE_N(T, 8, AS)     \
  VSTORE_N(T, 16, AS)
#define VLOADSTORE_TYPE(T)                                                     \
  VLOADS(T, __generic) VLOADS(T, __global) VLOADS(T, __local)                  \
  VLOADS(T, __constant) VLOADS(T, __private)                                   \
  VSTORES(T, __generic) VSTORES(T, __global) VSTORES(T, __local)               \
  VSTORES(T, __private)

VLOADSTORE_TYPE(char)
VLOADSTORE_TYPE(uchar)
VLOADSTORE_TYPE(short)
VLOADSTORE_TYPE(ushort)
VLOADSTORE_TYPE(int)
VLOADSTORE_TYPE(uint)
VLOADSTORE_TYPE(long)
VLOADSTORE_TYPE(ulong)
VLOADSTORE_TYPE(float)
VLOADSTORE_TYPE(double)

// OpenCL 1.x atomics (atomic_*) and the 64-bit extension's atom_*: relaxed
// read-modify-writes, each returning the old value.
//
// On __global memory they are the hardware's atomics: other threads run
// other groups. __local memory belongs to one group, whose work-items all
// run on one thread one after another, so there they need no lock prefix;
// they are volatile instead, which keeps them in order and keeps the loop
// vectorizer (told that work-items are independent) from merging the
// read-modify-writes of several work-items into one vector operation.
#define GLOBAL_RMW(PREFIX, NAME, T, U, BUILTIN, EXPR)                          \
  OVL T PREFIX##NAME(volatile __global T *p, T v) {                            \
    return BUILTIN(p, v, __ATOMIC_RELAXED);                                    \
  }
#define LOCAL_RMW(PREFIX, NAME, T, U, BUILTIN, EXPR)                           \
  OVL T PREFIX##NAME(volatile __local T *p, T v) {                             \
    T old = *p;                                                                \
    *p = EXPR;                                                                 \
    return old;                                                                \
  }
// Unsigned arithmetic: atomics wrap, signed overflow in C would not.
#define WRAP(T, U, OP) (T)((U)old OP(U) v)
#define ATOMICS(RMW, PREFIX, T, U, AS)                                         \
  RMW(PREFIX, add, T, U, __atomic_fetch_add, WRAP(T, U, +))                    \
  RMW(PREFIX, sub, T, U, __atomic_fetch_sub, WRAP(T, U, -))                    \
  RMW(PREFIX, xchg, T, U, __atomic_exchange_n, v)                              \
  RMW(PREFIX, min, T, U, __atomic_fetch_min, old < v ? old : v)                \
  RMW(PREFIX, max, T, U, __atomic_fetch_max, old > v ? old : v)                \
  RMW(PREFIX, and, T, U, __atomic_fetch_and, old & v)                          \
  RMW(PREFIX, or, T, U, __atomic_fetch_or, old | v)                            \
  RMW(PREFIX, xor, T, U, __atomic_fetch_xor, old ^ v)                          \
  OVL T PREFIX##inc(volatile AS T *p) { return PREFIX##add(p, (T)1); }         \
  OVL T PREFIX##dec(volatile AS T *p) { return PREFIX##sub(p, (T)1); }
#define ATOMICS_BOTH(PREFIX, T, U)                                             \
  ATOMICS(GLOBAL_RMW, PREFIX, T, U, __global)                                  \
  ATOMICS(LOCAL_RMW, PREFIX, T, U, __local)                                    \
  OVL T PREFIX##cmpxchg(volatile __global T *p, T cmp, T v) {                  \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED,           \
                                __ATOMIC_RELAXED);                             \
    return cmp;                                                                \
  }                                                                            \
  OVL T PREFIX##cmpxchg(volatile __local T *p, T cmp, T v) {                   \
    T old = *p;                                                                \
    if (old == cmp)                                                            \
      *p = v;                                                                  \
    return old;                                                                \
  }

ATOMICS_BOTH(atomic_, int, uint)
ATOMICS_BOTH(atomic_, uint, uint)
ATOMICS_BOTH(atom_, int, uint)
ATOMICS_BOTH(atom_, uint, uint)
ATOMICS_BOTH(atom_, long, ulong)
ATOMICS_BOTH(atom_, ulong, ulong)

OVL float atomic_xchg(volatile __global float *p, float v) {
  int Old = __atomic_exchange_n((volatile __global int *)p,
                                __builtin_astype(v, int), __ATOMIC_RELAXED);
  return __builtin_astype(Old, float);
}
OVL float atomic_xchg(volatile __local float *p, float v) {
  float Old = *p;
  *p = v;
  return Old;
}

// async_work_group_copy, its strided form, wait_group_events and prefetch
// never reach this library: skmd-lower-async-copies writes them as loops
// and barriers in every variant (lib/Transforms/AsyncCopyLowering.h).

// shuffle / shuffle2: lane i of the result is lane mask[i] of x (or of
// x then y), taking only the mask bits that index them.
#define SHUFFLE(T, U, N, M)                                                    \
  OVL T##M shuffle(T##N x, U##M mask) {                                        \
    SKMD_LANEWISE(T##M, M, x[mask[i] % N])                                     \
  }                                                                            \
  OVL T##M shuffle2(T##N x, T##N y, U##M mask) {                               \
    T##M r;                                                                    \
    for (int i = 0; i < M; ++i) {                                              \
      U k = mask[i] % (2 * N);                                                 \
      r[i] = k < N ? x[k] : y[k - N];                                          \
    }                                                                          \
    return r;                                                                  \
  }
#define SHUFFLE_TO(T, U, N)                                                    \
  SHUFFLE(T, U, N, 2) SHUFFLE(T, U, N, 4) SHUFFLE(T, U, N, 8)                  \
  SHUFFLE(T, U, N, 16)
#define SHUFFLES(T, U)                                                         \
  SHUFFLE_TO(T, U, 2) SHUFFLE_TO(T, U, 4) SHUFFLE_TO(T, U, 8)                  \
  SHUFFLE_TO(T, U, 16)
SHUFFLES(char, uchar)
SHUFFLES(uchar, uchar)
SHUFFLES(short, ushort)
SHUFFLES(ushort, ushort)
SHUFFLES(int, uint)
SHUFFLES(uint, uint)
SHUFFLES(long, ulong)
SHUFFLES(ulong, ulong)
SHUFFLES(float, uint)
SHUFFLES(double, ulong)

// mem_fence and its read/write forms order one work-item's memory
// operations. The work-items of a group run one after another on one
// thread, so within a group a fence needs nothing; against other groups'
// threads it is a C11 fence of the same strength. (The work-group function
// drops fences of __local memory alone before this is reached.)
OVL void mem_fence(uint flags) { __c11_atomic_thread_fence(__ATOMIC_SEQ_CST); }
OVL void read_mem_fence(uint flags) { __c11_atomic_thread_fence(__ATOMIC_ACQUIRE); }
OVL void write_mem_fence(uint flags) { __c11_atomic_thread_fence(__ATOMIC_RELEASE); }
