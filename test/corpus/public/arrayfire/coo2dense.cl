// corpus-source: github.com/arrayfire/arrayfire/blob/37590c6a1b1ca7e17ac7f25feed2a94103eae23e/src/backend/opencl/kernel/coo2dense.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DT=float -Dreps=4 -Ddim_t=long '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: coo2Dense --global=1024 --local=64 --arg=4096:zero --arg=4096,1,1,1,1,4096,4096,4096,0 --arg=4096 --arg=4096,1,1,1,1,4096,4096,4096,0 --arg=4096:iota --arg=4096,1,1,1,1,4096,4096,4096,0 --arg=4096:zero --arg=4096,1,1,1,1,4096,4096,4096,0
// corpus-note: KParam as in iota.cl; scatters 4096 values to data-dependent places (row indices iota, column 0, so the places are distinct)
/*******************************************************
 * Copyright (c) 2014, ArrayFire
 * All rights reserved.
 *
 * This file is distributed under 3-clause BSD license.
 * The complete license agreement can be obtained at:
 * http://arrayfire.com/licenses/BSD-3-Clause
 ********************************************************/

kernel void coo2Dense(global T *oPtr, const KParam output, global const T *vPtr,
                      const KParam values, global const int *rPtr,
                      const KParam rowIdx, global const int *cPtr,
                      const KParam colIdx) {
    const int dimSize = get_local_size(0);

    for (int i = get_local_id(0); i < reps * dimSize; i += dimSize) {
        const int id = i + get_group_id(0) * dimSize * reps;
        if (id >= values.dims[0]) return;

        T v   = vPtr[id + values.offset];
        int r = rPtr[id + rowIdx.offset];
        int c = cPtr[id + colIdx.offset];

        int offset = r + c * output.strides[1];

        oPtr[offset] = v;
    }
}
