-- The session check served from memory (platform/session-cache.ts): each server instance keeps, for a
-- short while, what the session lookup of authenticate() read, and forgets all of it when any of what
-- that lookup reads changes. These triggers say so on the channel compras_sessoes (NOTIFY is sent at
-- commit, once per transaction): a session revoked (sign-out, password change, deactivation), a
-- user, a membership or a perfil changed or deleted (rare writes: no column lists, which would also
-- stand in the way of a later migration that drops or replaces a column).
-- A session's last_seen_at moving forward (the activity of every request, once a minute) says nothing:
-- only a move back (an administrator or a test ageing a session) does.
CREATE FUNCTION sessoes_mudaram() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('compras_sessoes', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER sessoes_mudaram AFTER UPDATE ON sessoes FOR EACH ROW
  WHEN ((OLD.revoked_at, OLD.authenticated_at, OLD.usuario_id, OLD.entidade_id) IS DISTINCT FROM (NEW.revoked_at, NEW.authenticated_at, NEW.usuario_id, NEW.entidade_id)
        OR NEW.last_seen_at < OLD.last_seen_at)
  EXECUTE FUNCTION sessoes_mudaram();
CREATE TRIGGER sessoes_removidas AFTER DELETE OR TRUNCATE ON sessoes FOR EACH STATEMENT EXECUTE FUNCTION sessoes_mudaram();
CREATE TRIGGER usuarios_mudaram AFTER UPDATE OR DELETE OR TRUNCATE ON usuarios FOR EACH STATEMENT EXECUTE FUNCTION sessoes_mudaram();
CREATE TRIGGER usuario_entidades_mudaram AFTER UPDATE OR DELETE OR TRUNCATE ON usuario_entidades FOR EACH STATEMENT EXECUTE FUNCTION sessoes_mudaram();
CREATE TRIGGER perfis_mudaram AFTER UPDATE OR DELETE OR TRUNCATE ON perfis FOR EACH STATEMENT EXECUTE FUNCTION sessoes_mudaram();
