/* Bitonic sort of uints, one compare-exchange pass per launch (the stage
   and pass are scalar arguments), and a key-value variant that carries
   each key's index along. */
__kernel void bitonic_pass(__global uint *keys, uint stage, uint pass_of_stage,
                           uint ascending) {
  uint i = get_global_id(0);
  uint distance = 1u << (stage - pass_of_stage);
  uint left = (i / distance) * distance * 2 + i % distance;
  uint right = left + distance;
  uint up = ((left >> stage) & 2u) == 0u ? ascending : !ascending;
  uint a = keys[left], b = keys[right];
  if ((a > b) == (up != 0u)) {
    keys[left] = b;
    keys[right] = a;
  }
}

__kernel void bitonic_pass_kv(__global uint *keys, __global uint *values, uint stage,
                              uint pass_of_stage) {
  uint i = get_global_id(0);
  uint distance = 1u << (stage - pass_of_stage);
  uint left = (i / distance) * distance * 2 + i % distance;
  uint right = left + distance;
  uint up = ((left >> stage) & 2u) == 0u;
  uint a = keys[left], b = keys[right];
  if ((a > b) == (up != 0u)) {
    keys[left] = b;
    keys[right] = a;
    uint t = values[left];
    values[left] = values[right];
    values[right] = t;
  }
}

__kernel void iota(__global uint *values) { values[get_global_id(0)] = get_global_id(0); }
