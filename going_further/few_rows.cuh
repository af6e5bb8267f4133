// few_rows.cuh - small and skinny shapes, 3: C of a few rows (M of FEW_MAX_M or less), where the
// time is reading B once, in one launch: K in parts is added up by each column's last block.
// Its chapter: 5_small_shapes.md.
//   ./further 2 18 11999

// A warp's M x 4 sums a thread meet across its 32 / lanes rows of B in LEVELS levels of shuffles
// (widths 16, 8, ... lanes). While a lane holds an even count, a level halves it (the lower lane
// keeps the first half): 2M + M + ... shuffles, not 4M a level. Each sum ends at one lane, which
// writes it to `out`: its cell (row of A, float4 of the lane's columns), a float.
template <int LEVEL, int LEVELS, int HELD, int M>   // HELD: sums first ... first + HELD - 1 of the 4M
__device__ __forceinline__ void meet_in_warp(float (&acc)[M][4], int lane, int lanes, int first, bool writes, float *out)
{
    if constexpr (LEVEL == LEVELS) {
        if (writes)
#pragma unroll
            for (int t = 0; t < HELD; t++) {
                int q = first + t;
                out[(q / 4 * lanes + lane % lanes) * 4 + q % 4] = acc[t / 4][t % 4];
            }
    } else {
        constexpr int WIDTH = 16 >> LEVEL, H = HELD % 2 == 0 ? HELD / 2 : HELD;
        bool upper = lane & WIDTH;
#pragma unroll
        for (int t = 0; t < H; t++) {
            if constexpr (H < HELD) {
                float give = upper ? acc[t / 4][t % 4] : acc[(t + H) / 4][(t + H) % 4];
                float keep = upper ? acc[(t + H) / 4][(t + H) % 4] : acc[t / 4][t % 4];
                acc[t / 4][t % 4] = keep + __shfl_xor_sync(0xffffffffu, give, WIDTH);
            } else {
                acc[t / 4][t % 4] += __shfl_xor_sync(0xffffffffu, acc[t / 4][t % 4], WIDTH);
            }
        }
        meet_in_warp<LEVEL + 1, LEVELS, H>(acc, lane, lanes, H < HELD && upper ? first + H : first,
                                           writes && (H < HELD || !upper), out);
    }
}

// A block: `lanes` float4s of B's rows and a part of K, its threads taking rows of B in turn, each
// float4 times the matching float of every row of A. A column's sums meet by shuffles, across the
// warps in shared memory, and across the parts in the workspace, where the last block adds them
// up in part order (the same bits every launch). A kernel for each M: its rows written out.
template <int M, bool VEC>
__global__ void __launch_bounds__(FEW_THREADS(M), FEW_MIN_BLOCKS(M))
sgemm_few_rows(int n, int k, float alpha, const float *a, const float *b, float beta, float *c, int lanes, int parts,
               float4 *slots, int *arrived)
{
    constexpr int THREADS = FEW_THREADS(M);
    __shared__ float4 sums[THREADS / 32][FEW_CELLS];   // each warp's M x lanes, then the parts'
    static_assert(sizeof sums == FEW_SMEM_BYTES(M) && sizeof sums >= THREADS * sizeof(float4), "plan.h");
    int cols = blockIdx.x / parts, part = blockIdx.x % parts, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int col = (cols * lanes + threadIdx.x % lanes) * 4;   // the block's columns: its `cols`th 4 x lanes
    int k0 = (int)((long long)part * k / parts), k1 = (int)((long long)(part + 1) * k / parts);
    float acc[M][4] = {};
    // The thread's rows of B, R (FEW_IN_FLIGHT) at a time, every load written out before the FMAs
    // (left to the compiler, or counted in trips, a load waited behind the FMAs before it).
    // B's columns past N are not read (clamped loads need an address each, and spilled).
    int first = k0 + threadIdx.x / lanes, step = THREADS / lanes;
    int end = col < n ? k1 : first;   // a thread past N has no rows
    auto row_of_b = [&](int kk) {   // B streamed: each float is read once
        const float *row = b + (size_t)kk * n + col;
        return VEC ? __ldcs(reinterpret_cast<const float4 *>(row))
                   : make_float4(__ldcs(row), col + 1 < n ? __ldcs(row + 1) : 0.0f, col + 2 < n ? __ldcs(row + 2) : 0.0f,
                                 col + 3 < n ? __ldcs(row + 3) : 0.0f);   // past N: 0, not read
    };
    constexpr int R = FEW_IN_FLIGHT(M);
#pragma unroll 1   // R rows a trip, no more (above)
    for (int kk = first; kk < end; kk += R * step) {   // R rows of B in flight, then their FMAs
        float4 y[R];
        float x[R][M];
        bool in[R];   // row h of the trip is one of the thread's (row 0 always is)
#pragma unroll
        for (int h = 0; h < R; h++) {
            in[h] = h == 0 || kk + h * step < end;
            y[h] = in[h] ? row_of_b(kk + h * step) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int i = 0; i < M; i++)
#pragma unroll
            for (int h = 0; h < R; h++)
                x[h][i] = in[h] ? __ldg(a + (size_t)i * k + kk + h * step) : 0.0f;
#pragma unroll
        for (int h = 0; h < R; h++)
#pragma unroll
            for (int i = 0; i < M; i++) {
                acc[i][0] += x[h][i] * y[h].x;
                acc[i][1] += x[h][i] * y[h].y;
                acc[i][2] += x[h][i] * y[h].z;
                acc[i][3] += x[h][i] * y[h].w;
            }
    }
    // The warp's rows of B meet by shuffles, halving what each lane holds (above); its sums
    // go to shared memory, a cell (row of A, float4 of columns) at a time.
    float *warp_sums = reinterpret_cast<float *>(sums[warp]);
    switch (lanes) {   // the levels: 32 / lanes rows of B at a time
    case 32: meet_in_warp<0, 0, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 16: meet_in_warp<0, 1, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 8: meet_in_warp<0, 2, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 4: meet_in_warp<0, 3, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 2: meet_in_warp<0, 4, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    default: meet_in_warp<0, 5, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    }
    __syncthreads();
    // Thread e < M x lanes: row e / lanes, its float4 of columns e % lanes; the warps in order.
    int e = threadIdx.x, cells = M * lanes;
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int w = 0; e < cells && w < THREADS / 32; w++) {
        float4 x = sums[w][e];
        v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
    }
    if (parts > 1) {   // a slot for each part; the last block to finish adds them up
        if (e < cells)
            slots[(size_t)blockIdx.x * cells + e] = v;
        if (!last_to_arrive(arrived, cols, parts))   // stream_k.cuh
            return;
        // Every thread: cell e % cells of parts g, g + groups, ... in order; then the groups.
        int groups = THREADS / cells, g = threadIdx.x / cells;
        float4 *group_sums = &sums[0][0];
        if (g < groups) {
            const float4 *slot = slots + (size_t)cols * parts * cells + threadIdx.x % cells;
            v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 8
            for (int p = g; p < parts; p += groups) {
                float4 x = __ldcg(slot + (size_t)p * cells);
                v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
            }
            group_sums[threadIdx.x] = v;
        }
        __syncthreads();
        v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int h = 0; e < cells && h < min(groups, parts); h++) {   // the groups that took parts
            float4 x = group_sums[h * cells + e];
            v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
        }
    }
    col = (cols * lanes + e % lanes) * 4;
    if (e < cells && col < n) {
        float out[4] = {alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w};
        store_c4<VEC>(c + (size_t)(e / lanes) * n + col, out, col, n, beta);
    }
}

// One launch of the kernel for this M: a slot of M x lanes float4s a block and a count a column
// of blocks, in the harness's workspace and counts (allocated once; each count back to 0 by its last).
template <int M = 1>
static cudaError_t launch_few_rows(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    if constexpr (M < FEW_MAX_M)
        if (g->m > M)
            return launch_few_rows<M + 1>(g, p, stream);
    cudaError_t err = cudaSuccess;
    float4 *slots = p.parts > 1 ? (float4 *)harness_workspace(p.workspace_bytes, &err) : NULL;
    int *arrived = p.parts > 1 && err == cudaSuccess ? harness_counts(p.counts, &err) : NULL;
    if (err != cudaSuccess)
        return err;
    auto kernel = p.vec == 16 ? sgemm_few_rows<M, true> : sgemm_few_rows<M, false>;
    return launch_kernel(kernel, p.blocks, FEW_THREADS(M), 0, stream, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c,
                         p.lanes, p.parts, slots, arrived);
}
