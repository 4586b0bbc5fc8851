/*
 * em_bt_ref: a plain C brute-force edge-matching enumerator, the baseline cpkit's numba
 * backtracker (cpkit/engines/edge_matching/backtrack/em_backtrack_kernel.py) is measured against (benchmarks only; not
 * part of the package).
 *
 * Same design: cells in lexicographic (x, y) order (column by column from the bottom-left corner,
 * each column bottom to top), candidate lists of orientations indexed by (frame class, west
 * colour, south colour), used-tile flags, an iterative search over an explicit stack.  Every
 * chosen placement is a node; hinted cells take their hinted orientation without counting a node.
 *
 * Reads the native format (Benoist's benchmark files: size or "W H", colours, hints, hint lines
 * "row column tile rotation" with rows from the top, then "top right bottom left" per tile) and
 * prints
 *   solutions=<n> nodes=<placements> seconds=<search time> complete=<1 or 0>
 * An optional second argument is a time limit in seconds (checked every 2^20 nodes); a search
 * stopped by it prints complete=0.
 *
 * Build: cc -O2 -o em_bt_ref em_bt_ref.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CELLS 4096

static int W, H, K, C, n_cells, n_tiles;
static int tiles[MAX_CELLS][4];
static int n_ori, ori_tile[4 * MAX_CELLS], ori_col[4 * MAX_CELLS][4];
static int *list_start, *list_ori, *list_tile;
static int west_of[MAX_CELLS], south_of[MAX_CELLS], frame_of[MAX_CELLS], forced[MAX_CELLS];
static unsigned char used[MAX_CELLS];

static int read_int(FILE *f) {
    int v;
    if (fscanf(f, "%d", &v) != 1) { fprintf(stderr, "malformed input\n"); exit(2); }
    return v;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) { fprintf(stderr, "usage: em_bt_ref FILE [SECONDS]\n"); return 2; }
    double limit = argc == 3 ? atof(argv[2]) : 0.0;
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    /* The size line holds N or "W H": read the first line as text. */
    char line[256];
    if (!fgets(line, sizeof line, f)) { fprintf(stderr, "empty input\n"); return 2; }
    if (sscanf(line, "%d %d", &W, &H) == 1) H = W;
    K = read_int(f);
    C = K + 1;
    n_cells = W * H;
    if (n_cells > MAX_CELLS) { fprintf(stderr, "board too large\n"); return 2; }
    int n_hints = read_int(f);
    int hint_row[MAX_CELLS], hint_col[MAX_CELLS], hint_tile[MAX_CELLS], hint_rot[MAX_CELLS];
    for (int h = 0; h < n_hints; h++) {
        hint_row[h] = read_int(f); hint_col[h] = read_int(f);
        hint_tile[h] = read_int(f) - 1; hint_rot[h] = read_int(f);
    }
    n_tiles = n_cells;
    for (int t = 0; t < n_tiles; t++)
        for (int s = 0; s < 4; s++) tiles[t][s] = read_int(f);
    fclose(f);

    /* Distinct orientations of every tile, tile by tile. */
    int first_ori[MAX_CELLS];
    for (int t = 0; t < n_tiles; t++) {
        first_ori[t] = n_ori;
        for (int r = 0; r < 4; r++) {
            int shown[4], dup = 0;
            for (int s = 0; s < 4; s++) shown[s] = tiles[t][(s + r) % 4];
            for (int o = first_ori[t]; o < n_ori; o++)
                if (!memcmp(ori_col[o], shown, sizeof shown)) dup = 1;
            if (dup) continue;
            ori_tile[n_ori] = t;
            memcpy(ori_col[n_ori], shown, sizeof shown);
            n_ori++;
        }
    }
    /* Candidate lists by key = (frame * C + west) * C + south, orientations in order. */
    int n_keys = 4 * C * C;
    list_start = calloc(n_keys + 1, sizeof(int));
    list_ori = malloc(sizeof(int) * (n_ori + 1));
    int *key_of = malloc(sizeof(int) * (n_ori + 1));
    for (int o = 0; o < n_ori; o++) {
        int frame = (ori_col[o][1] == 0) * 2 + (ori_col[o][0] == 0);
        key_of[o] = (frame * C + ori_col[o][3]) * C + ori_col[o][2];
        list_start[key_of[o] + 1]++;
    }
    for (int k = 0; k < n_keys; k++) list_start[k + 1] += list_start[k];
    int *fill = malloc(sizeof(int) * (n_keys + 1));
    memcpy(fill, list_start, sizeof(int) * (n_keys + 1));
    for (int o = 0; o < n_ori; o++) list_ori[fill[key_of[o]]++] = o;
    /* The tile of each listed orientation beside it: the scan for an unused one reads one
       array (as cpkit's kernel does). */
    list_tile = malloc(sizeof(int) * (n_ori + 1));
    for (int p = 0; p < n_ori; p++) list_tile[p] = ori_tile[list_ori[p]];

    /* Depth d is cell (x, y) = (d / H, d % H). */
    for (int d = 0; d < n_cells; d++) {
        int x = d / H, y = d % H;
        west_of[d] = x > 0 ? d - H : -1;
        south_of[d] = y > 0 ? d - 1 : -1;
        frame_of[d] = (x == W - 1) * 2 + (y == H - 1);
        forced[d] = -1;
    }
    for (int h = 0; h < n_hints; h++) {
        int x = hint_col[h] - 1, y = H - hint_row[h];
        int t = hint_tile[h], shown[4];
        for (int s = 0; s < 4; s++) shown[s] = tiles[t][(s + hint_rot[h]) % 4];
        for (int o = first_ori[t]; o < n_ori && ori_tile[o] == t; o++)
            if (!memcmp(ori_col[o], shown, sizeof shown)) forced[x * H + y] = o;
        used[t] = 1;
    }

    int *ptr = malloc(sizeof(int) * n_cells), *end = malloc(sizeof(int) * n_cells);
    int *placed = malloc(sizeof(int) * n_cells);
    int *east_col = malloc(sizeof(int) * n_cells), *north_col = malloc(sizeof(int) * n_cells);
    long long solutions = 0, nodes = 0;
    int complete = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int depth = 0;
enter:
    if (depth == n_cells) { solutions++; goto leave; }
    {
        int w = west_of[depth], s = south_of[depth];
        int west = w >= 0 ? east_col[w] : 0, south = s >= 0 ? north_col[s] : 0;
        int frame = frame_of[depth], o = forced[depth];
        if (o >= 0) {
            ptr[depth] = 0;
            end[depth] = ori_col[o][3] == west && ori_col[o][2] == south &&
                         (ori_col[o][1] == 0) == (frame >= 2) &&
                         (ori_col[o][0] == 0) == (frame & 1);
        } else {
            int key = (frame * C + west) * C + south;
            ptr[depth] = list_start[key];
            end[depth] = list_start[key + 1];
        }
    }
try:
    {
        int p = ptr[depth], e = end[depth], o = forced[depth];
        if (o >= 0) {
            if (p >= e) goto leave;
            ptr[depth] = p + 1;
        } else {
            int t = -1;
            while (p < e) {
                int c = list_tile[p++];
                if (!used[c]) { t = c; break; }
            }
            ptr[depth] = p;
            if (t < 0) goto leave;
            o = list_ori[p - 1];
            used[t] = 1;
            nodes++;
            if (limit > 0 && (nodes & 0xFFFFF) == 0) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                if ((t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec) >= limit) {
                    complete = 0;
                    goto done;
                }
            }
        }
        placed[depth] = o;
        east_col[depth] = ori_col[o][1];
        north_col[depth] = ori_col[o][0];
        depth++;
        goto enter;
    }
leave:
    if (depth == 0) goto done;
    depth--;
    if (forced[depth] < 0) used[ori_tile[placed[depth]]] = 0;
    goto try;
done:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("solutions=%lld nodes=%lld seconds=%.6f complete=%d\n", solutions, nodes,
           (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec), complete);
    return 0;
}
