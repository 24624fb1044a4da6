-- Sources (a schema version bound to a PostgreSQL or MySQL target), their runtime keys,
-- generation jobs and events, and encrypted connection strings.

CREATE TABLE secrets (
  id          uuid PRIMARY KEY,
  -- AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext.
  iv          bytea NOT NULL,
  tag         bytea NOT NULL,
  ciphertext  bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
  id                    uuid PRIMARY KEY,
  project_id            uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug                  text NOT NULL,
  name                  text NOT NULL,
  description           text NOT NULL DEFAULT '',
  kind                  text NOT NULL CHECK (kind IN ('postgres', 'mysql')),
  -- NO ACTION (checked at the end of the statement): deleting a project removes its sources and
  -- schemas together, while deleting a schema still in use fails.
  schema_version_id     uuid NOT NULL REFERENCES schema_versions(id),
  seed                  text NOT NULL,
  -- Where the data lives: `target` is 'default' or the id of the secret holding the connection string.
  target                text NOT NULL,
  namespace             text NOT NULL,
  connection_secret_id  uuid REFERENCES secrets(id),
  generator_config      jsonb NOT NULL DEFAULT '{}',
  rate_limit_rpm        integer NOT NULL DEFAULT 600 CHECK (rate_limit_rpm >= 1),
  require_auth          boolean NOT NULL DEFAULT true,
  last_generation_at    timestamptz,
  generation_audit      jsonb,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, slug),
  UNIQUE (kind, target, namespace)
);
CREATE INDEX sources_project_idx ON sources (project_id, created_at, id);
CREATE INDEX sources_version_idx ON sources (schema_version_id);

CREATE TABLE source_api_keys (
  id            uuid PRIMARY KEY,
  source_id     uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  slug          text NOT NULL,
  name          text NOT NULL DEFAULT '',
  lookup        text NOT NULL UNIQUE,
  key_hash      bytea NOT NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source_id, slug)
);

CREATE TABLE generation_jobs (
  id                 uuid PRIMARY KEY,
  source_id          uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  schema_version_id  uuid NOT NULL,
  status             text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  seed               text NOT NULL,
  rows_planned       bigint NOT NULL DEFAULT 0,
  rows_inserted      bigint NOT NULL DEFAULT 0,
  entities           jsonb NOT NULL DEFAULT '[]',
  warnings           jsonb NOT NULL DEFAULT '[]',
  error              text,
  generator_version  text NOT NULL DEFAULT '',
  worker             text,
  heartbeat_at       timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  started_at         timestamptz,
  finished_at        timestamptz
);
CREATE INDEX generation_jobs_source_idx ON generation_jobs (source_id, created_at DESC);
CREATE INDEX generation_jobs_queue_idx ON generation_jobs (created_at) WHERE status = 'queued';
CREATE INDEX generation_jobs_running_idx ON generation_jobs (heartbeat_at) WHERE status = 'running';

CREATE TABLE generation_events (
  id          bigserial PRIMARY KEY,
  job_id      uuid NOT NULL REFERENCES generation_jobs(id) ON DELETE CASCADE,
  source_id   uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  type        text NOT NULL,
  message     text NOT NULL,
  data        jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX generation_events_source_idx ON generation_events (source_id, id);
CREATE INDEX generation_events_job_idx ON generation_events (job_id, id);
