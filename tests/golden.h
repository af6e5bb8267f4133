/* golden.h - compare an output with its golden file: the expected text, byte for byte,
 * kept under tests/data/ where a reviewer reads it as a user would see it. */
#ifndef TESTS_GOLDEN_H
#define TESTS_GOLDEN_H

/* Where the golden files are, relative to the repository root (where the tests run). */
#define GOLDEN_DIR "tests/data/"

/* Expects text to be the content of GOLDEN_DIR name; on a difference the failure names
 * the first line that differs, and shows both. With GOLDEN_UPDATE=1 in the environment
 * it writes text to the file instead (then read `git diff tests/data` before committing). */
void expect_golden(const char *name, const char *text);

#endif
