-- Schemas of a project and their immutable, numbered versions.
CREATE TABLE schemas (
  id           uuid PRIMARY KEY,
  project_id   uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  slug         text NOT NULL,
  name         text NOT NULL,
  description  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz,
  UNIQUE (project_id, slug)
);
CREATE INDEX schemas_project_idx ON schemas (project_id, created_at, id);

CREATE TABLE schema_versions (
  id          uuid PRIMARY KEY,
  schema_id   uuid NOT NULL REFERENCES schemas(id) ON DELETE CASCADE,
  version     integer NOT NULL CHECK (version >= 1),
  config      jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (schema_id, version)
);
