/** Selecting the best few of many scored items without sorting them all. */

/** The best `k` items in order, without sorting everything (a bounded heap, worst at the root). */
export function topK<T>(items: T[], k: number, better: (a: T, b: T) => number): T[] {
  if (items.length <= k * 4) return items.sort(better).slice(0, k);
  const heap: T[] = [];
  const worse = (i: number, j: number) => better(heap[i]!, heap[j]!) > 0;
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (k > 0 && better(item, heap[0]!) < 0) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(l, m)) m = l;
        if (r < heap.length && worse(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  return heap.sort(better);
}
