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
#define RMW(PREFIX, NAME, T, AS, BUILTIN)                                      \
  OVL T PREFIX##NAME(volatile AS T *p, T v) {                                  \
    return BUILTIN(p, v, __ATOMIC_RELAXED);                                    \
  }
#define ATOMICS(PREFIX, T, AS)                                                 \
  RMW(PREFIX, add, T, AS, __atomic_fetch_add)                                  \
  RMW(PREFIX, sub, T, AS, __atomic_fetch_sub)                                  \
  RMW(PREFIX, xchg, T, AS, __atomic_exchange_n)                                \
  RMW(PREFIX, min, T, AS, __atomic_fetch_min)                                  \
  RMW(PREFIX, max, T, AS, __atomic_fetch_max)                                  \
  RMW(PREFIX, and, T, AS, __atomic_fetch_and)                                  \
  RMW(PREFIX, or, T, AS, __atomic_fetch_or)                                    \
  RMW(PREFIX, xor, T, AS, __atomic_fetch_xor)                                  \
  OVL T PREFIX##inc(volatile AS T *p) { return PREFIX##add(p, (T)1); }         \
  OVL T PREFIX##dec(volatile AS T *p) { return PREFIX##sub(p, (T)1); }         \
  OVL T PREFIX##cmpxchg(volatile AS T *p, T cmp, T v) {                        \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED,           \
                                __ATOMIC_RELAXED);                             \
    return cmp;                                                                \
  }

ATOMICS(atomic_, int, __global)
ATOMICS(atomic_, uint, __global)
ATOMICS(atomic_, int, __local)
ATOMICS(atomic_, uint, __local)
ATOMICS(atom_, int, __global)
ATOMICS(atom_, uint, __global)
ATOMICS(atom_, int, __local)
ATOMICS(atom_, uint, __local)
ATOMICS(atom_, long, __global)
ATOMICS(atom_, ulong, __global)
ATOMICS(atom_, long, __local)
ATOMICS(atom_, ulong, __local)

#define FLOAT_XCHG(AS)                                                         \
  OVL float atomic_xchg(volatile AS float *p, float v) {                       \
    int Old = __atomic_exchange_n((volatile AS int *)p,                        \
                                  __builtin_astype(v, int), __ATOMIC_RELAXED); \
    return __builtin_astype(Old, float);                                       \
  }
FLOAT_XCHG(__global)
FLOAT_XCHG(__local)
