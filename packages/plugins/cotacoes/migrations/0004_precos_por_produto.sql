-- The prices of one product across cotações (@app/analise's price history, GET /api/analise/precos; the
-- product's earlier prices): found from the product instead of a scan of every collected price. The
-- cotação's id second, for the join to the cotação (entidade, status, centro).
CREATE INDEX IF NOT EXISTS cotacao_precos_produto_idx ON cotacao_precos (produto_id, cotacao_id);
