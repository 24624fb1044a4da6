// Numeric distributions of randomInt and randomFloat (normal, lognormal, exponential, zipf): each
// value a pure function of (stream, row, attempt) by inverse transforms, clamped to [min, max] and
// then rounded as the strategy rounds. Also the Zipf sampler that skewed reference fan-out shares.
import type { NumericDistribution } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import { roundDecimal } from './numbers.ts';

/** Draw numbers set aside per attempt: Box–Muller takes two, Zipf's rejection loop a few more. */
const DRAWS = 16;

/** A sampler of one distribution: a real number from (stream, row, first draw). */
type Sampler = (stream: RandomStream, row: number, draw: number, values?: readonly RowValue[]) => number;

/** Parameters with their defaults filled in from the bounds, as the JSON Schema describes them. */
export function distributionSampler(distribution: NumericDistribution, min: number, max: number): Sampler | undefined {
  switch (distribution.kind) {
    case 'uniform':
      return undefined;
    case 'normal': {
      const mean = distribution.mean ?? (min + max) / 2;
      const stddev = distribution.stddev ?? (max - min) / 6;
      return (stream, row, draw) => mean + stddev * standardNormal(stream, row, draw);
    }
    case 'lognormal': {
      const median = distribution.median ?? (min + max) / 2;
      const sigma = distribution.sigma ?? 1;
      return (stream, row, draw) => median * Math.exp(sigma * standardNormal(stream, row, draw));
    }
    case 'exponential': {
      const mean = (distribution.mean ?? min + (max - min) / 4) - min;
      return (stream, row, draw) => min - mean * Math.log(1 - stream.float53(row, draw));
    }
    case 'zipf': {
      const count = Math.floor(max) - Math.ceil(min) + 1;
      if (count < 1) return () => min;
      const zipf = new ZipfSampler(count, distribution.exponent ?? 1);
      const low = Math.ceil(min);
      return (stream, row, draw) => low + zipf.sample(stream, row, draw) - 1;
    }
    case 'empirical': {
      const quantile = quantileFunction(distribution.quantiles);
      return (stream, row, draw) => quantile(stream.float53(row, draw));
    }
  }
}

/**
 * The inverse of an observed distribution given by quantiles equally spaced in probability (first
 * the smallest value, last the largest): p in [0, 1) → linear interpolation between the two
 * quantiles around it. Quantiles out of order are sorted first.
 */
export function quantileFunction(quantiles: readonly number[]): (p: number) => number {
  const sorted = [...quantiles].sort((a, b) => a - b);
  const steps = sorted.length - 1;
  if (steps < 1) return () => sorted[0] ?? 0;
  return (p) => {
    const position = Math.min(Math.max(p, 0), 1) * steps;
    const index = Math.min(steps - 1, Math.floor(position));
    const low = sorted[index]!;
    return low + (sorted[index + 1]! - low) * (position - index);
  };
}

/**
 * A program of values of `distribution` within [min, max]: integers (precision 0 and `integer`) or
 * numbers rounded to `precision` decimals. No pool: the values are not equally likely.
 */
export function distributionProgram(stream: RandomStream, sampler: Sampler, min: number, max: number, precision: number): ValueProgram {
  const low = Math.min(min, max);
  const high = Math.max(min, max);
  // The rounded bounds that lie within [min, max] (1.005 with 2 decimals → 1.01).
  const scale = 10 ** precision;
  const lowest = Math.ceil(low * scale - 1e-9) / scale;
  const highest = Math.floor(high * scale + 1e-9) / scale;
  return {
    at: (row, values, attempt) => {
      const value = roundDecimal(sampler(stream, row, attempt * DRAWS, values), Math.min(15, precision));
      if (!(value >= lowest)) return lowest; // NaN too
      return value > highest ? highest : value;
    },
    typed: true,
  };
}

/**
 * A program of an empirical distribution moved with another field of the row by a Gaussian copula:
 * the other value's place in its own quantiles becomes a normal score, mixed with an independent
 * normal draw at the Pearson correlation that gives Spearman's `spearman` (2 sin(πρ/6)), and mapped
 * back through this field's quantiles. Each marginal stays; where the other value is null or not a
 * number, the value is drawn on its own (the plain quantile draw).
 */
export function correlatedProgram(
  stream: RandomStream,
  quantiles: readonly number[],
  partner: { index: number; quantiles: readonly number[]; spearman: number },
  min: number,
  max: number,
  precision: number,
): ValueProgram {
  const quantile = quantileFunction(quantiles);
  const rank = cumulativeFunction(partner.quantiles);
  const r = Math.max(-1, Math.min(1, 2 * Math.sin((Math.PI * partner.spearman) / 6)));
  const rest = Math.sqrt(Math.max(0, 1 - r * r));
  const sampler: Sampler = (own, row, draw, values) => {
    const other = values?.[partner.index];
    const x = typeof other === 'number' ? other : typeof other === 'string' || typeof other === 'bigint' ? Number(other) : Number.NaN;
    if (!Number.isFinite(x)) return quantile(own.float53(row, draw));
    const z = r * normalQuantile(rank(x)) + rest * standardNormal(own, row, draw);
    return quantile(normalCdf(z));
  };
  return { ...distributionProgram(stream, sampler, min, max, precision), deps: [partner.index] };
}

/**
 * The inverse of quantileFunction: the probability at which `value` lies among the quantiles (the
 * middle of the run of equal quantiles it matches, so a value many rows share sits mid-way), kept
 * off 0 and 1.
 */
export function cumulativeFunction(quantiles: readonly number[]): (value: number) => number {
  const sorted = [...quantiles].sort((a, b) => a - b);
  const steps = sorted.length - 1;
  const edge = 0.5 / Math.max(1, steps * 100);
  const clamp = (p: number) => Math.min(1 - edge, Math.max(edge, p));
  if (steps < 1) return () => 0.5;
  return (value) => {
    if (value < sorted[0]!) return clamp(0);
    if (value > sorted[steps]!) return clamp(1);
    // First index at or above the value, last index at or below it.
    let lo = 0;
    let hi = steps;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    const first = lo;
    let last = first;
    while (last < steps && sorted[last + 1]! <= value) last++;
    if (sorted[first]! === value) return clamp((first + last) / 2 / steps);
    // Strictly between sorted[first - 1] and sorted[first].
    const below = sorted[first - 1]!;
    return clamp((first - 1 + (value - below) / (sorted[first]! - below)) / steps);
  };
}

/** The standard normal distribution function (Abramowitz and Stegun 26.2.17, error < 7.5e-8). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  const tail = density * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

/** The standard normal quantile function for p in (0, 1) (P. J. Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** A standard normal value (Box–Muller over two draws; the first in (0, 1] so its log is finite). */
function standardNormal(stream: RandomStream, row: number, draw: number): number {
  const u = 1 - stream.float53(row, draw);
  const v = stream.float53(row, draw + 1);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Zipf ranks 1..n with P(k) ∝ 1/k^s, by rejection-inversion (W. Hörmann and G. Derflinger, 1996; as
 * Apache Commons RNG's RejectionInversionZipfSampler): O(1) memory and time for any n, exact.
 */
export class ZipfSampler {
  readonly #n: number;
  readonly #s: number;
  readonly #hX1: number;
  readonly #hN: number;
  readonly #cut: number;

  constructor(n: number, exponent: number) {
    this.#n = n;
    this.#s = exponent;
    this.#hX1 = this.#hIntegral(1.5) - 1;
    this.#hN = this.#hIntegral(n + 0.5);
    this.#cut = 2 - this.#hIntegralInverse(this.#hIntegral(2.5) - this.#h(2));
  }

  /** A rank in [1, n] from draws `draw`, `draw + 1`… of (stream, row); after 15 rejections, rank 1. */
  sample(stream: RandomStream, row: number, draw: number): number {
    for (let i = 0; i < DRAWS - 1; i++) {
      const u = this.#hN + stream.float53(row, draw + i) * (this.#hX1 - this.#hN);
      const x = this.#hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.#n) k = this.#n;
      if (k - x <= this.#cut || u >= this.#hIntegral(k + 0.5) - this.#h(k)) return k;
    }
    return 1;
  }

  /** Share of draws that fall on ranks 1..k (exact sums for tests and reports). */
  static share(n: number, exponent: number, k: number): number {
    let top = 0;
    let all = 0;
    for (let rank = 1; rank <= n; rank++) {
      const weight = rank ** -exponent;
      all += weight;
      if (rank <= k) top += weight;
    }
    return top / all;
  }

  #h(x: number): number {
    return Math.exp(-this.#s * Math.log(x));
  }

  #hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.#s) * logX) * logX;
  }

  #hIntegralInverse(x: number): number {
    let t = x * (1 - this.#s);
    if (t < -1) t = -1;
    return Math.exp(helper1(t) * x);
  }
}

/** log(1 + x) / x, continuous at 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

/** (e^x - 1) / x, continuous at 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1 / 3) * (1 + 0.25 * x));
}
