-- The tasks a generation job is split into when its worker plans it so (SDS_TASK_SLOTS): an entity's
-- row range, or the entities that must be made in order, one task. Every worker instance claims
-- queued tasks, and tasks whose lease ran out (their worker died), with FOR UPDATE SKIP LOCKED.
CREATE TABLE generation_tasks (
  job_id      uuid NOT NULL REFERENCES generation_jobs(id) ON DELETE CASCADE,
  -- The task's number within its job; also its marker in the job's staging namespace.
  seq         integer NOT NULL,
  -- 'range': rows row_from … row_to (exclusive) of entity; 'ordered': the entities listed in spec, in plan order.
  kind        text NOT NULL CHECK (kind IN ('range', 'ordered')),
  entity      text,
  row_from    bigint,
  row_to      bigint,
  spec        jsonb NOT NULL DEFAULT '{}',
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  worker      text,
  attempts    integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  rows_written bigint NOT NULL DEFAULT 0,
  -- Per entity, rows written (ordered tasks write several), and the generator's warnings.
  result      jsonb,
  error       text,
  started_at  timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX generation_tasks_open_idx ON generation_tasks (status, lease_until) WHERE status IN ('queued', 'running');
