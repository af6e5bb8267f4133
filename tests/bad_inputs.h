/* bad_inputs.h - every bad command line, by class of mistake: the parser's suite runs them
 * all in-process, and the suite of the step binaries runs the first of each class. */
#ifndef TESTS_BAD_INPUTS_H
#define TESTS_BAD_INPUTS_H

/* Which steps a case applies to. */
typedef enum { FOR_ALL_STEPS, FOR_STAGED_STEPS, FOR_UNSTAGED_STEPS } bad_input_scope;

/* In args, this stands for the step's largest stage count plus one. */
#define ARG_MAX_STAGES_PLUS_1 "<max_stages+1>"

typedef struct {
    const char *kind;          /* the class of mistake; the cases of a class stand together */
    const char *what;          /* this case, as the golden transcripts title it */
    const char *args[6];       /* the arguments after the program name, NULL-terminated */
    bad_input_scope scope;
} bad_input;

extern const bad_input BAD_INPUTS[];
extern const int N_BAD_INPUTS;

/* 1 when the case applies to a step with max_stages stages (0: none). */
int bad_input_applies(const bad_input *b, int max_stages);

/* 1 when b is the first case of its class that applies to such a step: the one the
 * binaries run. */
int bad_input_represents_its_kind(const bad_input *b, int max_stages);

/* The case's arguments for a step with max_stages stages, NULL-terminated in args (at most
 * 6), with ARG_MAX_STAGES_PLUS_1 written out in buf. */
void bad_input_args(const bad_input *b, int max_stages, const char *args[7], char buf[6][32]);

#endif
