// Engine lists and environment names come from the dialect registry (DIALECT_FACTS): a stub third
// engine added to a registry shows up in every list derived from it, and the lists of the default
// registry are the ones configuration, the CLI and the studio use.
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../src/settings.ts';
import { SOURCE_KINDS } from '../../../src/contract.ts';
import type { DialectFacts } from '../../../src/dialects/dialect.ts';
import { defaultTargetUrls, DIALECT_FACTS, ENGINE_KINDS, engineKinds, kindOfUrl, urlExamples } from '../../../src/dialects/facts.ts';
import { ENGINES } from '../../../studio/src/import/import-model.ts';

const sqlServer: DialectFacts = {
  ...DIALECT_FACTS.postgres,
  label: 'SQL Server',
  urlSchemes: ['sqlserver', 'mssql'],
  urlExample: 'sqlserver://…',
  defaultTargetEnv: 'MSSQL_URL',
  defaultPort: 1433,
};
const withStub = { ...DIALECT_FACTS, mssql: sqlServer };

describe('a registry with a stub third engine', () => {
  it('lists it after the others', () => {
    expect(engineKinds(withStub)).toEqual([...ENGINE_KINDS, 'mssql']);
  });

  it('knows its connection strings by scheme, and shows its example', () => {
    expect(kindOfUrl('SQLServer://sa@db:1433/shop', withStub)).toBe('mssql');
    expect(kindOfUrl('mssql://sa@db/shop', withStub)).toBe('mssql');
    expect(kindOfUrl('mysql://root@db/shop', withStub)).toBe('mysql');
    expect(kindOfUrl('sqlserver://sa@db/shop')).toBeUndefined();
    expect(urlExamples(withStub)).toBe('postgres://… or mysql://… or sqlserver://…');
  });

  it('reads its default target from the variable it names, empty ones left out', () => {
    const env = { MSSQL_URL: ' sqlserver://sa@db/shop ', MYSQL_URL: '', POSTGRES_TARGET_URL: 'postgres://p@db/x' };
    expect(defaultTargetUrls(env, withStub)).toEqual({ postgres: 'postgres://p@db/x', mssql: 'sqlserver://sa@db/shop' });
    expect(defaultTargetUrls(env)).toEqual({ postgres: 'postgres://p@db/x' });
  });
});

describe('the default registry', () => {
  it('has the contract\'s source kinds, in its order', () => {
    expect(ENGINE_KINDS).toEqual([...SOURCE_KINDS]);
  });

  it('names the environment variables configuration reads the default targets from', () => {
    const env = { NODE_ENV: 'test', POSTGRES_TARGET_URL: 'postgres://p@db/x', MYSQL_URL: 'mysql://m@db/y' };
    expect(loadSettings(env).targetUrls).toEqual({ postgres: 'postgres://p@db/x', mysql: 'mysql://m@db/y' });
    expect(ENGINE_KINDS.map((kind) => DIALECT_FACTS[kind].defaultTargetEnv)).toEqual(['POSTGRES_TARGET_URL', 'MYSQL_URL']);
  });

  it('agrees with the studio\'s engine table on URL schemes and namespace fields', () => {
    for (const kind of ENGINE_KINDS) {
      expect([...ENGINES[kind].urlSchemes], kind).toEqual([...DIALECT_FACTS[kind].urlSchemes]);
      expect(ENGINES[kind].namespaceField, kind).toBe(DIALECT_FACTS[kind].namespaceField);
    }
  });
});
