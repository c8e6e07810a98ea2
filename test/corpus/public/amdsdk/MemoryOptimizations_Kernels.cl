// corpus-source: github.com/clockfort/amd-app-sdk-fixes/blob/8334b7ece82081f97945819a28e372c6ae661bb2/samples/opencl/benchmark/MemoryOptimizations/MemoryOptimizations_Kernels.cl (AMD-APP-SDK, see LICENSE)
// corpus-run: copy1DFastPath --global=16384 --local=256 --arg=16384 --arg=16384:zero
// corpus-run: copy1DCompletePath --global=16384 --local=256 --arg=16384 --arg=16384:zero
// corpus-run: copy2Dfloat --global=1024,16 --local=64,4 --arg=1024*16 --arg=1024*16:zero
// corpus-run: copy2Dfloat4 --global=1024,16 --local=64,4 --arg=1024*16 --arg=1024*16:zero
// corpus-run: copy1Dfloat4 --global=16384 --local=256 --arg=16384 --arg=16384:zero
// corpus-run: NoCoal --global=16384 --local=64 --arg=16384 --arg=16384:zero
// corpus-run: Split --global=16384 --local=64 --arg=16384 --arg=16384:zero
// corpus-note: the file carries no licence header of its own; it is part of the AMD APP SDK samples (see LICENSE). Split's even work-items all store to elements 0..62 (equal values), by the sample's design


__kernel void copy1DFastPath(__global float *input, __global float *output)
{
	int gid = get_global_id(0);
	output[gid]=input[gid];
	return;
}

#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable

__kernel void copy1DCompletePath(__global float *input, __global float *output)
{
	int gid = get_global_id(0);
	if(gid < 0)
		atom_add((__global int*)output, 1);
	output[gid]=input[gid];
	return;
}

#define WIDTH 1024
#define DATA_TYPE float
#define A(y,x) A[(y)* WIDTH +(x)]
#define C(y,x) C[(y)* WIDTH +(x)]
__kernel void copy2Dfloat(__global DATA_TYPE *A, __global DATA_TYPE *C)
{
	int idx = get_global_id(0);
	int idy = get_global_id(1);
	C(idy,idx) = A(idy,idx);
}


#define DATA_TYPE float4
__kernel void copy2Dfloat4(__global DATA_TYPE *A, __global DATA_TYPE *C)
{
	int idx = get_global_id(0);
	int idy = get_global_id(1);
	C(idy,idx) = A(idy,idx);
}

__kernel void copy1Dfloat4(__global float4 *input, __global float4 *output)
{
	int gid = get_global_id(0);
	output[gid]=input[gid];
	return;
}

//Shift by 16
__kernel void NoCoal(__global float* input, __global float* output)
{
	int gid = get_global_id(0) - 1;
	if((get_local_id(0) & 0xf) == 0)
		gid += 16;
	output[gid] = input[gid];
}

//Messed up access pattern
__kernel void Split(__global float* input, __global float* output)
{
	int gid = get_global_id(0);
	if((gid & 0x1) == 0)
	{
		gid = (gid & !63) + 62 - get_local_id(0);
	}
	output[gid] = input[gid];
}


