-- Sign-in security: session lifetimes, sign-in throttling, password recovery, outbox.
-- Every time below is written by the application (its injectable clock), not by now().

-- Absolute session lifetime counts from the password sign-in; a session opened by switching
-- entidade inherits it, so switching never extends the lifetime. revoked_reason says why it ended.
ALTER TABLE sessoes ADD COLUMN authenticated_at timestamptz;
UPDATE sessoes SET authenticated_at = created_at;
ALTER TABLE sessoes ALTER COLUMN authenticated_at SET NOT NULL;
ALTER TABLE sessoes ALTER COLUMN authenticated_at SET DEFAULT now();
ALTER TABLE sessoes ADD COLUMN revoked_reason text;
CREATE INDEX sessoes_usuario_vivas_idx ON sessoes (usuario_id) WHERE revoked_at IS NULL;

-- Sliding-window throttling shared by every instance: one row per counted attempt.
-- key: 'conta:<login in lower case>', 'ip:<address>' (failed sign-ins), 'recuperar-ip:<address>'.
CREATE TABLE login_attempts (
  key text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX login_attempts_key_at_idx ON login_attempts (key, at);
CREATE INDEX login_attempts_at_idx ON login_attempts (at);

-- Password recovery links: only the sha256 of the random token is stored; single use.
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  usuario_id uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  token_hash char(64) NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  ip text
);
CREATE INDEX password_resets_usuario_idx ON password_resets (usuario_id, created_at DESC);

-- E-mails written here instead of being sent when no SMTP server is configured (or when sending
-- failed); administrators read them at GET /api/auth/outbox, operators with `compras-server outbox`.
-- Not tied to an entidade; usuario_id (when the message is for a user) limits who may read it.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  usuario_id uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_created_idx ON outbox (created_at DESC, id DESC);
