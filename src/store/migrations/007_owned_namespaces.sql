-- The namespaces sds reserved and created on each target, per source: a source's live namespace and
-- its staging namespace (`<live>__next`). sds only ever replaces or drops a namespace recorded here
-- for the source at hand and marked created; one that exists on the target without that record is
-- someone else's (another application's schema or database) and is left alone.
CREATE TABLE owned_namespaces (
  kind        text NOT NULL,
  -- As sources.target: 'default' (the service's target of the kind) or the id of the source's secret.
  target      text NOT NULL,
  namespace   text NOT NULL,
  source_id   uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  staging     boolean NOT NULL,
  reserved_at timestamptz NOT NULL DEFAULT now(),
  -- When sds first created it on the target; null while only reserved (then, should the namespace
  -- exist on the target, sds did not make it and refuses to touch it).
  created_at  timestamptz,
  PRIMARY KEY (kind, target, namespace)
);
CREATE INDEX owned_namespaces_source_idx ON owned_namespaces (source_id);

-- Existing sources keep working: their namespaces are recorded as theirs. Staging names first, so
-- that a source whose namespace is another source's staging name (`sds_victim__next`) does not get
-- it: the staging name stays its owner's, and that source's jobs are refused.
INSERT INTO owned_namespaces (kind, target, namespace, source_id, staging, reserved_at, created_at)
SELECT kind, target, left(namespace, 50) || '__next', id, true, created_at, created_at FROM sources
ON CONFLICT DO NOTHING;
-- A live namespace counts as created once a generation succeeded (the swap made it).
INSERT INTO owned_namespaces (kind, target, namespace, source_id, staging, reserved_at, created_at)
SELECT kind, target, namespace, id, false, created_at, last_generation_at FROM sources ORDER BY created_at, id
ON CONFLICT DO NOTHING;
