/* bad_inputs.h - every class of bad command line, shared by the parse_args suite and the
 * suite that runs the real ./stepN binaries. */
#ifndef TESTS_BAD_INPUTS_H
#define TESTS_BAD_INPUTS_H

/* Which steps a case applies to. */
typedef enum { FOR_ALL_STEPS, FOR_STAGED_STEPS, FOR_UNSTAGED_STEPS } bad_input_scope;

/* In args, this stands for the step's largest stage count plus one. */
#define ARG_MAX_STAGES_PLUS_1 "<max_stages+1>"

typedef struct {
    const char *what;          /* the class of bad input, for failure messages */
    const char *args[6];       /* the arguments after the program name, NULL-terminated */
    const char *names;         /* the error line must contain this (the bad value, quoted
                                  as the message quotes it, or what is missing or empty);
                                  ARG_MAX_STAGES_PLUS_1 is replaced as in args */
    bad_input_scope scope;
} bad_input;

extern const bad_input BAD_INPUTS[];
extern const int N_BAD_INPUTS;

/* s, or the step's max_stages + 1 (written to buf) when s is ARG_MAX_STAGES_PLUS_1. */
const char *bad_input_arg(const char *s, int max_stages, char *buf, int len);

#endif
