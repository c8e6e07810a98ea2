//===- NVPTXWorkItemFunctions.h - What libclc's PTX build lacks --*- C++ -*-===//
//
// libclc's nvptx64--nvidiacl.bc has no get_global_offset,
// get_global_linear_id or get_enqueued_local_size (CUDA grids have no
// offset and no partial groups). Before libclc is linked, these become
// expressions over the functions it does have. get_work_dim cannot: a CUDA
// launch does not record it. The range and box forms take it as a hidden
// argument (Transforms/PartitionReadyKernel.h); in a kernel as written,
// which SKMD's CUDA device never launches, it traps.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H
#define SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H

#include "llvm/IR/Module.h"

namespace skmd {

void lowerNVPTXWorkItemFunctions(llvm::Module &M);

} // namespace skmd

#endif // SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H
