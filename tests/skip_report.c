/* skip_report.c - say which tests were skipped and why, next to Criterion's synthesis.
 *
 * Criterion counts a skipped test neither as tested nor as passing, and without
 * --verbose it does not print it at all. So that a run without a GPU cannot be taken
 * for a run where the GPU tests passed, this lists the skipped tests, grouped by
 * reason, just before the synthesis line. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/logging.h>
#include <criterion/options.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REASONS = 32, MAX_NAMES = 512 };

static struct {
    char *reason;
    int count;
    char names[MAX_NAMES];   /* "suite::test x3, ..." */
} skipped[MAX_REASONS];
static int n_reasons;

ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
    if (stats->test_status != CR_STATUS_SKIPPED)
        return;
    const char *reason = stats->message ? stats->message : "(no reason given)";
    int i = 0;
    while (i < n_reasons && strcmp(skipped[i].reason, reason) != 0)
        i++;
    if (i == MAX_REASONS)
        i = MAX_REASONS - 1;   /* more reasons than we keep: count them with the last */
    else if (i == n_reasons) {
        skipped[i].reason = strdup(reason);
        n_reasons++;
    }
    skipped[i].count++;
    char name[256];
    snprintf(name, sizeof name, "%s::%s", stats->test->category, stats->test->name);
    if (!strstr(skipped[i].names, name)) {
        size_t used = strlen(skipped[i].names);
        snprintf(skipped[i].names + used, sizeof skipped[i].names - used, "%s%s", used ? ", " : "", name);
    }
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;   /* its tests_skipped also counts the tests that --filter left out */
    int total = 0;
    for (int i = 0; i < n_reasons; i++)
        total += skipped[i].count;
    if (total == 0)
        return;
    /* With --verbose Criterion prints each [SKIP] itself; then just give the count. */
    if (criterion_options.logging_threshold > CRITERION_INFO)
        for (int i = 0; i < n_reasons; i++)
            fprintf(stderr, "[SKIP] %d test%s (%s): %s\n", skipped[i].count,
                    skipped[i].count == 1 ? "" : "s", skipped[i].names, skipped[i].reason);
    fprintf(stderr, "[====] Skipped: %d test%s, counted neither as tested nor as passing below\n", total,
            total == 1 ? "" : "s");
}
