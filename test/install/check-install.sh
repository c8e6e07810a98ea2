#!/usr/bin/env bash
# ctest install-package: SKMD installed into a temporary prefix works without
# the build tree's help, the way a user gets it (docs/install.md):
#   1. cmake --install <build> --prefix <tmp>/prefix; the files are where the
#      docs say, the binaries resolve libskmd from the prefix (RUNPATH, ldd);
#   2. the installed skmd-cc compiles examples/vector_add.cl with the
#      installed x86 builtins, and the installed skmd-run runs it (--check);
#   3. examples/installed-project, configured in a fresh build folder with
#      -DCMAKE_PREFIX_PATH=<prefix>: find_package(SKMD), the bundle by
#      SKMD::skmd-cc, saxpy against SKMD::skmd, saxpy-c from skmd.pc; both run
#      and check their results;
#   4. pkg-config --cflags --libs skmd names the prefix, and a C program
#      built by hand with those flags runs;
#   5. skmd.icd names the installed platform, and (where the build has the
#      test program) an OpenCL program runs on it through the ICD loader.
# Any failure fails the test; the temporary folder goes in every case.
#
# usage: check-install.sh <build dir> <source dir>
set -euo pipefail

build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
export SKMD_DEVICES=${SKMD_DEVICES:-cpu}
# The profile database of this run only, not the user's.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skmd-install-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SKMD_PROFILE_DB=$tmp/profiles.sqlite
prefix=$tmp/prefix

step() { echo "== $*"; }
fail() { echo "install-package: FAIL: $*" >&2; exit 1; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install"; }

# What goes where. The lib/ folder is GNUInstallDirs' CMAKE_INSTALL_LIBDIR
# of the build (lib, or lib/<triple> for the prefix /usr).
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
libdir=${libdir:-lib}
for f in bin/skmd-cc bin/skmd-info bin/skmd-run bin/skmd-prof bin/skmd-server \
         "$libdir/libskmd.so" "$libdir/libSKMD_OpenCL.so" \
         "$libdir/libSKMD_OpenCL_Compiler.so" "$libdir/skmd/SKMDPasses.so" \
         "$libdir/skmd/skmd-builtins-x86.bc" \
         include/skmd/skmd.h include/skmd/skmd.hpp \
         "$libdir/cmake/SKMD/SKMDConfig.cmake" \
         "$libdir/cmake/SKMD/SKMDConfigVersion.cmake" \
         "$libdir/cmake/SKMD/SKMDTargets.cmake" \
         "$libdir/pkgconfig/skmd.pc" etc/OpenCL/vendors/skmd.icd; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
echo "installed: $(cd "$prefix" && find . -type f | wc -l) files"

# The binaries find libskmd in the prefix: RUNPATH $ORIGIN/..., and ldd
# resolves it there (not to the build tree).
mpi=
[ -e "$build/lib/libskmd-mpi.so" ] && mpi="$libdir/libskmd-mpi.so"
[ -z "$mpi" ] || [ -e "$prefix/$mpi" ] || fail "not installed: $mpi"
for f in bin/skmd-cc bin/skmd-info bin/skmd-run bin/skmd-prof bin/skmd-server \
         "$libdir/libskmd.so" "$libdir/libSKMD_OpenCL.so" \
         "$libdir/libSKMD_OpenCL_Compiler.so" $mpi; do
  rp=$(readelf -d "$prefix/$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  # shellcheck disable=SC2016 # a literal $ORIGIN
  case "$rp" in *'$ORIGIN'*) ;; *) fail "$f: RUNPATH '$rp' has no \$ORIGIN" ;; esac
  case "$rp" in *"$build"*) fail "$f: RUNPATH '$rp' names the build tree" ;; esac
  if ldd "$prefix/$f" | grep -q 'not found'; then
    ldd "$prefix/$f"; fail "$f: a library is not found"
  fi
done
for f in bin/skmd-info bin/skmd-run bin/skmd-prof "$libdir/libSKMD_OpenCL.so"; do
  got=$(ldd "$prefix/$f" | awk '$1 == "libskmd.so" { print $3 }')
  [ "$got" -ef "$prefix/$libdir/libskmd.so" ] ||
    fail "$f loads libskmd.so from '$got', not $prefix/$libdir"
done
echo "RUNPATH and ldd: libskmd from $prefix/$libdir"

step "installed skmd-cc and skmd-run on examples/vector_add.cl"
"$prefix/bin/skmd-cc" -v --targets=x86 "$src/examples/vector_add.cl" \
  -o "$tmp/vector_add.skmd" 2> "$tmp/skmd-cc.log" ||
  { cat "$tmp/skmd-cc.log"; fail "installed skmd-cc"; }
# The builtins it linked are the installed ones.
builtins=$(sed -n 's/^x86 builtins: //p' "$tmp/skmd-cc.log")
[ "$builtins" -ef "$prefix/$libdir/skmd/skmd-builtins-x86.bc" ] ||
  fail "installed skmd-cc linked the x86 builtins from '$builtins'"
echo "x86 builtins: $builtins"
"$prefix/bin/skmd-info" "$tmp/vector_add.skmd" > /dev/null
n=100000
"$prefix/bin/skmd-run" "$tmp/vector_add.skmd" vector_add --global=100096 --local=256 \
  --arg=$n --arg=$n --arg=$n:zero --arg=$n --devices=cpu,discrete --plan=even --check |
  tee "$tmp/skmd-run.log"
grep -q 'check: ok' "$tmp/skmd-run.log" || fail "installed skmd-run: no 'check: ok'"

step "examples/installed-project against the prefix"
gen=()
command -v ninja > /dev/null && gen=(-G Ninja)
cmake -S "$src/examples/installed-project" -B "$tmp/example" "${gen[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$tmp/configure.log" ||
  { cat "$tmp/configure.log"; fail "configuring the example"; }
grep 'SKMD .* from' "$tmp/configure.log"
skmd_dir=$(sed -n 's/^SKMD_DIR:[A-Z]*=//p' "$tmp/example/CMakeCache.txt")
[ "$skmd_dir" -ef "$prefix/$libdir/cmake/SKMD" ] ||
  fail "find_package(SKMD) found '$skmd_dir', not the prefix's"
grep -q '^SKMD_PC_FOUND:INTERNAL=1' "$tmp/example/CMakeCache.txt" ||
  fail "the example's pkg_check_modules(skmd) did not find skmd.pc"
cmake --build "$tmp/example" > "$tmp/build.log" ||
  { cat "$tmp/build.log"; fail "building the example"; }
"$tmp/example/saxpy" "$tmp/example/saxpy.skmd" || fail "saxpy (C++, SKMD::skmd)"
SKMD_DEVICES=cpu,discrete,discrete "$tmp/example/saxpy" "$tmp/example/saxpy.skmd" ||
  fail "saxpy over cpu,discrete,discrete"
"$tmp/example/saxpy-c" "$tmp/example/saxpy.skmd" || fail "saxpy-c (C, skmd.pc)"

step "pkg-config --cflags --libs skmd"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# (pkg-config ends its output with a space)
flags=$(pkg-config --cflags --libs skmd | sed 's/ *$//')
echo "$flags"
[ "$flags" = "-I$prefix/include -L$prefix/$libdir -lskmd" ] ||
  fail "pkg-config gives '$flags'"
[ "$(pkg-config --variable=skmd_cc skmd)" = "$prefix/bin/skmd-cc" ] ||
  fail "pkg-config --variable=skmd_cc"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Werror "$src/examples/installed-project/saxpy.c" $flags \
  -Wl,-rpath,"$(pkg-config --variable=libdir skmd)" -o "$tmp/saxpy-c-by-hand"
"$tmp/saxpy-c-by-hand" "$tmp/example/saxpy.skmd" || fail "saxpy-c built by hand"

step "skmd.icd"
icd=$(cat "$prefix/etc/OpenCL/vendors/skmd.icd")
echo "skmd.icd: $icd"
[ "$icd" -ef "$prefix/$libdir/libSKMD_OpenCL.so" ] ||
  fail "skmd.icd names '$icd', not the installed $prefix/$libdir/libSKMD_OpenCL.so"
# A plain OpenCL program through the ICD loader on the installed platform,
# which builds its kernel from source with the installed compiler module.
if [ -x "$build/bin/opencl-vector-add" ]; then
  OCL_ICD_VENDORS=$prefix/etc/OpenCL/vendors OCL_ICD_FILENAMES='' \
    SKMD_DEVICES=cpu,discrete "$build/bin/opencl-vector-add" SKMD ||
    fail "opencl-vector-add on the installed platform"
else
  echo "($build/bin/opencl-vector-add not built: the ICD run is skipped)"
fi

echo "install-package: ok"
