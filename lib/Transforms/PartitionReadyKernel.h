//===- PartitionReadyKernel.h - Kernels that run any group range -*- C++ -*-===//
//
// For each kernel K, adds a partition-ready variant that runs only some of
// the real N-D grid's work-groups, each as K would run it in the whole
// grid: the exact form any range of flattened groups, the box form a box.
//
// Exact form (default), K__skmd_range, with hidden trailing arguments
//   ulong skmd_first_group,
//   ulong skmd_num_groups_{x,y,z}, ulong skmd_global_offset_{x,y,z},
//   ulong skmd_groups_{x,y}_magic (ceil(2^64 / num_groups), 0 for 1:
//   runtime/devices/NDRange.h, divisionMagic), ulong skmd_work_dim:
// launch a 1-D grid of `count` groups with the original local size. The
// clone inlines every helper and remaps get_group_id, get_global_id,
// get_num_groups, get_global_size, get_global_offset,
// get_global_linear_id and get_work_dim to the real grid: launched group i
// is flattened group first + i, unflattened x-fastest. No disabled group
// is launched.
//
// Box form (PTX), K__skmd_box, with hidden trailing arguments
//   ulong skmd_group_base_{x,y,z}, ulong skmd_id_base_{x,y,z},
//   ulong skmd_num_groups_{x,y,z}, ulong skmd_work_dim
// (id_base = group_base * local size + global offset: runtime/devices/
// NDRange.h, boxArgs): launch the box of groups [group_base, group_base +
// the launch's grid) as a grid of its own shape, with the original local
// size. Launched group g is real group g + group_base, and a work-item's
// global id is g * local size + local id + id_base: one add per dimension
// over the kernel as written, no branch, no division. On an H100 every
// kernel of the suite ran within 1.2% of the kernel as written this way,
// where the exact form's unflattening cost Sobel, median filter and FDTD3d
// 5-8% and 1-D Black-Scholes and reduction 4% (docs/results/paper-apps.md).
// A range of flattened groups is at most three boxes in 1-D and 2-D (a
// partial row, whole rows, a partial row); the runtime launches what of a
// range is not a box (rows of two planes in 3-D) in the exact form
// (runtime/devices/NDRange.h, splitIntoLaunches). A variant of its own,
// not a branch on the launch's shape inside the exact form: that branch
// alone cost the exact form's 1-D launches 2% on short kernels. Built for
// PTX, whose device launches boxes; the CPU runs any group directly and the
// OpenCL device takes the exact form.
//
// Guard form (the SKMD paper's Fig. 4), K__skmd_guard, with trailing
//   ulong skmd_first_group, ulong skmd_group_count:
// launch the full grid; groups outside the range return at once.
//
//   opt -load-pass-plugin=build/lib/SKMDPasses.so
//       -passes='skmd-partition-ready' kernel.ll -S
//   opt ... -passes='skmd-partition-ready<box>' kernel.ll -S
//   opt ... -passes='skmd-partition-ready<guard>' kernel.ll -S
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_TRANSFORMS_PARTITIONREADYKERNEL_H
#define SKMD_TRANSFORMS_PARTITIONREADYKERNEL_H

#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace skmd {

enum class PartitionForm { Exact, Guard, Box };

class PartitionReadyKernelPass
    : public llvm::PassInfoMixin<PartitionReadyKernelPass> {
public:
  explicit PartitionReadyKernelPass(PartitionForm Form = PartitionForm::Exact)
      : Form(Form) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

  /// Parses the pass parameter: "" or "exact", "box", or "guard".
  static llvm::Expected<PartitionForm> parseForm(llvm::StringRef Params);

private:
  PartitionForm Form;
};

/// Names of the variants, for the runtime and the metadata.
std::string rangeVariantName(llvm::StringRef Kernel);
std::string guardVariantName(llvm::StringRef Kernel);
std::string boxVariantName(llvm::StringRef Kernel);

/// Number of hidden arguments each form appends.
inline constexpr unsigned RangeHiddenArgs = 10;
inline constexpr unsigned GuardHiddenArgs = 2;
inline constexpr unsigned BoxHiddenArgs = 10;

} // namespace skmd

#endif // SKMD_TRANSFORMS_PARTITIONREADYKERNEL_H
