/* shell.h - what the tooling suites (test_plots.c, test_figures.c) share: a shell command run
 * in the repository root with its output captured, and a temporary folder for it. */
#ifndef TESTS_SHELL_H
#define TESTS_SHELL_H

#include <stddef.h>

/* Runs `sh -c cmd` in the repository root with stderr folded into stdout and $D set to dir;
 * returns the exit status and the output in *out (caller frees; NULL to drop it). */
int sh(char **out, const char *dir, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A new empty folder, TMPDIR/NAME.XXXXXX (the test fails when it cannot be made). */
void tmpdir_named(char *dir, size_t len, const char *name);

/* Removes dir and everything in it. */
void rm_rf(const char *dir);

#endif
