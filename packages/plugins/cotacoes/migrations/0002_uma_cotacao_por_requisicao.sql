-- One live cotação per requisição, whatever the route that creates or re-links it (the kit's POST/PUT,
-- POST /cotacoes/de-requisicao): the server locks the requisição and answers 409 naming the existing
-- cotação; this index is the database's own guarantee behind that check.
-- Databases that already hold more than one live cotação of a requisição (made by the race this
-- closes) keep the oldest linked; the later ones lose the link to the requisição and to its items
-- (their items, prices and suppliers stay), and each unlinking is written to the cotação's audit trail.
WITH duplicadas AS (
  SELECT id, entidade_id, requisicao_id FROM (
    SELECT c.id, c.entidade_id, c.requisicao_id,
           row_number() OVER (PARTITION BY c.requisicao_id ORDER BY c.created_at, c.id) AS n
      FROM cotacoes c
     WHERE c.requisicao_id IS NOT NULL AND c.status <> 'cancelada'
  ) x WHERE n > 1
), itens AS (
  UPDATE cotacao_itens i SET requisicao_item_id = NULL FROM duplicadas d WHERE i.cotacao_id = d.id
  RETURNING i.cotacao_id
), desvinculadas AS (
  UPDATE cotacoes c SET requisicao_id = NULL, version = c.version + 1, updated_at = now()
    FROM duplicadas d WHERE c.id = d.id
  RETURNING c.id, d.entidade_id, d.requisicao_id
)
INSERT INTO audit_log (entidade_id, plugin, registro, acao, antes, depois)
SELECT entidade_id, 'cotacoes', id::text, 'desvincular',
       jsonb_build_object('requisicaoId', requisicao_id),
       jsonb_build_object('requisicaoId', NULL, 'motivo', 'Outra cotação já cotava esta requisição (migração 0002: uma cotação viva por requisição).')
  FROM desvinculadas;

CREATE UNIQUE INDEX cotacoes_uma_viva_por_requisicao ON cotacoes (requisicao_id)
  WHERE status <> 'cancelada' AND requisicao_id IS NOT NULL;
