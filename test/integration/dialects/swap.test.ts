// swapNamespaces per dialect: the staging namespace replaces the live one at once (readers see the
// old tables or the new ones), tables only in the old live namespace disappear, foreign keys move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';
import { waitFor } from '../../helpers/wait.ts';
import { replacedNamespace } from '../../../src/model/namespace-names.ts';

const DIALECTS = await dialectTargets();

function table(name: string, references?: string): TableSpec {
  return {
    name,
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'label', type: 'string', nullable: false, maxLength: 40 },
      ...(references ? [{ name: 'parentId', type: 'integer' as const, nullable: true }] : []),
    ],
    primaryKey: ['id'],
    indexes: [{ name: `${name}_label_key`, columns: ['label'], unique: true }],
    foreignKeys: references ? [{ name: `${name}_parent_fk`, columns: ['parentId'], references: { table: references, columns: ['id'] }, onDelete: 'cascade', onUpdate: 'restrict' }] : [],
  };
}

for (const target of DIALECTS) {
  describe(`${target.name}: swapNamespaces`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;
    const q = (name: string) => (target.name === 'postgres' ? `"${name}"` : `\`${name}\``);

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    async function build(namespace: string, tables: Array<[TableSpec, number]>): Promise<void> {
      await connection.recreateNamespace(namespace);
      await connection.createTables(
        namespace,
        tables.map(([spec]) => spec),
      );
      for (const [spec, count] of tables) {
        const rows = Array.from({ length: count }, (_, index) => [index + 1, `${spec.name} ${namespace} ${index + 1}`, ...(spec.foreignKeys.length ? [index + 1] : [])]);
        await connection.loadRows(namespace, spec, [rows]);
      }
      await connection.finalizeTables(
        namespace,
        tables.map(([spec]) => spec),
      );
    }

    async function tablesIn(namespace: string): Promise<string[]> {
      const rows =
        target.name === 'postgres'
          ? await inspector.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [namespace])
          : await inspector.query('SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY 1', [namespace]);
      return rows.map((row) => String(row.name));
    }

    async function leftoverOldNamespaces(): Promise<number> {
      const rows =
        target.name === 'postgres'
          ? await inspector.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'sds\\_old\\_%'")
          : await inspector.query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'sds\\_old\\_%'");
      return rows.length;
    }

    it('replaces the live tables with the staging ones and drops both the old data and staging', async () => {
      const live = connection.track(uniqueNamespace('live'));
      const staging = connection.track(uniqueNamespace('staging'));
      const before = await leftoverOldNamespaces();
      await build(live, [
        [table('shared'), 5],
        [table('only_old', 'shared'), 5],
      ]);
      await build(staging, [
        [table('shared'), 7],
        [table('only_new', 'shared'), 3],
      ]);

      await connection.swapNamespaces(staging, live);

      expect(await connection.namespaceExists(staging)).toBe(false);
      expect(await tablesIn(live)).toEqual(['only_new', 'shared']);
      expect(await connection.countRows(live, 'shared')).toBe(7);
      expect(await connection.countRows(live, 'only_new')).toBe(3);
      const [label] = await inspector.query(`SELECT label FROM ${q(live)}.${q('shared')} WHERE id = 1`);
      expect(label!.label).toBe(`shared ${staging} 1`);
      expect(await leftoverOldNamespaces()).toBe(before);

      // The foreign key moved with its tables: it points into the live namespace and still cascades.
      if (target.name === 'mysql') {
        const keys = await inspector.query(
          'SELECT CONSTRAINT_SCHEMA AS ns, REFERENCED_TABLE_NAME AS parent, UNIQUE_CONSTRAINT_SCHEMA AS parentNs FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_NAME = ?',
          ['only_new_parent_fk'],
        );
        expect(keys).toEqual([{ ns: live, parent: 'shared', parentNs: live }]);
      } else {
        const [key] = await inspector.query(
          "SELECT confrelid::regclass::text AS parent FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND conname = 'only_new_parent_fk'",
          [live],
        );
        expect(key!.parent).toBe(`${live}.shared`);
      }
      await inspector.query(`DELETE FROM ${q(live)}.${q('shared')} WHERE id = 1`);
      expect(await connection.countRows(live, 'only_new')).toBe(2);
      const insert =
        target.name === 'postgres'
          ? `INSERT INTO "${live}"."only_new" (id, label, "parentId") VALUES (100, 'x', 999)`
          : `INSERT INTO \`${live}\`.\`only_new\` (id, label, parentId) VALUES (100, 'x', 999)`;
      const error = await inspector.query(insert).catch((caught: unknown) => caught);
      expect(target.dialect.mapError(error)).toMatchObject({ kind: 'foreign_key_violation', constraint: 'only_new_parent_fk' });
    });

    it('drops what a swap of the same namespace killed mid-way left behind (the tables it replaced)', async () => {
      const live = connection.track(uniqueNamespace('killed'));
      const staging = connection.track(uniqueNamespace('staging'));
      const leftover = connection.track(replacedNamespace(live));
      // As a swap killed after its renames, before its drop: the replaced tables in the old namespace.
      await build(leftover, [[table('things'), 2]]);
      await build(staging, [[table('things'), 4]]);
      await connection.swapNamespaces(staging, live);
      expect(await connection.countRows(live, 'things')).toBe(4);
      expect(await connection.namespaceExists(leftover)).toBe(false);
    });

    it('creates the live namespace when it does not exist yet', async () => {
      const live = connection.track(uniqueNamespace('fresh'));
      const staging = connection.track(uniqueNamespace('staging'));
      await build(staging, [[table('things'), 4]]);
      await connection.swapNamespaces(staging, live);
      expect(await connection.countRows(live, 'things')).toBe(4);
      expect(await connection.namespaceExists(staging)).toBe(false);
    });

    it('never shows readers a mix or a missing table while swapping', async () => {
      const live = connection.track(uniqueNamespace('readers'));
      await build(live, [
        [table('a'), 10],
        [table('b'), 10],
      ]);
      for (let round = 0; round < 3; round++) {
        const staging = connection.track(uniqueNamespace('staging'));
        const size = 20 + round;
        await build(staging, [
          [table('a'), size],
          [table('b'), size],
        ]);
        let swapped = false;
        const seen: Array<[number, number]> = [];
        const reader = (async () => {
          while (!swapped) {
            const [row] = await inspector.query(`SELECT (SELECT COUNT(*) FROM ${q(live)}.${q('a')}) AS a, (SELECT COUNT(*) FROM ${q(live)}.${q('b')}) AS b`);
            seen.push([Number(row!.a), Number(row!.b)]);
          }
        })();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await connection.swapNamespaces(staging, live);
        await new Promise((resolve) => setTimeout(resolve, 20));
        swapped = true;
        await reader;
        expect(seen.length).toBeGreaterThan(0);
        for (const [a, b] of seen) expect(a).toBe(b);
        expect(await connection.countRows(live, 'a')).toBe(size);
      }
    });

    if (target.name === 'postgres') {
      it('completes while a runtime write holds a live table, without deadlocking with it', async () => {
        // A runtime create locks its table, reads the next id, then inserts, which checks the
        // referenced table: dropping the old schema inside the swap used to deadlock with it (40P01)
        // and fail the generation.
        const live = connection.track(uniqueNamespace('busy'));
        const staging = connection.track(uniqueNamespace('busy_next'));
        await build(live, [[table('parent'), 3], [table('child', 'parent'), 3]]);
        await build(staging, [[table('parent'), 5], [table('child', 'parent'), 5]]);
        const { default: pg } = await import('pg');
        const writer = new pg.Client({ connectionString: target.url });
        await writer.connect();
        try {
          await writer.query('BEGIN');
          await writer.query(`LOCK TABLE ${q(live)}.${q('child')} IN SHARE ROW EXCLUSIVE MODE`);
          await writer.query(`SELECT max(id) FROM ${q(live)}.${q('child')}`);
          const child = (await writer.query<{ oid: number }>(`SELECT '${q(live)}.${q('child')}'::regclass::oid AS oid`)).rows[0]!.oid;
          const swapping = connection.swapNamespaces(staging, live);
          // The swap's drop of the replaced schema now waits for the writer's lock on child: the
          // moment the old deadlock came from.
          await waitFor(
            async () => (await writer.query('SELECT 1 FROM pg_locks WHERE relation = $1 AND NOT granted', [child])).rowCount! > 0,
            10_000,
            'the swap to wait for the lock the writer holds',
            10,
          );
          await writer.query(`INSERT INTO ${q(live)}.${q('child')} (id, label, "parentId") VALUES (100, 'written', 1)`);
          await writer.query('COMMIT');
          await swapping;
        } finally {
          await writer.end();
        }
        expect(await connection.countRows(live, 'parent')).toBe(5);
        expect(await leftoverOldNamespaces()).toBe(0);
      });
    }

    it('refuses a missing staging namespace and leaves the live one serving', async () => {
      const live = connection.track(uniqueNamespace('kept'));
      await build(live, [[table('kept'), 2]]);
      await expect(connection.swapNamespaces(uniqueNamespace('missing'), live)).rejects.toThrow(/does not exist/);
      expect(await connection.countRows(live, 'kept')).toBe(2);
    });
  });
}
