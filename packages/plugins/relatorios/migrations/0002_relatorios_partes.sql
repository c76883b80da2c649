-- @app/relatorios: a file generated in the background is kept in parts of 256 KiB, written and read one
-- part at a time (with a pause between them): a 16 MB PDF no longer goes through one statement, which in
-- the embedded database (PGlite, in the server's own thread) held every other request for seconds.
-- Files kept before this (relatorios_arquivos.conteudo) are still downloaded as they are.

CREATE TABLE relatorios_arquivos_partes (
  arquivo_id uuid NOT NULL REFERENCES relatorios_arquivos (id) ON DELETE CASCADE,
  n integer NOT NULL CHECK (n >= 0),
  dados bytea NOT NULL,
  PRIMARY KEY (arquivo_id, n)
);

-- how many parts the file has (null: its content is in conteudo, or it is not ready)
ALTER TABLE relatorios_arquivos ADD COLUMN partes integer CHECK (partes >= 0);
ALTER TABLE relatorios_arquivos DROP CONSTRAINT relatorios_arquivos_check;
ALTER TABLE relatorios_arquivos
  ADD CONSTRAINT relatorios_arquivos_pronto CHECK (estado <> 'pronto' OR ((conteudo IS NOT NULL OR partes IS NOT NULL) AND expira_em IS NOT NULL));
