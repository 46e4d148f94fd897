/* The exact solver's native core: the search of sensehat_c4/engine/solver.py in C99, with more
 * ways to save work (so the same answers, after fewer positions).
 *
 * What solver.py does: negamax with alpha-beta on two bitboards, null windows, "non-losing
 * moves", moves ordered by the threats they make, the parity rules (claimeven, odd threats)
 * and enhanced transposition cutoffs.  What this core adds:
 *   - a position and its mirror image share a table entry (the key is the smaller of the two)
 *     while fewer than `mirror_below` stones are on the board;
 *   - buckets of two entries: the first keeps the entry whose search took more positions, the
 *     second the latest, so the expensive results stay;
 *   - threats are counted only where they can matter (not right above an opponent's threat),
 *     those on the rows that favour the mover (Allis' odd and even threats) counting double and
 *     those right above a cell the opponent can play next (it cannot play there) more;
 *   - a move after which the opponent cannot stop a four with the next stone is seen at once
 *     (the best score there is), and without one the score is at most a win a stone later;
 *   - the parity bounds hold with columns of both parities: a player with an even number of
 *     empty cells ahead answers a move in an even column right above it and one in an odd
 *     column in another odd column, so its opponent gets at most the leader's rows of the even
 *     columns and every empty cell of the odd ones (solver.py: only when every column is even,
 *     or after the one odd column is played);
 *   - a position with one move only (the others lose at once), whose bounds do not decide it,
 *     is not a node of its own: its frame goes on with the position after that move.
 *
 * Portable C99: 64-bit unsigned arithmetic only, a GCC/Clang builtin for popcount with a
 * plain fallback.  The recursion is an explicit stack, so a search can return to its caller
 * (a limit check, a book leaf) and resume where it was.  See c4core.h.
 *
 * Threads (lazy SMP with ABDADA's deferral): c4_set_threads() starts helper threads (POSIX
 * threads) that search the main search's root with the same window, sharing its table, each
 * with its own stack.  A thread marks the position it is searching (those with at least
 * MARK_EMPTY empty cells) in a small shared array, and a thread about to search a move whose
 * position another thread has marked puts that move last (once; never the first move of a
 * node, which every thread searches: it decides most cutoffs): so the
 * threads split the moves of a node among them, and by the time a thread comes back to a move
 * put last, the table mostly holds its result (Weill's ABDADA, as simplified by Kerrigan).
 * A random jitter of the helpers' move order near the root, as some lazy SMP searches do,
 * searched more positions here.  The knobs were tuned with tests/native/lockstep.c (threads
 * taking turns, so the figures do not depend on the machine's load).  The main search stays
 * the caller's: it returns to the caller every `check_every` nodes and at book leaves as before
 * while the helpers search on (they never return to the caller, look up no book, and stop
 * within 64 of their nodes when told).  Helpers join a search once it has run JOIN_AFTER nodes
 * (so a small search costs no thread wake-up), and the first thread to finish gives the answer
 * (the main search looks every 64 nodes, without returning to the caller): any window search's
 * result is a true bound, whichever thread found it, so the scores are those of one thread
 * (only the node counts differ).  A table entry is one 64-bit word read and written whole
 * (relaxed atomics), so an entry is never torn: it holds the bounds of the position its tag
 * names; a mark read stale only changes an order.  Without POSIX threads or lock-free 64-bit
 * atomics (an ARMv6 target) the core is built with one thread.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* mmap() and madvise() under -std=c99 */
#endif
#include "c4core.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/prctl.h>
#endif

#if !defined(C4_NO_THREADS) && (defined(__unix__) || defined(__APPLE__)) && defined(__GNUC__) \
    && defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define C4_THREADS 1
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define C4_THREADS 0
#define LOAD(p) (*(p))
#define STORE(p, v) (*(p) = (v))
#endif
#define MAX_THREADS 64
#ifndef JOIN_AFTER /* (the knobs can be set with -D: tests/native/lockstep.c tunes them) */
#define JOIN_AFTER 1024   /* helpers join a search after this many of the main search's nodes */
#endif
#define HELPER_CHECK 63   /* a helper looks at the stop flag every 64 nodes; the main search at the helpers' answer */
#define C4_POLL 3         /* run(): the main search's look at its helpers, every 64 nodes (never to the caller) */
#define LONELY 24         /* a helper stops after 2 ** LONELY nodes without a look of the main search */
#define MARK_BITS 14      /* the marks of positions being searched: 2 ** MARK_BITS slots */
#ifndef MARK_EMPTY
#define MARK_EMPTY 14      /* positions with at least this many empty cells are marked */
#endif
#ifndef DEFER_FROM
#define DEFER_FROM 1       /* the first move of a node is never put last */
#endif

#define MAX_WIDTH 15
#define OFFSET 64 /* bounds are stored as score + 64 in 7 bits */

/* A table entry: tag << TAG_SHIFT | work << 14 | lower + 64 << 7 | upper + 64, where work is
 * the bit length of the positions its search took (at most 31) and tag identifies the key
 * within its bucket (never 0, so an empty entry matches no position; see bucket_of()). */
#define TAG_SHIFT 19
#define TAG_BITS (64 - TAG_SHIFT)
#define WORK_MAX 31

typedef struct {
    uint64_t cur, mask, threats;
    uint64_t bucket, tag, entered;
    uint64_t move[MAX_WIDTH], wins[MAX_WIDTH];
    uint64_t ids[MAX_WIDTH]; /* with threads: the children's marks (0: not worked out) */
    uint64_t deferred; /* with threads: the moves put last because another thread was searching them */
    int moves, alpha, beta, low, high, start_alpha;
    int count, next;
    int sign; /* -1 after an odd number of forced moves followed in this frame (see expand()) */
    int marked; /* with threads: 1 + the slot of `busy` this node marked, or 0 */
} frame;

enum { ENTER, CHECKED, LEAF, BODY, RETURNED };

/* One search: the main one (the caller's) or a helper thread's. */
typedef struct {
    c4_solver *s;
    frame *stack;
    int sp, state, ret, result;
    uint64_t nodes, check_mask;
    int poll;            /* the main search with helpers: run() returns C4_POLL every 64 nodes */
    int leaf_ply;        /* the main search's: the solver's; a helper's: -1 (no book) */
    int active;          /* a search started and not finished (its marks to take back if dropped) */
    char apart[64];      /* a cache line between what one thread writes at every node and the next's */
} worker;

struct c4_solver {
    int width, height, stride, cells, etc_below, mirror_below, leaf_ply;
    uint64_t bottom, board, rows_leader, rows_follower, column_bits;
    uint64_t column[MAX_WIDTH];   /* column masks by column */
    int order[MAX_WIDTH];         /* columns from the centre out */
    uint64_t *table;
    void *mapped;        /* the mapping the table lies in (Linux), else NULL: the table was calloc'ed */
    size_t mapped_bytes;
    uint64_t key_bits, buckets_bits; /* keys are below 2 ** key_bits; 2 ** buckets_bits buckets */
#if C4_THREADS
    uint64_t *marks;                /* atomics: keys + 1 of positions some thread is searching (ABDADA) */
#endif
    char apart[64];      /* the fields above, read at every node by every thread, on cache lines of their own */
    worker main;
    uint64_t start_nodes;           /* the main search's nodes when it started */
    uint64_t root_cur, root_mask, root_threats;
    int root_moves, root_alpha, root_beta;
#if C4_THREADS
    int helpers;                    /* helper threads running */
    worker *help;
    pthread_t *ids;
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    unsigned generation;            /* searches handed to the helpers */
    int busy, quit, joined;         /* helpers on a search; told to end; helpers joined this search */
    int busy_hint;                  /* atomic: `busy` as last set, read without the lock */
    int stop, found, found_result;  /* atomics: stop searching; a helper finished first, its result */
    uint64_t heartbeat;             /* atomic: the main search's looks (check-ins) */
    uint64_t helper_nodes;          /* nodes of helpers' finished searches */
    pid_t owner;                    /* the process the helpers run in (a child of fork() has none) */
#endif
};

static int popcount64(uint64_t x)
{
#if defined(__GNUC__) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x); /* one instruction */
#else /* a library call elsewhere (x86-64 without -mpopcnt, armhf): this is faster */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static int bit_length(uint64_t x)
{
    int n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static uint64_t winning(const c4_solver *s, uint64_t pos, uint64_t mask)
{
    const int d[3] = {s->stride, s->stride - 1, s->stride + 1};
    uint64_t r = (pos << 1) & (pos << 2) & (pos << 3), p;
    int i;
    for (i = 0; i < 3; i++) {
        p = (pos << d[i]) & (pos << 2 * d[i]);
        r |= p & (pos << 3 * d[i]);
        r |= p & (pos >> d[i]);
        p = (pos >> d[i]) & (pos >> 2 * d[i]);
        r |= p & (pos << d[i]);
        r |= p & (pos >> 3 * d[i]);
    }
    return r & (s->board ^ mask);
}

static int has_four(const c4_solver *s, uint64_t x)
{
    const int d[4] = {1, s->stride, s->stride - 1, s->stride + 1};
    int i;
    for (i = 0; i < 4; i++) {
        uint64_t m = x & (x >> d[i]);
        if (m & (m >> 2 * d[i]))
            return 1;
    }
    return 0;
}

static uint64_t column_of(const c4_solver *s, uint64_t cell)
{
    int c;
    for (c = 0; c < s->width; c++)
        if (cell & s->column[c])
            return s->column[c];
    return 0;
}

/* The columns of the cells `cells` (the next cells of the odd columns: those columns). */
static uint64_t odd_columns_of(const c4_solver *s, uint64_t cells)
{
    uint64_t r = 0;
    int c;
    for (c = 0; c < s->width; c++)
        if (cells & s->column[c])
            r |= s->column[c];
    return r;
}

/* The key of the position seen in a mirror: its columns in the reverse order. */
static uint64_t mirror_key(const c4_solver *s, uint64_t key)
{
    uint64_t r = 0;
    int c;
    for (c = 0; c < s->width; c++)
        r |= ((key >> (c * s->stride)) & s->column_bits) << ((s->width - 1 - c) * s->stride);
    return r;
}

/* The table key of (cur, mask): cur + mask (each column's stones plus the mover's fit its bits),
 * or its mirror image's if smaller and the position is early enough. */
static uint64_t key_of(const c4_solver *s, uint64_t cur, uint64_t mask, int moves)
{
    uint64_t key = cur + mask;
    if (moves < s->mirror_below) {
        uint64_t other = mirror_key(s, key);
        if (other < key)
            return other;
    }
    return key;
}

/* The bucket of a key, and in *tag what tells the key apart within it.  The key is mixed by a
 * one-to-one map of its key_bits bits (times an odd number, then its top bits folded onto
 * the low ones): the low bits of the result are the bucket, the rest plus 1 the tag, so
 * bucket and tag give the key back and never collide. */
static uint64_t bucket_of(const c4_solver *s, uint64_t key, uint64_t *tag)
{
    const uint64_t all = (s->key_bits >= 64 ? 0 : ((uint64_t)1 << s->key_bits)) - 1;
    uint64_t h = (key * 0x9E3779B97F4A7C15ULL) & all;
    if (s->key_bits > s->buckets_bits)
        h ^= h >> (s->key_bits - s->buckets_bits);
    *tag = (h >> s->buckets_bits) + 1;
    return h & (((uint64_t)1 << s->buckets_bits) - 1);
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif

/* The entry of (bucket, tag), or 0. */
static uint64_t probe(const c4_solver *s, uint64_t bucket, uint64_t tag)
{
    const uint64_t *b = &s->table[2 * bucket];
    uint64_t e = LOAD(&b[0]);
    if (e >> TAG_SHIFT == tag)
        return e;
    e = LOAD(&b[1]);
    if (e >> TAG_SHIFT == tag)
        return e;
    return 0;
}

static int entry_lower(uint64_t e) { return (int)((e >> 7) & 127) - OFFSET; }
static int entry_upper(uint64_t e) { return (int)(e & 127) - OFFSET; }
static int entry_work(uint64_t e) { return (int)((e >> 14) & 31); }

/* Keeps bounds [low, high] of a position whose search took `nodes`: the bucket's first entry
 * holds the costlier search, the second the latest one. */
static void store(c4_solver *s, uint64_t bucket, uint64_t tag, int low, int high, uint64_t nodes)
{
    uint64_t *b = &s->table[2 * bucket];
    uint64_t first = LOAD(&b[0]);
    int work = bit_length(nodes);
    uint64_t entry;
    if (work > WORK_MAX)
        work = WORK_MAX;
    entry = (tag << TAG_SHIFT) | ((uint64_t)work << 14)
            | ((uint64_t)(low + OFFSET) << 7) | (uint64_t)(high + OFFSET);
    if (first >> TAG_SHIFT == tag) {
        if (work < entry_work(first))
            entry = (entry & ~((uint64_t)31 << 14)) | (first & ((uint64_t)31 << 14));
        STORE(&b[0], entry);
    } else if (work >= entry_work(first)) {
        STORE(&b[1], first);
        STORE(&b[0], entry);
    } else {
        STORE(&b[1], entry);
    }
}

/* A zeroed table of `entries` entries.  On Linux a table of 4 MB or more is mapped on its own,
 * aligned to 2 MB and marked for huge pages (fewer TLB misses on a memory-bound search: 10-15%
 * faster on 7x6's empty board), its pages still taken only as they are written. */
static uint64_t *allocate_table(c4_solver *s, size_t entries)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t bytes = entries * sizeof(uint64_t), huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        char *base = mmap(NULL, bytes + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base != MAP_FAILED) {
            char *aligned = base + (huge - (size_t)((uintptr_t)base % huge)) % huge;
            madvise(aligned, bytes, MADV_HUGEPAGE); /* a hint: ignored where huge pages are off */
            s->mapped = base;
            s->mapped_bytes = bytes + huge;
            return (uint64_t *)aligned;
        }
    }
#else
    (void)s;
#endif
    return calloc(entries, sizeof(uint64_t));
}

int c4_abi(void) { return C4_ABI; }

static void stop_helpers(c4_solver *s);

c4_solver *c4_new(int width, int height, int table_bits, int check_every, int etc_below, int mirror_below)
{
    c4_solver *s;
    int c, r, i;
    if (width < 1 || width > MAX_WIDTH || height < 1 || width * (height + 1) > 62)
        return NULL;
    /* the tag, below 2 ** (width * (height + 1) - (table_bits - 1)) + 1, fits TAG_BITS */
    if (table_bits < 10 || table_bits > 30 || width * (height + 1) + 1 - (table_bits - 1) > TAG_BITS)
        return NULL;
    if (check_every < 1 || (check_every & (check_every - 1)))
        return NULL;
    s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->width = width;
    s->height = height;
    s->stride = height + 1;
    s->cells = width * height;
    s->etc_below = etc_below;
    s->mirror_below = mirror_below;
    s->leaf_ply = -1;
    s->column_bits = ((uint64_t)1 << s->stride) - 1;
    for (c = 0; c < width; c++) {
        s->bottom |= (uint64_t)1 << (c * s->stride);
        s->column[c] = (((uint64_t)1 << height) - 1) << (c * s->stride);
    }
    s->board = s->bottom * (((uint64_t)1 << height) - 1);
    /* the leader's rows: an even number of cells from the top of their column, counting the
     * cell (rows 1, 3, 5 of 6; rows 2 and 4 of 5); the follower's: the others (position.py) */
    for (r = 0; r < height; r++)
        if ((height - r) % 2 == 0)
            s->rows_leader |= s->bottom << r;
    s->rows_follower = s->board ^ s->rows_leader;
    for (i = 0; i < width; i++) /* 3, 2, 4, 1, 5, 0, 6 for 7 columns */
        s->order[i] = width / 2 + (i % 2 ? -(i + 1) / 2 : i / 2);
    s->key_bits = (uint64_t)(width * s->stride);
    s->buckets_bits = (uint64_t)(table_bits - 1);
    s->main.s = s;
    s->main.leaf_ply = -1;
    s->main.check_mask = (uint64_t)check_every - 1;
    s->table = allocate_table(s, (size_t)1 << table_bits);
    s->main.stack = calloc((size_t)s->cells + 2, sizeof *s->main.stack);
    if (!s->table || !s->main.stack) {
        c4_free(s);
        return NULL;
    }
    return s;
}

static void free_table(c4_solver *s)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (s->mapped) {
        munmap(s->mapped, s->mapped_bytes);
        return;
    }
#endif
    free(s->table);
}

uint64_t c4_table_bytes(const c4_solver *s) { return ((uint64_t)2 << s->buckets_bits) * sizeof *s->table; }
uint64_t c4_nodes(const c4_solver *s) { return s->main.nodes; }
void c4_set_leaf_ply(c4_solver *s, int ply) { s->leaf_ply = s->main.leaf_ply = ply; }
int c4_result(const c4_solver *s) { return s->main.result; }
uint64_t c4_leaf_current(const c4_solver *s) { return s->main.stack[s->main.sp].cur; }
uint64_t c4_leaf_mask(const c4_solver *s) { return s->main.stack[s->main.sp].mask; }

uint64_t c4_winning_cells(const c4_solver *s, uint64_t position, uint64_t mask)
{
    return winning(s, position, mask);
}

/* 1 if the opponent, to move in `mask` with our winning cells `r` (and none of its own it can
 * play), cannot stop a four with our next stone: two cells to block, or every move under one. */
static int wins_next(const c4_solver *s, uint64_t mask, uint64_t r)
{
    uint64_t reply = (mask + s->bottom) & s->board, block = reply & r;
    if (block & (block - 1))
        return 1;
    return !((block ? block : reply) & ~(r >> 1));
}

/* The node's work before its children: 1 and *value if that decides it, else 0 with the
 * children ready in f (solver.py's negamax up to its loop over the moves). */
static int expand(worker *w, frame *f, int *value)
{
    c4_solver *s = w->s;
    const uint64_t board = s->board;
    const int cells = s->cells, width = s->width;
    uint64_t cur = f->cur, mask = f->mask, threats = f->threats;
    int moves = f->moves;
    int alpha = f->alpha, beta = f->beta, low, high, n = 0, i, j, etc, single;
    int child_col[MAX_WIDTH]; /* the children's columns */
    uint64_t child_bucket[MAX_WIDTH], child_tag[MAX_WIDTH];
    uint64_t possible_all, possible, forced, key = 0, bucket = 0, tag = 0, entry;

again:
    possible_all = possible = (mask + s->bottom) & board;
    forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1)) {
            *value = -((cells - moves) / 2);
            return 1;
        }
        possible = forced;
    }
    possible &= ~(threats >> 1);
    if (!possible) {
        *value = -((cells - moves) / 2);
        return 1;
    }
    if (moves >= cells - 2) {
        *value = 0;
        return 1;
    }
    /* the table bucket of this position and (for the cutoffs below) of its children: fetched
     * from memory while the bounds and the move order are worked out */
    single = !(possible & (possible - 1)) && moves + 1 != w->leaf_ply;
    if (!single) {
        key = key_of(s, cur, mask, moves);
        bucket = bucket_of(s, key, &tag);
        PREFETCH(&s->table[2 * bucket]);
    }
    etc = moves < s->etc_below && (possible & (possible - 1));
    if (etc) {
        uint64_t opp = cur ^ mask;
        for (i = 0; i < width; i++) {
            uint64_t move = possible & s->column[i];
            if (move) {
                child_bucket[i] = bucket_of(s, key_of(s, opp, mask | move, moves + 1), &child_tag[i]);
                PREFETCH(&s->table[2 * child_bucket[i]]);
            }
        }
    }
    low = -((cells - 2 - moves) / 2);
    high = (cells - 1 - moves) / 2;
    {
        /* the parity rules of solver.py, "rows 1, 3, 5" being the leader's rows */
        uint64_t q = possible_all & s->rows_follower; /* next cells of the columns with an odd number of empty cells */
        if ((moves ^ cells) & 1) {                   /* an odd number of odd columns */
            uint64_t empty = board ^ mask, odd = threats & s->rows_leader;
            if (alpha < 1 && !has_four(s, (cur ^ mask) | (empty & s->rows_leader))) {
                /* we play the next cell of one odd column, then follow up as in the even case below */
                uint64_t x = q;
                while (x && low < 1) {
                    uint64_t bit = x & (0 - x), rest = empty & odd_columns_of(s, q ^ bit);
                    x ^= bit;
                    if (!rest || !has_four(s, (cur ^ mask) | (empty & s->rows_leader) | rest))
                        low = has_four(s, cur | (empty & s->rows_follower & ~rest)) ? 1 : 0;
                }
            }
            if (odd && beta > -1) {
                uint64_t odd_columns = 0, x = q;
                while (x) {
                    uint64_t bit = x & (0 - x);
                    odd_columns |= column_of(s, bit);
                    x ^= bit;
                }
                odd &= odd_columns;
                if (odd) {
                    uint64_t gets = cur | (empty & s->rows_leader & ~odd_columns);
                    while (odd) {
                        uint64_t cell = odd & (0 - odd), column = column_of(s, cell);
                        odd &= ~column;
                        if (!has_four(s, gets | ((cell - (q & column)) & s->rows_follower)
                                          | (empty & odd_columns & ~column))) {
                            high = -1;
                            break;
                        }
                    }
                }
            }
        } else if (beta > -1) {
            /* the opponent answers a move in an even column right above it, one in an odd column
             * in another odd column: it gets the follower's rows of the even columns, we at most
             * the leader's rows there and every empty cell of the odd ones */
            uint64_t empty = board ^ mask, rest = q ? empty & odd_columns_of(s, q) : 0;
            if (!has_four(s, cur | (empty & s->rows_leader) | rest))
                high = has_four(s, (cur ^ mask) | (empty & s->rows_follower & ~rest)) ? -1 : 0;
        }
    }
    if (alpha < low) {
        alpha = low;
        if (alpha >= beta) {
            *value = alpha;
            return 1;
        }
    }
    if (beta > high) {
        beta = high;
        if (alpha >= beta) {
            *value = beta;
            return 1;
        }
    }
    if (single) {
        /* one move only (and this position's bounds did not decide it): this frame goes on with
         * the position after it (no node, no table entry of its own: its score is the negation
         * of that position's; finish() applies f->sign) */
        uint64_t r = winning(s, cur | possible, mask | possible);
        int t;
        if (wins_next(s, mask | possible, r)) {
            *value = (cells - 1 - moves) / 2;
            return 1;
        }
        cur ^= mask;
        mask |= possible;
        moves++;
        threats = r;
        t = alpha;
        alpha = -beta;
        beta = -t;
        f->cur = cur;
        f->mask = mask;
        f->moves = moves;
        f->threats = threats;
        f->sign = -f->sign;
        goto again;
    }
    entry = probe(s, bucket, tag);
    if (entry) {
        int t = entry_lower(entry);
        if (t > low) {
            low = t;
            if (alpha < low) {
                alpha = low;
                if (alpha >= beta) {
                    *value = alpha;
                    return 1;
                }
            }
        }
        t = entry_upper(entry);
        if (t < high) {
            high = t;
            if (beta > high) {
                beta = high;
                if (alpha >= beta) {
                    *value = beta;
                    return 1;
                }
            }
        }
    }
    if (possible & (possible - 1)) {
        /* most threats made where they can matter
         * (those on the rows that favour the mover double, those right above a cell the opponent
         * can play next, which it then cannot play, more), then from the centre out */
        int rank[MAX_WIDTH];
        uint64_t opponent_threats = threats, good = ((cells - moves) & 1) ? s->rows_follower : s->rows_leader;
        for (i = 0; i < width; i++) {
            int c = s->order[i];
            uint64_t move = possible & s->column[c];
            if (move) {
                uint64_t r = winning(s, cur | move, mask | move);
                uint64_t useful = r & ~(opponent_threats << 1);
                if (wins_next(s, mask | move, r)) {
                    *value = (cells - 1 - moves) / 2; /* the best score there is */
                    store(s, bucket, tag, *value, *value, 1);
                    return 1;
                }
                uint64_t reply = ((mask | move) + s->bottom) & board;
                int k = ((4 * popcount64(useful & good) + 2 * popcount64(useful & ~good)
                          + 3 * popcount64(useful & (reply << 1))) << 8) | (width - i);
                for (j = n; j > 0 && rank[j - 1] < k; j--) {
                    rank[j] = rank[j - 1];
                    f->move[j] = f->move[j - 1];
                    f->wins[j] = f->wins[j - 1];
                    child_col[j] = child_col[j - 1];
                }
                child_col[j] = c;
                rank[j] = k;
                f->move[j] = move;
                f->wins[j] = r;
                n++;
            }
        }
        /* no move wins with our next stone: we win with the one after it at best */
        if (high > (cells - 3 - moves) / 2) {
            high = (cells - 3 - moves) / 2;
            if (beta > high) {
                beta = high;
                if (alpha >= beta) {
                    *value = beta;
                    return 1;
                }
            }
        }
#if C4_THREADS
        if (s->marks) /* the children's marks, from their buckets (see mark()) */
            for (i = 0; i < n; i++)
                f->ids[i] = etc ? (child_tag[child_col[i]] << s->buckets_bits) | child_bucket[child_col[i]] : 0;
#endif
        if (etc) {
            /* enhanced transposition cutoff: a child already known to be bad enough for the opponent */
            for (i = 0; i < n; i++) {
                uint64_t centry = probe(s, child_bucket[child_col[i]], child_tag[child_col[i]]);
                if (centry) {
                    int score = -entry_upper(centry);
                    if (score >= beta) {
                        store(s, bucket, tag, score, high, 1);
                        *value = score;
                        return 1;
                    }
                }
            }
        }
    } else {
        f->move[0] = possible;
        f->wins[0] = winning(s, cur | possible, mask | possible);
        if (wins_next(s, mask | possible, f->wins[0])) {
            *value = (cells - 1 - moves) / 2;
            return 1;
        }
        n = 1;
    }
    f->alpha = f->start_alpha = alpha;
    f->beta = beta;
    f->low = low;
    f->high = high;
    f->bucket = bucket;
    f->deferred = 0;
    f->tag = tag;
    f->count = n;
    f->next = 0;
    return 0;
}

/* Enters the node of stack depth `sp`: its search starts at the next run(). */
static void enter(worker *w, int sp, uint64_t cur, uint64_t mask, int moves, uint64_t threats,
                  int alpha, int beta)
{
    frame *f = &w->stack[sp];
    f->cur = cur;
    f->mask = mask;
    f->moves = moves;
    f->threats = threats;
    f->alpha = alpha;
    f->beta = beta;
    f->entered = w->nodes;
    f->sign = 1;
    f->marked = 0;
    w->sp = sp;
    w->state = ENTER;
}

/* A node's search is over with `value`: 1 if it was the root (the result), else 0 with
 * the value handed to its parent. */
static int finish(worker *w, int value)
{
    value *= w->stack[w->sp].sign;
    if (w->sp == 0) {
        w->result = value;
        return 1;
    }
    w->sp--;
    w->ret = value;
    w->state = RETURNED;
    return 0;
}

#if C4_THREADS
static unsigned mark_slot(uint64_t key) { return (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> (64 - MARK_BITS)); }

/* A position's mark: its bucket and tag, which tell positions apart (bucket_of() is one-to-one;
 * never 0: the tag is not). */
static uint64_t mark_of(const c4_solver *s, uint64_t bucket, uint64_t tag) { return (tag << s->buckets_bits) | bucket; }

/* Marks the node of `f` as being searched (ABDADA: another thread at its parent searches its
 * other moves first), if it is large enough to be worth it. */
static void mark(c4_solver *s, frame *f)
{
    if (s->marks && s->cells - f->moves >= MARK_EMPTY) {
        uint64_t id = mark_of(s, f->bucket, f->tag);
        unsigned slot = mark_slot(id);
        STORE(&s->marks[slot], id);
        f->marked = (int)slot + 1;
    }
}

static void unmark(c4_solver *s, frame *f)
{
    if (f->marked) {
        if (s->marks) { /* (none after a fork: forget_if_forked()) */
            uint64_t *slot = &s->marks[f->marked - 1];
            if (LOAD(slot) == mark_of(s, f->bucket, f->tag))
                STORE(slot, 0);
        }
        f->marked = 0;
    }
}

/* Puts last the moves, from the next one on, that another thread is searching (each once; never
 * the first move of a node, whose bound the others need). */
static void defer(c4_solver *s, frame *f)
{
    int tries;
    if (!s->marks || f->next < DEFER_FROM || s->cells - f->moves - 1 < MARK_EMPTY)
        return;
    for (tries = f->count - f->next; tries > 1; tries--) {
        uint64_t move = f->move[f->next], wins = f->wins[f->next], id = f->ids[f->next], tag;
        int i;
        if (f->deferred & move)
            return;
        if (!id) {
            uint64_t bucket = bucket_of(s, key_of(s, f->cur ^ f->mask, f->mask | move, f->moves + 1), &tag);
            id = mark_of(s, bucket, tag);
        }
        if (LOAD(&s->marks[mark_slot(id)]) != id)
            return;
        for (i = f->next; i < f->count - 1; i++) {
            f->move[i] = f->move[i + 1];
            f->wins[i] = f->wins[i + 1];
            f->ids[i] = f->ids[i + 1];
        }
        f->move[f->count - 1] = move;
        f->wins[f->count - 1] = wins;
        f->ids[f->count - 1] = id;
        f->deferred |= move;
    }
}

/* Takes back the marks of a search dropped before its end. */
static void unmark_stack(worker *w)
{
    int i;
    for (i = 0; i <= w->sp; i++)
        unmark(w->s, &w->stack[i]);
}
#else
#define mark(s, f) ((void)0)
#define unmark(s, f) ((void)0)
#define defer(s, f) ((void)0)
#define unmark_stack(w) ((void)0)
#endif

/* Runs the search until it ends, a look is due (a limit check, or a helper's look at the
 * stop flag) or a leaf needs its score. */
static int run(worker *w)
{
    c4_solver *s = w->s;
    for (;;) {
        frame *f = &w->stack[w->sp];
        int value;
        switch (w->state) {
        case ENTER:
            w->nodes++;
            if ((w->nodes & w->check_mask) == 0) {
                w->state = CHECKED;
                return C4_CHECK;
            }
            if (w->poll && (w->nodes & HELPER_CHECK) == 0) {
                w->state = CHECKED;
                return C4_POLL;
            }
            /* fall through */
        case CHECKED:
            if (f->moves == w->leaf_ply) {
                w->state = LEAF;
                return C4_LEAF;
            }
            /* fall through */
        case BODY:
            if (expand(w, f, &value))
                goto done;
            mark(s, f);
            break; /* to the first child */
        case RETURNED: {
            int score = -w->ret;
            if (score >= f->beta) {
                store(s, f->bucket, f->tag, score, f->high, w->nodes - f->entered);
                value = score;
                goto done;
            }
            if (score > f->alpha)
                f->alpha = score;
            if (++f->next < f->count)
                break; /* to the next child */
            if (f->alpha > f->start_alpha) /* exact */
                store(s, f->bucket, f->tag, f->alpha, f->alpha, w->nodes - f->entered);
            else /* failed low: an upper bound */
                store(s, f->bucket, f->tag, f->low, f->alpha, w->nodes - f->entered);
            value = f->alpha;
            goto done;
        }
        default: /* LEAF: c4_resume() moves on */
            return C4_LEAF;
        }
        defer(s, f);
        enter(w, w->sp + 1, f->cur ^ f->mask, f->mask | f->move[f->next], f->moves + 1, f->wins[f->next],
              -f->beta, -f->alpha);
        continue;
    done:
        unmark(s, f);
        if (finish(w, value))
            return C4_DONE;
    }
}

#if C4_THREADS
/* A helper thread: waits for a search, searches its root with the main search's window until
 * it finishes (its result then answers the search) or is told to stop, and waits again. */
static void *helper(void *arg)
{
    worker *w = arg;
    c4_solver *s = w->s;
    unsigned seen = 0;
#if defined(__linux__)
    prctl(PR_SET_NAME, "c4core-helper", 0, 0, 0); /* what top -H, ps -L and the tests see */
#endif
    for (;;) {
        int status;
        uint64_t beat, since;
        pthread_mutex_lock(&s->lock);
        while (!s->quit && s->generation == seen)
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->quit) {
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        seen = s->generation;
        enter(w, 0, s->root_cur, s->root_mask, s->root_moves, s->root_threats, s->root_alpha, s->root_beta);
        pthread_mutex_unlock(&s->lock);
        beat = LOAD(&s->heartbeat);
        since = w->nodes;
        status = C4_CHECK;
        while (status == C4_CHECK && !LOAD(&s->stop)) {
            uint64_t now = LOAD(&s->heartbeat);
            if (now != beat) {
                beat = now;
                since = w->nodes;
            } else if (w->nodes - since >= ((uint64_t)1 << LONELY)) {
                break; /* the main search has not looked in for long: dropped without c4_halt() */
            }
            status = run(w);
        }
        if (status != C4_DONE)
            unmark_stack(w);
        pthread_mutex_lock(&s->lock);
        if (status == C4_DONE && !LOAD(&s->stop)) {
            s->found_result = w->result;
            __atomic_store_n(&s->found, 1, __ATOMIC_RELEASE);
            STORE(&s->stop, 1);
        }
        s->helper_nodes += w->nodes;
        w->nodes = 0;
        STORE(&s->busy_hint, s->busy - 1);
        if (--s->busy == 0)
            pthread_cond_broadcast(&s->idle);
        pthread_mutex_unlock(&s->lock);
    }
}

/* Tells the helpers to drop their search (they do within 64 of their nodes; not waited for: a
 * helper that another process keeps off its core would hold up the caller). */
static void drop_helpers(c4_solver *s)
{
    if (s->helpers)
        STORE(&s->stop, 1);
}

/* Tells the helpers to drop their search and waits until they have. */
static void wait_helpers(c4_solver *s)
{
    if (!s->helpers)
        return;
    STORE(&s->stop, 1);
    pthread_mutex_lock(&s->lock);
    while (s->busy)
        pthread_cond_wait(&s->idle, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

/* Hands the main search's root to the helpers if they have all let go of the last search
 * (else 0: the main search tries again 64 nodes later); so a helper's answer is always to
 * the search that is running. */
static int join_helpers(c4_solver *s)
{
    if (LOAD(&s->busy_hint))
        return 0;
    pthread_mutex_lock(&s->lock);
    if (s->busy) {
        pthread_mutex_unlock(&s->lock);
        return 0;
    }
    STORE(&s->stop, 0);
    STORE(&s->found, 0);
    s->busy = s->helpers;
    STORE(&s->busy_hint, s->busy);
    s->generation++;
    s->joined = 1;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    return 1;
}

/* In a child of fork(), which has none of the helper threads: forget them, the solver searches
 * with one thread (their memory is left: their mutex may have been held at the fork). */
static void forget_if_forked(c4_solver *s)
{
    if (s->help && getpid() != s->owner) {
        s->help = NULL;
        s->ids = NULL;
        s->marks = NULL;
        s->helpers = 0;
        s->busy = 0;
        s->main.poll = 0;
    }
}

/* Ends and joins the helper threads. */
static void stop_helpers(c4_solver *s)
{
    int i;
    forget_if_forked(s);
    if (!s->help)
        return;
    wait_helpers(s);
    pthread_mutex_lock(&s->lock);
    s->quit = 1;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    for (i = 0; i < s->helpers; i++)
        pthread_join(s->ids[i], NULL);
    for (i = 0; i < s->helpers; i++)
        free(s->help[i].stack);
    free(s->help);
    free(s->ids);
    free(s->marks);
    s->marks = NULL;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->idle);
    s->help = NULL;
    s->ids = NULL;
    s->helpers = 0;
    s->quit = 0;
    s->main.poll = 0;
}

int c4_set_threads(c4_solver *s, int threads)
{
    pthread_attr_t attr;
    sigset_t all, before;
    int i, n;
    stop_helpers(s);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads <= 1)
        return 1;
    n = threads - 1;
    s->help = calloc((size_t)n, sizeof *s->help);
    s->ids = calloc((size_t)n, sizeof *s->ids);
    s->marks = calloc((size_t)1 << MARK_BITS, sizeof *s->marks);
    if (!s->help || !s->ids || !s->marks || pthread_mutex_init(&s->lock, NULL)) {
        free(s->help);
        free(s->ids);
        free(s->marks);
        s->help = NULL;
        s->ids = NULL;
        s->marks = NULL;
        return 1;
    }
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->owner = getpid(); /* before any helper: stop_helpers() below frees only what this process owns */
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)256 << 10); /* its search's stack is on the heap */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before); /* the helpers take no signal: the caller's threads do */
    for (i = 0; i < n; i++) {
        worker *w = &s->help[i];
        w->s = s;
        w->leaf_ply = -1;
        w->check_mask = HELPER_CHECK;
        w->stack = calloc((size_t)s->cells + 2, sizeof *w->stack);
        if (!w->stack || pthread_create(&s->ids[i], &attr, helper, w)) {
            free(w->stack);
            break;
        }
        s->helpers++;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (!s->helpers) {
        stop_helpers(s); /* frees what was allocated */
        return 1;
    }
    s->main.poll = 1;
    return s->helpers + 1;
}

void c4_halt(c4_solver *s) { drop_helpers(s); }
int c4_threads(const c4_solver *s) { return s->helpers + 1; }
uint64_t c4_all_nodes(c4_solver *s)
{
    forget_if_forked(s);
    wait_helpers(s);
    return s->main.nodes + s->helper_nodes;
}
#else
static void forget_if_forked(c4_solver *s) { (void)s; }
static void drop_helpers(c4_solver *s) { (void)s; }
static void wait_helpers(c4_solver *s) { (void)s; }
static void stop_helpers(c4_solver *s) { (void)s; }
int c4_set_threads(c4_solver *s, int threads)
{
    (void)s;
    (void)threads;
    return 1;
}
void c4_halt(c4_solver *s) { (void)s; }
int c4_threads(const c4_solver *s)
{
    (void)s;
    return 1;
}
uint64_t c4_all_nodes(c4_solver *s) { return s->main.nodes; }
#endif

void c4_free(c4_solver *s)
{
    if (s) {
        stop_helpers(s);
        free_table(s);
        free(s->main.stack);
        free(s);
    }
}

void c4_clear(c4_solver *s)
{
    forget_if_forked(s);
    wait_helpers(s);
    memset(s->table, 0, (size_t)c4_table_bytes(s));
}

/* The main search ended: the helpers drop theirs. */
static int main_done(c4_solver *s)
{
    s->main.active = 0;
#if C4_THREADS
    if (s->helpers)
        STORE(&s->stop, 1);
#else
    (void)s;
#endif
    return C4_DONE;
}

/* The main search's run, with the helpers: they join once it has run JOIN_AFTER nodes, and a
 * helper's result ends it. */
static int main_run(c4_solver *s)
{
    for (;;) {
        int status = run(&s->main);
#if C4_THREADS
        if (s->helpers) {
            if (status == C4_DONE)
                return main_done(s);
            if (status == C4_CHECK)
                STORE(&s->heartbeat, LOAD(&s->heartbeat) + 1);
            if (status == C4_CHECK || status == C4_POLL) {
                if (s->joined) {
                    if (__atomic_load_n(&s->found, __ATOMIC_ACQUIRE)) { /* a helper finished first */
                        s->main.result = s->found_result;
                        return C4_DONE;
                    }
                } else if (s->main.nodes - s->start_nodes >= JOIN_AFTER
                           && (s->leaf_ply < 0 || s->root_moves > s->leaf_ply)) {
                    join_helpers(s); /* helpers look up no book: not below its leaves */
                }
            }
            if (status == C4_POLL)
                continue;
        }
#endif
        return status;
    }
}

int c4_start(c4_solver *s, uint64_t current, uint64_t mask, int moves, uint64_t threats,
             int alpha, int beta)
{
    forget_if_forked(s);
    drop_helpers(s);
    if (s->main.active)
        unmark_stack(&s->main);
    s->main.active = 1;
#if C4_THREADS
    s->joined = 0;
#endif
    s->root_cur = current;
    s->root_mask = mask;
    s->root_moves = moves;
    s->root_threats = threats;
    s->root_alpha = alpha;
    s->root_beta = beta;
    s->start_nodes = s->main.nodes;
    enter(&s->main, 0, current, mask, moves, threats, alpha, beta);
    return main_run(s);
}

int c4_resume(c4_solver *s, int leaf_score)
{
    if (s->main.state == LEAF) {
        if (leaf_score == C4_UNKNOWN)
            s->main.state = BODY;
        else if (finish(&s->main, leaf_score))
            return main_done(s);
    }
    return main_run(s);
}
