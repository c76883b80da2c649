-- @app/memorandos: the demand of a requesting area (DFD, Lei 14.133), numbered per entidade and year.
-- Origin and destination are centros de custo of @app/registros, the items products of @app/produtos,
-- all through (id, entidade_id) keys so a memorando never points at another entidade's rows. A
-- centro de custo, a user or a product used by a memorando cannot be deleted (the table comments
-- name the use: "Usado em 2 memorandos", "Usado em 3 itens de memorando").

CREATE TABLE memorandos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  -- 12/2026: numero from the document counter of (entidade, 'memorando', ano), never max()+1
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  -- the memorando's date (today, America/Sao_Paulo, on creation and on duplication)
  data date NOT NULL,
  status text NOT NULL DEFAULT 'rascunho'
    CHECK (status IN ('rascunho', 'enviado', 'devolvido', 'aceito', 'arquivado', 'cancelado')),
  origem_id uuid NOT NULL,
  destino_id uuid NOT NULL,
  solicitante_id uuid NOT NULL REFERENCES usuarios (id),
  -- the requester's name as it was when the memorando was written (searched, printed)
  solicitante_nome text NOT NULL,
  assunto text NOT NULL CHECK (length(assunto) BETWEEN 3 AND 200),
  justificativa text NOT NULL CHECK (length(justificativa) BETWEEN 10 AND 5000),
  prioridade text NOT NULL DEFAULT 'media' CHECK (prioridade IN ('baixa', 'media', 'alta')),
  data_desejada date,
  -- sum of the items' totals (each quantidade × valor_unitario rounded to cents), kept by the server
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' ' || assunto || ' ' || solicitante_nome)
  ) STORED,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (origem_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id),
  FOREIGN KEY (destino_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id)
);
-- one number per entidade and year; also the list's order (newest first walks it backwards)
CREATE UNIQUE INDEX memorandos_numero_key ON memorandos (entidade_id, ano DESC, numero DESC);
CREATE INDEX memorandos_status_idx ON memorandos (entidade_id, status, ano DESC, numero DESC);
-- a user of some centros lists the memorandos from or to them, newest first
CREATE INDEX memorandos_origem_idx ON memorandos (origem_id, ano DESC, numero DESC);
CREATE INDEX memorandos_destino_idx ON memorandos (destino_id, ano DESC, numero DESC);
CREATE INDEX memorandos_solicitante_idx ON memorandos (solicitante_id);
CREATE INDEX memorandos_data_idx ON memorandos (entidade_id, data);
CREATE INDEX memorandos_busca_idx ON memorandos USING gin (busca gin_trgm_ops);
COMMENT ON TABLE memorandos IS 'memorando|memorandos';

CREATE TABLE memorando_itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorando_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  produto_id uuid NOT NULL,
  quantidade numeric(15, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(15, 4) NOT NULL CHECK (valor_unitario > 0),
  valor_total numeric(17, 2) NOT NULL CHECK (valor_total >= 0),
  UNIQUE (memorando_id, ordem),
  FOREIGN KEY (memorando_id, entidade_id) REFERENCES memorandos (id, entidade_id) ON DELETE CASCADE,
  -- a product in use cannot be deleted ("Usado em …")
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX memorando_itens_produto_idx ON memorando_itens (produto_id);
COMMENT ON TABLE memorando_itens IS 'item de memorando|itens de memorando';
