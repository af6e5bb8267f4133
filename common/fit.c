/* fit.c - blocks per SM and stages from a GPU's limits (fit.h). The rules are those of
 * the CUDA Programming Guide's occupancy discussion: registers are given out a warp at a
 * time in units of 256, shared memory a block at a time with the system's reserve added. */
#include "fit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fit_bounded_regs(int regs_sm, int threads, int min_blocks)
{
    if (threads <= 0 || min_blocks <= 0)
        return 0;
    int regs = regs_sm / (threads * min_blocks) / 8 * 8;
    return regs > 255 ? 255 : regs;
}

int fit_blocks_per_sm(const gpu_limits *gpu, const block_need *need, const char **limit)
{
    const char *why = "block slots";
    int blocks = gpu->blocks_sm;
    if (need->threads <= 0 || need->smem > (size_t)gpu->smem_block) {
        if (limit)
            *limit = need->threads <= 0 ? "threads" : "shared memory";
        return 0;
    }
    int by_threads = gpu->threads_sm / need->threads;
    if (by_threads < blocks) {
        blocks = by_threads;
        why = "threads";
    }
    int warps = (need->threads + 31) / 32;
    long long regs_warp = ((long long)need->regs * 32 + 255) / 256 * 256;
    int by_regs = regs_warp > 0 ? (int)(gpu->regs_sm / (regs_warp * warps)) : INT_MAX;
    if (by_regs < blocks) {
        blocks = by_regs;
        why = "registers";
    }
    size_t per_block = need->smem + (size_t)gpu->smem_reserved;
    int by_smem = (int)((size_t)gpu->smem_sm / per_block);
    if (by_smem < blocks) {
        blocks = by_smem;
        why = "shared memory";
    }
    if (limit)
        *limit = why;
    return blocks;
}

int fit_stages(const gpu_limits *gpu, size_t fixed, size_t per_stage, int asked)
{
    int stages = asked;
    while (stages > 0 && fixed + (size_t)stages * per_stage > (size_t)gpu->smem_block)
        stages--;
    return stages;
}

tile_plan fit_tiles(int m, int n, int stages, const tile_option options[2], int regs, const gpu_limits *gpu)
{
    tile_plan p = {0};
    const tile_option *o = &options[0];
    long long tiles = (long long)((m + o->bm - 1) / o->bm) * ((n + o->bn - 1) / o->bn);
    if (tiles < gpu->sms) {
        p.tile = 1;
        o = &options[1];
        tiles = (long long)((m + o->bm - 1) / o->bm) * ((n + o->bn - 1) / o->bn);
    }
    p.blocks = tiles;
    p.stages = stages > 0 ? fit_stages(gpu, o->smem, o->smem_stage, stages) : 0;
    p.smem_dynamic = (size_t)p.stages * o->smem_stage;
    block_need need = {o->threads, regs > 0 ? regs : fit_bounded_regs(gpu->regs_sm, o->threads, o->min_blocks),
                       o->smem + p.smem_dynamic};
    p.blocks_per_sm = stages > 0 && p.stages == 0 ? 0 : fit_blocks_per_sm(gpu, &need, &p.limit);
    if (p.blocks_per_sm == 0)
        p.limit = "shared memory";
    return p;
}

int fit_describe_blocks(const tile_plan *p, int min_blocks, char *buf, size_t len)
{
    int b = p->blocks_per_sm;
    if (b == 0)
        return snprintf(buf, len, "no block fits on an SM (%s)", p->limit);
    if (strcmp(p->limit, "registers") == 0)
        return snprintf(buf, len, "at least %d block%s an SM (registers)", b, b == 1 ? "" : "s");
    if (b < min_blocks)
        return snprintf(buf, len, "%d block%s an SM (%s; %d planned)", b, b == 1 ? "" : "s", p->limit, min_blocks);
    return snprintf(buf, len, "%d block%s an SM (%s)", b, b == 1 ? "" : "s", p->limit);
}

/* Each figure a description may name, and where it lives in gpu_limits. */
static int *field(gpu_limits *gpu, const char *name, size_t len)
{
    static const struct { const char *name; size_t offset; } FIELDS[] = {
        {"sms", offsetof(gpu_limits, sms)},
        {"smem_block", offsetof(gpu_limits, smem_block)},
        {"smem_sm", offsetof(gpu_limits, smem_sm)},
        {"regs_sm", offsetof(gpu_limits, regs_sm)},
        {"threads_sm", offsetof(gpu_limits, threads_sm)},
        {"blocks_sm", offsetof(gpu_limits, blocks_sm)},
        {"clusters", offsetof(gpu_limits, clusters)},
    };
    for (size_t i = 0; i < sizeof FIELDS / sizeof FIELDS[0]; i++)
        if (strlen(FIELDS[i].name) == len && strncmp(FIELDS[i].name, name, len) == 0)
            return (int *)((char *)gpu + FIELDS[i].offset);
    return NULL;
}

int fit_shrink(gpu_limits *gpu, const char *spec, char *why, size_t len)
{
    gpu_limits out = *gpu;
    const char *p = spec;
    for (;;) {
        p += strspn(p, " ,");
        if (*p == '\0')
            break;
        size_t item = strcspn(p, " ,"), name = strcspn(p, "=");
        if (name >= item) {
            snprintf(why, len, "'%.*s' is not NAME=VALUE (names: sms smem_block smem_sm regs_sm threads_sm "
                               "blocks_sm clusters)", (int)item, p);
            return 0;
        }
        int *f = field(&out, p, name);
        if (!f) {
            snprintf(why, len, "'%.*s' is not a limit a plan sees (one of: sms smem_block smem_sm regs_sm "
                               "threads_sm blocks_sm clusters)", (int)name, p);
            return 0;
        }
        char *end;
        errno = 0;
        long v = strtol(p + name + 1, &end, 10);
        int kib = end < p + item && *end == 'K';
        if (kib)
            end++, v *= 1024;
        int is_clusters = f == &out.clusters;
        if (end != p + item || errno || v < (is_clusters ? 0 : 1) || v > INT_MAX) {
            snprintf(why, len, "'%.*s': the value must be %s", (int)item, p,
                     is_clusters ? "0 or 1" : "a positive number (of bytes, or of KiB with K)");
            return 0;
        }
        int mine = *(int *)((char *)gpu + ((char *)f - (char *)&out));
        if (v > mine) {
            snprintf(why, len, "'%.*s' is more than this GPU has (%d): a plan may only see a smaller device",
                     (int)item, p, mine);
            return 0;
        }
        *f = (int)v;
        p += item;
    }
    *gpu = out;
    return 1;
}

int fit_describe(const gpu_limits *gpu, char *buf, size_t len)
{
    return snprintf(buf, len,
                    "%d SMs, %d KiB of shared memory a block, %d KiB an SM, %d registers and %d threads an SM, "
                    "%d blocks an SM, %s",
                    gpu->sms, gpu->smem_block / 1024, gpu->smem_sm / 1024, gpu->regs_sm, gpu->threads_sm,
                    gpu->blocks_sm, gpu->clusters ? "clusters" : "no clusters");
}
