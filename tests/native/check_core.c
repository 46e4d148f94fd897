/* A test driver for the native core alone (no Python): reads "MOVES SCORE" lines (Pons' test
 * sets, 7 x 6; or tests/data/sizes_*.scores with the board size given) on stdin and proves each
 * score with two null-window searches:
 * score <= SCORE and not score <= SCORE - 1.  Prints one line per position with both
 * answers and the node count, then a summary; exits 1 if any answer is wrong.
 * The CI compares its output on x86-64, arm64 and armhf (under qemu-user): it must be
 * identical, node counts included.
 *
 *   cc -std=c99 -O2 -pthread -I sensehat_c4/engine sensehat_c4/engine/c4core.c tests/native/check_core.c
 *   ./a.out [TABLE_BITS [WIDTH HEIGHT [prove|solve [THREADS]]]] < tests/data/Test_L2_R2.sample
 *
 * With THREADS (more than 1) the searches run with helper threads (c4_set_threads): the answers
 * must be the same, the node counts are not (so the lines leave them out; the summary gives
 * the positions of all threads).
 * With "solve" it finds each score instead, by the null windows of solver.py's Solver.score (who
 * wins, then by the least margin, then halving, as the engine does), and prints the CPU time of
 * the whole: the native core's figures without Python ("-" is the empty board:
 * echo "- 1" | ./a.out 23 7 6 solve).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime() under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c4core.h"

#define MIRROR_BELOW 20 /* native.py's ETC_BELOW and MIRROR_BELOW */
#define ETC_BELOW 36

static int WIDTH = 7, HEIGHT = 6;

static int search(c4_solver *s, uint64_t cur, uint64_t mask, int moves, int alpha, int beta)
{
    uint64_t threats = c4_winning_cells(s, cur ^ mask, mask);
    int status = c4_start(s, cur, mask, moves, threats, alpha, beta);
    while (status != C4_DONE)
        status = c4_resume(s, C4_UNKNOWN);
    return c4_result(s);
}

/* solver.py's Solver.score: the exact score of a position whose side to move cannot win at once. */
static int solve(c4_solver *s, uint64_t cur, uint64_t mask, int moves)
{
    int cells = WIDTH * HEIGHT, low = -((cells - moves) / 2), high = (cells + 1 - moves) / 2;
    int tried = 0;
    while (low < high) {
        int med = low + (high - low) / 2, r;
        if (med <= 0 && low / 2 < med)
            med = low / 2;
        else if (med >= 0 && high / 2 > med)
            med = high / 2;
        if (tried == 0 && low <= 0 && 0 < high)
            med = 0; /* who wins, then by the least margin (solver.py's Solver.score) */
        else if (tried == 1 && low >= 0)
            med = low;
        else if (tried == 1 && high <= 0)
            med = high - 1;
        tried++;
        r = search(s, cur, mask, moves, med, med + 1);
        if (r <= med)
            high = r;
        else
            low = r;
    }
    return low;
}

int main(int argc, char **argv)
{
    int solving = argc > 4 && strcmp(argv[4], "solve") == 0;
    int threads = argc > 5 ? atoi(argv[5]) : 1;
    clock_t started = clock();
    struct timespec wall, now, mine;
    int bits = argc > 1 ? atoi(argv[1]) : 20, wrong = 0, count = 0;
    char line[256];
    c4_solver *s;
    if (argc > 3) {
        WIDTH = atoi(argv[2]);
        HEIGHT = atoi(argv[3]);
    }
    s = c4_new(WIDTH, HEIGHT, bits, 4096, ETC_BELOW, MIRROR_BELOW);
    if (!s || c4_abi() != C4_ABI) {
        fprintf(stderr, "check_core: cannot make a solver\n");
        return 2;
    }
    if (threads > 1 && c4_set_threads(s, threads) != threads) {
        fprintf(stderr, "check_core: cannot start %d threads\n", threads);
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &wall);
    while (fgets(line, sizeof line, stdin)) {
        char moves[64];
        int expected, i, n, height[16] = {0}, above, below, ok;
        uint64_t cur = 0, mask = 0, bottom = 0, before;
        if (line[0] == '#' || sscanf(line, "%63s %d", moves, &expected) != 2)
            continue;
        n = strcmp(moves, "-") == 0 ? 0 : (int)strlen(moves);
        for (i = 0; i < n; i++) {
            int c = moves[i] - '1';
            cur ^= mask; /* the side to move after this move: the other's stones */
            mask |= (uint64_t)1 << (c * (HEIGHT + 1) + height[c]++);
        }
        for (i = 0; i < WIDTH; i++)
            bottom |= (uint64_t)1 << (i * (HEIGHT + 1));
        before = c4_nodes(s);
        if (c4_winning_cells(s, cur, mask) & (mask + bottom)) {
            above = below = (WIDTH * HEIGHT + 1 - n) / 2; /* wins with its next stone */
            ok = above == expected;
        } else if (solving) {
            above = below = solve(s, cur, mask, n);
            ok = above == expected;
        } else {
            above = search(s, cur, mask, n, expected, expected + 1);    /* <= expected */
            below = search(s, cur, mask, n, expected - 1, expected);    /* > expected - 1 */
            ok = above <= expected && below > expected - 1;
        }
        if (threads > 1)
            printf("%s %d %d %d %s\n", moves, expected, above, below, ok ? "ok" : "WRONG");
        else
            printf("%s %d %d %d %llu %s\n", moves, expected, above, below,
                   (unsigned long long)(c4_nodes(s) - before), ok ? "ok" : "WRONG");
        wrong += !ok;
        count++;
    }
    if (threads > 1)
        printf("positions %d wrong %d nodes %llu (main search %llu)\n", count, wrong,
               (unsigned long long)c4_all_nodes(s), (unsigned long long)c4_nodes(s));
    else
        printf("positions %d wrong %d nodes %llu\n", count, wrong, (unsigned long long)c4_nodes(s));
    if (solving) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mine);
        printf("CPU %.2f s wall %.2f s threads %d (main search's CPU %.2f s)\n",
               (double)(clock() - started) / CLOCKS_PER_SEC,
               (double)(now.tv_sec - wall.tv_sec) + 1e-9 * (double)(now.tv_nsec - wall.tv_nsec), threads,
               (double)mine.tv_sec + 1e-9 * (double)mine.tv_nsec);
    }
    c4_free(s);
    return wrong ? 1 : 0;
}
