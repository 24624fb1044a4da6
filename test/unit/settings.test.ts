// Default targets come from each engine's facts: the environment variable names stay those of the
// specification (POSTGRES_TARGET_URL, MYSQL_URL), and only the control plane's engine falls back to it.
import { describe, expect, it } from 'vitest';
import { defaultTargets, loadSettings } from '../../src/settings.ts';
import { DIALECT_FACTS, DIALECTS, ENGINE_KINDS } from '../../src/dialects/index.ts';
import { SOURCE_KINDS } from '../../src/contract.ts';

const CONTROL_PLANE = 'postgres://sds@control/sds';

describe('default targets', () => {
  it.each([
    ['nothing set: PostgreSQL sources use the control plane, MySQL ones have none', { given: {}, want: { postgres: CONTROL_PLANE, mysql: undefined } }],
    ['POSTGRES_TARGET_URL and MYSQL_URL', { given: { POSTGRES_TARGET_URL: 'postgres://t/x', MYSQL_URL: 'mysql://m/y' }, want: { postgres: 'postgres://t/x', mysql: 'mysql://m/y' } }],
    ['empty values count as unset', { given: { POSTGRES_TARGET_URL: '', MYSQL_URL: '' }, want: { postgres: CONTROL_PLANE, mysql: undefined } }],
  ])('%s', (_name, { given, want }) => {
    const config = loadSettings({ NODE_ENV: 'test', ...given });
    expect(defaultTargets(config, CONTROL_PLANE)).toEqual(want);
  });

  it('reads each engine from the variable its facts name', () => {
    expect(Object.fromEntries(ENGINE_KINDS.map((kind) => [kind, DIALECT_FACTS[kind].defaultTargetEnv]))).toEqual({ postgres: 'POSTGRES_TARGET_URL', mysql: 'MYSQL_URL' });
  });
});

describe('engine registry', () => {
  it('lists the contract\'s source kinds, and each dialect carries the driver-free facts of its kind', () => {
    expect([...ENGINE_KINDS].sort()).toEqual([...SOURCE_KINDS].sort());
    for (const kind of ENGINE_KINDS) expect(DIALECTS[kind].facts).toBe(DIALECT_FACTS[kind]);
  });
});

describe('generation streams', () => {
  it('loads one table at a time unless SDS_GENERATION_STREAMS says otherwise, and refuses 0', () => {
    expect(loadSettings({ NODE_ENV: 'test' }).generationStreams).toBe(1);
    expect(loadSettings({ NODE_ENV: 'test', SDS_GENERATION_STREAMS: '3' }).generationStreams).toBe(3);
    expect(() => loadSettings({ NODE_ENV: 'test', SDS_GENERATION_STREAMS: '0' })).toThrow(/SDS_GENERATION_STREAMS/);
  });
});
