/* The exact solver's native core: the same search as sensehat_c4/engine/solver.py, node
 * for node (same move order, bounds, table and cutoffs, so the same node counts).
 *
 * Portable C99: 64-bit unsigned arithmetic only, a GCC/Clang builtin for popcount with a
 * plain fallback.  The recursion of solver.py is an explicit stack here, so a search can
 * return to its caller (a limit check, a book leaf) and resume where it was.  See c4core.h.
 */
#include "c4core.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WIDTH 16
#define OFFSET 64 /* bounds are stored as score + 64 in 7 bits */

typedef struct {
    uint64_t cur, mask, threats;
    uint64_t slot, tag;
    uint64_t move[MAX_WIDTH], wins[MAX_WIDTH];
    int moves, alpha, beta, low, high, start_alpha;
    int count, next;
} frame;

enum { ENTER, CHECKED, LEAF, BODY, RETURNED };

struct c4_solver {
    int width, height, stride, cells, etc_below, leaf_ply;
    uint64_t bottom, board, rows_leader, rows_follower, check_mask;
    uint64_t ordered[MAX_WIDTH];  /* column masks from the centre out */
    uint64_t column[MAX_WIDTH];   /* column masks by column */
    uint64_t *table, size, nodes;
    double inverse; /* 1.0 / size, for slot_of() */
    frame *stack;
    int sp, state, ret, result;
};

static int popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
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

/* key % size, and key / size + 1 in *tag (never 0, so an empty slot matches no position):
 * the quotient estimated with a double, then corrected (a division costs tens of cycles). */
static uint64_t slot_of(const c4_solver *s, uint64_t key, uint64_t *tag)
{
    uint64_t q = (uint64_t)((double)key * s->inverse);
    while (q * s->size > key)
        q--;
    while (key - q * s->size >= s->size)
        q++;
    *tag = q + 1;
    return key - q * s->size;
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif

static void store(c4_solver *s, uint64_t slot, uint64_t tag, int low, int high)
{
    s->table[slot] = (tag << 14) | ((uint64_t)(low + OFFSET) << 7) | (uint64_t)(high + OFFSET);
}

int c4_abi(void) { return C4_ABI; }

c4_solver *c4_new(int width, int height, int table_bits, int check_every, int etc_below)
{
    c4_solver *s;
    int c, r, i;
    if (width < 1 || width > MAX_WIDTH || height < 1 || width * (height + 1) > 62)
        return NULL;
    /* a table entry keeps key / size + 1 in its top 50 bits; key < 2 ** (width * (height + 1) + 1) */
    if (table_bits < 10 || table_bits > 30 || width * (height + 1) + 1 - table_bits > 49)
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
    s->leaf_ply = -1;
    s->check_mask = (uint64_t)check_every - 1;
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
        s->ordered[i] = s->column[width / 2 + (i % 2 ? -(i + 1) / 2 : i / 2)];
    s->size = ((uint64_t)1 << table_bits) + 9;
    s->inverse = 1.0 / (double)s->size;
    s->table = calloc((size_t)s->size, sizeof *s->table);
    s->stack = calloc((size_t)s->cells + 2, sizeof *s->stack);
    if (!s->table || !s->stack) {
        c4_free(s);
        return NULL;
    }
    return s;
}

void c4_free(c4_solver *s)
{
    if (s) {
        free(s->table);
        free(s->stack);
        free(s);
    }
}

uint64_t c4_table_bytes(const c4_solver *s) { return s->size * sizeof *s->table; }
uint64_t c4_nodes(const c4_solver *s) { return s->nodes; }
void c4_clear(c4_solver *s) { memset(s->table, 0, (size_t)s->size * sizeof *s->table); }
void c4_set_leaf_ply(c4_solver *s, int ply) { s->leaf_ply = ply; }
int c4_result(const c4_solver *s) { return s->result; }
uint64_t c4_leaf_current(const c4_solver *s) { return s->stack[s->sp].cur; }
uint64_t c4_leaf_mask(const c4_solver *s) { return s->stack[s->sp].mask; }

uint64_t c4_winning_cells(const c4_solver *s, uint64_t position, uint64_t mask)
{
    return winning(s, position, mask);
}

/* The node's work before its children: 1 and *value if that decides it, else 0 with the
 * children ready in f (solver.py's negamax up to its loop over the moves). */
static int expand(c4_solver *s, frame *f, int *value)
{
    const uint64_t board = s->board, cur = f->cur, mask = f->mask, threats = f->threats;
    const int cells = s->cells, moves = f->moves;
    int alpha = f->alpha, beta = f->beta, low, high, n = 0, i, j, etc;
    int column[MAX_WIDTH]; /* the children's indexes in s->ordered */
    uint64_t child_slot[MAX_WIDTH], child_tag[MAX_WIDTH];
    uint64_t possible_all = (mask + s->bottom) & board, possible = possible_all;
    uint64_t forced = possible & threats, key, slot, tag, entry;

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
    /* the table slots of this position and (for the cutoffs below) of its children: fetched
     * from memory while the bounds and the move order are worked out */
    key = cur + mask;
    slot = slot_of(s, key, &tag);
    PREFETCH(&s->table[slot]);
    etc = moves < s->etc_below && (possible & (possible - 1));
    if (etc) {
        uint64_t opp = cur ^ mask;
        for (i = 0; i < s->width; i++) {
            uint64_t move = possible & s->ordered[i];
            if (move) {
                child_slot[i] = slot_of(s, opp + (mask | move), &child_tag[i]);
                PREFETCH(&s->table[child_slot[i]]);
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
            if (!(q & (q - 1)) && alpha < 1 && !has_four(s, (cur ^ mask) | (empty & s->rows_leader)))
                low = has_four(s, cur | (empty & s->rows_follower)) ? 1 : 0;
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
        } else if (!q && beta > -1) {
            uint64_t empty = board ^ mask;
            if (!has_four(s, cur | (empty & s->rows_leader)))
                high = has_four(s, (cur ^ mask) | (empty & s->rows_follower)) ? -1 : 0;
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
    entry = s->table[slot];
    if (entry >> 14 == tag) {
        int t = (int)((entry >> 7) & 127) - OFFSET;
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
        t = (int)(entry & 127) - OFFSET;
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
        /* most threats made first, then from the centre out */
        int rank[MAX_WIDTH];
        for (i = 0; i < s->width; i++) {
            uint64_t move = possible & s->ordered[i];
            if (move) {
                uint64_t r = winning(s, cur | move, mask | move);
                int k = (popcount64(r) << 8) | (s->width - i);
                for (j = n; j > 0 && rank[j - 1] < k; j--) {
                    rank[j] = rank[j - 1];
                    f->move[j] = f->move[j - 1];
                    f->wins[j] = f->wins[j - 1];
                    column[j] = column[j - 1];
                }
                column[j] = i;
                rank[j] = k;
                f->move[j] = move;
                f->wins[j] = r;
                n++;
            }
        }
        if (etc) {
            /* enhanced transposition cutoff: a child already known to be bad enough for the opponent */
            for (i = 0; i < n; i++) {
                uint64_t centry = s->table[child_slot[column[i]]];
                if (centry >> 14 == child_tag[column[i]]) {
                    int score = OFFSET - (int)(centry & 127);
                    if (score >= beta) {
                        store(s, slot, tag, score, high);
                        *value = score;
                        return 1;
                    }
                }
            }
        }
    } else {
        f->move[0] = possible;
        f->wins[0] = winning(s, cur | possible, mask | possible);
        n = 1;
    }
    f->alpha = f->start_alpha = alpha;
    f->beta = beta;
    f->low = low;
    f->high = high;
    f->slot = slot;
    f->tag = tag;
    f->count = n;
    f->next = 0;
    return 0;
}

/* Enters the node of stack depth `sp`: its search starts at the next run(). */
static void enter(c4_solver *s, int sp, uint64_t cur, uint64_t mask, int moves, uint64_t threats,
                  int alpha, int beta)
{
    frame *f = &s->stack[sp];
    f->cur = cur;
    f->mask = mask;
    f->moves = moves;
    f->threats = threats;
    f->alpha = alpha;
    f->beta = beta;
    s->sp = sp;
    s->state = ENTER;
}

/* A node's search is over with `value`: 1 if it was the root (the result), else 0 with
 * the value handed to its parent. */
static int finish(c4_solver *s, int value)
{
    if (s->sp == 0) {
        s->result = value;
        return 1;
    }
    s->sp--;
    s->ret = value;
    s->state = RETURNED;
    return 0;
}

/* Runs the search until it ends, a limit check is due or a leaf needs its score. */
static int run(c4_solver *s)
{
    for (;;) {
        frame *f = &s->stack[s->sp];
        int value;
        switch (s->state) {
        case ENTER:
            s->nodes++;
            if ((s->nodes & s->check_mask) == 0) {
                s->state = CHECKED;
                return C4_CHECK;
            }
            /* fall through */
        case CHECKED:
            if (f->moves == s->leaf_ply) {
                s->state = LEAF;
                return C4_LEAF;
            }
            /* fall through */
        case BODY:
            if (expand(s, f, &value))
                goto done;
            break; /* to the first child */
        case RETURNED: {
            int score = -s->ret;
            if (score >= f->beta) {
                store(s, f->slot, f->tag, score, f->high);
                value = score;
                goto done;
            }
            if (score > f->alpha)
                f->alpha = score;
            if (++f->next < f->count)
                break; /* to the next child */
            if (f->alpha > f->start_alpha) /* exact */
                store(s, f->slot, f->tag, f->alpha, f->alpha);
            else /* failed low: an upper bound */
                store(s, f->slot, f->tag, f->low, f->alpha);
            value = f->alpha;
            goto done;
        }
        default: /* LEAF: c4_resume() moves on */
            return C4_LEAF;
        }
        enter(s, s->sp + 1, f->cur ^ f->mask, f->mask | f->move[f->next], f->moves + 1, f->wins[f->next],
              -f->beta, -f->alpha);
        continue;
    done:
        if (finish(s, value))
            return C4_DONE;
    }
}

int c4_start(c4_solver *s, uint64_t current, uint64_t mask, int moves, uint64_t threats,
             int alpha, int beta)
{
    enter(s, 0, current, mask, moves, threats, alpha, beta);
    return run(s);
}

int c4_resume(c4_solver *s, int leaf_score)
{
    if (s->state == LEAF) {
        if (leaf_score == C4_UNKNOWN)
            s->state = BODY;
        else if (finish(s, leaf_score))
            return C4_DONE;
    }
    return run(s);
}
