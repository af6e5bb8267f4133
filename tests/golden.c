/* golden.c - golden-file comparison, and the update mode that writes the files. */
#include "golden.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "process.h"

/* Writes text to path, making its folders first. */
static void write_whole(const char *path, const char *text)
{
    char dir[512];
    for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        cr_assert(mkdir(dir, 0777) == 0 || errno == EEXIST, "mkdir %s: %s", dir, strerror(errno));
    }
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "cannot write %s", path);
}

void expect_golden(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, GOLDEN_DIR "%s", name);
    const char *update = getenv("GOLDEN_UPDATE");
    if (update && strcmp(update, "1") == 0) {
        write_whole(path, text);
        cr_log_warn("GOLDEN_UPDATE=1: wrote %s", path);
        return;
    }
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "no golden file %s (%s): GOLDEN_UPDATE=1 writes it from this output:\n%.3000s", path,
                       strerror(errno), text);
    size_t len;
    char *expected = read_stream(f, &len);
    fclose(f);
    if (strcmp(expected, text) != 0) {
        /* The first line that differs, with its number, so the failure reads at a glance. */
        const char *e = expected, *t = text;
        int line = 1;
        for (; *e && *e == *t; e++, t++)
            if (*e == '\n')
                line++;
        while (e > expected && e[-1] != '\n')
            e--, t--;
        cr_expect_fail("the output differs from %s at line %d:\n  expected: %.*s\n  got:      %.*s\n"
                       "--- the whole output ---\n%.3000s",
                       path, line, (int)strcspn(e, "\n"), e, (int)strcspn(t, "\n"), t, text);
    }
    free(expected);
}
