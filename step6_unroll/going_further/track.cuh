// track.cuh - the going-further track (README.md beside this file), one idea a file, each
// building on the ones before and on step6.cu, which includes this file at its end. Its
// launch (launch.cuh) runs the plan of plan.c; --track core hands the problem back to
// step6.cu's own launch.
#include "plan.h"

// Any kernel of the track with its grid and arguments: past 48 KiB of shared memory a
// kernel must ask for it first (the harness checks the device's limit); then one launch.
template <typename... Params, typename... Args>
static cudaError_t launch_kernel(void (*kernel)(Params...), long long blocks, int threads, size_t smem,
                                 cudaStream_t stream, Args... args)
{
    cudaError_t err = harness_ask_smem((const void *)kernel, smem);
    if (err != cudaSuccess)
        return err;
    kernel<<<(unsigned)blocks, threads, smem, stream>>>(args...);
    return cudaGetLastError();
}

#include "warp_tiles.cuh"
#include "split_k.cuh"
#include "wide_tiles.cuh"
#include "stream_k.cuh"
#include "matrix_vector.cuh"
#include "launch.cuh"
#include "describe.cuh"
