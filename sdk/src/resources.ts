// Names for the contract's resource types, so consumers need not spell `components['schemas'][…]`.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Project = Schemas['Project'];
export type ProjectCreate = Schemas['ProjectCreate'];
export type ProjectUpdate = Schemas['ProjectUpdate'];
export type Schema = Schemas['Schema'];
export type SchemaCreate = Schemas['SchemaCreate'];
export type SchemaVersion = Schemas['SchemaVersion'];
export type SchemaConfig = Schemas['SchemaConfig'];
export type ValidationResult = Schemas['ValidationResult'];
export type SchemaConfigPreviewRequest = Schemas['SchemaConfigPreviewRequest'];
export type SchemaConfigPreview = Schemas['SchemaConfigPreview'];
export type Source = Schemas['Source'];
export type SourceCreate = Schemas['SourceCreate'];
export type SourceUpdate = Schemas['SourceUpdate'];
export type SourceApiKey = Schemas['SourceApiKey'];
export type SourceApiKeyCreated = Schemas['SourceApiKeyCreated'];
export type GenerationEvent = Schemas['GenerationEvent'];
export type SourceRuntimeDocs = Schemas['SourceRuntimeDocs'];
