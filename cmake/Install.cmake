# cmake --install <build> [--prefix P]: what goes where (docs/install.md).
#
#   bin/                      skmd-cc, skmd-info, skmd-run, skmd-prof
#   lib/                      libskmd.so; libSKMD_OpenCL.so and, beside it
#                             (it dlopens it from its own folder),
#                             libSKMD_OpenCL_Compiler.so
#   lib/skmd/                 SKMDPasses.so (opt -load-pass-plugin), the x86
#                             builtins bitcode skmd-cc links into kernels
#   include/skmd/             skmd.h, skmd.hpp, cl_skmd.h (the OpenCL platform's queries)
#   lib/cmake/SKMD/           SKMDConfig.cmake, its version file, SKMDTargets
#   lib/pkgconfig/skmd.pc
#   etc/OpenCL/vendors/skmd.icd  (/etc/OpenCL/vendors for the prefix /usr)
#
# Executables find libskmd through RPATH $ORIGIN/../lib (CMAKE_INSTALL_RPATH,
# top-level CMakeLists.txt), libraries beside themselves ($ORIGIN).
include(CMakePackageConfigHelpers)

set(SKMD_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/SKMD)

# libskmd and its public headers.
set_target_properties(skmd SKMD_OpenCL PROPERTIES INSTALL_RPATH "$ORIGIN")
install(TARGETS skmd EXPORT SKMDTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/skmd/skmd.h
              ${PROJECT_SOURCE_DIR}/include/skmd/skmd.hpp
              ${PROJECT_SOURCE_DIR}/include/skmd/cl_skmd.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/skmd)

# The user-facing tools (bench/ and test/ binaries are not installed).
set(skmd_tools skmd-info skmd-run skmd-prof skmd-server)
if(SKMD_BUILD_COMPILER)
  list(PREPEND skmd_tools skmd-cc)
endif()
install(TARGETS ${skmd_tools} EXPORT SKMDTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Remote devices over Open MPI: libskmd loads it from its own folder.
if(TARGET skmd-mpi)
  set_target_properties(skmd-mpi PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS skmd-mpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

# The OpenCL platform, found by the ICD loader through skmd.icd below.
install(TARGETS SKMD_OpenCL LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

if(SKMD_BUILD_COMPILER)
  # Its compiler must sit in the platform's own folder: opencl/Compiler.cpp
  # opens <dir of libSKMD_OpenCL.so>/libSKMD_OpenCL_Compiler.so.
  set_target_properties(SKMD_OpenCL_Compiler PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS SKMD_OpenCL_Compiler LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # The opt plugin: loaded by path, into Debian's opt; it links nothing of
  # ours.
  set_target_properties(SKMDPasses PROPERTIES INSTALL_RPATH "")
  install(TARGETS SKMDPasses EXPORT SKMDTargets
          LIBRARY DESTINATION ${SKMD_INSTALL_PKGLIBDIR})
  # SKMD's x86 builtins, which skmd-cc and the OpenCL compiler module link
  # into every x86 variant: found relative to their own binary
  # (lib/CMakeLists.txt, lib/Pipeline/TargetPipeline.cpp), so the installed
  # compiler needs nothing of the build tree.
  install(FILES ${SKMD_X86_BUILTINS} DESTINATION ${SKMD_INSTALL_PKGLIBDIR})
endif()

# The files that name the prefix by absolute path (skmd.icd, skmd.pc) are
# written at install time, so that `cmake --install --prefix P` and cpack
# (prefix /usr, through DESTDIR) get their own prefix, not the configured
# one.
configure_file(${CMAKE_CURRENT_LIST_DIR}/InstallPrefixFiles.cmake.in
               ${PROJECT_BINARY_DIR}/cmake/InstallPrefixFiles.cmake @ONLY)
install(SCRIPT ${PROJECT_BINARY_DIR}/cmake/InstallPrefixFiles.cmake)

# The CMake package: find_package(SKMD CONFIG) gives SKMD::skmd (libskmd
# with include/), SKMD::skmd-cc and the other tools as imported
# executables, SKMD::SKMDPasses (the opt plugin).
install(EXPORT SKMDTargets NAMESPACE SKMD::
        DESTINATION ${SKMD_INSTALL_CMAKEDIR} FILE SKMDTargets.cmake)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/SKMDConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/SKMDConfig.cmake
  INSTALL_DESTINATION ${SKMD_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same minor matches.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/SKMDConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/SKMDConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/SKMDConfigVersion.cmake
        DESTINATION ${SKMD_INSTALL_CMAKEDIR})
