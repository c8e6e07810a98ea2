//===- NVPTXWorkItemFunctions.h - What libclc's PTX build lacks --*- C++ -*-===//
//
// libclc's nvptx64--nvidiacl.bc has no get_global_offset,
// get_global_linear_id or get_enqueued_local_size (CUDA grids have no
// offset and no partial groups). Before libclc is linked, these become
// expressions over the functions it does have. get_work_dim cannot: a CUDA
// launch does not record it, so it is an error on this target.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H
#define SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace skmd {

llvm::Error lowerNVPTXWorkItemFunctions(llvm::Module &M);

} // namespace skmd

#endif // SKMD_CODEGEN_NVPTXWORKITEMFUNCTIONS_H
