#!/usr/bin/env bash
# On the GPU host: the benchmark-shaped programs through the AddressSanitizer
# + UBSan build of the platform and runtime (asan-lib/: libskmd.so and
# libSKMD_OpenCL.so of a -DSKMD_SANITIZE=address,undefined build, with
# Debian's libasan.so.8 and libubsan.so.1), libasan preloaded into the
# programs (built without it), on cuda, cpu,cuda and the default device
# list (every device: SKMD_DEVICES unset). Run from the folder
# bench/package-programs-for-gpu-host.sh makes, with asan-lib/ added.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# Carried packed (the device tool carries 64 MiB in all).
[ -d "$here/asan-lib" ] || tar xJf "$here/asan-lib.tar.xz" -C "$here"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/asan-logs" "$here/vendors-asan"
echo "$here/asan-lib/libSKMD_OpenCL.so" > "$here/vendors-asan/skmd.icd"
export LD_LIBRARY_PATH=$here/icd:$here/asan-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_VENDORS=$here/vendors-asan SKMD_CACHE=$here/cache OCL_PROGRAMS_DIR=$here/programs
# CUDA needs the shadow gap; leaks of the driver's own at exit are not ours.
export ASAN_OPTIONS=protect_shadow_gap=0:verify_asan_link_order=0:detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1
progs=$(cd "$here/programs" && ls | grep -v '\.cl$')
for l in cuda cpu,cuda default; do
  pass=0 fail=0 findings=0
  for p in $progs; do
    log=$OUT/asan-logs/$p.${l//,/+}.txt
    if [ $l = default ]; then unset SKMD_DEVICES; else export SKMD_DEVICES=$l; fi
    OCL_PLATFORM=SKMD LD_PRELOAD=$here/asan-lib/libasan.so.8 \
      timeout 300 "$here/programs/$p" > "$log" 2>&1
    rc=$?
    if grep -q "AddressSanitizer\|runtime error:\|LeakSanitizer" "$log"; then
      findings=$((findings + 1)); echo "FINDING $p on $l"; grep -m3 "ERROR\|runtime error" "$log"
    fi
    if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "not passed: $p on $l (exit $rc)"; fi
  done
  echo "asan $l: $pass passed, $fail not, $findings with a sanitizer finding"
done
