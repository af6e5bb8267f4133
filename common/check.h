/* check.h - element-by-element comparison with the cuBLAS reference. */
#ifndef CHECK_H
#define CHECK_H

#include <stddef.h>

/* The error allowed for one element. Both our result and the reference are FP32
 * sums of K products, each within K*u*(|alpha| sum|a||b|) + ... of the exact value
 * (u = 2^-24), so two of them differ by at most about 2(K+2)u times the magnitudes
 * involved. abs_ab is sum_k |a_ik||b_kj|; c0 is C's value on entry. */
double error_bound(int k, float alpha, float beta, float abs_ab, float c0);

typedef struct {
    int pass;              /* 1 when every element is within its bound, or non-finite as cuBLAS's is */
    size_t n_bad;          /* elements outside their bound, or not finite where cuBLAS's is */
    size_t n_nonfinite;    /* elements where the reference is NaN or Inf (NaN or Inf in the inputs) */
    double worst_ratio;    /* max |c - ref| / bound (infinity for a NaN/Inf or an exact miss) */
    size_t worst_index;    /* where the worst one is (row-major index) */
    float worst_value, worst_ref;
} check_result;

/* Compares c with ref, count elements. With exact != 0 (small-integer inputs,
 * where FP32 arithmetic is exact) any difference fails. c0 may be NULL when beta == 0.
 * Where ref is finite, c must be finite and within the bound; where ref is NaN, c must
 * be NaN; where ref is +Inf or -Inf, c must be the same infinity. */
check_result check_against_reference(const float *c, const float *ref, const float *abs_ab,
                                     const float *c0, size_t count, int k, float alpha,
                                     float beta, int exact);

/* 1 when integer inputs in {-2..2} with these alpha, beta and K give results
 * that FP32 represents exactly, so equality can be demanded. */
int integer_inputs_are_exact(int k, float alpha, float beta);

#endif
