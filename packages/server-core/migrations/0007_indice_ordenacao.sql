-- compras_indice_ordenacao(tabela, coluna): the index a list sorted by a text column walks to answer
-- its first pages without sorting the table (defineCrudResource sorts text with the ICU root
-- collation when the server has it, see SORT_COLLATION in crud.ts, else with the default one; the
-- index follows the same rule). Call it from a plugin migration for the default sort of a long list:
--   SELECT compras_indice_ordenacao('produtos', 'descricao');
CREATE OR REPLACE FUNCTION compras_indice_ordenacao(tabela text, coluna text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  collate_clause text := CASE WHEN EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu')
                         THEN ' COLLATE "und-x-icu"' ELSE '' END;
BEGIN
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (entidade_id, (%I%s), id)',
                 tabela || '_' || coluna || '_ordem_idx', tabela, coluna, collate_clause);
END;
$$;
