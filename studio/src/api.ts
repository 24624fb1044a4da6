// The studio's only door to sds: the SDK's typed clients (management with the team key, runtime
// with a source key) and the key storage of this tab (sessionStorage, nothing else).
import { createManagementClient, createRuntimeClient, type components, type ManagementClient, type RuntimeClient } from '@sds/sdk';

export { dataOf, errorText } from './api-errors.ts';

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
export const baseUrl = (): string => window.location.origin;

export function managementClient(teamKey: string): ManagementClient {
  return createManagementClient({ baseUrl: baseUrl(), apiKey: teamKey });
}

export function runtimeClient(sourceId: string, sourceKey: string): RuntimeClient {
  return createRuntimeClient({ baseUrl: baseUrl(), sourceId, apiKey: sourceKey });
}

const TEAM_KEY = 'sds.studio.teamKey';
const sourceKeyName = (sourceId: string) => `sds.studio.sourceKey.${sourceId}`;

/** A source key the data view uses; `id` when the studio created it (a pasted key has none). */
export interface StoredSourceKey {
  key: string;
  id?: string;
}

/** Keys live in this tab's sessionStorage only: closing the tab forgets them. */
export const keys = {
  team: () => sessionStorage.getItem(TEAM_KEY) ?? undefined,
  setTeam: (key: string | undefined) => (key ? sessionStorage.setItem(TEAM_KEY, key) : sessionStorage.clear()),
  source: (sourceId: string): StoredSourceKey | undefined => {
    const stored = sessionStorage.getItem(sourceKeyName(sourceId));
    return stored ? (JSON.parse(stored) as StoredSourceKey) : undefined;
  },
  setSource: (sourceId: string, key: StoredSourceKey | undefined) =>
    key ? sessionStorage.setItem(sourceKeyName(sourceId), JSON.stringify(key)) : sessionStorage.removeItem(sourceKeyName(sourceId)),
};
