// corpus-source: github.com/arrayfire/arrayfire/blob/64788897b51fdf3cffc6501d893d842f6b818e1a/src/backend/opencl/kernel/triangle.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DT=float -Ddim_type=int -Dis_upper=1 -DZERO=0.0f -Ddim_t=long '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: triangle_kernel --global=128,32 --local=32,8 --arg=16384:zero --arg=128,128,1,1,1,128,16384,16384,0 --arg=16384 --arg=128,128,1,1,1,128,16384,16384,0 --arg=4 --arg=4
// corpus-note: KParam as in iota.cl; the upper triangle of a 128x128 matrix
/*******************************************************
 * Copyright (c) 2014, ArrayFire
 * All rights reserved.
 *
 * This file is distributed under 3-clause BSD license.
 * The complete license agreement can be obtained at:
 * http://arrayfire.com/licenses/BSD-3-Clause
 ********************************************************/

__kernel
void triangle_kernel(__global T *rptr, KParam rinfo,
                     const __global T *iptr, KParam iinfo,
                     const dim_type groups_x, const dim_type groups_y)
{
    const dim_type oz = get_group_id(0) / groups_x;
    const dim_type ow = get_group_id(1) / groups_y;

    const dim_type groupId_0 = get_group_id(0) - oz * groups_x;
    const dim_type groupId_1 = get_group_id(1) - ow * groups_y;

    const dim_type xx = get_local_id(0) + groupId_0 * get_local_size(0);
    const dim_type yy = get_local_id(1) + groupId_1 * get_local_size(1);

    const dim_type incy = groups_y * get_local_size(1);
    const dim_type incx = groups_x * get_local_size(0);

    __global T *d_r = rptr;
    const __global T *d_i = iptr;

    if(oz < rinfo.dims[2] && ow < rinfo.dims[3]) {
        d_i = d_i + oz * iinfo.strides[2] + ow * iinfo.strides[3];
        d_r = d_r + oz * rinfo.strides[2] + ow * rinfo.strides[3];

        for (dim_type oy = yy; oy < rinfo.dims[1]; oy += incy) {
            const __global T *Yd_i = d_i + oy * iinfo.strides[1];
            __global T *Yd_r = d_r +  oy * rinfo.strides[1];

            for (dim_type ox = xx; ox < rinfo.dims[0]; ox += incx) {

                if(!is_upper ^ (oy >= ox)) {
                    Yd_r[ox] = Yd_i[ox];
                } else {
                    Yd_r[ox] = ZERO;
                }
            }
        }
    }
}
