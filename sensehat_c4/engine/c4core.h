/* The exact solver's native core: the negamax of sensehat_c4/engine/solver.py in C99.
 *
 * A plain shared library (no Python headers, no Python symbols), loaded with ctypes by
 * sensehat_c4/engine/native.py.  One c4_solver holds one transposition table and one
 * search.  A search never calls back into Python: it returns to its caller every
 * `check_every` nodes (C4_CHECK: look at the clock, the stop event, the node limits,
 * then c4_resume, or drop the search) and at every position with `leaf_ply` stones
 * (C4_LEAF: c4_resume with its exact score from a book, or C4_UNKNOWN to search on).
 *
 * The same answers as the Python core (solver.py), after fewer positions: see c4core.c.
 *
 * Positions are two bitboards in the rules core's layout: column c uses bits
 * c * (height + 1) .. c * (height + 1) + height - 1.  `current` holds the stones of the
 * side to move, `mask` all stones.  Scores: 22 - k style (see solver.py).
 */
#ifndef C4CORE_H
#define C4CORE_H

#include <stdint.h>

#define C4_ABI 3          /* c4_abi() of a library this header describes */

#define C4_DONE 0         /* the search is over: c4_result() */
#define C4_CHECK 1        /* `check_every` more nodes: c4_resume() to go on */
#define C4_LEAF 2         /* a position with `leaf_ply` stones: c4_leaf_*(), then c4_resume(score) */
#define C4_UNKNOWN (-128) /* c4_resume(): no score known for the leaf, search it */

typedef struct c4_solver c4_solver;

int c4_abi(void);
/* A solver with a table of about 2 ** table_bits entries of 8 bytes; enhanced transposition
 * cutoffs below `etc_below` stones, a position and its mirror image sharing an entry below
 * `mirror_below` stones.  NULL if the sizes are out of range (width * (height + 1) > 62,
 * width > 15, check_every not a power of two, table_bits outside 10..30 or too small for the
 * key's tag: width * (height + 1) + 2 - table_bits > 45) or memory ran out. */
c4_solver *c4_new(int width, int height, int table_bits, int check_every, int etc_below, int mirror_below);
void c4_free(c4_solver *s);
uint64_t c4_table_bytes(const c4_solver *s);
uint64_t c4_nodes(const c4_solver *s);                 /* positions searched since c4_new() */
void c4_clear(c4_solver *s);                           /* empty the transposition table */
void c4_set_leaf_ply(c4_solver *s, int ply);
/* The score of (current, mask) within [alpha, beta]; the side to move cannot win at once,
 * `threats` are the opponent's winning cells (empty cells only). */
int c4_start(c4_solver *s, uint64_t current, uint64_t mask, int moves, uint64_t threats,
             int alpha, int beta);
int c4_resume(c4_solver *s, int leaf_score);
int c4_result(const c4_solver *s);
uint64_t c4_leaf_current(const c4_solver *s);
uint64_t c4_leaf_mask(const c4_solver *s);
/* Empty cells where `position` would complete a four. */
uint64_t c4_winning_cells(const c4_solver *s, uint64_t position, uint64_t mask);

/* Threads (lazy SMP, see c4core.c): `threads` - 1 helper threads share the table and join every
 * search of the solver that runs 1,024 nodes (not one below the book's leaves); the main search
 * is the caller's as with one thread.  Returns the threads now searching: 1 where threads are not
 * built in (no POSIX threads or no lock-free 64-bit atomics) or could not start.  The helpers
 * wait blocked between searches (no CPU); c4_free() ends them.  In a child of fork() the solver
 * searches with one thread. */
int c4_set_threads(c4_solver *s, int threads);
int c4_threads(const c4_solver *s);
/* Tells the helpers to drop the search (they do within 64 of their nodes; not waited for): call it
 * after every search (one dropped before C4_DONE goes on in the helpers until then). */
void c4_halt(c4_solver *s);
/* Positions searched by all threads since c4_new() (c4_nodes(): the main search's only);
 * waits for the helpers to drop their search first. */
uint64_t c4_all_nodes(c4_solver *s);

#endif
