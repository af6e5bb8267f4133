/* test_figures.c - `make figures` (scripts/figures.py), with no GPU: the lessons' figures are
 * redrawn from what the built steps' and ./further's --describe say, into a temporary
 * directory. Each SVG must be the committed one byte for byte; each PNG, rendered from its SVG by
 * a packaged rasteriser whose bytes may differ from one version to the next, must have the pixel
 * size its SVG gives, as the committed PNG has. A constant changed in a step's --describe (a stand-in step that edits the real
 * one's line) changes its figure and no other; a --describe line without a constant a figure needs
 * is refused in one line. Run from the repository root (make test, which builds the steps and
 * installs the rasteriser first). Steps 5 and 6 and the track are built only for sm_80 or newer: a
 * build for an older ARCH checks the figures of steps 1-4, and the log says which figures it leaves
 * out and why.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"
#include "shell.h"

/* `make ARGS` as a fresh make: the flags of a make that runs this suite are not passed on. The
 * steps are taken as they are (-o): after a commit since the last build they would be linked
 * again, by two tests at once. */
#define MAKE_FIGURES "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory " \
                     "-o step1 -o step2 -o step3 -o step4 -o step5 -o step6 -o further figures "
#define FIGURES "python3 scripts/figures.py "

/* The programs whose --describe the figures draw. */
static const char *const PROGRAMS[] = {"step1", "step2", "step3", "step4", "step5", "step6", "further"};
#define N_PROGRAMS (sizeof PROGRAMS / sizeof PROGRAMS[0])

/* Each figure, without its extension (.svg and .png), and the programs whose --describe it draws
 * (a space after each name). */
static const struct {
    const char *path;
    const char *programs;
} FIGURE_FILES[] = {
    {"step1_tiling/tiling", "step1 "},
    {"step2_shared/shared", "step2 "},
    {"step3_registers/registers", "step2 step3 "},
    {"step4_vectorize/vectorize", "step3 step4 "},
    {"step5_pipeline/pipeline", "step5 "},
    {"step6_unroll/unroll", "step5 further "},
    {"going_further/warp_tiles", "further "},
    {"going_further/split_k", "further "},
    {"going_further/wide_tiles", "further "},
    {"going_further/stream_k", "further "},
};
#define N_FIGURES (sizeof FIGURE_FILES / sizeof FIGURE_FILES[0])

static void tmpdir(char *dir, size_t len) { tmpdir_named(dir, len, "figures-test"); }

/* 1 when this build holds every program the figure draws; else 0, with the reason in why. Decided
 * by ARCH, not by the files: a program the build should hold but lacks fails its figure's check. */
static int drawable(size_t i, char *why, size_t len)
{
    char path[32];
    for (const char *s = FIGURE_FILES[i].programs; *s; s = strchr(s, ' ') + 1) {
        snprintf(path, sizeof path, "./%.*s", (int)strcspn(s, " "), s);
        if (step_left_out(path, why, len))
            return 0;
    }
    return 1;
}

/* How many figures this build draws; logs the others and why. */
static size_t count_drawable(void)
{
    size_t n = 0;
    char why[160];
    for (size_t i = 0; i < N_FIGURES; i++) {
        if (drawable(i, why, sizeof why))
            n++;
        else
            cr_log_info("%s: not redrawn: %s", FIGURE_FILES[i].path, why);
    }
    return n;
}

/* The size in pixels a PNG gives in its IHDR chunk, which every PNG opens with (after its 8-byte
 * signature and the chunk's length and name): big-endian width, then height. 0: not a PNG. */
static int png_size(const char *path, unsigned *w, unsigned *h)
{
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (n != sizeof b || memcmp(b, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(b + 12, "IHDR", 4) != 0)
        return 0;
    *w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
    *h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
    return 1;
}

/* The width and height an SVG of figures.py declares on its first line; 0 when it has none. */
static int svg_size(const char *path, unsigned *w, unsigned *h)
{
    char line[512];
    FILE *f = fopen(path, "r");
    const char *at = f && fgets(line, sizeof line, f) ? strstr(line, " width=\"") : NULL;
    if (f)
        fclose(f);
    return at && sscanf(at, " width=\"%u\" height=\"%u\"", w, h) == 2;
}

/* Expects OUT/path.svg to be the committed SVG byte for byte (same = 1), or to differ from it
 * (same = 0); and OUT/path.png, where the SVG is the same, to be twice its size in pixels (make
 * figures renders at --zoom 2), as the committed PNG is. */
static void expect_figure(const char *dir, const char *out, size_t i, int same)
{
    const char *path = FIGURE_FILES[i].path;
    char *log;
    int rc = sh(&log, dir, "cmp '%s.svg' \"$D/%s/%s.svg\"", path, out, path);
    if (same)
        cr_expect_eq(rc, 0, "%s.svg redrawn is not the committed file (make figures, then look at the picture):\n%s",
                     path, log);
    else
        cr_expect_eq(rc, 1, "%s.svg did not change with the constant it draws:\n%s", path, log);
    free(log);
    if (!same)
        return;
    char file[600];
    unsigned svg_w, svg_h, w = 0, h = 0;
    snprintf(file, sizeof file, "%s.svg", path);
    cr_assert(svg_size(file, &svg_w, &svg_h), "%s has no width and height on its first line", file);
    snprintf(file, sizeof file, "%s/%s/%s.png", dir, out, path);
    cr_expect(png_size(file, &w, &h) && w == 2 * svg_w && h == 2 * svg_h,
              "%s.png rendered is %u x %u pixels, not twice its SVG's %u x %u", path, w, h, svg_w, svg_h);
    w = h = 0;
    snprintf(file, sizeof file, "%s.png", path);
    cr_expect(png_size(file, &w, &h) && w == 2 * svg_w && h == 2 * svg_h,
              "%s.png committed is %u x %u pixels, not twice its SVG's %u x %u: remove it and make figures", path, w,
              h, svg_w, svg_h);
}

/* make figures into a temporary directory: every figure the built steps allow, each the
 * committed SVG byte for byte with its PNG beside it, and nothing else written. */
Test(figures, redrawn_byte_for_byte, .timeout = 300)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    size_t n = count_drawable();
    int rc = sh(&log, dir, MAKE_FIGURES "FIGURES_OUT=\"$D/out\"");
    cr_assert_eq(rc, 0, "make figures exited %d:\n%s", rc, log);
    free(log);
    char why[160];
    for (size_t i = 0; i < N_FIGURES; i++)
        if (drawable(i, why, sizeof why))
            expect_figure(dir, "out", i, 1);
    sh(&log, dir, "find \"$D/out\" -type f | wc -l");
    cr_expect_eq((size_t)atoi(log), 2 * n, "make figures wrote %d files, not the %zu of the figures listed here", atoi(log),
                 2 * n);
    free(log);
    rm_rf(dir);
}

/* Writes dir/NAME for each program NAME of PROGRAMS that this build holds: each runs the real
 * ./NAME, and program `edit`'s --describe line goes through the sed expression `sed_expr`. */
static void stand_in_steps(const char *dir, const char *edit, const char *sed_expr)
{
    char cwd[4096], why[160];
    cr_assert(getcwd(cwd, sizeof cwd), "getcwd failed");
    for (size_t i = 0; i < N_PROGRAMS; i++) {
        const char *s = PROGRAMS[i];
        char path[4300];
        snprintf(path, sizeof path, "./%s", s);
        if (step_left_out(path, why, sizeof why))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, s);
        FILE *f = fopen(path, "w");
        cr_assert(f, "cannot write %s", path);
        if (strcmp(s, edit) == 0)
            fprintf(f, "#!/bin/sh\n'%s/%s' \"$@\" | sed -e '%s'\n", cwd, s, sed_expr);
        else
            fprintf(f, "#!/bin/sh\nexec '%s/%s' \"$@\"\n", cwd, s);
        fclose(f);
        chmod(path, 0755);
    }
}

/* Step 3's k-tiles 32 deep instead of 16 in its --describe line: step 3's figure changes (its
 * b_tile and a_tile), and every other figure stays the committed one. */
Test(figures, a_changed_constant_changes_its_figure_and_no_other, .timeout = 300)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    cr_assert(access("./step3", X_OK) == 0, "./step3 is not built: run `make all` first");
    size_t n = count_drawable();
    stand_in_steps(dir, "step3", "s/ shapes=\\([0-9]*x[0-9]*\\)x16:/ shapes=\\1x32:/");
    cr_assert_eq(sh(&log, dir, "\"$D/step3\" --describe | grep -q ' shapes=128x128x32:'"), 0,
                 "the stand-in ./step3 does not say 32-deep k-tiles:\n%s", log);
    free(log);
    int rc = sh(&log, dir, FIGURES "--steps \"$D\" --out \"$D/out\"");
    cr_assert_eq(rc, 0, "figures.py exited %d:\n%s", rc, log);
    free(log);
    char why[160];
    for (size_t i = 0; i < N_FIGURES; i++) {
        if (!drawable(i, why, sizeof why))
            continue;
        int edited = strcmp(FIGURE_FILES[i].path, "step3_registers/registers") == 0;
        expect_figure(dir, "out", i, !edited);
    }
    sh(&log, dir, "find \"$D/out\" -type f | wc -l");
    cr_expect_eq((size_t)atoi(log), 2 * n, "figures.py wrote %d files, not %zu", atoi(log), 2 * n);
    free(log);
    rm_rf(dir);
}

/* A --describe line without a constant a figure needs: one line naming the step and the key,
 * exit 2, and no figure of that step written. */
Test(figures, a_describe_line_without_a_constant_is_refused)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    cr_assert(access("./step1", X_OK) == 0, "./step1 is not built: run `make all` first");
    stand_in_steps(dir, "step1", "s/ shapes=[^ ]*//");
    int rc = sh(&log, dir, FIGURES "--steps \"$D\" --out \"$D/out\" --only step1_tiling");
    cr_expect_eq(rc, 2, "figures.py exited %d, not 2:\n%s", rc, log);
    cr_expect(strstr(log, "figures: ") && strstr(log, "step1 --describe gives no shapes="),
              "no line naming the step and the key:\n%s", log);
    free(log);
    cr_expect_eq(sh(NULL, dir, "[ ! -e \"$D/out/step1_tiling/tiling.svg\" ]"), 0, "a figure was written anyway");
    rm_rf(dir);
}

/* A --describe line whose tile is too wide for its figure (step 4's a_tile is drawn 5 units a
 * float): one line naming the shape that would be cut off, exit 1, and no figure written. */
Test(figures, a_shape_past_the_edge_is_refused)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    cr_assert(access("./step4", X_OK) == 0, "./step4 is not built: run `make all` first");
    stand_in_steps(dir, "step4", "s/ shapes=128x128x16:/ shapes=256x128x16:/");
    int rc = sh(&log, dir, FIGURES "--steps \"$D\" --out \"$D/out\" --only step4_vectorize");
    cr_expect_eq(rc, 1, "figures.py exited %d, not 1:\n%s", rc, log);
    cr_expect(strstr(log, "figures: ") && strstr(log, "reaches outside"), "no line naming the shape:\n%s", log);
    free(log);
    cr_expect_eq(sh(NULL, dir, "[ ! -e \"$D/out/step4_vectorize/vectorize.svg\" ]"), 0, "a figure was written anyway");
    rm_rf(dir);
}
