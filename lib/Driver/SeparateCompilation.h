//===- SeparateCompilation.h - clCompileProgram and clLinkProgram -*- C++ -*-===//
//
// OpenCL's separate compilation: a unit compiles to a compiled object (the
// frontend's bitcode for each target's triple and its kernels'
// descriptions, bundle/CompiledObject.h); objects link into a library (one
// object of them all) or an executable bundle, their bitcode linked by
// llvm::Linker, so that each unit's static functions stay its own, and the
// pipeline a source build runs after the frontend run on the result.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_DRIVER_SEPARATECOMPILATION_H
#define SKMD_DRIVER_SEPARATECOMPILATION_H

#include "Pipeline/TargetPipeline.h"
#include "bundle/Bundle.h"
#include "bundle/CompiledObject.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace skmd {

/// Opts.Frontend.InputPath through the frontend for each of
/// Opts.Frontend.Variants (none: all three): a unit may define no kernel
/// and call functions other units define.
llvm::Expected<CompiledObject> compileObject(const CompilerOptions &Opts);

/// \p Objects linked into one library, of the targets the first has (a
/// target another lacks fails).
llvm::Expected<CompiledObject> linkLibrary(llvm::ArrayRef<CompiledObject> Objects);

/// \p Objects linked and compiled for \p Targets, as compileBundle compiles
/// a source file (Opts' frontend options aside: the objects had theirs).
llvm::Expected<BundleWriter> linkExecutable(llvm::ArrayRef<CompiledObject> Objects,
                                            CompilerOptions Opts,
                                            llvm::ArrayRef<TargetKind> Targets);

} // namespace skmd

#endif // SKMD_DRIVER_SEPARATECOMPILATION_H
