-- Signed checkpoints of the audit chain (see src/audit.ts, writeAuditCheckpoint).
--  * A checkpoint records (last id, hash of that row, rows up to it, time), signed with HMAC-SHA256 by a
--    key that is NOT in this database (AUDIT_CHECKPOINT_KEY). verify-audit checks every checkpoint
--    against the rows: removing the newest rows, or editing a row and recomputing the chain after it
--    with audit_log_hash(), no longer match a checkpoint that covers them, and a new checkpoint cannot
--    be signed without the key. The same checkpoints may also go to a file (AUDIT_CHECKPOINT_FILE).
--  * Append-only like audit_log: the same triggers refuse UPDATE, DELETE and TRUNCATE.

CREATE TABLE audit_checkpoint (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  last_id bigint NOT NULL,
  last_hash text NOT NULL,
  row_count bigint NOT NULL,
  key_id text NOT NULL,
  signature text NOT NULL
);
CREATE INDEX audit_checkpoint_last_id_idx ON audit_checkpoint (last_id);

CREATE TRIGGER audit_checkpoint_append_only BEFORE UPDATE OR DELETE ON audit_checkpoint
  FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();

CREATE TRIGGER audit_checkpoint_no_truncate BEFORE TRUNCATE ON audit_checkpoint
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_change();

-- The chain trigger reads "the newest audit_log row" by unqualified name: with the default search_path
-- a session could shadow audit_log with a temporary table of the same name (pg_temp is searched first
-- for tables) and choose the prev_hash of its row. Pin the trigger's search_path, pg_temp last.
-- (audit_log_hash() only calls pg_catalog functions, which nothing can shadow; left inlinable.)
ALTER FUNCTION audit_log_before_insert() SET search_path = pg_catalog, public, pg_temp;
