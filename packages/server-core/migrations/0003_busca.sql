-- Accent- and case-insensitive search for list endpoints (defineCrudResource, src/crud.ts).
--
-- compras_busca(text): lower case without Portuguese/Latin-1 accents ('Açúcar' → 'acucar'). IMMUTABLE,
-- so a table can keep a generated, indexed search column:
--   busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || nome)) STORED
--   CREATE INDEX … ON … USING gin (busca gin_trgm_ops);   -- LIKE '%termo%' through pg_trgm
-- pg_trgm is a trusted extension (PostgreSQL ≥ 13); the embedded PGlite loads it in db/open.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE OR REPLACE FUNCTION compras_busca(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT lower(translate(value,
      'ÁÀÂÃÄÅáàâãäåªÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖØóòôõöøºÚÙÛÜúùûüÇçÑñÝýÿ',
      'AAAAAAaaaaaaaEEEEeeeeIIIIiiiiOOOOOOoooooooUUUUuuuuCcNnYyy'))
  $$;
