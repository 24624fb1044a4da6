// Learning numeric columns that move together (a track's length and its size in bytes, with noise:
// no formula holds): `sds init --learn` writes a `correlation` on one of them, the privacy report
// lists it, and rows generated from the learned config keep the pair's rank correlation, where the
// same config without it scores far lower on pair trends. A pair that does not move together gets
// none.
import { afterAll, describe, expect, it } from 'vitest';
import type { Field, SchemaConfig } from '../../../src/model/config-types.ts';
import { learnDatabase } from '../../../src/learn/learn-database.ts';
import { correlationSimilarity, rankCorrelation } from '../../../src/learn/fidelity.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generate } from '../../helpers/generate-in-memory.ts';

const targets = await dialectTargets();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A small deterministic generator (an LCG), so both engines hold the same rows. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** 600 tracks: skewed lengths, bytes ≈ length × a noisy bit rate, and a rating that moves with neither. */
function tracks(): number[][] {
  const next = random(11);
  return Array.from({ length: 600 }, (_, i) => {
    const milliseconds = Math.round(120_000 + 400_000 * next() ** 2 + 60_000 * next());
    const bytes = Math.round(milliseconds * (20 + 30 * next()));
    const rating = Math.round(next() * 1000) / 100;
    return [i + 1, milliseconds, bytes, rating];
  });
}

/** The config with every learned correlation left out: the columns drawn independently, as before. */
function withoutCorrelations(config: SchemaConfig): SchemaConfig {
  const copy = structuredClone(config);
  for (const entity of copy.entities) {
    for (const field of entity.fields) {
      const strategy = field.generation?.strategy;
      if ((strategy?.kind === 'randomInt' || strategy?.kind === 'randomFloat') && strategy.distribution?.kind === 'empirical') delete strategy.distribution.correlation;
    }
  }
  return copy;
}

for (const target of targets) {
  describe(`learning correlated columns on ${target.name}`, () => {
    it('writes the pair that moves together, and generated rows keep its rank correlation', async () => {
      const connection = await openTarget(target);
      const namespace = connection.track(uniqueNamespace('w2learn_corr'));
      const inspector = await openInspector(target);
      cleanups.push(async () => {
        await inspector.close();
        await connection.cleanup();
      });
      await inspector.query(`CREATE ${target.name === 'postgres' ? 'SCHEMA' : 'DATABASE'} ${target.dialect.quoteIdentifier(namespace)}`);
      const table = `${target.dialect.quoteIdentifier(namespace)}.${target.dialect.quoteIdentifier('tracks')}`;
      const double = target.name === 'postgres' ? 'DOUBLE PRECISION' : 'DOUBLE';
      await inspector.query(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, milliseconds INTEGER NOT NULL, bytes BIGINT NOT NULL, rating ${double} NOT NULL)`);
      const rows = tracks();
      await inspector.query(`INSERT INTO ${table} VALUES ${rows.map((row) => `(${row.join(', ')})`).join(', ')}`);
      const real = rankCorrelation(rows.map((row) => row[1]), rows.map((row) => row[2]))!;
      expect(real).toBeGreaterThan(0.8);

      const { config, report } = await learnDatabase(target.url, { namespace });
      const entity = config.entities.find((candidate) => candidate.id === 'tracks')!;
      const strategyOf = (id: string) => entity.fields.find((field: Field) => field.id === id)!.generation!.strategy!;
      const bytes = strategyOf('bytes');
      expect(bytes).toMatchObject({ distribution: { kind: 'empirical', correlation: { field: 'milliseconds' } } });
      const learnedRho = (bytes as { distribution: { correlation: { spearman: number } } }).distribution.correlation.spearman;
      expect(Math.abs(learnedRho - real)).toBeLessThan(0.02);
      // The rating moves with neither: no correlation of its own, nobody follows it.
      expect(JSON.stringify(strategyOf('rating'))).not.toContain('correlation');
      expect(JSON.stringify(strategyOf('milliseconds'))).not.toContain('correlation');
      expect(report.tables.find((entry) => entry.table === 'tracks')?.correlations).toEqual([{ column: 'bytes', with: 'milliseconds', spearman: learnedRho }]);

      const score = (schema: SchemaConfig) => {
        const run = generate(schema);
        return correlationSimilarity(real, rankCorrelation(run.column('tracks', 'milliseconds'), run.column('tracks', 'bytes'))!);
      };
      const [after, before] = [score(config), score(withoutCorrelations(config))];
      console.log(`${target.name} pair trend tracks.milliseconds/bytes`, JSON.stringify({ real, before, after }));
      expect(after).toBeGreaterThanOrEqual(0.95);
      expect(before).toBeLessThan(0.7);
    });
  });
}
