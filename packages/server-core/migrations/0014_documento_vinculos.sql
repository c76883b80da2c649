-- Links between documents made from other documents (document kit, links.ts): one row per source of a
-- target declared many → one (many accepted demands consolidated into one plan). A one → one link keeps
-- living in the target's own column (pre_requisicoes.memorando_id, cotacoes.requisicao_id) with the
-- plugin's partial unique index; a column cannot hold many sources, this table can.
--   destino_tipo / destino_id  the document made (its kind: 'pca/planos'), no FK: documents live in the
--                              plugins' tables (one kit, many tables); the ids are uuids
--   fonte_tipo / fonte_id      one of the documents it was made from
--   liberado_em                set when the target is cancelled: the source is available again
-- One live target of a kind per source, whatever the route (the kit locks the sources first; this
-- index is the last word under any concurrency).
CREATE TABLE documento_vinculos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  destino_tipo text NOT NULL,
  destino_id uuid NOT NULL,
  fonte_tipo text NOT NULL,
  fonte_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  liberado_em timestamptz
);
CREATE UNIQUE INDEX documento_vinculos_um_vivo_por_fonte ON documento_vinculos (destino_tipo, fonte_id) WHERE liberado_em IS NULL;
CREATE INDEX documento_vinculos_destino ON documento_vinculos (destino_id);
COMMENT ON TABLE documento_vinculos IS 'vínculo entre documentos|vínculos entre documentos';
