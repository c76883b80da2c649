-- Verification codes of issued documents (every PDF of the document kit, and the plugins' own PDFs
-- that go through issueVerifiedPdf): one row per PDF issued. The PDF prints the code
-- ('ABCD-EFGH-JKLM') and the start of the content hash in its footer; anyone can check it at
-- <PUBLIC_URL>/verificar (GET /api/verificar/:codigo, public), which answers the entidade, the
-- document, its number, the status printed, when it was issued, and whether the document changed since.
--   codigo        12 characters of the alphabet A–Z and 2–9 without I and O (60 random bits), stored
--                 without the dashes
--   conteudo_hash SHA-256 (hex) of the canonical JSON of the content printed (entidade, title, number,
--                 status, facts, items, blocks, texts, signatures), never of the PDF bytes (they carry
--                 the generation time): the same document printed twice has the same hash
--   emitido_por   who asked for the PDF (kept for the entidade; the public answer never shows it)
-- Issuing a PDF is a read: it is recorded here only, not in the audit trail. Rows never change.
-- No FK on documento_id: documents live in the plugins' tables (one kit, many tables); the ids are uuids.
CREATE TABLE documento_verificacoes (
  codigo text PRIMARY KEY CHECK (codigo ~ '^[A-HJ-NP-Z2-9]{12}$'),
  entidade_id uuid NOT NULL REFERENCES entidades (id) ON DELETE CASCADE,
  plugin text NOT NULL CHECK (plugin <> ''),
  -- kind of document: '<plugin>/<resource>' as numbered ('requisicoes/requisicoes'), or a PDF of its own ('cotacoes/memoria')
  tipo text NOT NULL CHECK (tipo <> ''),
  documento_id uuid NOT NULL,
  titulo text NOT NULL CHECK (length(titulo) BETWEEN 1 AND 300),
  numero text NOT NULL CHECK (length(numero) <= 60),
  status text CHECK (length(status) <= 120),
  conteudo_hash char(64) NOT NULL CHECK (conteudo_hash ~ '^[0-9a-f]{64}$'),
  emitido_por uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  emitido_em timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documento_verificacoes_documento_idx ON documento_verificacoes (entidade_id, tipo, documento_id, emitido_em DESC);
COMMENT ON TABLE documento_verificacoes IS 'verificação de documento|verificações de documentos';

CREATE FUNCTION documento_verificacoes_imutavel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'documento_verificacoes: an issued code never changes (% is not allowed)', TG_OP;
END;
$$;
CREATE TRIGGER documento_verificacoes_imutavel BEFORE UPDATE ON documento_verificacoes
  FOR EACH ROW EXECUTE FUNCTION documento_verificacoes_imutavel();
