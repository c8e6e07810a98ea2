// corpus-source: github.com/arrayfire/arrayfire/blob/09d654d4c4724b44084df052496f240eb3348bbf/src/backend/opencl/kernel/histogram.cl (BSD-3-Clause, see LICENSE)
// corpus-options: -DinType=float -DoutType=uint -Ddim_type=int -Ddim_t=long -DTHRD_LOAD=16 '-DKParam=struct { dim_t dims[4]; dim_t strides[4]; dim_t offset; }'
// corpus-run: histogram --global=1024,1 --local=64,1 --arg=64:zero --arg=64,1,1,1,1,64,64,64,0 --arg=16384 --arg=16384,1,1,1,1,16384,16384,16384,0 --arg=1:iota --arg=256 --arg=16384 --arg=64 --arg=16
// corpus-note: KParam as in iota.cl; 64 bins over [0,1) (d_minmax is iota: 0,1), local atomic_inc then global atomic_add
#if T == double || U == double
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel
void histogram(__global outType *         d_dst,
               KParam                     oInfo,
               __global const inType *    d_src,
               KParam                     iInfo,
               __global const float2 *    d_minmax,
               __local outType *          localMem,
               dim_type len, dim_type nbins, dim_type blk_x)
{
    // offset minmax array to account for batch ops
    __global const float2 * d_mnmx = d_minmax + get_group_id(1);

    // offset input and output to account for batch ops
    __global const inType *in = d_src + get_group_id(1) * iInfo.strides[2] + iInfo.offset;
    __global outType * out    = d_dst + get_group_id(1) * oInfo.strides[2];

    dim_type start = get_group_id(0) * THRD_LOAD * get_local_size(0) + get_local_id(0);
    dim_type end   = min((dim_type)(start + THRD_LOAD * get_local_size(0)), len);

    __local float minval;
    __local float dx;

    if (get_local_id(0) == 0) {
        float2 minmax = *d_mnmx;
        minval = minmax.s0;
        dx     = (minmax.s1-minmax.s0) / (float)nbins;
    }

    for (dim_type i = get_local_id(0); i < nbins; i += get_local_size(0))
        localMem[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int row = start; row < end; row += get_local_size(0)) {
        int bin = (int)(((float)in[row] - minval) / dx);
        bin     = max(bin, 0);
        bin     = min(bin, (int)nbins-1);
        atomic_inc((localMem + bin));
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (dim_type i = get_local_id(0); i < nbins; i += get_local_size(0)) {
        atomic_add((out + i), localMem[i]);
    }
}
