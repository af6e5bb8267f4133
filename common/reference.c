/* reference.c - the yardstick: cuBLAS SGEMM on the CUDA cores, in strict FP32. */
#include "reference.h"

#include "device.h"

cublasHandle_t reference_create(cudaStream_t stream)
{
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    /* Pedantic math: FP32 arithmetic only, no tensor-core shortcut and no
     * emulation, whatever the environment asks for. */
    CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
    return handle;
}

void reference_sgemm(cublasHandle_t handle, int m, int n, int k, float alpha, const float *a,
                     const float *b, float beta, float *c)
{
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, n, a, k,
                             &beta, c, n));
}
