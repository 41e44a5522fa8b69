/*
 * Nordic Yatzy (15 boxes, free order, 50 bonus at 63, three rolls a turn):
 * the expected final score under optimal play, in float64, by plain backward
 * induction.  A reference for benchmarks/solve.py and an independent check of
 * the Python solver's value.
 *
 * A turn-start state is (mask, u): the filled boxes and the upper total
 * capped at 63.  V(full, u) = 0.  For every other state, one turn is solved
 * over multisets of 0..5 dice:
 *
 *   X0(R)   = max over open boxes b of  points + bonus + V(mask | b, u')
 *   W(K)    = mean over a sixth die f of W(K + f),  W(R) = X(R) for 5 dice
 *   X(R)    = max over keeps K inside R of W(K)   (max of W(K) and X(K - f))
 *   V(mask, u) = sum over rolls R of P(R) X2(R)
 *
 * Masks with the same number of filled boxes depend only on masks with more,
 * so each such layer is a parallel loop (OpenMP).  Only upper totals that the
 * filled upper boxes can make are solved, and of those from which the bonus
 * is out of reach (u plus the most the open upper boxes can give < 63) only
 * the first: the bonus being lost, V does not depend on u there.
 *
 * Build and run:  gcc -O3 -march=native -fopenmp nordic.c -o nordic && ./nordic
 * Prints:         ev <value> seconds <solve time>
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DICE 5
#define FACES 6
#define BOXES 15
#define CAP 63
#define BONUS 50.0
#define NU (CAP + 1)
#define MAXSETS 462         /* multisets of 0..5 dice with 6 faces */
#define NROLLS 252          /* multisets of exactly 5 dice */

static int n_sets;
static int counts[MAXSETS][FACES];
static int size_of[MAXSETS];
static int plus[MAXSETS][FACES];    /* the multiset with one more die showing f+1 */
static int minus[MAXSETS][FACES];   /* the distinct multisets one die smaller */
static int n_minus[MAXSETS];
static int roll_set[NROLLS];        /* the multiset index of roll r */
static double roll_prob[NROLLS];
static int points[NROLLS][BOXES];
static uint64_t reach[64];          /* upper totals the filled upper boxes can make */

static int code_of(const int *c)
{
    int k = 0;
    for (int f = FACES - 1; f >= 0; f--)
        k = k * (DICE + 1) + c[f];
    return k;
}

static int box_points(const int *c, int box)
{
    int sum = 0, best = 0;
    for (int f = 0; f < FACES; f++)
        sum += (f + 1) * c[f];
    switch (box) {
    case 6:                                     /* one pair */
        for (int f = 0; f < FACES; f++)
            if (c[f] >= 2) best = 2 * (f + 1);
        return best;
    case 7:                                     /* two pairs, different faces */
        for (int f = 0; f < FACES; f++)
            for (int g = f + 1; g < FACES; g++)
                if (c[f] >= 2 && c[g] >= 2) best = 2 * (f + 1) + 2 * (g + 1);
        return best;
    case 8: case 9:                             /* three / four of a kind */
        for (int f = 0; f < FACES; f++)
            if (c[f] >= box - 5) best = (box - 5) * (f + 1);
        return best;
    case 10:                                    /* small straight 1-5 */
        return c[0] && c[1] && c[2] && c[3] && c[4] ? 15 : 0;
    case 11:                                    /* large straight 2-6 */
        return c[1] && c[2] && c[3] && c[4] && c[5] ? 20 : 0;
    case 12:                                    /* full house: 3 + 2, different faces */
        for (int f = 0; f < FACES; f++)
            for (int g = 0; g < FACES; g++)
                if (f != g && c[f] >= 3 && c[g] >= 2 && 3 * (f + 1) + 2 * (g + 1) > best)
                    best = 3 * (f + 1) + 2 * (g + 1);
        return best;
    case 13:                                    /* chance */
        return sum;
    case 14:                                    /* yatzy */
        for (int f = 0; f < FACES; f++)
            if (c[f] == DICE) return 50;
        return 0;
    default:                                    /* ones .. sixes */
        return (box + 1) * c[box];
    }
}

static void setup(void)
{
    static int index_of[46656];
    int c[FACES];
    /* multisets ordered by size, so that smaller ones come first */
    n_sets = 0;
    for (int n = 0; n <= DICE; n++)
        for (int k = 0; k < 46656; k++) {
            int t = k, total = 0;
            for (int f = 0; f < FACES; f++) {
                c[f] = t % (DICE + 1);
                t /= DICE + 1;
                total += c[f];
            }
            if (total != n) continue;
            for (int f = 0; f < FACES; f++)
                counts[n_sets][f] = c[f];
            size_of[n_sets] = n;
            index_of[k] = n_sets++;
        }
    int r = 0;
    for (int m = 0; m < n_sets; m++) {
        for (int f = 0; f < FACES; f++) {
            for (int g = 0; g < FACES; g++) c[g] = counts[m][g];
            c[f]++;
            plus[m][f] = size_of[m] < DICE ? index_of[code_of(c)] : -1;
            c[f] -= 2;
            if (c[f] >= 0)
                minus[m][n_minus[m]++] = index_of[code_of(c)];
        }
        if (size_of[m] == DICE) {
            double ways = 120.0;
            for (int f = 0; f < FACES; f++)
                for (int i = 2; i <= counts[m][f]; i++) ways /= i;
            roll_set[r] = m;
            roll_prob[r] = ways / 7776.0;
            for (int b = 0; b < BOXES; b++)
                points[r][b] = box_points(counts[m], b);
            r++;
        }
    }
    for (int um = 0; um < 64; um++) {
        uint64_t s = 1;
        for (int f = 0; f < FACES; f++) {
            if (!(um >> f & 1)) continue;
            uint64_t t = 0;
            for (int u = 0; u < NU; u++) {
                if (!(s >> u & 1)) continue;
                for (int n = 0; n <= DICE; n++) {
                    int v = u + n * (f + 1);
                    t |= 1ull << (v < CAP ? v : CAP);
                }
            }
            s = t;
        }
        reach[um] = s;
    }
}

/* V(mask, u) from the values of the states with more boxes filled */
static double solve_state(const double *V, int mask, int u, double *x)
{
    double upper[FACES][DICE + 1], lower[BOXES];
    int open[BOXES], n_open = 0;
    for (int b = 0; b < BOXES; b++) {
        if (mask >> b & 1) continue;
        open[n_open++] = b;
        const double *child = V + (size_t)(mask | 1 << b) * NU;
        if (b < FACES)
            for (int n = 0; n <= DICE; n++) {
                int s = n * (b + 1), v = u + s;
                upper[b][n] = s + (u < CAP && v >= CAP ? BONUS : 0.0) + child[v < CAP ? v : CAP];
            }
        else
            lower[b] = child[u];
    }
    for (int r = 0; r < NROLLS; r++) {
        const int *c = counts[roll_set[r]];
        double best = -INFINITY;
        for (int i = 0; i < n_open; i++) {
            int b = open[i];
            double v = b < FACES ? upper[b][c[b]] : points[r][b] + lower[b];
            best = v > best ? v : best;
        }
        x[roll_set[r]] = best;
    }
    for (int reroll = 0; reroll < 2; reroll++) {
        for (int m = n_sets - NROLLS - 1; m >= 0; m--) {
            double s = 0.0;
            for (int f = 0; f < FACES; f++)
                s += x[plus[m][f]];
            x[m] = s / FACES;
        }
        for (int m = 1; m < n_sets; m++) {
            double best = x[m];
            for (int i = 0; i < n_minus[m]; i++) {
                double v = x[minus[m][i]];
                best = v > best ? v : best;
            }
            x[m] = best;
        }
    }
    double mean = 0.0;
    for (int r = 0; r < NROLLS; r++)
        mean += roll_prob[r] * x[roll_set[r]];
    return mean;
}

int main(void)
{
    setup();
    int full = (1 << BOXES) - 1;
    double *V = calloc((size_t)(full + 1) * NU, sizeof(double));
    int *layer = malloc(sizeof(int) * (full + 1));
    if (!V || !layer) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double start = omp_get_wtime();
    for (int filled = BOXES - 1; filled >= 0; filled--) {
        int n = 0;
        for (int mask = 0; mask < full; mask++)
            if (__builtin_popcount(mask) == filled) layer[n++] = mask;
        #pragma omp parallel
        {
            double x[MAXSETS];
            #pragma omp for schedule(dynamic, 8)
            for (int i = 0; i < n; i++) {
                int mask = layer[i], most = 0;
                for (int f = 0; f < FACES; f++)
                    if (!(mask >> f & 1)) most += DICE * (f + 1);
                uint64_t ok = reach[mask & 63];
                double *row = V + (size_t)mask * NU, lost = 0.0;
                int solved = 0;
                for (int u = 0; u < NU; u++) {
                    if (!(ok >> u & 1)) continue;
                    if (u + most >= CAP || !solved)
                        row[u] = solve_state(V, mask, u, x);
                    else
                        row[u] = lost;
                    if (u + most < CAP && !solved) {
                        lost = row[u];
                        solved = 1;
                    }
                }
            }
        }
    }
    double seconds = omp_get_wtime() - start;
    printf("ev %.12f seconds %.4f threads %d\n", V[0], seconds, omp_get_max_threads());
    free(V);
    free(layer);
    return 0;
}
