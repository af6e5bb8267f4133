// track.cuh - the going-further track (README.md beside this file), one idea a file, each
// building on the ones before and on step6.cu, which includes this file at its end. Its
// launch (launch.cuh) runs the plan of plan.c; --track core hands the problem back to
// step6.cu's own launch.
#include "plan.h"

#include "warp_tiles.cuh"
#include "split_k.cuh"
#include "wide_tiles.cuh"
#include "stream_k.cuh"
#include "matrix_vector.cuh"
#include "launch.cuh"
#include "describe.cuh"
