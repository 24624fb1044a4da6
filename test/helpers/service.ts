// Starts the real service on a fresh database with response validation on, and gives typed clients.
import createClient from 'openapi-fetch';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import type { paths } from '../../src/contract.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestService {
  service: RunningService;
  database: TestDatabase;
  url: string;
  /** The bootstrap key of team `default`. */
  teamKey: string;
  config: Config;
  /** A typed client (openapi-fetch) authenticated with `key` (or none). */
  client(key?: string): ReturnType<typeof createClient<paths>>;
  stop(): Promise<void>;
}

export async function startTestService(label: string, overrides: Partial<Config> = {}, logger = pino({ level: 'silent' })): Promise<TestService> {
  const database = await createTestDatabase(label);
  const teamKey = issueKey(TEAM_KEY_PREFIX).key;
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    databaseUrl: database.url,
    bootstrapTeamKey: teamKey,
    adminToken: ADMIN_TOKEN,
    validateResponses: true,
    ...overrides,
  };
  const service = await startService(config, logger);
  return {
    service,
    database,
    url: service.url,
    teamKey,
    config,
    client: (key?: string) =>
      createClient<paths>({ baseUrl: service.url, headers: key === undefined ? {} : { 'x-api-key': key } }),
    stop: async () => {
      await service.close();
      await database.drop();
    },
  };
}
