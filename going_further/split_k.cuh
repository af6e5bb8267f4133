// split_k.cuh - going further, 2: where even small tiles leave SMs idle, split K over a cluster.
//
// A 512 x 512 C has 64 tiles of 64 x 64 for 132 SMs: however fast one block is, most of
// the GPU waits. The work left is along K: SPLIT blocks share a tile, each a share of
// its k-tiles (sgemm_warp_tiles works the share out), launched as one thread-block
// cluster, so they run at the same time on one GPC and read each other's shared memory
// (distributed shared memory, Hopper). Each block writes its partial tile into its own
// shared memory, and block `rank` adds up its rows of all SPLIT partial tiles, in rank
// order (the same order every launch: the same bits), and writes them to C. No second
// kernel, no workspace. The plan (plan.c) picks the tile and SPLIT (README, "Split K").
//   ./further 512 --part split-k
#include <cooperative_groups.h>
#include <type_traits>

namespace cg = cooperative_groups;

// One launch with launch attributes, through cudaLaunchKernelEx: here a cluster; in K in
// parts (stream_k.cuh), a kernel launched early. A refused cluster is named, with what the
// device holds. (Past 48 KiB of shared memory, ask first, as launch_kernel does.)
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

// The epilogue of a split K: every block writes its partial tile into its own shared
// memory; after a cluster-wide barrier, block `rank` adds up rows rank * BM / SPLIT
// onwards of all SPLIT partials, in rank order, and writes them to C. The second barrier
// (arrive once read, wait before exit) keeps each block's shared memory alive until the
// others have read it.
// The 64 x 128 tiles keep their partial tile in four planes, plane q holding column
// 4j + q of each row at j: a thread's four neighbouring accumulators go to four planes,
// a float at a time. Written as one float4 (one row, four columns), they had to sit in
// four consecutive registers, the compiler numbered the main loop's registers otherwise,
// and 4% of its FFMAs read all three operands from one register bank. The 64 x 64 tiles
// keep the float4: they split K where a block's share is short (32 of K a block at 256),
// and there the epilogue's four times as many loads cost more than the loop's conflicts
// (README, "K in parts").
template <typename CFG, int SPLIT, bool VEC>
__device__ __forceinline__ void reduce_split(const float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off,
                                             int b_off, int m, int n, float alpha, float beta, float *c, int tile_row,
                                             int tile_col)
{
#if __CUDA_ARCH__ >= 900
    constexpr int BN = CFG::BN, ROWS = CFG::BM / SPLIT;
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
    // SPLIT blocks a tile, launched as one cluster. The "load balancing" placement fits
    // more clusters at once than the default "spread" (Nsight Compute: 66 clusters of 4
    // large-tile blocks instead of 62, 132 of 4 64 x 128 blocks instead of 124): the blocks
    // of a launch then run as one wave.
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
