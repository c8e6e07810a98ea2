//===- CompilerModule.h - The ICD's compiler module, its C entry points -*- C++ -*-===//
//
// libSKMD_OpenCL_Compiler.so exports three functions, looked up by name with
// dlsym. Each hands back its output's bytes and the build log through
// callbacks and returns an OpenCL error code:
// - skmd_opencl_compile: an OpenCL C program to a bundle of the listed
//   variants ("x86,ptx,spirv") (clBuildProgram);
// - skmd_opencl_compile_object: one unit to a compiled object with the
//   listed variants' bitcode (bundle/CompiledObject.h; clCompileProgram);
// - skmd_opencl_link: compiled objects to a library (a compiled object) or
//   to a bundle of the listed variants (clLinkProgram).
//
//===----------------------------------------------------------------------===//
#ifndef SKMD_OPENCL_COMPILERMODULE_H
#define SKMD_OPENCL_COMPILERMODULE_H

#include <cstddef>

extern "C" {
typedef void (*skmd_opencl_output_fn)(void *Context, const unsigned char *Data, size_t Size);
typedef void (*skmd_opencl_log_fn)(void *Context, const char *Text);
typedef int (*skmd_opencl_compile_fn)(const char *Source, const char *Options,
                                      const char *Targets, skmd_opencl_output_fn OnBundle,
                                      skmd_opencl_log_fn OnLog, void *Context);
typedef int (*skmd_opencl_compile_object_fn)(const char *Source, const char *Options,
                                             const char *Targets,
                                             skmd_opencl_output_fn OnObject,
                                             skmd_opencl_log_fn OnLog, void *Context);
typedef int (*skmd_opencl_link_fn)(const unsigned char *const *Objects, const size_t *Sizes,
                                   size_t Count, int Library, const char *Targets,
                                   skmd_opencl_output_fn OnOutput, skmd_opencl_log_fn OnLog,
                                   void *Context);
}

#define SKMD_OPENCL_COMPILER_MODULE "libSKMD_OpenCL_Compiler.so"

#endif // SKMD_OPENCL_COMPILERMODULE_H
