-- A list page at 100 000 products: the first pages by descrição and by código walk an index instead
-- of sorting the table, and the total is counted from (entidade_id, ativo) alone (index-only once
-- the embedded database's maintenance or autovacuum has marked the pages all-visible).
SELECT compras_indice_ordenacao('produtos', 'descricao');
SELECT compras_indice_ordenacao('produtos', 'codigo');
CREATE INDEX IF NOT EXISTS produtos_ativo_idx ON produtos (entidade_id, ativo);
