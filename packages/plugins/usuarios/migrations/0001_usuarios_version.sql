-- @app/usuarios: what the core tables (server-core 0001_core.sql) lack for user administration.
--  * version: optimistic concurrency of PUT (a stale version answers 409).
--  * one user account per CPF (CPF stays optional: NULL is allowed many times).
--  * perfil → users lookups (how many users hold a perfil; the last-administrator rule).

ALTER TABLE usuarios ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;
ALTER TABLE perfis ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1;

CREATE UNIQUE INDEX IF NOT EXISTS usuarios_cpf_key ON usuarios (cpf) WHERE cpf IS NOT NULL;
CREATE INDEX IF NOT EXISTS usuario_entidades_perfil_idx ON usuario_entidades (perfil_id);
