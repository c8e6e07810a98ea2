// corpus-source: github.com/arrayfire/arrayfire/blob/09753b766fd8740203dc7cf5fbc0b65abb683dcf/src/backend/opencl/kernel/reorder.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DT=float -Ddim_t=long '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: reorder_kernel --global=64,128 --local=32,8 --arg=8192:zero --arg=8192 --arg=64,128,1,1,1,64,8192,8192,0 --arg=128,64,1,1,1,128,8192,8192,0 --arg=1 --arg=0 --arg=2 --arg=3 --arg=2 --arg=16
// corpus-note: KParam as in iota.cl; a transpose of 128x64 (reorder 1,0,2,3)
/*******************************************************
 * Copyright (c) 2014, ArrayFire
 * All rights reserved.
 *
 * This file is distributed under 3-clause BSD license.
 * The complete license agreement can be obtained at:
 * http://arrayfire.com/licenses/BSD-3-Clause
 ********************************************************/

kernel void reorder_kernel(global T *out, __global const T *in,
                             const KParam op, const KParam ip, const int d0,
                             const int d1, const int d2, const int d3,
                             const int blocksPerMatX, const int blocksPerMatY) {
    const int oz = get_group_id(0) / blocksPerMatX;
    const int ow = get_group_id(1) / blocksPerMatY;

    const int blockIdx_x = get_group_id(0) - oz * blocksPerMatX;
    const int blockIdx_y = get_group_id(1) - ow * blocksPerMatY;

    const int xx = get_local_id(0) + blockIdx_x * get_local_size(0);
    const int yy = get_local_id(1) + blockIdx_y * get_local_size(1);

    if (xx >= op.dims[0] || yy >= op.dims[1] || oz >= op.dims[2] ||
        ow >= op.dims[3])
        return;

    const int incy = blocksPerMatY * get_local_size(1);
    const int incx = blocksPerMatX * get_local_size(0);

    const int o_off   = ow * op.strides[3] + oz * op.strides[2];
    const int rdims[] = {d0, d1, d2, d3};
    int ods[]         = {xx, yy, oz, ow};
    int ids[4]        = {0};

    ids[rdims[3]] = ow;
    ids[rdims[2]] = oz;

    for (int oy = yy; oy < op.dims[1]; oy += incy) {
        ids[rdims[1]] = oy;
        for (int ox = xx; ox < op.dims[0]; ox += incx) {
            ids[rdims[0]] = ox;

            const int oIdx = o_off + oy * op.strides[1] + ox;

            const int iIdx = ids[3] * ip.strides[3] + ids[2] * ip.strides[2] +
                             ids[1] * ip.strides[1] + ids[0];

            out[oIdx] = in[ip.offset + iIdx];
        }
    }
}
