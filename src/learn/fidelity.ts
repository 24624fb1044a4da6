// Fidelity of generated rows to real ones, measured as SDMetrics does: column shapes are 1 − the
// Kolmogorov–Smirnov distance for numbers and dates and 1 − the total variation distance for
// categories (nulls left out, their share compared on its own); cardinality is the shape of the
// children-per-parent distribution, parents without children included; pair trends compare the rank
// correlations of column pairs (CorrelationSimilarity). 1 means indistinguishable.

export type ShapeKind = 'numeric' | 'categorical';

/** 1 − KS distance of two samples of numbers (or ISO dates, compared as instants). */
export function ksScore(real: readonly unknown[], synthetic: readonly unknown[]): number {
  const a = numbersOf(real);
  const b = numbersOf(synthetic);
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  let i = 0;
  let j = 0;
  let distance = 0;
  while (i < a.length && j < b.length) {
    const value = Math.min(a[i]!, b[j]!);
    while (i < a.length && a[i]! <= value) i++;
    while (j < b.length && b[j]! <= value) j++;
    distance = Math.max(distance, Math.abs(i / a.length - j / b.length));
  }
  return 1 - distance;
}

/** 1 − TVD of the value frequencies of two samples. */
export function tvdScore(real: readonly unknown[], synthetic: readonly unknown[]): number {
  const p = frequencies(real);
  const q = frequencies(synthetic);
  if (real.length === 0 || synthetic.length === 0) return real.length === synthetic.length ? 1 : 0;
  let total = 0;
  for (const key of new Set([...p.keys(), ...q.keys()])) total += Math.abs((p.get(key) ?? 0) / real.length - (q.get(key) ?? 0) / synthetic.length);
  return 1 - total / 2;
}

/** The column-shape score of a column: KS for numbers and dates, TVD for the rest; nulls left out. */
export function columnShape(kind: ShapeKind, real: readonly unknown[], synthetic: readonly unknown[]): number {
  const present = (values: readonly unknown[]) => values.filter((value) => value !== null && value !== undefined);
  return kind === 'numeric' ? ksScore(present(real), present(synthetic)) : tvdScore(present(real), present(synthetic));
}

/** 1 − |difference of null shares|. */
export function nullRateScore(real: readonly unknown[], synthetic: readonly unknown[]): number {
  const share = (values: readonly unknown[]) => (values.length ? values.filter((value) => value === null || value === undefined).length / values.length : 0);
  return 1 - Math.abs(share(real) - share(synthetic));
}

/** Children per parent: each parent key's count of children (0 for none). */
export function childrenPerParent(parentKeys: readonly unknown[], childKeys: readonly unknown[]): number[] {
  const counts = new Map<string, number>(parentKeys.map((key) => [String(key), 0]));
  for (const key of childKeys) {
    if (key === null || key === undefined) continue;
    const id = String(key);
    if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return [...counts.values()];
}

/** The cardinality score of a reference: 1 − KS of the children-per-parent distributions. */
export function cardinalityScore(real: { parents: readonly unknown[]; children: readonly unknown[] }, synthetic: { parents: readonly unknown[]; children: readonly unknown[] }): number {
  return ksScore(childrenPerParent(real.parents, real.children), childrenPerParent(synthetic.parents, synthetic.children));
}

/** Spearman's rank correlation of the pairs where both values are numbers (or ISO dates); null under 3 pairs or without spread. */
export function rankCorrelation(x: readonly unknown[], y: readonly unknown[]): number | null {
  const pairs: [number, number][] = [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [a, b] = [numberOf(x[i]), numberOf(y[i])];
    if (Number.isFinite(a) && Number.isFinite(b)) pairs.push([a, b]);
  }
  if (pairs.length < 3) return null;
  const [rx, ry] = [ranks(pairs.map((pair) => pair[0])), ranks(pairs.map((pair) => pair[1]))];
  const mean = (pairs.length + 1) / 2;
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let i = 0; i < pairs.length; i++) {
    const [dx, dy] = [rx[i]! - mean, ry[i]! - mean];
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** SDMetrics' CorrelationSimilarity: 1 − |real − synthetic| / 2 of two correlations in [−1, 1]. */
export function correlationSimilarity(real: number, synthetic: number): number {
  return 1 - Math.abs(real - synthetic) / 2;
}

/** Average ranks (ties share theirs), 1-based. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.value === order[i]!.value) j++;
    for (let k = i; k <= j; k++) out[order[k]!.index] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function numberOf(value: unknown): number {
  if (value === null || value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number(value);
}

function numbersOf(values: readonly unknown[]): number[] {
  const numbers: number[] = [];
  for (const value of values) {
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : Number(value);
    if (Number.isFinite(number)) numbers.push(number);
  }
  return numbers.sort((x, y) => x - y);
}

function frequencies(values: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) {
    const key = typeof value === 'number' ? `n:${value}` : `s:${String(value)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
