-- Teams, their API keys and their projects.
CREATE TABLE teams (
  id          uuid PRIMARY KEY,
  slug        text NOT NULL UNIQUE,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Secrets are never stored: `lookup` is a public part of the key used to find the row, and
-- `key_hash` the SHA-256 of the whole key, compared in constant time.
CREATE TABLE team_api_keys (
  id              uuid PRIMARY KEY,
  team_id         uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name            text NOT NULL DEFAULT '',
  lookup          text NOT NULL UNIQUE,
  key_hash        bytea NOT NULL,
  projects_scope  uuid[],
  last_used_at    timestamptz,
  revoked_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_api_keys_team_idx ON team_api_keys (team_id, created_at);

CREATE TABLE projects (
  id           uuid PRIMARY KEY,
  team_id      uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  slug         text NOT NULL,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  icon         text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (team_id, slug)
);
CREATE INDEX projects_team_idx ON projects (team_id, created_at, id);
