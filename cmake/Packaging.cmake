# cpack -G DEB (in the build folder): a Debian package of what
# cmake/Install.cmake installs, under /usr, the ICD file in
# /etc/OpenCL/vendors (docs/install.md). Configure with
# -DCMAKE_INSTALL_PREFIX=/usr for Debian's multiarch lib/<triple>; otherwise
# the libraries go to /usr/lib, also on the dynamic linker's path.
set(SKMD_PACKAGE_MAINTAINER "SKMD maintainers <skmd@localhost>" CACHE STRING
    "The Debian package's Maintainer field")

set(CPACK_PACKAGE_NAME skmd)
set(CPACK_PACKAGE_VENDOR "SKMD")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "OpenCL C kernels on every device of a machine at once")
set(CPACK_PACKAGE_DESCRIPTION
"SKMD compiles an OpenCL C kernel ahead of time (skmd-cc) into a bundle with
x86-64, PTX and SPIR-V variants, and at run time (libskmd) splits its
work-groups across the CPU's cores and the GPUs, runs them at once and
merges the results. Also: skmd-run, skmd-prof, skmd-info, an opt pass
plugin, an OpenCL ICD platform (libSKMD_OpenCL), a CMake package and a
pkg-config file.")
set(CPACK_PACKAGE_CONTACT "${SKMD_PACKAGE_MAINTAINER}")
# skmd.icd and skmd.pc name the prefix by absolute path, and skmd.icd
# lives in /etc: the install scripts must see the package's prefix, /usr,
# with DESTDIR pointing at the staging folder, not a staging prefix
# (cmake/InstallPrefixFiles.cmake.in). With CPACK_SET_DESTDIR, CPack installs
# to CPACK_INSTALL_PREFIX (by default the configured CMAKE_INSTALL_PREFIX).
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX ${CPACK_PACKAGING_INSTALL_PREFIX})
set(CPACK_SET_DESTDIR ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SKMD_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries the binaries link (libLLVM, libclang-cpp, SQLite,
# libstdc++) from dpkg-shlibdeps; libskmd itself is in the package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What skmd-cc reads or runs rather than links: Clang's resource headers
# (opencl-c-base.h), libclc for PTX, a linker for the x86 variant.
if(SKMD_BUILD_COMPILER)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libclang-common-${LLVM_VERSION_MAJOR}-dev, libclc-${LLVM_VERSION_MAJOR}, binutils | lld-${LLVM_VERSION_MAJOR} | lld")
endif()
# The ICD loader for the OpenCL platform; CUDA's libdevice for PTX variants
# and the driver for GPUs come from NVIDIA.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ocl-icd-libopencl1")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit, opencl-icd")
# /etc/OpenCL/vendors/skmd.icd is a configuration file.
file(WRITE ${PROJECT_BINARY_DIR}/cmake/deb/conffiles
     "/${CMAKE_INSTALL_SYSCONFDIR}/OpenCL/vendors/skmd.icd\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/cmake/deb/conffiles)
# The packages land in the build folder's packages/.
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

include(CPack)
