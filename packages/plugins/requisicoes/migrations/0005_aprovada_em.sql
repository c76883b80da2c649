-- When a requisição was approved (issue 22, consumption by month of approval), stored instead of found
-- from the approvals history on every read: the last approval of the round that approved it
-- (requisicao_aprovacoes.created_at of its `ciclo`), else — an approved requisição with no approval in
-- its round — its date at 00:00 in America/Sao_Paulo. Set in the transaction of the approval that makes
-- it 'aprovada' and cleared when it leaves 'aprovada' (server/aprovacao.ts atualizarAprovadaEm; a price
-- research above the approved value sends it back to approval, server/pesquisa.ts); NULL in every other state.
-- IF NOT EXISTS: test/server/aprovada-em.test.ts runs this file again to check the backfill.
ALTER TABLE requisicoes ADD COLUMN IF NOT EXISTS aprovada_em timestamptz;
UPDATE requisicoes r
   SET aprovada_em = coalesce((SELECT max(a.created_at) FROM requisicao_aprovacoes a WHERE a.requisicao_id = r.id AND a.ciclo = r.ciclo),
                              r.data::timestamp AT TIME ZONE 'America/Sao_Paulo')
 WHERE r.status = 'aprovada' AND r.aprovada_em IS NULL;
-- the consumption of a period (@app/analise, @app/pca's suggestion): the approved requisições of an
-- entidade by the moment of approval, with the centro de custo (the row scope) read from the index
CREATE INDEX IF NOT EXISTS requisicoes_aprovada_em_idx ON requisicoes (entidade_id, aprovada_em)
  INCLUDE (id, centro_custo_id) WHERE status = 'aprovada';
