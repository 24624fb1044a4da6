// CREATE TABLE per dialect: every column type and nullability, primary keys (single and composite),
// enum values that need escaping, and the limits each database cannot hold reported clearly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { everyTypeTable, parentChildTables, TRICKY_ENUM_VALUES } from '../../helpers/dialect-fixtures.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();

/** Column type as each database reports it, per field type of everyTypeTable. */
const WANT_TYPES: Record<string, Record<string, string>> = {
  postgres: {
    id: 'integer',
    shortName: 'character varying(40)',
    anyString: 'text',
    body: 'text',
    count: 'integer',
    bigCount: 'bigint',
    ratio: 'double precision',
    price: 'numeric(20,2)',
    active: 'boolean',
    birthday: 'date',
    createdAt: 'timestamp with time zone',
    opensAt: 'time without time zone',
    uid: 'uuid',
    doc: 'jsonb',
    kind: 'text',
    requiredFlag: 'boolean',
  },
  mysql: {
    id: 'int',
    shortName: 'varchar(40)',
    anyString: 'text',
    body: 'mediumtext',
    count: 'int',
    bigCount: 'bigint',
    ratio: 'double',
    price: 'decimal(20,2)',
    active: 'tinyint(1)',
    birthday: 'date',
    createdAt: 'datetime(3)',
    opensAt: 'time',
    uid: 'char(36)',
    // MariaDB's JSON is LONGTEXT with a json_valid check; MySQL 8 has a JSON type.
    doc: 'json|longtext',
    kind: 'enum',
    requiredFlag: 'tinyint(1)',
  },
};

for (const target of DIALECTS) {
  describe(`${target.name}: createTables`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;
    const namespace = uniqueNamespace('ddl');

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
      connection.track(namespace);
      await connection.recreateNamespace(namespace);
      await connection.createTables(namespace, [everyTypeTable, ...parentChildTables()]);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    async function columnsOf(table: string): Promise<Array<{ name: string; type: string; nullable: boolean }>> {
      if (target.name === 'postgres') {
        const rows = await inspector.query(
          `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
          [namespace, table],
        );
        return rows.map((row) => ({ name: String(row.name), type: String(row.type).replace(', ', ','), nullable: row.nullable === 't' || row.nullable === 'true' }));
      }
      const rows = await inspector.query(
        'SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [namespace, table],
      );
      // MariaDB and MySQL 5 print display widths (int(11)); MySQL 8 does not, except tinyint(1).
      return rows.map((row) => ({
        name: String(row.name),
        type: String(row.type).replace(/^(int|bigint)\(\d+\)/, '$1').replace(/^enum\(.*\)$/s, 'enum'),
        nullable: row.nullable === 'YES',
      }));
    }

    async function primaryKeyOf(table: string): Promise<string[]> {
      const rows =
        target.name === 'postgres'
          ? await inspector.query(
              `SELECT k.column_name AS name FROM information_schema.table_constraints t
                 JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name, table_name)
                WHERE t.table_schema = $1 AND t.table_name = $2 AND t.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position`,
              [namespace, table],
            )
          : await inspector.query(
              "SELECT COLUMN_NAME AS name FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION",
              [namespace, table],
            );
      return rows.map((row) => String(row.name));
    }

    it('maps every column type and nullability', async () => {
      const columns = await columnsOf('every_type');
      expect(columns.map((column) => column.name)).toEqual(everyTypeTable.columns.map((column) => column.name));
      for (const column of everyTypeTable.columns) {
        const actual = columns.find((candidate) => candidate.name === column.name)!;
        expect(WANT_TYPES[target.name]![column.name]!.split('|'), column.name).toContain(actual.type);
        expect(actual.nullable, column.name).toBe(column.nullable);
      }
    });

    it('creates single and composite primary keys, and no secondary indexes before finalizeTables', async () => {
      expect(await primaryKeyOf('every_type')).toEqual(['id']);
      expect(await primaryKeyOf('comments')).toEqual(['postId', 'position']);
      const indexes =
        target.name === 'postgres'
          ? await inspector.query('SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND indexname NOT LIKE $2', [namespace, '%_pkey'])
          : await inspector.query("SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND INDEX_NAME <> 'PRIMARY'", [namespace]);
      expect(indexes).toEqual([]);
    });

    it('keeps tricky enum values exactly, and nothing else', async () => {
      if (target.name === 'mysql') {
        const [row] = await inspector.query('SELECT COLUMN_TYPE AS type FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?', [
          namespace,
          'every_type',
          'kind',
        ]);
        // information_schema doubles quotes in the definition; read the members back through the rows instead.
        expect(String(row!.type)).toMatch(/^enum\(/);
      }
      const table = 'every_type';
      const base = everyTypeTable.columns.map(() => null) as unknown[];
      const rows = TRICKY_ENUM_VALUES.map((value, index) => {
        const row = [...base];
        row[0] = index + 1;
        row[1] = `enum ${index}`;
        row[14] = value;
        row[15] = true;
        return row as never[];
      });
      const written = await connection.loadRows(namespace, everyTypeTable, [rows]);
      expect(written).toBe(TRICKY_ENUM_VALUES.length);
      const stored = await inspector.query(
        target.name === 'postgres' ? `SELECT kind FROM "${namespace}"."${table}" ORDER BY id` : `SELECT kind FROM \`${namespace}\`.\`${table}\` ORDER BY id`,
      );
      expect(stored.map((row) => row.kind)).toEqual(TRICKY_ENUM_VALUES);

      const outside = target.name === 'postgres' ? `INSERT INTO "${namespace}"."${table}" (id, "shortName", kind, "requiredFlag") VALUES (100, 'x', $1, true)` : `INSERT INTO \`${namespace}\`.\`${table}\` (id, shortName, kind, requiredFlag) VALUES (100, 'x', ?, 1)`;
      // Case-sensitive like PostgreSQL ('PLAIN' is neither 'plain' nor 'Plain'), and no prefix match. (Trailing
      // spaces are not tried: utf8mb4_bin is a PAD SPACE collation, so MySQL compares 'a ' equal to 'a'.)
      for (const value of ['PLAIN', "it'", 'emoji', 'ünïcødé SS']) {
        const failure = await inspector.query(outside, [value]).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure, value).toBeDefined();
        expect(target.dialect.mapError(failure, everyTypeTable).kind).toBe('check_violation');
      }
    });

    it('rejects enum values with NUL bytes before any SQL runs', async () => {
      const table: TableSpec = {
        name: 'nul_enum',
        columns: [{ name: 'kind', type: 'enum', nullable: false, values: ['ok', 'bad\0value'] }],
        primaryKey: [],
        indexes: [],
        foreignKeys: [],
      };
      await expect(connection.createTables(namespace, [table])).rejects.toThrow(/NUL byte/);
      expect((await columnsOf('nul_enum')).length).toBe(0);
    });

    it('rejects sizes that are not integers', async () => {
      const table: TableSpec = {
        name: 'bad_size',
        columns: [{ name: 'name', type: 'string', nullable: false, maxLength: 10.5 }],
        primaryKey: [],
        indexes: [],
        foreignKeys: [],
      };
      await expect(connection.createTables(namespace, [table])).rejects.toThrow(/maxLength must be an integer/);
    });

    it('stores a string longer than the largest varchar in a type that holds it', async () => {
      const table: TableSpec = {
        name: 'huge_string',
        columns: [{ name: 'body', type: 'string', nullable: true, maxLength: 20_000_000 }],
        primaryKey: [],
        indexes: [],
        foreignKeys: [],
      };
      await connection.createTables(namespace, [table]);
      const [column] = await columnsOf('huge_string');
      expect(column!.type).toBe(target.name === 'postgres' ? 'text' : 'longtext');
    });

    if (target.name === 'mysql') {
      it('uses InnoDB, utf8mb4 and the case-sensitive utf8mb4_bin collation', async () => {
        const rows = await inspector.query('SELECT ENGINE AS engine, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [namespace, 'every_type']);
        expect(rows).toEqual([{ engine: 'InnoDB', collation: 'utf8mb4_bin' }]);
        const [database] = await inspector.query('SELECT DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [namespace]);
        expect(database!.collation).toBe('utf8mb4_bin');
      });

      it('explains keys MySQL cannot index', async () => {
        const long: TableSpec = {
          name: 'long_key',
          columns: [{ name: 'code', type: 'string', nullable: false, maxLength: 1000 }],
          primaryKey: ['code'],
          indexes: [],
          foreignKeys: [],
        };
        await expect(connection.createTables(namespace, [long])).rejects.toThrow(/maxLength 1000 exceeds 768 characters/);
        const wide: TableSpec = {
          name: 'wide_key',
          columns: ['a', 'b', 'c', 'd'].map((name) => ({ name, type: 'string' as const, nullable: false, maxLength: 255 })),
          primaryKey: [],
          indexes: [{ name: 'wide_key_all', columns: ['a', 'b', 'c', 'd'], unique: true }],
          foreignKeys: [],
        };
        await expect(connection.createTables(namespace, [wide])).rejects.toThrow(/4080 bytes, more than InnoDB's 3072/);
        const json: TableSpec = {
          name: 'json_key',
          columns: [{ name: 'doc', type: 'json', nullable: false }],
          primaryKey: [],
          indexes: [{ name: 'json_key_doc', columns: ['doc'], unique: false }],
          foreignKeys: [],
        };
        await expect(connection.createTables(namespace, [json])).rejects.toThrow(/cannot index json column/);
        const trailing: TableSpec = {
          name: 'trailing_enum',
          columns: [{ name: 'kind', type: 'enum', nullable: false, values: ['a ', 'b'] }],
          primaryKey: [],
          indexes: [],
          foreignKeys: [],
        };
        await expect(connection.createTables(namespace, [trailing])).rejects.toThrow(/ENUM drops trailing spaces/);
      });

      it('keeps rows under the row-size limit by moving wide unindexed strings to TEXT', async () => {
        const wide: TableSpec = {
          name: 'wide_row',
          columns: Array.from({ length: 8 }, (_, index) => ({ name: `c${index}`, type: 'string' as const, nullable: true, maxLength: 4000 })),
          primaryKey: [],
          indexes: [],
          foreignKeys: [],
        };
        await connection.createTables(namespace, [wide]);
        const types = (await columnsOf('wide_row')).map((column) => column.type);
        expect(types.slice(0, 3)).toEqual(['varchar(4000)', 'varchar(4000)', 'varchar(4000)']);
        expect(types.slice(3)).toEqual(['text', 'text', 'text', 'text', 'text']);
      });
    }
  });
}
