-- Authors of documents (memorandos, pré-requisições, requisições, cotações…), recorded by the document
-- kit in the same transaction as the write, for segregation of duties: whoever wrote, changed or sent
-- a document — or wrote one of the documents it was made from — never accepts or approves it.
--   autor     created it (also by duplicate or from another document)
--   editor    changed it (each PUT)
--   remetente performed an authoring transition (e.g. enviar)
--   fonte     is an author of one of its source documents (memorando → pré-requisição → requisição…)
-- No FK on documento_id: documents live in the plugins' tables (one kit, many tables); the ids are uuids.
CREATE TABLE documento_autores (
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  documento_id uuid NOT NULL,
  usuario_id uuid NOT NULL REFERENCES usuarios (id) ON DELETE CASCADE,
  papel text NOT NULL CHECK (papel IN ('autor', 'editor', 'remetente', 'fonte')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (documento_id, usuario_id, papel)
);
CREATE INDEX documento_autores_usuario ON documento_autores (usuario_id, documento_id);
COMMENT ON TABLE documento_autores IS 'autor de documento|autores de documentos';

-- Documents written before this table: their authors come from the audit trail (who created, changed
-- or sent them). The 'fonte' authors of older documents are not recovered.
INSERT INTO documento_autores (entidade_id, documento_id, usuario_id, papel, created_at)
SELECT DISTINCT ON (a.registro, a.usuario_id, papel.nome) a.entidade_id, a.registro::uuid, a.usuario_id, papel.nome, a.at
FROM audit_log a
CROSS JOIN LATERAL (SELECT CASE a.acao WHEN 'criar' THEN 'autor' WHEN 'alterar' THEN 'editor' ELSE 'remetente' END AS nome) papel
WHERE a.plugin IN ('memorandos', 'requisicoes', 'cotacoes')
  AND a.acao IN ('criar', 'alterar', 'enviar')
  AND a.entidade_id IS NOT NULL
  AND a.usuario_id IS NOT NULL
  AND a.registro ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  AND EXISTS (SELECT 1 FROM usuarios u WHERE u.id = a.usuario_id)
  AND EXISTS (SELECT 1 FROM entidades e WHERE e.id = a.entidade_id)
ORDER BY a.registro, a.usuario_id, papel.nome, a.at
ON CONFLICT DO NOTHING;
