/*
 * dlx_ref: a plain C dancing-links exact-cover counter, the baseline cpkit's engines are
 * measured against (benchmarks only; not part of the package).
 *
 * Reads Knuth's dlx1 format (item line with optional '|' before secondary items, one option per
 * line, '|' comment lines), counts all exact covers with the min-fit (S) heuristic, and prints
 *   solutions=<n> nodes=<placements> seconds=<search time>
 * The search is Knuth's Algorithm X over the usual array-based node layout (spacers, TOP, ULINK,
 * DLINK, LEN), iterative over an explicit level stack like dlx1.
 *
 * Build: cc -O2 -o dlx_ref dlx_ref.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ITEMS 100000
#define MAX_NAME 64

static int n_items, n_primary;
static char (*names)[MAX_NAME];
static int *llink, *rlink, *len_;       /* items 0..n_items, 0 = root */
static int *top, *ulink, *dlink;        /* nodes */
static int n_nodes, cap_nodes;

static int find_item(const char *s) {
    for (int i = 1; i <= n_items; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static void grow(void) {
    if (n_nodes + 2 >= cap_nodes) {
        cap_nodes = cap_nodes ? cap_nodes * 2 : 1 << 16;
        top = realloc(top, sizeof(int) * cap_nodes);
        ulink = realloc(ulink, sizeof(int) * cap_nodes);
        dlink = realloc(dlink, sizeof(int) * cap_nodes);
        if (!top || !ulink || !dlink) { fprintf(stderr, "out of memory\n"); exit(2); }
    }
}

static void hide(int p) {
    for (int q = p + 1; q != p;) {
        int x = top[q], u = ulink[q], d = dlink[q];
        if (x <= 0) q = u;
        else { dlink[u] = d; ulink[d] = u; len_[x]--; q++; }
    }
}
static void unhide(int p) {
    for (int q = p - 1; q != p;) {
        int x = top[q], u = ulink[q], d = dlink[q];
        if (x <= 0) q = d;
        else { dlink[u] = q; ulink[d] = q; len_[x]++; q--; }
    }
}
static void cover(int i) {
    for (int p = dlink[i]; p != i; p = dlink[p]) hide(p);
    int l = llink[i], r = rlink[i];
    rlink[l] = r; llink[r] = l;
}
static void uncover(int i) {
    int l = llink[i], r = rlink[i];
    rlink[l] = i; llink[r] = i;
    for (int p = ulink[i]; p != i; p = ulink[p]) unhide(p);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: dlx_ref FILE.dlx\n"); return 2; }
    FILE *fh = fopen(argv[1], "r");
    if (!fh) { perror(argv[1]); return 2; }
    names = calloc(MAX_ITEMS + 2, MAX_NAME);
    llink = calloc(MAX_ITEMS + 2, sizeof(int));
    rlink = calloc(MAX_ITEMS + 2, sizeof(int));
    len_ = calloc(MAX_ITEMS + 2, sizeof(int));
    static char line[1 << 20];
    int header_done = 0, last_spacer = 0;
    while (fgets(line, sizeof line, fh)) {
        char *tok = strtok(line, " \t\r\n");
        if (!tok || tok[0] == '|') continue;
        if (!header_done) {
            int secondary = 0;
            for (; tok; tok = strtok(NULL, " \t\r\n")) {
                if (strcmp(tok, "|") == 0) { secondary = 1; continue; }
                n_items++;
                strncpy(names[n_items], tok, MAX_NAME - 1);
                if (!secondary) n_primary = n_items;
            }
            for (int i = 0; i <= n_items; i++) { llink[i] = i; rlink[i] = i; }
            for (int i = 0; i <= n_primary; i++) {
                rlink[i] = (i + 1) % (n_primary + 1);
                llink[i] = (i + n_primary) % (n_primary + 1);
            }
            n_nodes = n_items + 1;
            grow();
            for (int i = 1; i <= n_items; i++) { ulink[i] = dlink[i] = i; top[i] = 0; }
            last_spacer = n_nodes++;
            top[last_spacer] = 0; ulink[last_spacer] = 0;
            header_done = 1;
            continue;
        }
        int first = n_nodes;
        for (; tok; tok = strtok(NULL, " \t\r\n")) {
            int i = find_item(tok);
            if (i < 0) { fprintf(stderr, "unknown item %s\n", tok); return 2; }
            grow();
            int x = n_nodes++;
            top[x] = i; len_[i]++;
            ulink[x] = ulink[i]; dlink[x] = i;
            dlink[ulink[i]] = x; ulink[i] = x;
        }
        dlink[last_spacer] = n_nodes - 1;
        grow();
        last_spacer = n_nodes++;
        top[last_spacer] = -1; ulink[last_spacer] = first;
    }
    fclose(fh);

    int *x = malloc(sizeof(int) * (n_items + 2));
    int *col = malloc(sizeof(int) * (n_items + 2));
    long long solutions = 0, nodes = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int l = 0;
enter:  /* X2 */
    if (rlink[0] == 0) { solutions++; goto leave; }
    {   /* X3: min-fit */
        int best = -1, bl = 1 << 30;
        for (int j = rlink[0]; j != 0; j = rlink[j])
            if (len_[j] < bl) { bl = len_[j]; best = j; if (bl == 0) break; }
        col[l] = best;
        cover(best);
        x[l] = dlink[best];
    }
try:    /* X5 */
    if (x[l] == col[l]) { uncover(col[l]); goto leave; }
    for (int p = x[l] + 1; p != x[l];) {
        int j = top[p];
        if (j <= 0) p = ulink[p]; else { cover(j); p++; }
    }
    nodes++;
    l++;
    goto enter;
leave:  /* X8, then X6 */
    if (l == 0) goto done;
    l--;
    for (int p = x[l] - 1; p != x[l];) {
        int j = top[p];
        if (j <= 0) p = dlink[p]; else { uncover(j); p--; }
    }
    x[l] = dlink[x[l]];
    goto try;
done:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("solutions=%lld nodes=%lld seconds=%.6f\n", solutions, nodes,
           (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
    return 0;
}
