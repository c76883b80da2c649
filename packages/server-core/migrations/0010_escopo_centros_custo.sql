-- Row-level scope of documents by centro de custo. A user belongs to one or more centros de custo per
-- entidade (ids of registros_centros_custo of that entidade) and sees the documents of those centros
-- only, unless their perfil grants all of them (purchasing sector, controladoria, auditors).
--
-- No FK on the array elements (PostgreSQL has none for arrays, and the centros are a plugin's table):
-- the usuarios plugin validates each id on write (a centro de custo of the same entidade); an id that
-- became stale (centro removed) simply grants nothing.
ALTER TABLE usuario_entidades ADD COLUMN IF NOT EXISTS centros_custo uuid[] NOT NULL DEFAULT '{}';

-- Existing installations keep today's behaviour: every perfil that already exists sees everything
-- (an administrator narrows them afterwards). Perfis created from now on start restricted (false).
ALTER TABLE perfis ADD COLUMN IF NOT EXISTS todos_centros boolean NOT NULL DEFAULT true;
ALTER TABLE perfis ALTER COLUMN todos_centros SET DEFAULT false;
