// A connection string from a request as pg settings: exactly what it says, nothing from the environment.
import { describe, expect, it } from 'vitest';
import { requestedServer } from '../../../src/dialects/postgres/postgres-dialect.ts';

type Case = [name: string, { given: string; want: Record<string, unknown> }];

const cases: Case[] = [
  ['every part given', { given: 'postgres://me:p%40ss@db.example.com:6543/shop', want: { host: 'db.example.com', port: 6543, user: 'me', password: 'p@ss', database: 'shop', ssl: false } }],
  ['default port, database named after the user', { given: 'postgresql://me:pw@db.example.com', want: { port: 5432, database: 'me' } }],
  ['an IPv6 host without brackets', { given: 'postgres://me:pw@[2001:db8::1]:5432/x', want: { host: '2001:db8::1' } }],
  ['sslmode=disable', { given: 'postgres://me:pw@h/x?sslmode=disable', want: { ssl: false } }],
  ['sslmode=require verifies, as pg does', { given: 'postgres://me:pw@h/x?sslmode=require', want: { ssl: {} } }],
  ['sslmode=verify-full', { given: 'postgres://me:pw@h/x?sslmode=verify-full', want: { ssl: {} } }],
  ['sslmode=no-verify', { given: 'postgres://me:pw@h/x?sslmode=no-verify', want: { ssl: { rejectUnauthorized: false } } }],
  ['ssl=true', { given: 'postgres://me:pw@h/x?ssl=true', want: { ssl: true } }],
  ['ssl=0', { given: 'postgres://me:pw@h/x?ssl=0', want: { ssl: false } }],
];

describe('requestedServer', () => {
  for (const [name, { given, want }] of cases) {
    it(name, () => expect(requestedServer(given)).toMatchObject(want));
  }

  it('answers an empty password itself when the string has none (no PGPASSWORD, no ~/.pgpass)', () => {
    const { password } = requestedServer('postgres://me@db.example.com/x');
    expect(typeof password).toBe('function');
    expect((password as () => string)()).toBe('');
  });
});
