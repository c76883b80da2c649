-- The DFD for the Plano de Contratações Anual (@app/pca): the year of the plan the demand is for and,
-- per line, the PNCP category of the item (categoriaItemPca: 1 Material, 2 Serviço, 3 Obras,
-- 4 Serviços de Engenharia, 5 Soluções de TIC, 6 Locação de Imóveis, 7 Alienação/Concessão/Permissão,
-- 8 Obras e Serviços de Engenharia), defaulted from the product (material → 1, serviço → 2).
ALTER TABLE memorandos ADD COLUMN ano_pca integer CHECK (ano_pca BETWEEN 2000 AND 9999);
ALTER TABLE memorando_itens ADD COLUMN categoria_item_pca smallint CHECK (categoria_item_pca BETWEEN 1 AND 8);
UPDATE memorando_itens i SET categoria_item_pca = CASE p.tipo WHEN 'servico' THEN 2 ELSE 1 END
  FROM produtos p WHERE p.id = i.produto_id;
-- the accepted DFDs of a plan's year (the consolidation's list)
CREATE INDEX memorandos_ano_pca_idx ON memorandos (entidade_id, ano_pca, status);
