// corpus-source: github.com/JuliaParallel/rodinia/blob/0f47cfc2f35034405973703fbb6d2c77a25439c0/opencl/kmeans/kmeans.cl (BSD-3-Clause-like (University of Virginia), see LICENSE)
// corpus-run: kmeans_kernel_c --global=8192 --local=256 --arg=8192*8 --arg=5*8 --arg=8192:zero --arg=8192 --arg=5 --arg=8 --arg=0 --arg=0
// corpus-run: kmeans_swap --global=8192 --local=256 --arg=8192*8 --arg=8192*8:zero --arg=8192 --arg=8
#ifndef FLT_MAX
#define FLT_MAX 3.40282347e+38
#endif

__kernel void kmeans_kernel_c(__global float *feature, __global float *clusters,
                              __global int *membership, int npoints,
                              int nclusters, int nfeatures, int offset,
                              int size) {
    unsigned int point_id = get_global_id(0);
    int index = 0;
    // const unsigned int point_id = get_global_id(0);
    if (point_id < npoints) {
        float min_dist = FLT_MAX;
        for (int i = 0; i < nclusters; i++) {

            float dist = 0;
            float ans = 0;
            for (int l = 0; l < nfeatures; l++) {
                ans += (feature[l * npoints + point_id] -
                        clusters[i * nfeatures + l]) *
                       (feature[l * npoints + point_id] -
                        clusters[i * nfeatures + l]);
            }

            dist = ans;
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
        // printf("%d\n", index);
        membership[point_id] = index;
    }

    return;
}

__kernel void kmeans_swap(__global float *feature, __global float *feature_swap,
                          int npoints, int nfeatures) {

    unsigned int tid = get_global_id(0);
    for (int i = 0; i < nfeatures; i++)
        feature_swap[i * npoints + tid] = feature[tid * nfeatures + i];
}
