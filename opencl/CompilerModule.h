//===- CompilerModule.h - The ICD's compiler module, its C entry point -*- C++ -*-===//
//
// libSKMD_OpenCL_Compiler.so exports one function, looked up by name with
// dlsym: it compiles an OpenCL C program to a bundle for the listed
// variants ("x86,ptx,spirv") and hands back the bundle's bytes and the
// build log through callbacks. Returns an OpenCL error code.
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_COMPILERMODULE_H
#define SKMD_OPENCL_COMPILERMODULE_H

#include <cstddef>

extern "C" {
typedef int (*skmd_opencl_compile_fn)(const char *Source, const char *Options,
                                      const char *Targets,
                                      void (*OnBundle)(void *, const unsigned char *, size_t),
                                      void (*OnLog)(void *, const char *), void *Context);
}

#define SKMD_OPENCL_COMPILER_MODULE "libSKMD_OpenCL_Compiler.so"

#endif // SKMD_OPENCL_COMPILERMODULE_H
