"""The compiled parts of the tiling filters (``tiling_filters``): the flood fill that checks
the open regions' volumes (``volumes_ok``, also called by DLX's backtrack trigger and dynamic
filter), the one-shot volume filter's loop over images, one pass of the fit filter, and the
redundancy filter's check of each solution found (``counted``, for
``symmetry.RedundancyPlan.is_counted``).

Apart from ``tiling_filters`` so that a run whose kernels come from extensions built ahead of
time (``cpkit._aot``) never imports numba: the filters' Python side is in every run's set-up.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, _nrt=False)
def volumes_ok(open_cell, nb_ptr, nb_idx, achievable_row, stack, seen):
    """Flood-fill the open cells; False as soon as a region's volume is not achievable.

    ``open_cell`` (uint8) marks open cells; ``stack`` and ``seen`` are scratch arrays of the
    number of cells (``seen`` is returned cleared).
    """
    n = open_cell.shape[0]
    ok = True
    for start in range(n):
        if open_cell[start] == 0 or seen[start] != 0:
            continue
        top = 0
        stack[top] = start
        top += 1
        seen[start] = 1
        volume = 0
        while top > 0:
            top -= 1
            c = stack[top]
            volume += 1
            for k in range(nb_ptr[c], nb_ptr[c + 1]):
                d = nb_idx[k]
                if open_cell[d] != 0 and seen[d] == 0:
                    seen[d] = 1
                    stack[top] = d
                    top += 1
        if achievable_row[volume] == 0:
            ok = False
            break
    for c in range(n):
        seen[c] = 0
    return ok


@njit(cache=True)
def volume_filter_kernel(keep, cell_ptr, cell_idx, shape_of, row_of_shape, rows, nb_ptr,
                         nb_idx, n_cells):
    open_cell = np.ones(n_cells, dtype=np.uint8)
    stack = np.zeros(n_cells, dtype=np.int32)
    seen = np.zeros(n_cells, dtype=np.uint8)
    removed = 0
    for i in range(keep.shape[0]):
        if not keep[i]:
            continue
        for k in range(cell_ptr[i], cell_ptr[i + 1]):
            open_cell[cell_idx[k]] = 0
        if not volumes_ok(open_cell, nb_ptr, nb_idx, rows[row_of_shape[shape_of[i]]], stack,
                          seen):
            keep[i] = False
            removed += 1
        for k in range(cell_ptr[i], cell_ptr[i + 1]):
            open_cell[cell_idx[k]] = 1
    return removed


@njit(cache=True)
def overlaps(masks, i, j):
    for w in range(masks.shape[1]):
        if masks[i, w] & masks[j, w]:
            return True
    return False


@njit(cache=True)
def fit_pass(keep, masks, cells_of_image_ptr, cells_of_image, images_of_cell_ptr,
              images_of_cell, shape_of, need, n_cells, n_shapes):
    """One pass of the fit filter over the kept images; returns how many it removed.

    ``masks[i]`` is image i's cell bitset (uint64 words).  Image i is removed if, with i placed,
    some other open cell has no kept image disjoint from i (of a shape still needed), or some
    shape still needed has fewer disjoint kept images than it still needs.
    """
    removed = 0
    n_images = keep.shape[0]
    disjoint_count = np.zeros(n_shapes, dtype=np.int64)
    in_image = np.zeros(n_cells, dtype=np.uint8)
    for i in range(n_images):
        if not keep[i]:
            continue
        si = shape_of[i]
        for k in range(cells_of_image_ptr[i], cells_of_image_ptr[i + 1]):
            in_image[cells_of_image[k]] = 1
        ok = True
        # Every open cell needs a compatible image.
        for c in range(n_cells):
            if in_image[c]:
                continue
            found = False
            for k in range(images_of_cell_ptr[c], images_of_cell_ptr[c + 1]):
                j = np.int64(images_of_cell[k])   # int64, like the second call's
                if not keep[j] or j == i:
                    continue
                if shape_of[j] == si and need[si] == 1:
                    continue
                if not overlaps(masks, i, j):
                    found = True
                    break
            if not found:
                ok = False
                break
        if ok:
            # Every shape still needed must have enough compatible images.
            for s in range(n_shapes):
                disjoint_count[s] = 0
            for j in range(n_images):
                if not keep[j] or j == i:
                    continue
                sj = shape_of[j]
                remaining = need[sj] - (1 if sj == si else 0)
                if remaining <= 0 or disjoint_count[sj] >= remaining:
                    continue
                if not overlaps(masks, i, j):
                    disjoint_count[sj] += 1
            for s in range(n_shapes):
                remaining = need[s] - (1 if s == si else 0)
                if disjoint_count[s] < remaining:
                    ok = False
                    break
        for k in range(cells_of_image_ptr[i], cells_of_image_ptr[i + 1]):
            in_image[cells_of_image[k]] = 0
        if not ok:
            keep[i] = False
            removed += 1
    return removed


@njit(cache=True)
def counted(perm, ids, shape_of, kept, shape):
    """Whether the solution of the sorted image numbers ``ids`` is its class's representative:
    no image of it under a symmetry ``h`` (``perm[h]``, 0 the identity) that the search also
    finds is smaller, as sorted image numbers compared in order.  ``h(S)`` is found only if
    it holds one image of the constrained ``shape`` and that image is ``kept`` (``shape``
    -1: no piece constrained, every ``h(S)`` is)."""
    k = ids.shape[0]
    moved = np.empty(k, dtype=np.int64)
    for h in range(1, perm.shape[0]):
        n_mine = 0
        mine = -1
        for j in range(k):
            m = perm[h, ids[j]]
            moved[j] = m
            if shape >= 0 and shape_of[m] == shape:
                n_mine += 1
                mine = m
        if shape >= 0 and (n_mine != 1 or not kept[mine]):
            continue
        moved.sort()
        for j in range(k):
            if moved[j] != ids[j]:
                if moved[j] < ids[j]:
                    return False
                break
    return True
