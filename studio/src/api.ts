// The studio's only door to sds: the SDK's typed clients (management with the team key, runtime
// with a source key), the key storage of this tab (sessionStorage, nothing else) and error texts.
import { createManagementClient, createRuntimeClient, type components, type ManagementClient, type RuntimeClient, type SdsError } from '@sds/sdk';

export type {
  GenerationEvent,
  Project,
  Schema,
  SchemaConfig,
  SchemaConfigPreview,
  SchemaVersion,
  Source,
  SourceApiKey,
  SourceRuntimeDocs as RuntimeDocs,
  ValidationResult,
} from '@sds/sdk';
export type GenerationJob = components['schemas']['GenerationJob'];
export type ValidationIssue = components['schemas']['ValidationIssue'];
export type RuntimeDocsEntity = components['schemas']['RuntimeDocsEntity'];
export type RuntimeDocsField = components['schemas']['RuntimeDocsField'];
export type { ManagementClient, RuntimeClient };

/** The sds server that serves the studio. */
export const baseUrl = window.location.origin;

export function managementClient(teamKey: string): ManagementClient {
  return createManagementClient({ baseUrl, apiKey: teamKey });
}

export function runtimeClient(sourceId: string, sourceKey: string): RuntimeClient {
  return createRuntimeClient({ baseUrl, sourceId, apiKey: sourceKey });
}

const TEAM_KEY = 'sds.studio.teamKey';
const sourceKeyName = (sourceId: string) => `sds.studio.sourceKey.${sourceId}`;

/** Keys live in this tab's sessionStorage only: closing the tab forgets them. */
export const keys = {
  team: () => sessionStorage.getItem(TEAM_KEY) ?? undefined,
  setTeam: (key: string | undefined) => (key ? sessionStorage.setItem(TEAM_KEY, key) : sessionStorage.clear()),
  source: (sourceId: string) => sessionStorage.getItem(sourceKeyName(sourceId)) ?? undefined,
  setSource: (sourceId: string, key: string | undefined) =>
    key ? sessionStorage.setItem(sourceKeyName(sourceId), key) : sessionStorage.removeItem(sourceKeyName(sourceId)),
};

/** An API error as one sentence: the error, then its first details. */
export function errorText(error: SdsError | undefined, response?: Response): string {
  if (!error) return `The server answered ${response?.status ?? 'nothing'}`;
  const details = (error.details ?? []).slice(0, 3).map((detail) => `${detail.path || '/'} ${detail.message}`);
  return [error.error, ...details].join(' — ');
}

/** The data of an SDK result, or an Error with the API's message (for code paths that show it once). */
export function dataOf<T>(result: { data?: T; error?: SdsError; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) throw new Error(errorText(result.error, result.response));
  return result.data;
}
