-- @app/usuarios: what the core tables (server-core migrations) lack for user administration.
--  * one user account per CPF (CPF stays optional: NULL is allowed many times).
--  * perfil → users lookups (how many users hold a perfil; the last-administrator rule).

CREATE UNIQUE INDEX IF NOT EXISTS usuarios_cpf_key ON usuarios (cpf) WHERE cpf IS NOT NULL;
CREATE INDEX IF NOT EXISTS usuario_entidades_perfil_idx ON usuario_entidades (perfil_id);
