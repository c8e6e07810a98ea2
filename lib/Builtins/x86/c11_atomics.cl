//===- c11_atomics.cl - OpenCL 2.0+ atomics for SKMD's x86 variant --------===//
//
// The atomic_* functions of OpenCL 2.0 and 3.0 on _Atomic objects, every
// form: plain (seq_cst, device scope), _explicit with an order, and with an
// order and a scope. On a CPU every scope is served by the same cache
// coherence, so scopes are accepted and need nothing more; the order maps
// to C11's, which Clang lowers to x86's (mostly free) barriers.
//
// Work-items of a group run one after another on one thread between
// barriers, so atomics between them are trivially ordered; atomics between
// groups run on different threads and are real.
//
//===----------------------------------------------------------------------===//
#include "builtins.h"

// The names and mangled types OpenCL's headers give these enums.
typedef enum memory_order {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;
typedef enum memory_scope {
  memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,
  memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,
  memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,
  memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,
  memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP
} memory_scope;

#define SEQ memory_order_seq_cst

// A failure order may not be stronger than the success order nor a
// release; C11's builtins want it so, OpenCL leaves it to the caller.
static inline __attribute__((always_inline)) memory_order
failureOrder(memory_order Success) {
  return Success == memory_order_acq_rel ? memory_order_acquire
         : Success == memory_order_release ? memory_order_relaxed
                                           : Success;
}

// Load, store, exchange and compare-exchange: every atomic type.
#define ACCESS(T, AS)                                                          \
  OVL void atomic_init(volatile AS atomic_##T *p, T v) {                      \
    __c11_atomic_init(p, v);                                                   \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS atomic_##T *p, T v,               \
                                 memory_order o, memory_scope s) {             \
    __c11_atomic_store(p, v, o);                                               \
  }                                                                            \
  OVL void atomic_store_explicit(volatile AS atomic_##T *p, T v,               \
                                 memory_order o) {                             \
    __c11_atomic_store(p, v, o);                                               \
  }                                                                            \
  OVL void atomic_store(volatile AS atomic_##T *p, T v) {                      \
    __c11_atomic_store(p, v, SEQ);                                             \
  }                                                                            \
  OVL T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o,       \
                             memory_scope s) {                                 \
    return __c11_atomic_load(p, o);                                            \
  }                                                                            \
  OVL T atomic_load_explicit(volatile AS atomic_##T *p, memory_order o) {     \
    return __c11_atomic_load(p, o);                                            \
  }                                                                            \
  OVL T atomic_load(volatile AS atomic_##T *p) {                              \
    return __c11_atomic_load(p, SEQ);                                          \
  }                                                                            \
  OVL T atomic_exchange_explicit(volatile AS atomic_##T *p, T v,               \
                                 memory_order o, memory_scope s) {             \
    return __c11_atomic_exchange(p, v, o);                                     \
  }                                                                            \
  OVL T atomic_exchange_explicit(volatile AS atomic_##T *p, T v,               \
                                 memory_order o) {                             \
    return __c11_atomic_exchange(p, v, o);                                     \
  }                                                                            \
  OVL T atomic_exchange(volatile AS atomic_##T *p, T v) {                      \
    return __c11_atomic_exchange(p, v, SEQ);                                   \
  }                                                                            \
  CMPXCHG(T, AS, strong) CMPXCHG(T, AS, weak)

#define CMPXCHG(T, AS, KIND)                                                   \
  OVL bool atomic_compare_exchange_##KIND##_explicit(                          \
      volatile AS atomic_##T *p, __generic T *expected, T desired,             \
      memory_order success, memory_order failure, memory_scope s) {            \
    return __c11_atomic_compare_exchange_##KIND(p, expected, desired, success, \
                                                failureOrder(failure));        \
  }                                                                            \
  OVL bool atomic_compare_exchange_##KIND##_explicit(                          \
      volatile AS atomic_##T *p, __generic T *expected, T desired,             \
      memory_order success, memory_order failure) {                            \
    return __c11_atomic_compare_exchange_##KIND(p, expected, desired, success, \
                                                failureOrder(failure));        \
  }                                                                            \
  OVL bool atomic_compare_exchange_##KIND(volatile AS atomic_##T *p,           \
                                          __generic T *expected, T desired) {  \
    return __c11_atomic_compare_exchange_##KIND(p, expected, desired, SEQ,     \
                                                SEQ);                          \
  }

// Read-modify-writes: integer types.
#define FETCH(T, AS, OP)                                                       \
  OVL T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *p, T v,           \
                                     memory_order o, memory_scope s) {         \
    return __c11_atomic_fetch_##OP(p, v, o);                                   \
  }                                                                            \
  OVL T atomic_fetch_##OP##_explicit(volatile AS atomic_##T *p, T v,           \
                                     memory_order o) {                         \
    return __c11_atomic_fetch_##OP(p, v, o);                                   \
  }                                                                            \
  OVL T atomic_fetch_##OP(volatile AS atomic_##T *p, T v) {                    \
    return __c11_atomic_fetch_##OP(p, v, SEQ);                                 \
  }
#define INTEGER(T, AS)                                                         \
  ACCESS(T, AS)                                                                \
  FETCH(T, AS, add) FETCH(T, AS, sub) FETCH(T, AS, or) FETCH(T, AS, xor)       \
  FETCH(T, AS, and) FETCH(T, AS, min) FETCH(T, AS, max)

// Kernels see the generic forms when the generic address space is there
// (OpenCL 2.0, and 3.0 devices that have it) and the named ones otherwise.
#define EVERY_SPACE(M, T) M(T, __generic) M(T, __global) M(T, __local)
EVERY_SPACE(INTEGER, int)
EVERY_SPACE(INTEGER, uint)
EVERY_SPACE(INTEGER, long)
EVERY_SPACE(INTEGER, ulong)
EVERY_SPACE(ACCESS, float)
EVERY_SPACE(ACCESS, double)

// atomic_flag is an atomic_int holding 0 or 1.
#define FLAG(AS)                                                               \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_int *f,      \
                                             memory_order o, memory_scope s) { \
    return __c11_atomic_exchange(f, 1, o);                                     \
  }                                                                            \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_int *f,      \
                                             memory_order o) {                 \
    return __c11_atomic_exchange(f, 1, o);                                     \
  }                                                                            \
  OVL bool atomic_flag_test_and_set(volatile AS atomic_int *f) {             \
    return __c11_atomic_exchange(f, 1, SEQ);                                   \
  }                                                                            \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_int *f,             \
                                      memory_order o, memory_scope s) {        \
    __c11_atomic_store(f, 0, o);                                               \
  }                                                                            \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_int *f,             \
                                      memory_order o) {                        \
    __c11_atomic_store(f, 0, o);                                               \
  }                                                                            \
  OVL void atomic_flag_clear(volatile AS atomic_int *f) {                    \
    __c11_atomic_store(f, 0, SEQ);                                             \
  }
FLAG(__generic)
FLAG(__global)
FLAG(__local)

OVL void atomic_work_item_fence(uint flags, memory_order o, memory_scope s) {
  if (o != memory_order_relaxed)
    __c11_atomic_thread_fence(o);
}
