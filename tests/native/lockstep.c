/* The native core's threads in lockstep: a tuning aid (no Python, not run by the tests).
 *
 * The threads' searches of c4core.c take turns in one process, 64 nodes each a turn, sharing the
 * table and the marks, as the helper threads do (they join a window search once the main one has
 * run JOIN_AFTER nodes; the first to finish answers).  So the figures depend on the algorithm
 * only, not on the machine's load: "wall" is the turns times 64 nodes, the time the search would
 * take on idle cores of their own (memory and cache contention aside), and its ratio to one
 * thread's is the speedup those cores would give.  Reads "MOVES SCORE" lines as check_core.c does
 * ("-" is the empty board), solves each with solver.py's null windows and checks the score.
 *
 *   cc -std=c99 -O2 -I sensehat_c4/engine tests/native/lockstep.c -o lockstep
 *   ./lockstep TABLE_BITS WIDTH HEIGHT THREADS < tests/data/Test_L1_R2.sample
 *   cc ... -DDEFER_FROM=1 -DMARK_EMPTY=20 -DJOIN_AFTER=4096 ...   (c4core.c's knobs)
 */
#include "c4core.c" /* its static functions: the workers and their run() */

#include <stdio.h>

#define MAX_LOCKSTEP 16

static int WIDTH = 7, HEIGHT = 6;

/* One window search by `n` workers taking turns; its result.  Adds the turns. */
static int window(c4_solver *s, worker *w, int n, uint64_t cur, uint64_t mask, int moves, int alpha, int beta,
                  uint64_t *turns)
{
    uint64_t threats = winning(s, cur ^ mask, mask), start = w[0].nodes;
    int i, j;
    for (i = 0; i < n; i++)
        enter(&w[i], 0, cur, mask, moves, threats, alpha, beta);
    for (;;) {
        (*turns)++;
        for (i = 0; i < n; i++) {
            if (i > 0 && w[0].nodes - start < JOIN_AFTER)
                break; /* the helpers have not joined yet */
            if (run(&w[i]) == C4_DONE) {
                for (j = 0; j < n; j++)
                    if (j != i)
                        unmark_stack(&w[j]); /* the others drop the search */
                return w[i].result;
            }
        }
    }
}

/* solver.py's Solver.score with lockstep windows (as check_core.c's solve()). */
static int solve(c4_solver *s, worker *w, int n, uint64_t cur, uint64_t mask, int moves, uint64_t *turns)
{
    int cells = WIDTH * HEIGHT, low = -((cells - moves) / 2), high = (cells + 1 - moves) / 2, tried = 0;
    while (low < high) {
        int med = low + (high - low) / 2, r;
        if (med <= 0 && low / 2 < med)
            med = low / 2;
        else if (med >= 0 && high / 2 > med)
            med = high / 2;
        if (tried == 0 && low <= 0 && 0 < high)
            med = 0;
        else if (tried == 1 && low >= 0)
            med = low;
        else if (tried == 1 && high <= 0)
            med = high - 1;
        tried++;
        r = window(s, w, n, cur, mask, moves, med, med + 1, turns);
        if (r <= med)
            high = r;
        else
            low = r;
    }
    return low;
}

int main(int argc, char **argv)
{
    int bits, n, i, count = 0;
    uint64_t turns = 0, all = 0;
    char line[256];
    c4_solver *s;
    worker w[MAX_LOCKSTEP];
    if (argc != 5) {
        fprintf(stderr, "usage: lockstep TABLE_BITS WIDTH HEIGHT THREADS < positions\n");
        return 2;
    }
    bits = atoi(argv[1]);
    WIDTH = atoi(argv[2]);
    HEIGHT = atoi(argv[3]);
    n = atoi(argv[4]);
    s = c4_new(WIDTH, HEIGHT, bits, 64, 36, 20); /* native.py's ETC_BELOW and MIRROR_BELOW */
    if (!s || n < 1 || n > MAX_LOCKSTEP) {
        fprintf(stderr, "lockstep: cannot make a solver\n");
        return 2;
    }
#if C4_THREADS
    if (n > 1)
        s->marks = calloc((size_t)1 << MARK_BITS, sizeof *s->marks);
#endif
    for (i = 0; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].s = s;
        w[i].leaf_ply = -1;
        w[i].check_mask = HELPER_CHECK; /* a turn: 64 nodes */
        w[i].stack = calloc((size_t)s->cells + 2, sizeof *w[i].stack);
    }
    while (fgets(line, sizeof line, stdin)) {
        char moves[64];
        int expected, got, k, height[16] = {0}, length;
        uint64_t cur = 0, mask = 0;
        if (line[0] == '#' || sscanf(line, "%63s %d", moves, &expected) != 2)
            continue;
        length = strcmp(moves, "-") == 0 ? 0 : (int)strlen(moves);
        for (k = 0; k < length; k++) {
            int c = moves[k] - '1';
            cur ^= mask;
            mask |= (uint64_t)1 << (c * (HEIGHT + 1) + height[c]++);
        }
        if (winning(s, cur, mask) & ((mask + s->bottom) & s->board))
            continue; /* wins with its next stone: no search */
        got = solve(s, w, n, cur, mask, length, &turns);
        if (got != expected) {
            printf("%s %d WRONG: %d\n", moves, expected, got);
            return 1;
        }
        count++;
    }
    for (i = 0; i < n; i++)
        all += w[i].nodes;
    printf("positions %d threads %d wall %llu nodes (turns x 64) all %llu nodes\n", count, n,
           (unsigned long long)(turns * 64), (unsigned long long)all);
    return 0;
}
