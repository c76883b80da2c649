-- Core tables of @app/server-core: public bodies (entidades), users, profiles, sessions, settings.

CREATE TABLE entidades (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  nome text NOT NULL,
  cnpj char(14) NOT NULL UNIQUE CHECK (cnpj ~ '^[0-9]{14}$'),
  municipio text,
  uf char(2),
  telefone_suporte text,
  logo text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE usuarios (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  nome text NOT NULL,
  login text NOT NULL,
  email text NOT NULL,
  cpf char(11) CHECK (cpf IS NULL OR cpf ~ '^[0-9]{11}$'),
  cargo text,
  senha_hash text NOT NULL,
  ativo boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Logins are unique regardless of case ("Admin" and "admin" are the same person).
CREATE UNIQUE INDEX usuarios_login_key ON usuarios (lower(login));

CREATE TABLE perfis (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  nome text NOT NULL,
  tags integer[] NOT NULL DEFAULT '{}',
  UNIQUE (entidade_id, nome),
  -- target of the composite key below: a user's perfil always belongs to the same entidade
  UNIQUE (id, entidade_id)
);

CREATE TABLE usuario_entidades (
  usuario_id uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  perfil_id uuid NOT NULL,
  PRIMARY KEY (usuario_id, entidade_id),
  FOREIGN KEY (perfil_id, entidade_id) REFERENCES perfis (id, entidade_id)
);
CREATE INDEX usuario_entidades_entidade_idx ON usuario_entidades (entidade_id);

CREATE TABLE sessoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  usuario_id uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  ip text,
  user_agent text
);
CREATE INDEX sessoes_usuario_idx ON sessoes (usuario_id, created_at DESC);

CREATE TABLE app_config (
  key text PRIMARY KEY,
  value text NOT NULL
);
