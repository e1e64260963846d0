/**
 * The first `k` of `n` candidates (positions 0…n-1) in the order `better` defines, best first:
 * a bounded heap whose root is the worst kept, so page one of a hundred thousand matches costs
 * n·log(k) comparisons, not a full sort.
 */
export function topK(n: number, k: number, better: (a: number, b: number) => boolean): Int32Array {
  const size = Math.min(n, k);
  if (size <= 0) return new Int32Array(0);
  const heap = new Int32Array(size);
  let filled = 0;
  // Worst on top: `a` sits above `b` when `b` is better than `a`.
  const siftUp = (i: number) => {
    const item = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(heap[parent]!, item)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = item;
  };
  const siftDown = (i: number) => {
    const item = heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= filled) break;
      const right = left + 1;
      const worse = right < filled && better(heap[left]!, heap[right]!) ? right : left;
      if (!better(item, heap[worse]!)) break;
      heap[i] = heap[worse]!;
      i = worse;
    }
    heap[i] = item;
  };
  for (let p = 0; p < n; p++) {
    if (filled < size) {
      heap[filled] = p;
      siftUp(filled++);
    } else if (better(p, heap[0]!)) {
      heap[0] = p;
      siftDown(0);
    }
  }
  // Take the worst off the top until empty: the array fills from the back, best first.
  const out = new Int32Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = heap[0]!;
    heap[0] = heap[--filled]!;
    if (filled > 0) siftDown(0);
  }
  return out;
}
