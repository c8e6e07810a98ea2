// corpus-source: github.com/JuliaParallel/rodinia/blob/0f47cfc2f35034405973703fbb6d2c77a25439c0/opencl/bfs/Kernels.cl (BSD-3-Clause-like (University of Virginia), see LICENSE)
// corpus-run: BFS_1 --global=8192 --local=256 --arg=8192:0..4 --arg=16:0..8191 --arg=8192:0..1 --arg=8192:zero --arg=8192:0..1 --arg=8192:zero --arg=8192
// corpus-run: BFS_2 --global=8192 --local=256 --arg=8192:zero --arg=8192:0..1 --arg=8192:zero --arg=1:zero --arg=8192
// corpus-note: Node.starting and Node.no_of_edges in 0..4, so edges 0..7 of a 16-entry edge list; BFS_1 scatters to neighbours: every frontier node's cost is 0, as in one BFS level, so the nodes that reach one neighbour store the same cost (random costs made it a race); BFS_2 has every group store to the one flag g_over
/* ============================================================
//--cambine: kernel funtion of Breadth-First-Search
//--author:	created by Jianbin Fang
//--date:	06/12/2010
============================================================ */
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
// Structure to hold a node information
typedef struct {
    int starting;
    int no_of_edges;
} Node;
//--7 parameters
__kernel void BFS_1(const __global Node *g_graph_nodes,
                    const __global int *g_graph_edges,
                    __global char *g_graph_mask,
                    __global char *g_updating_graph_mask,
                    __global char *g_graph_visited, __global int *g_cost,
                    const int no_of_nodes) {
    int tid = get_global_id(0);
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting);
             i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

//--5 parameters
__kernel void BFS_2(__global char *g_graph_mask,
                    __global char *g_updating_graph_mask,
                    __global char *g_graph_visited, __global char *g_over,
                    const int no_of_nodes) {
    int tid = get_global_id(0);
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {

        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}
