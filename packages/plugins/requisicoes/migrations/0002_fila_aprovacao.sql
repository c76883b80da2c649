-- The approval queue ('aguardando minha aprovação', its list filter and menu count): the server works
-- out once the (centro de custo, nível) pairs the person approves and keeps the requisições em
-- aprovação whose (centro_custo_id, nivel_atual) is one of them. This partial index serves that
-- lookup per pair and, with id, solicitante and ciclo included, the count as an index-only scan (the
-- status is the index's predicate, so it is not a key column). It replaces the (entidade, nível) one.
CREATE INDEX requisicoes_fila_aprovacao_idx ON requisicoes (entidade_id, centro_custo_id, nivel_atual)
  INCLUDE (id, solicitante_id, ciclo) WHERE status = 'em_aprovacao';
DROP INDEX requisicoes_aprovacao_idx;
-- the approvals one person gave (excluded from their queue: one person approves one level of a round)
CREATE INDEX requisicao_aprovacoes_usuario_idx ON requisicao_aprovacoes (usuario_id, entidade_id) INCLUDE (requisicao_id, ciclo);
