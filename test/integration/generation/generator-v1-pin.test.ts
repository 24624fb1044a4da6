// Generator version 1 is frozen on each database: the tables a version-1 run loads (example configs
// and the every-option config, fixed reference date) must keep these digests, read back in
// primary-key order. See test/fixtures/generator-v1-pins.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGeneration, stagingNamespace } from '../../../src/generation/run.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';
import { Catalog } from '../../helpers/catalog.ts';
import { pinnedConfigs, V1_PINS, V1_REFERENCE_DATE } from '../../fixtures/generator-v1-pins.ts';

const DIALECTS = await dialectTargets();

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 1 is pinned`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    for (const [name, config] of Object.entries(pinnedConfigs())) {
      it(`${name}: a version-1 run loads the pinned tables`, async () => {
        const namespace = connection.track(uniqueNamespace('v1pin'));
        connection.track(stagingNamespace(namespace));
        const summary = await runGeneration(connection, namespace, config, { referenceDate: V1_REFERENCE_DATE, generatorVersion: 1, atomic: true });
        expect(summary.generatorVersion).toBe('1.0.0+faker-10.6.0');
        const catalog = new Catalog(target, inspector, namespace);
        const digests: Record<string, string> = {};
        for (const entity of config.entities) digests[entity.id] = await catalog.digest(entity.id, entity.primaryKey!);
        expect(digests).toEqual(V1_PINS[target.name][name]);
      });
    }
  });
}
