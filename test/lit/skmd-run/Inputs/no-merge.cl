// Kernels whose merge kernel cannot be built: their stores depend on
// values read from their own output.

// Each work-item tests and clears its own element: the pieces' writes do
// not meet, so no merge is needed and the kernel splits.
__kernel void clear_set(__global char *m) {
  int i = get_global_id(0);
  if (m[i])
    m[i] = 0;
}

// Every group may set one shared flag to 1: the pieces' writes meet, but
// a flag set to one constant combines (partition.combined, assign).
__kernel void clear_and_flag(__global char *m, __global char *flag) {
  int i = get_global_id(0);
  if (m[i]) {
    m[i] = 0;
    *flag = 1;
  }
}

// Every group may store a scalar argument's value in one place: the
// pieces' writes meet, and without a merge kernel the split is refused at
// launch.
__kernel void clear_and_mark(__global char *m, __global char *flag, char mark) {
  int i = get_global_id(0);
  if (m[i]) {
    m[i] = 0;
    *flag = mark;
  }
}
