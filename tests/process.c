/* process.c - fork/exec a step with its stdout and stderr captured apart, and what the
 * suites need to know about the machine: is there a GPU, which steps are built. */
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"

/* Appends arg to the command line, in single quotes when the shell would need them. */
static void append_quoted(char *cmd, size_t len, const char *arg)
{
    size_t used = strlen(cmd);
    int plain = arg[0] != '\0';
    for (const char *p = arg; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=+:,-", *p))
            plain = 0;
    if (used && used + 1 < len)
        cmd[used++] = ' ';
    if (!plain && used + 1 < len)
        cmd[used++] = '\'';
    for (const char *p = arg; *p && used + 4 < len; p++) {
        if (*p == '\'') {
            memcpy(cmd + used, "'\\''", 4);
            used += 4;
        } else {
            cmd[used++] = *p;
        }
    }
    if (!plain && used + 1 < len)
        cmd[used++] = '\'';
    cmd[used < len ? used : len - 1] = '\0';
}

char *read_stream(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    rewind(f);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            char *bigger = realloc(buf, cap);
            if (!bigger)
                abort();
            buf = bigger;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0)
            break;
        n += got;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

void format_command(char *buf, size_t len, const char *const argv[])
{
    buf[0] = '\0';
    for (int i = 0; argv[i]; i++)
        append_quoted(buf, len, argv[i]);
}

int run_process(const char *const argv[], proc_result *r)
{
    memset(r, 0, sizeof *r);
    format_command(r->cmd, sizeof r->cmd, argv);

    FILE *out = tmpfile(), *err = tmpfile();
    if (!out || !err) {
        r->status = -1000;
        r->out = calloc(1, 1);
        r->err = strdup("tmpfile() failed");
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        return r->status;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        /* The alarm survives exec: a step that hangs dies of SIGALRM. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGALRM, SIG_DFL);
        alarm(PROCESS_TIMEOUT_S);
        execv(argv[0], (char *const *)argv);
        dprintf(STDERR_FILENO, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (pid < 0) {
        r->status = -1000;
        r->out = calloc(1, 1);
        r->err = strdup("fork() failed");
    } else {
        int ws = 0;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? -WTERMSIG(ws) : -1000;
        r->out = read_stream(out, &r->out_len);
        r->err = read_stream(err, &r->err_len);
    }
    fclose(out);
    fclose(err);
    return r->status;
}

void proc_result_free(proc_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

const char *describe_status(int status, char *buf, size_t len)
{
    if (status == -SIGALRM)
        snprintf(buf, len, "timed out after %d s", PROCESS_TIMEOUT_S);
    else if (status == -1000)
        snprintf(buf, len, "could not be run");
    else if (status < 0)
        snprintf(buf, len, "killed by signal %d (%s)", -status, strsignal(-status));
    else
        snprintf(buf, len, "exit %d", status);
    return buf;
}

int gpu_available(char *why, size_t len)
{
    return cuda_device_count(why, len) > 0;
}

#ifndef BUILT_SM
#define BUILT_SM 0   /* the architecture the steps are built for (the Makefile passes it) */
#endif

int step_left_out(const char *step, char *why, size_t len)
{
    if (BUILT_SM >= 80 || (strcmp(step, "./step5") != 0 && strcmp(step, "./step6") != 0 &&
                           strcmp(step, "./further") != 0))
        return 0;
    snprintf(why, len, "%s is not built (steps 5 and 6 and ./further need sm_80 or newer: cp.async); this build "
             "is for sm_%d", step, BUILT_SM);
    return 1;
}

int built_steps(char paths[][STEP_PATH_LEN], int max)
{
    int n = 0;
    for (int i = 0; i <= 9 && n < max; i++) {
        char path[STEP_PATH_LEN];
        struct stat st;
        snprintf(path, sizeof path, "./step%d", i);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
            memcpy(paths[n++], path, sizeof path);
    }
    struct stat st;   /* the going-further track, a program over the same harness */
    if (n < max && stat("./further", &st) == 0 && S_ISREG(st.st_mode) && access("./further", X_OK) == 0)
        snprintf(paths[n++], STEP_PATH_LEN, "./further");
    return n;
}

int list_steps(step_param *out, int max)
{
    char paths[MAX_STEPS][STEP_PATH_LEN];
    int n = built_steps(paths, MAX_STEPS < max ? MAX_STEPS : max);
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        memcpy(out[i].step, paths[i], STEP_PATH_LEN);
        out[i].max_stages = step_max_stages(paths[i]);
    }
    return n;
}

int step_max_stages(const char *path)
{
    /* Each suite's parameter function asks, in the same runner process: ask each step once. */
    static struct {
        char path[STEP_PATH_LEN];
        int max;
    } known[MAX_STEPS];
    static int n_known;
    for (int i = 0; i < n_known; i++)
        if (strcmp(known[i].path, path) == 0)
            return known[i].max;

    const char *argv[] = {path, "--describe", NULL};
    proc_result r;
    int max = -1;
    if (run_process(argv, &r) == 0) {
        /* The one line: "name=step5_pipeline max_stages=4 default_stages=2 kernel_choice=1" */
        const char *field = strstr(r.out, " max_stages=");
        if (field)
            max = atoi(field + strlen(" max_stages="));
    }
    proc_result_free(&r);
    if (n_known < MAX_STEPS && strlen(path) < STEP_PATH_LEN) {
        snprintf(known[n_known].path, STEP_PATH_LEN, "%s", path);
        known[n_known++].max = max;
    }
    return max;
}

const char *line_end(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? nl : s + strlen(s);
}

int count_lines(const char *s)
{
    int n = 0;
    while (*s) {
        const char *end = line_end(s);
        n++;
        s = *end ? end + 1 : end;
    }
    return n;
}
