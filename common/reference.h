/* reference.h - cuBLAS in strict FP32, for row-major matrices. */
#ifndef REFERENCE_H
#define REFERENCE_H

#include <cublas_v2.h>

/* A handle on `stream` whose math mode is set explicitly so that SGEMM never
 * uses TF32 tensor cores or any other reduced-precision path. */
cublasHandle_t reference_create(cudaStream_t stream);

/* Row-major C = alpha*A*B + beta*C. cuBLAS is column-major, and a row-major
 * matrix is the column-major view of its transpose, so we ask cuBLAS for
 * C^T = B^T * A^T: the same call with A and B swapped and M and N swapped. */
void reference_sgemm(cublasHandle_t handle, int m, int n, int k, float alpha, const float *a,
                     const float *b, float beta, float *c);

#endif
