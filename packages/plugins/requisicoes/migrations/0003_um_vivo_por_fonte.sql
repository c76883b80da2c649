-- One live pré-requisição per memorando, whatever the route that creates or re-links it (the kit's
-- POST/PUT, POST /pre-requisicoes/de-memorando): the server locks the memorando and answers 409 naming
-- the existing one; this index is the database's own guarantee behind that check.
-- Databases that already hold more than one live pré-requisição of a memorando (made by the race this
-- closes) keep the oldest linked; the later ones lose the link (they stay as they are otherwise, with
-- their items and conversions), and each unlinking is written to the audit trail of the pré-requisição.
WITH duplicadas AS (
  SELECT id, entidade_id, memorando_id FROM (
    SELECT p.id, p.entidade_id, p.memorando_id,
           row_number() OVER (PARTITION BY p.memorando_id ORDER BY p.created_at, p.id) AS n
      FROM pre_requisicoes p
     WHERE p.memorando_id IS NOT NULL AND p.status <> 'cancelada'
  ) x WHERE n > 1
), desvinculadas AS (
  UPDATE pre_requisicoes p SET memorando_id = NULL, version = p.version + 1, updated_at = now()
    FROM duplicadas d WHERE p.id = d.id
  RETURNING p.id, d.entidade_id, d.memorando_id
)
INSERT INTO audit_log (entidade_id, plugin, registro, acao, antes, depois)
SELECT entidade_id, 'requisicoes', id::text, 'desvincular',
       jsonb_build_object('memorandoId', memorando_id),
       jsonb_build_object('memorandoId', NULL, 'motivo', 'Outra pré-requisição já atendia este memorando (migração 0003: uma pré-requisição viva por memorando).')
  FROM desvinculadas;

CREATE UNIQUE INDEX pre_requisicoes_um_vivo_por_memorando ON pre_requisicoes (memorando_id)
  WHERE status <> 'cancelada' AND memorando_id IS NOT NULL;
