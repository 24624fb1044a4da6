-- At most one running generation job per source, enforced by the database: two workers claiming
-- jobs of one source at the same moment would otherwise both build into its staging namespace.
-- Jobs left doubly running by earlier versions keep their oldest; the others are failed.
UPDATE generation_jobs SET status = 'failed', error = 'Another job of this source was running', finished_at = now(), heartbeat_at = NULL
 WHERE status = 'running'
   AND id NOT IN (SELECT DISTINCT ON (source_id) id FROM generation_jobs WHERE status = 'running' ORDER BY source_id, started_at, id);
CREATE UNIQUE INDEX IF NOT EXISTS generation_jobs_one_running_per_source ON generation_jobs (source_id) WHERE status = 'running';
