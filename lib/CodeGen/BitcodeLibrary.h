//===- BitcodeLibrary.h - Device libraries linked as bitcode -----*- C++ -*-===//
#ifndef SKMD_CODEGEN_BITCODELIBRARY_H
#define SKMD_CODEGEN_BITCODELIBRARY_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace skmd {

/// The first of \p Candidates that exists, or \p Override, which must. The
/// error names \p What, every place looked at, and \p Option.
llvm::Expected<std::string>
findBitcodeLibrary(llvm::StringRef What, llvm::StringRef Option,
                   const std::string &Override,
                   const std::vector<std::string> &Candidates,
                   llvm::StringRef Remedy);

/// Links the parts of the library at \p Path that \p M uses, reading it
/// lazily so only those functions are parsed.
llvm::Error linkBitcodeLibrary(llvm::Module &M, const std::string &Path);

} // namespace skmd

#endif // SKMD_CODEGEN_BITCODELIBRARY_H
