// "Did you mean" hints: the known name closest to an unknown one by edit distance (optimal string
// alignment, so a swapped pair of letters costs 1), offered only when it is plausibly a typo.

/** Edit distance with insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

/**
 * The candidate closest to `name`: a case-insensitive match first, else the smallest edit distance
 * within a third of the name's length (at least 1); ties go to a candidate with the same first
 * letter, then to the earlier one.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const lower = name.toLowerCase();
  const sameCase = list.find((candidate) => candidate.toLowerCase() === lower && candidate !== name);
  if (sameCase) return sameCase;
  // Long inputs (attacks, garbage) are not worth a quadratic comparison.
  if (name.length > 100) return undefined;
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    if (Math.abs(candidate.length - name.length) > limit) continue;
    // On a tie, a candidate with the same first letter wins: typos rarely start a word.
    const distance = editDistance(lower, candidate.toLowerCase()) - (candidate[0]?.toLowerCase() === lower[0] ? 0.5 : 0);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or '' when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : ` (did you mean "${closest}"?)`;
}
