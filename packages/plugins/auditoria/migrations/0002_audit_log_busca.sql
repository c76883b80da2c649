-- @app/auditoria: the free-text search of GET /api/auditoria/logs (busca): a record found by what the
-- table shows of it (a product's código or descrição, a name, a document's número/ano) in the `depois`
-- of its audit rows, accent- and case-insensitively. A trigram GIN index over exactly the expression
-- the query uses (queries.ts SEARCH_TEXT, NAME_KEYS): LIKE '%termo%' is then an index lookup, not a
-- scan of the trail. Partial: rows without `depois` (deletions, sign-ins) are never searched.
-- (On a large existing table, create it CONCURRENTLY by hand before upgrading: migrations run inside
-- a transaction, where CONCURRENTLY is not allowed.)
CREATE INDEX IF NOT EXISTS audit_log_busca_idx ON audit_log USING gin (
  compras_busca(
    coalesce(depois->>'codigo', '') || ' ' || coalesce(depois->>'descricao', '') || ' ' ||
    coalesce(depois->>'nome', '') || ' ' || coalesce(depois->>'razaoSocial', '') || ' ' ||
    coalesce(depois->>'nomeFantasia', '') || ' ' || coalesce(depois->>'titulo', '') || ' ' ||
    coalesce(depois->>'assunto', '') || ' ' || coalesce(depois->>'sigla', '') || ' ' ||
    coalesce(depois->>'login', '') || ' ' || coalesce((depois->>'numero') || '/' || (depois->>'ano'), '')
  ) gin_trgm_ops
) WHERE depois IS NOT NULL;
