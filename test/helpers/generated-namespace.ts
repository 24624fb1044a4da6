// One generation per describe block, for the tests that check generated data in SQL on each engine:
// the config generated into a fresh namespace of the target before the block's tests, read back
// through a Catalog, and dropped (with its staging copy) after them.
import { afterAll, beforeAll } from "vitest";
import type { SchemaConfig } from "../../src/contract.ts";
import type { GenerationOptions } from "../../src/generation/plan.ts";
import {
  runGeneration,
  stagingNamespace,
  type GenerationSummary,
} from "../../src/generation/run.ts";
import { Catalog } from "./catalog.ts";
import {
  openInspector,
  openTarget,
  type DialectTarget,
  type Inspector,
} from "./dialect-targets.ts";

export interface GeneratedNamespace {
  catalog: Catalog;
  summary: GenerationSummary;
  inspector: Inspector;
}

/**
 * Registers in the calling describe block a beforeAll that generates `config()` into `namespace` of
 * `target` (atomically, as a source job does) and hands the catalog and summary to `ready` (which may
 * add tables beside them), and an afterAll that closes the connections and drops the namespace.
 */
export function generateBeforeAll(
  target: DialectTarget,
  namespace: string,
  config: () => SchemaConfig,
  options: GenerationOptions,
  ready: (generated: GeneratedNamespace) => unknown,
  timeoutMs = 180_000,
): void {
  let connection: Awaited<ReturnType<typeof openTarget>> | undefined;
  let inspector: Inspector | undefined;
  beforeAll(async () => {
    connection = await openTarget(target);
    inspector = await openInspector(target);
    connection.track(namespace);
    connection.track(stagingNamespace(namespace));
    const summary = await runGeneration(connection, namespace, config(), {
      ...options,
      atomic: true,
    });
    await ready({
      catalog: new Catalog(target, inspector, namespace),
      summary,
      inspector,
    });
  }, timeoutMs);
  afterAll(async () => {
    await inspector?.close();
    await connection?.cleanup();
  });
}
