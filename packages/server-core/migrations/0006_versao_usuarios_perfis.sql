-- Optimistic concurrency for users and perfis (PUT carries `version`; a stale one answers 409),
-- like every other administered record.
ALTER TABLE usuarios ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;
ALTER TABLE perfis ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;
