-- Attachments of the e-mails kept in the outbox (mail.ts: MailMessage.attachments), e.g. the blank
-- quote form an invited supplier receives. One row per file, in the message's order; they go with
-- their message. Administrators see the name, type and size in the outbox (GET /api/auth/outbox) and
-- download the file (GET /api/auth/outbox/:id/anexos/:ordem), with the same reader rule as the message.
--   ordem     1, 2, … in the message
--   nome      the file name as cleanFileName leaves it
--   tipo      media type ('application/pdf')
--   tamanho   bytes; the limits (count, size) are checked before the row is written
CREATE TABLE outbox_anexos (
  outbox_id bigint NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
  ordem integer NOT NULL CHECK (ordem >= 1),
  nome text NOT NULL CHECK (length(nome) BETWEEN 1 AND 255),
  tipo text NOT NULL CHECK (length(tipo) BETWEEN 1 AND 255),
  tamanho integer NOT NULL CHECK (tamanho >= 0),
  conteudo bytea NOT NULL,
  PRIMARY KEY (outbox_id, ordem)
);
COMMENT ON TABLE outbox_anexos IS 'anexo de e-mail|anexos de e-mails';
