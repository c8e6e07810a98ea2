// corpus-source: github.com/arrayfire/arrayfire/blob/59a6a8ddbd6f67e993ca0b3b9a1096a8730fbe9f/src/backend/opencl/kernel/identity.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DT=float -Ddim_t=long -DONE=1.0f -DZERO=0.0f '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: identity_kernel --global=128,128 --local=16,16 --arg=16384 --arg=128,128,1,1,1,128,16384,16384,0 --arg=8 --arg=8
// corpus-note: KParam as in iota.cl (ArrayFire prepends KParam.hpp)
/*******************************************************
 * Copyright (c) 2014, ArrayFire
 * All rights reserved.
 *
 * This file is distributed under 3-clause BSD license.
 * The complete license agreement can be obtained at:
 * http://arrayfire.com/licenses/BSD-3-Clause
 ********************************************************/

__kernel void identity_kernel(__global T *oData, KParam oInfo, int groups_x,
                              int groups_y) {
    unsigned idz = get_group_id(0) / groups_x;
    unsigned idw = get_group_id(1) / groups_y;

    unsigned groupId_x = get_group_id(0) - idz * groups_x;
    unsigned groupId_y = get_group_id(1) - idw * groups_y;

    unsigned idx = get_local_id(0) + groupId_x * get_local_size(0);
    unsigned idy = get_local_id(1) + groupId_y * get_local_size(1);

    if (idx >= oInfo.dims[0] || idy >= oInfo.dims[1] || idz >= oInfo.dims[2] ||
        idw >= oInfo.dims[3])
        return;

    __global T *ptr = oData + idz * oInfo.strides[2] + idw * oInfo.strides[3];
    T val           = (idx == idy) ? ONE : ZERO;
    ptr[idx + idy * oInfo.strides[1]] = val;
}
