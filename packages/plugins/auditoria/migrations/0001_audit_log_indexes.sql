-- @app/auditoria: indexes for GET /api/auditoria/logs (server-core's 0002_audit_log.sql has only
-- (entidade_id, at) and (plugin, registro)).
-- The list is keyset-paginated newest first: WHERE entidade_id = $1 [AND filter] [AND id < cursor]
-- ORDER BY id DESC LIMIT n. Each index below lets that be one backward index range scan that stops
-- after n rows, however many millions of rows the table holds. Date ranges use (entidade_id, at).
-- (On a large existing table, create these CONCURRENTLY by hand before upgrading: migrations run
-- inside a transaction, where CONCURRENTLY is not allowed.)

CREATE INDEX IF NOT EXISTS audit_log_entidade_id_idx ON audit_log (entidade_id, id DESC);
CREATE INDEX IF NOT EXISTS audit_log_entidade_usuario_idx ON audit_log (entidade_id, usuario_id, id DESC);
CREATE INDEX IF NOT EXISTS audit_log_entidade_plugin_idx ON audit_log (entidade_id, plugin, id DESC);
CREATE INDEX IF NOT EXISTS audit_log_entidade_acao_idx ON audit_log (entidade_id, acao, id DESC);
CREATE INDEX IF NOT EXISTS audit_log_entidade_registro_idx ON audit_log (entidade_id, registro, id DESC);
