-- Append-only audit trail with a hash chain.
--  * UPDATE, DELETE and TRUNCATE are rejected by triggers (the database itself refuses them).
--  * Each row stores prev_hash (the hash of the row before it) and
--    hash = sha256(prev_hash || canonical row content), computed here, in the database, on INSERT.
--    verifyAuditChain() recomputes every hash with audit_log_hash() and follows the links, so an
--    edited, forged or removed row breaks the chain.
--  * Writers are serialised by a transaction-level advisory lock taken before the previous hash is
--    read; the id is drawn after the lock, so id order is chain order even with several instances.

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  usuario_id uuid,
  entidade_id uuid,
  plugin text NOT NULL,
  registro text,
  acao text NOT NULL,
  antes jsonb,
  depois jsonb,
  ip text,
  prev_hash text,
  hash text NOT NULL
);
-- The id is drawn by the trigger after the lock (see above), never by the column default.
ALTER TABLE audit_log ALTER COLUMN id DROP DEFAULT;
CREATE INDEX audit_log_entidade_at_idx ON audit_log (entidade_id, at);
CREATE INDEX audit_log_registro_idx ON audit_log (plugin, registro);

CREATE FUNCTION audit_log_hash(
  p_prev_hash text, p_id bigint, p_at timestamptz, p_usuario_id uuid, p_entidade_id uuid,
  p_plugin text, p_registro text, p_acao text, p_antes jsonb, p_depois jsonb, p_ip text
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(
    coalesce(p_prev_hash, '') || jsonb_build_array(
      p_id,
      to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
      p_usuario_id, p_entidade_id, p_plugin, p_registro, p_acao, p_antes, p_depois, p_ip
    )::text,
    'UTF8')), 'hex')
$$;

CREATE FUNCTION audit_log_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7250310001);
  NEW.id := nextval('audit_log_id_seq');
  IF NEW.at IS NULL THEN
    NEW.at := now();
  END IF;
  SELECT a.hash INTO NEW.prev_hash FROM audit_log a ORDER BY a.id DESC LIMIT 1;
  NEW.hash := audit_log_hash(NEW.prev_hash, NEW.id, NEW.at, NEW.usuario_id, NEW.entidade_id,
    NEW.plugin, NEW.registro, NEW.acao, NEW.antes, NEW.depois, NEW.ip);
  RETURN NEW;
END
$$;

CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_before_insert();

CREATE FUNCTION audit_log_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();

CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_change();
