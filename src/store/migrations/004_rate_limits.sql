-- Shared per-source request counters of the runtime API (rate-limiter-flexible's PostgreSQL store),
-- so the limit holds across every server process on this control plane.
CREATE TABLE IF NOT EXISTS sds_rate_limits (
  key     varchar(255) PRIMARY KEY,
  points  integer NOT NULL DEFAULT 0,
  expire  bigint
);
