-- @app/auditoria: the free-text search of GET /api/auditoria/logs (busca): a record found by what the
-- table shows (a product's código or descrição, a name) inside antes/depois, accent- and
-- case-insensitively. A trigram GIN index over exactly the expression the query uses
-- (queries.ts SEARCH_TEXT): LIKE '%termo%' is then an index lookup, not a scan of the trail.
-- (On a large existing table, create it CONCURRENTLY by hand before upgrading: migrations run inside
-- a transaction, where CONCURRENTLY is not allowed.)
CREATE INDEX IF NOT EXISTS audit_log_busca_idx ON audit_log
  USING gin (compras_busca(coalesce(antes::text, '') || ' ' || coalesce(depois::text, '')) gin_trgm_ops);
