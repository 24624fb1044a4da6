// What `sds generate --database-url` says before it connects: where the rows go and what is replaced.
import { describe, expect, it } from 'vitest';
import { loadTargetNotice } from '../../../src/cli/generation-commands.ts';

describe('loadTargetNotice', () => {
  it('names the PostgreSQL schema it replaces, its database and server, and that the name came from the file', () => {
    const notice = loadTargetNotice('postgres://app:secret@db.internal:6543/app', 'sds_shop', false);
    expect(notice).toBe(
      'loading into PostgreSQL schema "sds_shop" of database "app" on db.internal:6543 (named after the file; --schema <name> to choose): ' +
        'created, or replaced whole if it exists, once every row is in',
    );
    expect(notice).not.toContain('secret');
  });

  it('on MySQL, says the URL\'s database only locates the server when the rows go elsewhere', () => {
    const lines = loadTargetNotice('mysql://root@127.0.0.1/app', 'sds_shop', false).split('\n');
    expect(lines[0]).toBe('loading into MySQL database "sds_shop" on 127.0.0.1:3306 (named after the file; --schema <name> to choose): created, or replaced whole if it exists, once every row is in');
    expect(lines[1]).toBe('the URL\'s database "app" only says which server to reach: the rows go into "sds_shop", not "app" (to fill tables that already exist, use sds seed)');
  });

  it('says nothing more when --schema names the namespace, or the URL names the same database', () => {
    expect(loadTargetNotice('mysql://root@127.0.0.1/shop', 'shop', true)).toBe('loading into MySQL database "shop" on 127.0.0.1:3306: created, or replaced whole if it exists, once every row is in');
    expect(loadTargetNotice('postgresql://localhost/postgres', 'mine', true)).toBe('loading into PostgreSQL schema "mine" of database "postgres" on localhost:5432: created, or replaced whole if it exists, once every row is in');
  });
});
