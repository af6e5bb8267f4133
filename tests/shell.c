/* shell.c - see shell.h. */
#include "shell.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "process.h"

int sh(char **out, const char *dir, const char *fmt, ...)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "D='%s'; export D; { ", dir ? dir : "");
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    n += snprintf(cmd + n, sizeof cmd - (size_t)n, "; } 2>&1");
    cr_assert_lt(n, (int)sizeof cmd, "command too long");
    FILE *p = popen(cmd, "r");
    cr_assert(p, "popen failed for: %s", cmd);
    size_t len;
    char *buf = read_stream(p, &len);
    int status = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void tmpdir_named(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "%s/%s.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
    cr_assert(mkdtemp(dir), "mkdtemp failed");
}

void rm_rf(const char *dir)
{
    cr_expect_eq(sh(NULL, dir, "rm -rf \"$D\""), 0, "could not remove %s", dir);
}
