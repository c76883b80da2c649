-- The supplier list's default sort (razão social) walks an index; totals count (entidade_id, ativo).
SELECT compras_indice_ordenacao('fornecedores', 'razao_social');
CREATE INDEX IF NOT EXISTS fornecedores_ativo_idx ON fornecedores (entidade_id, ativo);
