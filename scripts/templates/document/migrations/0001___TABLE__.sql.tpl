-- @app/__ID__: a document of the entidade (header and line items), numbered per entidade and year by
-- the document kit's counter (never max()+1), with a status moved by the flow of src/shared/index.ts.
-- Every key to another table goes through (id, entidade_id), so a row never points at another
-- entidade's. The comments ('singular|plural') name the tables in "Usado em 3 itens de …".
-- Never edit a migration that has run somewhere: add 0002_….sql.

CREATE TABLE __TABLE__ (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data date NOT NULL,
  status text NOT NULL DEFAULT 'rascunho'
    CHECK (status IN ('rascunho', 'enviado', 'devolvido', 'aceito', 'cancelado')),
  solicitante_id uuid NOT NULL REFERENCES usuarios (id),
  -- the requester's name as it was when the document was written (searched, printed)
  solicitante_nome text NOT NULL,
  assunto text NOT NULL CHECK (length(assunto) BETWEEN 3 AND 200),
  observacao text,
  -- sum of the items' totals (each quantidade × valor_unitario rounded to cents), kept by the kit
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' ' || assunto || ' ' || solicitante_nome)
  ) STORED,
  UNIQUE (id, entidade_id)
);
-- one number per entidade and year; also the list's order (newest first walks it backwards)
CREATE UNIQUE INDEX __TABLE___numero_key ON __TABLE__ (entidade_id, ano DESC, numero DESC);
CREATE INDEX __TABLE___status_idx ON __TABLE__ (entidade_id, status, ano DESC, numero DESC);
CREATE INDEX __TABLE___solicitante_idx ON __TABLE__ (solicitante_id);
CREATE INDEX __TABLE___busca_idx ON __TABLE__ USING gin (busca gin_trgm_ops);
COMMENT ON TABLE __TABLE__ IS 'documento|documentos';

CREATE TABLE __TABLE___itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  documento_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  produto_id uuid NOT NULL,
  quantidade numeric(15, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(15, 4) NOT NULL CHECK (valor_unitario > 0),
  valor_total numeric(17, 2) NOT NULL CHECK (valor_total >= 0),
  UNIQUE (documento_id, ordem),
  FOREIGN KEY (documento_id, entidade_id) REFERENCES __TABLE__ (id, entidade_id) ON DELETE CASCADE,
  -- a product in use cannot be deleted ("Usado em …")
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX __TABLE___itens_produto_idx ON __TABLE___itens (produto_id);
COMMENT ON TABLE __TABLE___itens IS 'item de documento|itens de documento';
