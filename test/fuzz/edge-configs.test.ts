// Schema configs at the edges through validateConfig and POST /public/v1/schema-config/validate:
// each answers within a bound (a correctness bound for pathological input, not a benchmark), the
// two agree, and the valid ones generate into a fresh PostgreSQL namespace (dropped afterwards),
// never hanging.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetConnection } from '../../src/dialects/dialect.ts';
import { postgresDialect } from '../../src/dialects/postgres/postgres-dialect.ts';
import type { SchemaConfig } from '../../src/model/config-types.ts';
import { runGeneration, type GenerationSummary } from '../../src/generation/run.ts';
import { validateConfig } from '../../src/config/validate-config.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { PG_TARGET_URL } from '../helpers/dialect-targets.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { mutatedConfig } from '../helpers/fuzz/fuzz-requests.ts';
import {
  configOf,
  deepLiteral,
  emptyEntity,
  enormousRowCount,
  everyType,
  hugeEnum,
  hugeLengths,
  hugePools,
  longestIdentifiers,
  manyEntities,
  manyFields,
  referenceChain,
  referenceRing,
  selfReference,
  zeroParents,
} from '../helpers/fuzz/edge-configs.ts';

/** The validator's answer time for the configs the issue names. */
const VALIDATOR_BOUND_MS = 1_000;
/** For ~1 MB configs (the largest body the API takes): linear work, with room for a loaded machine. */
const MEGABYTE_BOUND_MS = 4_000;
const GENERATION_TIMEOUT_MS = 40_000;
/** Fastest of seven validations of 200 entities on a quiet 2-core machine (measured 2026-11-27: 24–43 ms). */
const PROBE_QUIET_MS = 25;

/**
 * How much slower this machine runs now than a quiet one (1 to 8), from the fastest of seven
 * validations of a fixed config in this run: the bounds guard against pathological (super-linear)
 * work, which a loaded machine must not turn into a failure nor hide.
 */
let slowdown = 1;
const boundOf = (ms: number) => Math.round(ms * slowdown);

interface EdgeCase {
  config: SchemaConfig;
  valid: boolean;
  /** Expected in the first error (invalid configs) or a warning (valid ones). */
  message?: RegExp;
  boundMs?: number;
  /** Valid configs that are generated: the total rows they insert. */
  generate?: { rows: number };
}

const withRows = (config: SchemaConfig, rowCount: number): SchemaConfig => ({ ...config, generationDefaults: { ...config.generationDefaults, rowCount } });

const CASES: [string, EdgeCase][] = [
  ['200 entities × 1 row', { config: manyEntities(200), valid: true, generate: { rows: 200 } }],
  ['500 fields in one entity × 5 rows', { config: withRows(manyFields(500), 5), valid: true, generate: { rows: 5 } }],
  ['a reference chain 100 deep × 3 rows', { config: withRows(referenceChain(100), 3), valid: true, generate: { rows: 300 } }],
  ['a 2-entity cycle without a nullable field', { config: referenceRing(2, false), valid: false, message: /cycle r000 → r001 → r000 cannot be broken/ }],
  ['a 2-entity cycle with a nullable field', { config: referenceRing(2, true), valid: true, generate: { rows: 6 } }],
  ['a 100-entity cycle without a nullable field', { config: referenceRing(100, false), valid: false, message: /cannot be broken/ }],
  ['a 100-entity cycle with one nullable field', { config: referenceRing(100, true), valid: true, generate: { rows: 300 } }],
  ['a required self reference', { config: selfReference(false), valid: false, message: /references its own entity "node" but is not nullable/ }],
  ['a nullable self reference', { config: selfReference(true), valid: true, generate: { rows: 5 } }],
  ['an entity without fields', { config: emptyEntity(), valid: false, message: /has no fields/ }],
  ['no entities at all', { config: configOf([]), valid: true, message: /no entities/, generate: { rows: 0 } }],
  ['zero rows everywhere', { config: withRows(referenceChain(3), 0), valid: true, generate: { rows: 0 } }],
  ['zero parent rows under a required reference', { config: zeroParents(false), valid: true, generate: { rows: 0 } }],
  ['zero parent rows under a nullable reference', { config: zeroParents(true), valid: true, generate: { rows: 5 } }],
  ['63-character ids whose derived constraint and index names collide when cut', { config: longestIdentifiers(), valid: true, generate: { rows: 8 } }],
  ['maxLength 10485760 (PostgreSQL varchar limit)', { config: hugeLengths(10_485_760), valid: true, generate: { rows: 3 } }],
  // Above PostgreSQL's largest varchar a string column is text (writes still checked against maxLength);
  // above MySQL's largest text the validator refuses it.
  ['maxLength 1e9', { config: hugeLengths(1e9), valid: true, generate: { rows: 3 } }],
  ['maxLength 2^53', { config: hugeLengths(2 ** 53), valid: false, message: /maxLength must be <= 1073741823; got 9007199254740992/ }],
  ['every field type, format and type option at once', { config: everyType(), valid: true, generate: { rows: 7 } }],
  ['an enum and a weightedChoice of 10,000 unique values', { config: hugePools(10_000), valid: true, generate: { rows: 5 } }],
  ['a json literal nested 200 levels', { config: deepLiteral(100), valid: true, generate: { rows: 2 } }],
  ['rowCount up to 9e15', { config: enormousRowCount(), valid: false, message: /rowCount.min must be <= 100000000; got 1000000000000000/ }],
  // Regressions: an indexOf per value made 40k enum values take 5 s; a recursive cycle search overflowed the stack (500).
  ['an enum of 40,000 weighted values (0.5 MB)', { config: hugeEnum(40_000), valid: true, generate: { rows: 5 } }],
  ['a 1,000-entity cycle without a nullable field (the most entities a config may have)', { config: referenceRing(1_000, false), valid: false, message: /cannot be broken/, boundMs: MEGABYTE_BOUND_MS }],
  ['a 1,000-entity cycle with one nullable field: a chain 1,000 deep', { config: referenceRing(1_000, true), valid: true, boundMs: MEGABYTE_BOUND_MS }],
  // Issue 23: a config may have at most 1,000 entities (work-limits.ts); these were accepted before.
  ['a 6,000-entity cycle without a nullable field (1 MB)', { config: referenceRing(6_000, false), valid: false, message: /6000 entities, over the limit of 1000/, boundMs: MEGABYTE_BOUND_MS }],
  ['a 6,000-entity cycle with one nullable field: a chain 6,000 deep (1 MB)', { config: referenceRing(6_000, true), valid: false, message: /6000 entities, over the limit of 1000/, boundMs: MEGABYTE_BOUND_MS }],
  ['6,000 entities (0.9 MB)', { config: manyEntities(6_000), valid: false, message: /6000 entities, over the limit of 1000/, boundMs: MEGABYTE_BOUND_MS }],
];

let t: TestService;
let connection: TargetConnection;
const namespaces = new Set<string>();

beforeAll(async () => {
  t = await startTestService('edge_configs');
  connection = await postgresDialect.connect(PG_TARGET_URL);
  // Compiling the JSON Schema (validator and request validation) is a one-time cost, not the input's.
  validateConfig(blogConfig());
  const probe = manyEntities(200);
  validateConfig(probe);
  let fastest = Infinity;
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    validateConfig(probe);
    fastest = Math.min(fastest, performance.now() - started);
  }
  slowdown = Math.min(8, Math.max(1, fastest / PROBE_QUIET_MS));
  if (slowdown > 1.5) console.log(`edge-configs: this machine runs ${slowdown.toFixed(1)}× slower than a quiet one now; time bounds scaled by it`);
  await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: blogConfig() as unknown as Record<string, unknown> } });
});
afterAll(async () => {
  for (const namespace of namespaces) await connection?.dropNamespace(namespace).catch(() => {});
  await connection?.close();
  await t?.stop();
});

/** Runs a generation into a fresh namespace, aborted and rejected after GENERATION_TIMEOUT_MS. */
async function generate(config: SchemaConfig): Promise<{ summary?: GenerationSummary; error?: unknown; namespace: string }> {
  const namespace = `sds_edge_${randomBytes(4).toString('hex')}`;
  namespaces.add(namespace);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`generation still running after ${GENERATION_TIMEOUT_MS} ms`));
    }, GENERATION_TIMEOUT_MS);
  });
  try {
    const summary = await Promise.race([runGeneration(connection, namespace, config, { referenceDate: '2025-06-15', signal: abort.signal }), timeout]);
    return { summary, namespace };
  } catch (error) {
    return { error, namespace };
  } finally {
    clearTimeout(timer);
  }
}

describe('schema configs at the edges', () => {
  for (const [name, edge] of CASES) {
    const bound = edge.boundMs ?? VALIDATOR_BOUND_MS;

    it(`${name}: validateConfig answers within ${bound} ms`, () => {
      const started = performance.now();
      const result = validateConfig(edge.config);
      const elapsed = performance.now() - started;
      expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(boundOf(bound));
      expect(result.valid, JSON.stringify(result.errors[0])).toBe(edge.valid);
      if (edge.message) expect([...result.errors, ...result.warnings][0]?.message).toMatch(edge.message);
    });

    it(`${name}: POST /public/v1/schema-config/validate answers alike within ${bound} ms`, async () => {
      const started = performance.now();
      const { data, response } = await t.client(t.teamKey).POST('/public/v1/schema-config/validate', {
        body: { schema: edge.config as unknown as Record<string, unknown> },
      });
      const elapsed = performance.now() - started;
      expect(response.status).toBe(200);
      expect(elapsed, `${Math.round(elapsed)} ms`).toBeLessThan(boundOf(bound));
      expect(data!.valid).toBe(edge.valid);
    });

    const want = edge.generate;
    if (!want) continue;
    it(`${name}: generation inserts ${want.rows} rows`, async () => {
      const { summary, error, namespace } = await generate(edge.config);
      try {
        expect(error).toBeUndefined();
        expect(summary!.rowsInserted).toBe(want.rows);
        let counted = 0;
        for (const entity of edge.config.entities) counted += await connection.countRows(namespace, entity.id);
        expect(counted).toBe(want.rows);
      } finally {
        await connection.dropNamespace(namespace);
        namespaces.delete(namespace);
      }
    }, GENERATION_TIMEOUT_MS + 10_000);
  }
});

describe('schema configs mutated at random', () => {
  it('validateConfig never throws, answers within the bound, and points every issue into the config', () => {
    const details = fc.check(
      fc.property(mutatedConfig, (text) => {
        const config: unknown = JSON.parse(text);
        const started = performance.now();
        const result = validateConfig(config);
        expect(performance.now() - started).toBeLessThan(boundOf(VALIDATOR_BOUND_MS));
        expect(typeof result.valid).toBe('boolean');
        expect(result.valid).toBe(result.errors.length === 0);
        for (const issue of [...result.errors, ...result.warnings]) {
          expect(issue.path).toMatch(/^(\/.*)?$/);
          expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1_000, interruptAfterTimeLimit: 8_000 },
    );
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'property failed');
  }, 30_000);
});
