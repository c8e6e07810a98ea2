//===- SharedTurnaround.h - Processes sharing one GPU: a turnaround model -*- C++ -*-===//
//
// The execution model of GPU virtualization for SPMD programs (seed 003,
// section 4): N processes each send their input, compute and retrieve
// their output on one GPU. Without sharing, each process initializes the
// GPU itself and the GPU runs the processes one after another, with a
// context switch between them (equation 1). Sharing one context through
// a server, with a stream per process, the stages overlap depending on the
// order the server issues them in:
//
//   PS-1  every process's copies in, then every kernel, then every copy
//         out: the kernels run at once (equations 2 and 4);
//   PS-2  each process's copy in, kernel and copy out in turn: one
//         process's copies overlap another's kernel, the kernels follow
//         each other (equations 3 and 7).
//
// A kernel is compute-intensive (C-I) when its computing takes at least
// as long as its copies, I/O-intensive (IO-I) otherwise; the paper issues
// C-I kernels in PS-1 order and IO-I kernels in PS-2 order, each the
// shorter for its class. Times in milliseconds; the model is the paper's
// upper bound on overlap (kernels of C-I processes overlap completely).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_MODEL_SHAREDTURNAROUND_H
#define SKMD_MODEL_SHAREDTURNAROUND_H

#include <string>

namespace skmd {

/// One process's GPU task (the paper's Table 2).
struct GpuTask {
  double InitMs = 0;      ///< T_init: opening the GPU, a context, its memory
  double CtxSwitchMs = 0; ///< T_ctx_switch: between two processes' work
  double DataInMs = 0;    ///< T_data_in
  double CompMs = 0;      ///< T_comp
  double DataOutMs = 0;   ///< T_data_out
};

enum class TaskClass { ComputeIntensive, IoIntensive };
enum class SharingOrder { PS1, PS2 };

/// C-I where computing takes at least as long as both copies together.
TaskClass classify(const GpuTask &T);
/// The order the paper issues \p C's tasks in: PS-1 for C-I, PS-2 for IO-I.
SharingOrder orderFor(TaskClass C);

/// Equation (1): \p N processes each opening the GPU, one after another.
double turnaroundAlone(const GpuTask &T, unsigned N);
/// \p N processes sharing the GPU through one server, issued in \p Order:
/// PS-1, equations (2) and (4); PS-2, equation (3) for a C-I task and (7)
/// for an IO-I one.
double turnaroundShared(const GpuTask &T, unsigned N, SharingOrder Order);
/// turnaroundShared in the order the task's class calls for.
double turnaroundShared(const GpuTask &T, unsigned N);
/// A batch of \p N processes' tasks \p T issued together in \p Order,
/// where one kernel keeps \p KernelShare of the GPU busy (its groups over
/// the GPU's compute units, at most 1): the paper's model where kernels
/// overlap only as far as the GPU holds them. PS-1: N (in + out) +
/// comp max(1, N share); PS-2, a pipeline of the three engines: in + comp
/// + out + (N - 1) max(in, out, comp share). With \p KernelShare 0 the
/// paper's own assumptions (PS-1's kernels overlap completely, PS-2's run
/// in turn): equations (2) and (4), and (3) and (7) where the longer copy
/// outlasts the kernel.
double turnaroundBatch(const GpuTask &T, unsigned N, SharingOrder Order, double KernelShare);

/// Equations (8) and (9): turnaroundAlone over turnaroundShared.
double sharingSpeedup(const GpuTask &T, unsigned N);
/// Equations (10) and (11): the speedup as N grows without bound
/// (infinite where no copy bounds it).
double sharingSpeedupLimit(const GpuTask &T);

const char *name(TaskClass C);
const char *name(SharingOrder O);

} // namespace skmd

#endif // SKMD_MODEL_SHAREDTURNAROUND_H
