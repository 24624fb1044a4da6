// Starts the real service on a fresh database with response validation on, and gives typed clients.
import createClient from 'openapi-fetch';
import pino from 'pino';
import { loadSettings, type Settings } from '../../src/settings.ts';
import type { paths } from '../../src/contract.ts';
import { issueKey, TEAM_KEY_PREFIX } from '../../src/security/api-keys.ts';
import { startService, type RunningService } from '../../src/service.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestService {
  service: RunningService;
  database: TestDatabase;
  url: string;
  /** The bootstrap key of team `default`. */
  teamKey: string;
  config: Settings;
  /** A typed client (openapi-fetch) authenticated with `key` (or none). */
  client(key?: string): ReturnType<typeof createClient<paths, 'application/json'>>;
  stop(): Promise<void>;
}

export async function startTestService(label: string, overrides: Partial<Settings> = {}, logger = pino({ level: 'silent' })): Promise<TestService> {
  const database = await createTestDatabase(label);
  const teamKey = issueKey(TEAM_KEY_PREFIX).key;
  const config: Settings = {
    ...loadSettings({ NODE_ENV: 'test' }),
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
      createClient<paths, 'application/json'>({ baseUrl: service.url, headers: key === undefined ? {} : { 'x-api-key': key } }),
    stop: async () => {
      await service.close();
      await database.drop();
    },
  };
}

/** A project named `name` holding the blog schema (test/fixtures): the ids a test binds sources to. */
export async function blogProject(api: ReturnType<TestService['client']>, name: string): Promise<{ projectId: string; schemaId: string; versionId: string }> {
  const projectId = (await api.POST('/public/v1/projects', { body: { name } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blog', initialVersion: { schema: blogConfig() } } })).data!;
  const versions = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } });
  return { projectId, schemaId: schema.id, versionId: versions.data![0]!.id };
}
