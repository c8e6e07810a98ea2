// corpus-source: github.com/NUCAR-DEV/Hetero-Mark/blob/698c4a73db6c9d71205ef64f4a3031e91a64b86a/src/fir/cl12/kernels.cl (MIT, see LICENSE)
// corpus-run: FIR --global=8192 --local=256 --arg=8192:zero --arg=16 --arg=8207 --arg=16
// corpus-note: the last numTap-1 work-items copy the input tail to its head for the next block; global barriers do not order groups, so that copy races with other groups' reads by design
/*
 * Copyright (c) 2015 Northeastern University
 * All rights reserved.
 *
 * Developed by:Northeastern University Computer Architecture Research (NUCAR)
 * Group, Northeastern University, http://www.ece.neu.edu/groups/nucar/
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 *  with the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense, and/
 * or sell copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 *   Redistributions of source code must retain the above copyright notice, this
 *   list of conditions and the following disclaimers. Redistributions in binary
 *   form must reproduce the above copyright notice, this list of conditions and
 *   the following disclaimers in the documentation and/or other materials
 *   provided with the distribution. Neither the names of NUCAR, Northeastern
 *   University, nor the names of its contributors may be used to endorse or
 *   promote products derived from this Software without specific prior written
 *   permission.
 *
 *   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 *   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 *   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 *   CONTRIBUTORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 *   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 *   FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 *   DEALINGS WITH THE SOFTWARE.
 */

__kernel void FIR(__global float* output, __global float* coeff,
    __global float* temp_input, uint numTap) {
  uint tid = get_global_id(0);
  uint numData = get_global_size(0);
  uint xid = tid + numTap - 1;

  float sum = 0;
  uint i = 0;
  for (i = 0; i < numTap; i++) {
    sum = sum + coeff[i] * temp_input[xid - i];
  }
  output[tid] = sum;

  barrier(CLK_GLOBAL_MEM_FENCE);

  /* fill the history buffer */
  if (tid >= numData - numTap + 1)
    temp_input[tid - (numData - numTap + 1)] = temp_input[xid];

  barrier(CLK_GLOBAL_MEM_FENCE);
}
