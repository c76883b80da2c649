-- Numbers of documents (memorandos, requisições, cotações…): one sequence per entidade, kind of
-- document and year ('12/2026'). A creation takes its number with
--   INSERT … ON CONFLICT (entidade_id, tipo, ano) DO UPDATE SET ultimo = document_counters.ultimo + 1
--   RETURNING ultimo
-- inside the creating transaction: the row lock serializes concurrent creations of the same kind and
-- year, and a creation that fails rolls its number back, so there are no gaps and no duplicates
-- (never max()+1).
CREATE TABLE document_counters (
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  -- kind of document: '<plugin>/<resource>', e.g. 'memorandos/memorandos'
  tipo text NOT NULL CHECK (tipo <> ''),
  ano integer NOT NULL CHECK (ano BETWEEN 1900 AND 9999),
  -- last number given in that year (the next creation takes ultimo + 1)
  ultimo integer NOT NULL CHECK (ultimo > 0),
  PRIMARY KEY (entidade_id, tipo, ano)
);
COMMENT ON TABLE document_counters IS 'contador de documentos|contadores de documentos';
