// corpus-targets: x86
// 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics)
// on __global and __local longs. x86 only until skmd-cc builds them for the
// other targets: for PTX Clang's NVPTX target does not support the
// extensions ("call to 'atom_add' is ambiguous"), and for SPIR-V the
// validator rejects the Int64Atomics capability under its OpenCL 2.2 rules.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// acc: [0] sum of squares, [1] count, [2] minimum, [3] maximum, [4] sum of
// the values times 2^20 by compare-and-swap, [5] sum of the per-group
// sums, [6] and of the values, [7] or, [8] xor, [9] 1000 - count.
// pool: atom_xchg tokens, as in xchg_pool (atomics.cl).
__kernel void atomics64(__global const long *v, __global long *acc,
                        __global long *pool, __local long *lsum) {
  size_t i = get_global_id(0);
  long x = v[i];
  if (get_local_id(0) == 0)
    lsum[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&lsum[0], x);
  atom_add(&acc[0], x * x);
  atom_inc(&acc[1]);
  atom_min(&acc[2], x);
  atom_max(&acc[3], x);
  long old = 0, seen;
  while ((seen = atom_cmpxchg(&acc[4], old, old + x * 1048576)) != old)
    old = seen;
  atom_and(&acc[6], x);
  atom_or(&acc[7], x);
  atom_xor(&acc[8], x);
  atom_dec(&acc[9]);
  pool[1 + i] = atom_xchg(&pool[0], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atom_add(&acc[5], lsum[0]);
}
