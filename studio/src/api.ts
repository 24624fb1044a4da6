// The studio's only door to sds: the SDK's typed clients (management with the team key, runtime
// with a source key) and the keys it keeps: the team key in this tab (sessionStorage), the studio's
// own source key of each source in this browser (localStorage), reused on every visit.
import { createManagementClient, createRuntimeClient, type components, type ManagementClient, type RuntimeClient } from '@sds/sdk';

export { dataOf, errorText } from './api-errors.ts';
/** The engines a source may run on, from the contract (through the SDK). */
export { SOURCE_KINDS } from '@sds/sdk';

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
export type SourceApiChanges = components['schemas']['SourceApiChanges'];
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

/** A source key the data view uses; `id`, `slug` and `createdAt` when the studio created it (a pasted key has none). */
export interface StoredSourceKey {
  key: string;
  id?: string;
  slug?: string;
  createdAt?: string;
}

/** The name the studio gives the source key it makes for itself (sds slugs repeats as studio-2, studio-3…). */
export const STUDIO_KEY_NAME = 'studio';
export const isStudioKey = (slug: string) => /^studio(-\d+)?$/.test(slug);

/**
 * The team key lives in this tab's sessionStorage only (closing the tab forgets it). A source key
 * lives in localStorage, one per source, so every visit reuses the same key instead of making
 * another; it is checked again on use (a refused key is forgotten) and revoking it forgets it.
 */
export const keys = {
  team: () => sessionStorage.getItem(TEAM_KEY) ?? undefined,
  setTeam: (key: string | undefined) => (key ? sessionStorage.setItem(TEAM_KEY, key) : sessionStorage.clear()),
  source: (sourceId: string): StoredSourceKey | undefined => {
    const stored = localStorage.getItem(sourceKeyName(sourceId));
    return stored ? (JSON.parse(stored) as StoredSourceKey) : undefined;
  },
  setSource: (sourceId: string, key: StoredSourceKey | undefined) =>
    key ? localStorage.setItem(sourceKeyName(sourceId), JSON.stringify(key)) : localStorage.removeItem(sourceKeyName(sourceId)),
};
