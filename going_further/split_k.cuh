// split_k.cuh - going further, 2: split-K over a thread-block cluster, where even small tiles
// leave SMs idle. SPLIT blocks of one cluster share a tile's k-tiles (sgemm_warp_tiles) and add
// their partial tiles up through distributed shared memory: no second kernel, no workspace.
// Its chapter: 2_split_k.md.
//   ./further 512 --part split-k
#include <cooperative_groups.h>
#include <type_traits>

namespace cg = cooperative_groups;

// One launch with attributes (cudaLaunchKernelEx): a cluster, or K in parts' early launch
// (stream_k.cuh); a refused cluster is named. The caller asks for shared memory past 48 KiB.
template <int ATTRS, typename... Params, typename... Args>
static cudaError_t launch_kernel_with(cudaLaunchAttribute (&attrs)[ATTRS], void (*kernel)(Params...),
                                      long long blocks, int threads, size_t smem, cudaStream_t stream, Args... args)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = attrs;
    config.numAttrs = ATTRS;
    cudaError_t err = cudaLaunchKernelEx(&config, kernel, args...);
    if (err != cudaSuccess && attrs[0].id == cudaLaunchAttributeClusterDimension)
        harness_explain_cluster((const void *)kernel, &config, (int)attrs[0].val.clusterDim.x, err);
    return err != cudaSuccess ? err : cudaGetLastError();
}

// Split-K's epilogue: each block writes its partial tile into its own shared memory; after a
// cluster barrier, block `rank` adds up rows rank * BM / SPLIT on of all SPLIT partials, in
// rank order (the same bits every launch), and writes them to C.
template <typename CFG, int SPLIT, bool VEC>
__device__ __forceinline__ void reduce_split(const float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off,
                                             int b_off, int m, int n, float alpha, float beta, float *c, int tile_row,
                                             int tile_col)
{
#if __CUDA_ARCH__ >= 900
    constexpr int BN = CFG::BN, ROWS = CFG::BM / SPLIT;
    // 64 x 128 stores its partial tile a float at a time, column 4j + q in plane q at j: float4
    // stores bound its accumulators to register quads, and its main loop met bank conflicts.
    // 64 x 64, whose shares of K are short, keeps the float4s' fewer loads.
    constexpr bool PLANES = std::is_same<CFG, warp_mid>::value;
    // element (row, col) of the partial tile: in its plane, or in place
    auto at = [](int row, int col) {
        return PLANES ? col % 4 * (CFG::BM * BN / 4) + row * (BN / 4) + col / 4 : row * BN + col;
    };
    static_assert(CFG::BM % SPLIT == 0 && (ROWS * BN / 4) % CFG::THREADS == 0,
                  "each block adds up whole rows, every thread the same share");
    cg::cluster_group cluster = cg::this_cluster();
    int rank = (int)cluster.block_rank();   // = blockIdx.x % SPLIT
    __syncthreads();   // the stages are read no more: the partial tile goes over them
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
#pragma unroll
        for (int j4 = 0; j4 < CFG::TN / 4; j4++) {
            int row = a_off + (i / 4) * CFG::STRIDE_M + i % 4, col = b_off + j4 * CFG::STRIDE_N;
            if constexpr (PLANES) {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    smem[at(row, col + q)] = acc[i][4 * j4 + q];
            } else {
                *reinterpret_cast<float4 *>(&smem[at(row, col)]) =
                    make_float4(acc[i][4 * j4], acc[i][4 * j4 + 1], acc[i][4 * j4 + 2], acc[i][4 * j4 + 3]);
            }
        }
    cluster.sync();
    constexpr int EACH = ROWS * BN / 4 / CFG::THREADS;   // float4s of C a thread adds up
    float sum[EACH][4];
#pragma unroll
    for (int t = 0; t < EACH; t++) {
        int e = threadIdx.x + t * CFG::THREADS, row = rank * ROWS + e / (BN / 4), col = e % (BN / 4) * 4;
#pragma unroll
        for (int s = 0; s < SPLIT; s++) {   // rank order
            float part[4];
            if constexpr (PLANES) {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    part[q] = *cluster.map_shared_rank(&smem[at(row, col + q)], s);
            } else {
                float4 p4 = *reinterpret_cast<const float4 *>(cluster.map_shared_rank(&smem[at(row, col)], s));
                part[0] = p4.x; part[1] = p4.y; part[2] = p4.z; part[3] = p4.w;
            }
#pragma unroll
            for (int q = 0; q < 4; q++)
                sum[t][q] = s == 0 ? part[q] : sum[t][q] + part[q];
        }
    }
    // Read all it needs of the others' memory (the sums hold it): this block says so,
    // stores its rows of C and waits only before it exits. Relaxed: since the last barrier
    // it wrote nothing the others read, and a release would first wait for all its memory
    // accesses (sm_90: MEMBAR.ALL.GPU, ERRBAR).
    __cluster_barrier_arrive_relaxed();
#pragma unroll
    for (int t = 0; t < EACH; t++) {
        int e = threadIdx.x + t * CFG::THREADS;
        int row = tile_row + rank * ROWS + e / (BN / 4), col = tile_col + e % (BN / 4) * 4;
        float v[4] = {alpha * sum[t][0], alpha * sum[t][1], alpha * sum[t][2], alpha * sum[t][3]};
        if (row < m)
            store_c4<VEC>(c + (size_t)row * n + col, v, col, n, beta);
    }
    __cluster_barrier_wait();   // this block's memory stays until every block has read it
#else
    __trap();   // the plan splits K only where the kernels were built for sm_90 or newer
#endif
}

// K shared by the SPLIT blocks of one cluster (sgemm_warp_tiles' SHARE).
template <int SPLIT_>
struct k_split {
    static constexpr int SPLIT = SPLIT_;
    template <typename CFG, int PIECE>
    __device__ static void finish(float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off, int b_off, int m, int n,
                                  float alpha, float beta, float *c, int tile_row, int tile_col)
    {
        reduce_split<CFG, SPLIT, PIECE == 4>(acc, smem, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
    }
    // SPLIT blocks a tile, launched as one cluster. The "load balancing" placement fits more
    // clusters at once than the default "spread": the blocks of a launch run as one wave.
    template <typename... Params, typename... Args>
    static cudaError_t launch(void (*kernel)(Params...), long long blocks, int threads, size_t smem,
                              cudaStream_t stream, Args... args)
    {
        cudaError_t err = harness_ask_smem((const void *)kernel, smem);
        if (err != cudaSuccess)
            return err;
        cudaLaunchAttribute cluster[2];
        cluster[0].id = cudaLaunchAttributeClusterDimension;
        cluster[0].val.clusterDim.x = SPLIT;
        cluster[0].val.clusterDim.y = 1;
        cluster[0].val.clusterDim.z = 1;
        cluster[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
        cluster[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicyLoadBalancing;
        return launch_kernel_with(cluster, kernel, blocks, threads, smem, stream, args...);
    }
};
