// finalizeTables per dialect: unique keys, indexes and foreign keys that behave in the database
// (cascade, set null, restrict), and driver errors mapped to kinds and columns without row data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowValues } from '../../../src/model/row-value.ts';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { everyTypeTable, parentChildTables } from '../../helpers/dialect-fixtures.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();
/** Row data that must never appear in a mapped error. */
const SECRET = 'secret-7f3a';

for (const target of DIALECTS) {
  describe(`${target.name}: finalizeTables and errors`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;
    const namespace = uniqueNamespace('fk');
    const [authors, posts, comments] = parentChildTables() as [TableSpec, TableSpec, TableSpec];
    const q = (name: string) => (target.name === 'postgres' ? `"${name}"` : `\`${name}\``);
    const t = (table: string) => `${q(namespace)}.${q(table)}`;
    const p = (index: number) => (target.name === 'postgres' ? `$${index}` : '?');

    async function failure(sql: string, params?: unknown[]): Promise<unknown> {
      return inspector.query(sql, params).then(
        () => {
          throw new Error(`expected ${sql} to fail`);
        },
        (error: unknown) => error,
      );
    }

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
      connection.track(namespace);
      await connection.recreateNamespace(namespace);
      const tables = [authors, posts, comments, everyTypeTable];
      await connection.createTables(namespace, tables);
      const authorRows: RowValues[] = [
        [1, `${SECRET}-1@example.com`, 'Ada', null],
        [2, 'two@example.com', 'Grace', 1],
        [3, 'three@example.com', 'Ada', 2],
      ];
      await connection.loadRows(namespace, authors, [authorRows]);
      await connection.loadRows(namespace, posts, [[[10, 1, 2, 'by 1, edited by 2'], [11, 2, 1, 'by 2, edited by 1'], [12, 3, null, 'by 3']]]);
      await connection.loadRows(namespace, comments, [[[12, 1, 'on 12'], [12, 2, 'also on 12']]]);
      await connection.finalizeTables(namespace, tables);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('adds unique keys, secondary indexes and foreign keys', async () => {
      if (target.name === 'postgres') {
        const indexes = await inspector.query('SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 ORDER BY 1', [namespace]);
        expect(indexes.map((row) => row.name)).toEqual(expect.arrayContaining(['authors_email_key', 'authors_name_idx', 'every_type_kind_idx', 'every_type_shortName_key']));
        const keys = await inspector.query(
          "SELECT conname AS name, confdeltype AS del, confupdtype AS upd FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND contype = 'f' ORDER BY 1",
          [namespace],
        );
        expect(keys).toEqual([
          { name: 'authors_mentor_fk', del: 'n', upd: 'r' },
          { name: 'comments_post_fk', del: 'r', upd: 'r' },
          { name: 'posts_author_fk', del: 'c', upd: 'c' },
          { name: 'posts_editor_fk', del: 'n', upd: 'c' },
        ]);
      } else {
        const indexes = await inspector.query('SELECT DISTINCT INDEX_NAME AS name, NON_UNIQUE AS nonUnique FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY 1', [namespace]);
        expect(indexes.map((row) => ({ name: row.name, nonUnique: Number(row.nonUnique) }))).toEqual(
          expect.arrayContaining([
            { name: 'authors_email_key', nonUnique: 0 },
            { name: 'authors_name_idx', nonUnique: 1 },
            { name: 'every_type_shortName_key', nonUnique: 0 },
            { name: 'every_type_kind_idx', nonUnique: 1 },
          ]),
        );
        const keys = await inspector.query(
          'SELECT CONSTRAINT_NAME AS name, DELETE_RULE AS del, UPDATE_RULE AS upd, UNIQUE_CONSTRAINT_SCHEMA AS refSchema FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY 1',
          [namespace],
        );
        // MariaDB records RESTRICT as NO ACTION when the key is added in place (foreign_key_checks=0);
        // InnoDB enforces both the same way, at once (the behaviour tests below check it).
        const restrict = (rule: unknown) => (rule === 'NO ACTION' ? 'RESTRICT' : rule);
        expect(keys.map((key) => ({ ...key, del: restrict(key.del), upd: restrict(key.upd) }))).toEqual([
          { name: 'authors_mentor_fk', del: 'SET NULL', upd: 'RESTRICT', refSchema: namespace },
          { name: 'comments_post_fk', del: 'RESTRICT', upd: 'RESTRICT', refSchema: namespace },
          { name: 'posts_author_fk', del: 'CASCADE', upd: 'CASCADE', refSchema: namespace },
          { name: 'posts_editor_fk', del: 'SET NULL', upd: 'CASCADE', refSchema: namespace },
        ]);
      }
    });

    it('cascades updates of referenced keys', async () => {
      // Author 3 is nobody's mentor (authors_mentor_fk restricts updates) but wrote post 12.
      await inspector.query(`UPDATE ${t('authors')} SET id = 30 WHERE id = 3`);
      const rows = await inspector.query(`SELECT id, ${q('authorId')} AS author FROM ${t('posts')} ORDER BY id`);
      expect(rows.map((row) => [Number(row.id), Number(row.author)])).toEqual([
        [10, 1],
        [11, 2],
        [12, 30],
      ]);
    });

    it('restricts deleting a referenced row, and maps the error without row data', async () => {
      const error = await failure(`DELETE FROM ${t('posts')} WHERE id = 12`);
      const mapped = target.dialect.mapError(error, posts);
      expect(mapped).toMatchObject({ kind: 'foreign_key_violation', constraint: 'comments_post_fk', table: 'comments', columns: ['id'] });
      expect(mapped.message).toBe('Row is still referenced through foreign key comments_post_fk of table comments');
      expect(Number((await inspector.query(`SELECT COUNT(*) AS n FROM ${t('posts')}`))[0]!.n)).toBe(3);
    });

    it('cascades deletes and sets references null', async () => {
      await inspector.query(`DELETE FROM ${t('authors')} WHERE id = 1`);
      const rows = await inspector.query(`SELECT id, ${q('editorId')} AS editor FROM ${t('posts')} ORDER BY id`);
      // Post 10 (by author 1) is gone; post 11 was edited by author 1: its editor is now NULL.
      expect(rows.map((row) => [Number(row.id), row.editor])).toEqual([
        [11, null],
        [12, null],
      ]);
      const [grace] = await inspector.query(`SELECT ${q('mentorId')} AS mentor FROM ${t('authors')} WHERE id = 2`);
      expect(grace!.mentor).toBeNull();
    });

    it('maps unique violations to the key columns, never the value', async () => {
      const error = await failure(`INSERT INTO ${t('authors')} (id, email, name) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [4, 'two@example.com', SECRET]);
      const mapped = target.dialect.mapError(error, authors);
      expect(mapped).toMatchObject({ kind: 'unique_violation', constraint: 'authors_email_key', columns: ['email'] });
      expect(JSON.stringify(mapped)).not.toMatch(/two@example|secret/);

      const primary = target.dialect.mapError(await failure(`INSERT INTO ${t('authors')} (id, email) VALUES (${p(1)}, ${p(2)})`, [2, `${SECRET}@example.com`]), authors);
      expect(primary).toMatchObject({ kind: 'unique_violation', columns: ['id'] });
      expect(primary.message).toMatch(/^Duplicate value for unique key \(id\)/);
      expect(JSON.stringify(primary)).not.toContain(SECRET);
    });

    it('maps a missing referenced row to the foreign key columns', async () => {
      const error = await failure(`INSERT INTO ${t('posts')} (id, ${q('authorId')}, title) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [99, 424242, SECRET]);
      const mapped = target.dialect.mapError(error, posts);
      expect(mapped).toMatchObject({ kind: 'foreign_key_violation', constraint: 'posts_author_fk', table: 'posts', columns: ['authorId'] });
      expect(JSON.stringify(mapped)).not.toMatch(/424242|secret/);
    });

    it('maps not-null, check and unknown-table errors', async () => {
      const notNull = target.dialect.mapError(await failure(`INSERT INTO ${t('posts')} (id, ${q('authorId')}, title) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [98, 2, null]), posts);
      expect(notNull).toMatchObject({ kind: 'not_null_violation', columns: ['title'] });
      expect(notNull.message).toBe('Missing value for required column (title) of table posts');

      const check = target.dialect.mapError(
        await failure(`INSERT INTO ${t('every_type')} (id, ${q('shortName')}, kind, ${q('requiredFlag')}) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`, [1, 'x', SECRET, true]),
        everyTypeTable,
      );
      expect(check).toMatchObject({ kind: 'check_violation', columns: ['kind'] });
      expect(JSON.stringify(check)).not.toContain(SECRET);

      const tooLong = target.dialect.mapError(
        await failure(`INSERT INTO ${t('every_type')} (id, ${q('shortName')}, ${q('requiredFlag')}) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, [2, SECRET.repeat(10), true]),
        everyTypeTable,
      );
      expect(tooLong).toMatchObject({ kind: 'invalid_value' });
      expect(JSON.stringify(tooLong)).not.toContain(SECRET);

      const missing = target.dialect.mapError(await failure(`SELECT * FROM ${t('nope')}`));
      expect(missing).toMatchObject({ kind: 'undefined_table', table: 'nope' });
    });

    it('maps an unreachable server to a connection error', async () => {
      const url = new URL(target.url);
      url.port = '1';
      url.hostname = '127.0.0.1';
      const error = await target.dialect.connect(url.toString()).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(target.dialect.mapError(error)).toMatchObject({ kind: 'connection', message: 'Cannot reach the database' });
    });

    it('refuses to add a foreign key over rows that break it', async () => {
      const other = connection.track(uniqueNamespace('orphan'));
      await connection.recreateNamespace(other);
      await connection.createTables(other, [authors, posts]);
      await connection.loadRows(other, authors, [[[1, 'a@example.com', null, null]]]);
      await connection.loadRows(other, posts, [[[1, 1, null, 'fine'], [2, 7, null, 'orphan']]]);
      await expect(connection.finalizeTables(other, [authors, posts])).rejects.toThrow(/posts_author_fk/);
    });
  });
}

