// Numeric distributions of randomInt and randomFloat (normal, lognormal, exponential, zipf): each
// value a pure function of (stream, row, attempt) by inverse transforms, clamped to [min, max] and
// then rounded as the strategy rounds. Also the Zipf sampler that skewed reference fan-out shares.
import type { NumericDistribution } from '../../model/config-types.ts';
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import { roundDecimal } from './numbers.ts';

/** Draw numbers set aside per attempt: Box–Muller takes two, Zipf's rejection loop a few more. */
const DRAWS = 16;

/** A sampler of one distribution: a real number from (stream, row, first draw). */
type Sampler = (stream: RandomStream, row: number, draw: number) => number;

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
    at: (row, _values, attempt) => {
      const value = roundDecimal(sampler(stream, row, attempt * DRAWS), Math.min(15, precision));
      if (!(value >= lowest)) return lowest; // NaN too
      return value > highest ? highest : value;
    },
    typed: true,
  };
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
