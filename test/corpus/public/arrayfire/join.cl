// corpus-source: github.com/arrayfire/arrayfire/blob/09753b766fd8740203dc7cf5fbc0b65abb683dcf/src/backend/opencl/kernel/join.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DT=float -Ddim_t=long '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: join_kernel --global=128,64 --local=32,8 --arg=16384:zero --arg=256,64,1,1,1,256,16384,16384,0 --arg=8192 --arg=128,64,1,1,1,128,8192,8192,0 --arg=128 --arg=0 --arg=0 --arg=0 --arg=4 --arg=8
// corpus-note: KParam as in iota.cl; copies a 128x64 array into the right half of a 256x64 one
/*******************************************************
 * Copyright (c) 2014, ArrayFire
 * All rights reserved.
 *
 * This file is distributed under 3-clause BSD license.
 * The complete license agreement can be obtained at:
 * http://arrayfire.com/licenses/BSD-3-Clause
 ********************************************************/

kernel void join_kernel(global T *d_out, const KParam out, global const T *d_in,
                        const KParam in, const int o0, const int o1,
                        const int o2, const int o3, const int blocksPerMatX,
                        const int blocksPerMatY) {
    const int iz = get_group_id(0) / blocksPerMatX;
    const int iw = get_group_id(1) / blocksPerMatY;

    const int blockIdx_x = get_group_id(0) - iz * blocksPerMatX;
    const int blockIdx_y = get_group_id(1) - iw * blocksPerMatY;

    const int xx = get_local_id(0) + blockIdx_x * get_local_size(0);
    const int yy = get_local_id(1) + blockIdx_y * get_local_size(1);

    const int incy = blocksPerMatY * get_local_size(1);
    const int incx = blocksPerMatX * get_local_size(0);

    d_in = d_in + in.offset;

    if (iz < in.dims[2] && iw < in.dims[3]) {
        d_out = d_out + (iz + o2) * out.strides[2] + (iw + o3) * out.strides[3];
        d_in  = d_in + iz * in.strides[2] + iw * in.strides[3];

        for (int iy = yy; iy < in.dims[1]; iy += incy) {
            global T *d_in_  = d_in + iy * in.strides[1];
            global T *d_out_ = d_out + (iy + o1) * out.strides[1];

            for (int ix = xx; ix < in.dims[0]; ix += incx) {
                d_out_[ix + o0] = d_in_[ix];
            }
        }
    }
}
