-- @app/__ID__: one registry of the entidade. Like every business table: entidade_id (tenancy),
-- version (optimistic concurrency), ativo (deactivate instead of delete), timestamps, and `busca`
-- (compras_busca(...): lower case, no accents; pg_trgm index) for the list search.
-- UNIQUE (id, entidade_id) is the target of same-entidade foreign keys from other tables.
-- The comment ('singular|plural') names the table in "Usado em 3 registros" (defineCrudResource).
-- Never edit a migration that has run somewhere: add 0002_….sql.

CREATE TABLE __TABLE__ (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  descricao text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(descricao, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX __TABLE___nome_key ON __TABLE__ (entidade_id, lower(nome));
CREATE INDEX __TABLE___busca_idx ON __TABLE__ USING gin (busca gin_trgm_ops);
COMMENT ON TABLE __TABLE__ IS 'registro|registros';
