-- @app/requisicoes: pré-requisições (the requesting area's formal demand) and requisições (the
-- purchase request the purchasing sector makes from them, approved by value level), the approval
-- levels (alçadas) of each entidade and the year-versioned dispensa limits (Lei 14.133, art. 75).
-- Centros de custo, tipos de solicitação and grupos come from @app/registros, products from
-- @app/produtos, memorandos from @app/memorandos, all through (id, entidade_id) keys.

CREATE TABLE pre_requisicoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data date NOT NULL,
  status text NOT NULL DEFAULT 'rascunho'
    CHECK (status IN ('rascunho', 'enviada', 'parcialmente_atendida', 'atendida', 'devolvida', 'cancelada')),
  centro_custo_id uuid NOT NULL,
  tipo_solicitacao_id uuid NOT NULL,
  solicitante_id uuid NOT NULL REFERENCES usuarios (id),
  solicitante_nome text NOT NULL,
  justificativa text NOT NULL CHECK (length(justificativa) BETWEEN 10 AND 5000),
  -- the accepted memorando it came from (items copied, link kept)
  memorando_id uuid,
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' ' || justificativa || ' ' || solicitante_nome)
  ) STORED,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (centro_custo_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id),
  FOREIGN KEY (tipo_solicitacao_id, entidade_id) REFERENCES registros_tipos_solicitacao (id, entidade_id),
  FOREIGN KEY (memorando_id, entidade_id) REFERENCES memorandos (id, entidade_id)
);
CREATE UNIQUE INDEX pre_requisicoes_numero_key ON pre_requisicoes (entidade_id, ano DESC, numero DESC);
CREATE INDEX pre_requisicoes_status_idx ON pre_requisicoes (entidade_id, status, ano DESC, numero DESC);
CREATE INDEX pre_requisicoes_centro_idx ON pre_requisicoes (centro_custo_id, ano DESC, numero DESC);
CREATE INDEX pre_requisicoes_solicitante_idx ON pre_requisicoes (solicitante_id);
CREATE INDEX pre_requisicoes_memorando_idx ON pre_requisicoes (memorando_id);
CREATE INDEX pre_requisicoes_data_idx ON pre_requisicoes (entidade_id, data);
CREATE INDEX pre_requisicoes_busca_idx ON pre_requisicoes USING gin (busca gin_trgm_ops);
COMMENT ON TABLE pre_requisicoes IS 'pré-requisição|pré-requisições';

CREATE TABLE pre_requisicao_itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  pre_requisicao_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  produto_id uuid NOT NULL,
  quantidade numeric(15, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(15, 4) NOT NULL CHECK (valor_unitario > 0),
  valor_total numeric(17, 2) NOT NULL CHECK (valor_total >= 0),
  UNIQUE (id, entidade_id),
  UNIQUE (pre_requisicao_id, ordem),
  FOREIGN KEY (pre_requisicao_id, entidade_id) REFERENCES pre_requisicoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX pre_requisicao_itens_produto_idx ON pre_requisicao_itens (produto_id);
COMMENT ON TABLE pre_requisicao_itens IS 'item de pré-requisição|itens de pré-requisição';

CREATE TABLE requisicoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data date NOT NULL,
  status text NOT NULL DEFAULT 'rascunho'
    CHECK (status IN ('rascunho', 'em_aprovacao', 'aprovada', 'reprovada', 'devolvida', 'cancelada')),
  centro_custo_id uuid NOT NULL,
  tipo_solicitacao_id uuid NOT NULL,
  -- 'compras' (compras e outros serviços, art. 75 II) or 'obras' (obras e serviços de engenharia, art. 75 I)
  categoria text NOT NULL CHECK (categoria IN ('compras', 'obras')),
  dotacao text CHECK (length(dotacao) <= 200),
  justificativa text NOT NULL CHECK (length(justificativa) BETWEEN 10 AND 5000),
  solicitante_id uuid NOT NULL REFERENCES usuarios (id),
  solicitante_nome text NOT NULL,
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  -- approval: levels required (from the alçadas when sent), the level awaited, the sending round
  niveis integer NOT NULL DEFAULT 0 CHECK (niveis >= 0),
  nivel_atual integer CHECK (nivel_atual >= 1),
  ciclo integer NOT NULL DEFAULT 0 CHECK (ciclo >= 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' ' || justificativa || ' ' || solicitante_nome || ' ' || coalesce(dotacao, ''))
  ) STORED,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (centro_custo_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id),
  FOREIGN KEY (tipo_solicitacao_id, entidade_id) REFERENCES registros_tipos_solicitacao (id, entidade_id)
);
CREATE UNIQUE INDEX requisicoes_numero_key ON requisicoes (entidade_id, ano DESC, numero DESC);
CREATE INDEX requisicoes_status_idx ON requisicoes (entidade_id, status, ano DESC, numero DESC);
CREATE INDEX requisicoes_centro_idx ON requisicoes (centro_custo_id, ano DESC, numero DESC);
CREATE INDEX requisicoes_solicitante_idx ON requisicoes (solicitante_id);
CREATE INDEX requisicoes_data_idx ON requisicoes (entidade_id, data);
-- the approval queue: requisições awaiting a level
CREATE INDEX requisicoes_aprovacao_idx ON requisicoes (entidade_id, nivel_atual) WHERE status = 'em_aprovacao';
CREATE INDEX requisicoes_busca_idx ON requisicoes USING gin (busca gin_trgm_ops);
COMMENT ON TABLE requisicoes IS 'requisição|requisições';

CREATE TABLE requisicao_itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  requisicao_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  produto_id uuid NOT NULL,
  -- the pré-requisição item this line converts (NULL: typed directly)
  pre_requisicao_item_id uuid,
  quantidade numeric(15, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(15, 4) NOT NULL CHECK (valor_unitario > 0),
  valor_total numeric(17, 2) NOT NULL CHECK (valor_total >= 0),
  UNIQUE (requisicao_id, ordem),
  FOREIGN KEY (requisicao_id, entidade_id) REFERENCES requisicoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT,
  FOREIGN KEY (pre_requisicao_item_id, entidade_id) REFERENCES pre_requisicao_itens (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX requisicao_itens_produto_idx ON requisicao_itens (produto_id);
CREATE INDEX requisicao_itens_pre_item_idx ON requisicao_itens (pre_requisicao_item_id) WHERE pre_requisicao_item_id IS NOT NULL;
COMMENT ON TABLE requisicao_itens IS 'item de requisição|itens de requisição';

-- one row per approval given: at most one per level and sending round (the database refuses a second)
CREATE TABLE requisicao_aprovacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  requisicao_id uuid NOT NULL,
  ciclo integer NOT NULL,
  nivel integer NOT NULL CHECK (nivel >= 1),
  usuario_id uuid NOT NULL REFERENCES usuarios (id),
  usuario_nome text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (requisicao_id, ciclo, nivel),
  -- one person approves one level of a round
  UNIQUE (requisicao_id, ciclo, usuario_id),
  FOREIGN KEY (requisicao_id, entidade_id) REFERENCES requisicoes (id, entidade_id) ON DELETE CASCADE
);
COMMENT ON TABLE requisicao_aprovacoes IS 'aprovação de requisição|aprovações de requisição';

-- per (requisição, grupo of the catalogue): the amount summed against the dispensa limit; `conta`
-- while the requisição is em aprovação or aprovada. Kept by the server on save and on each transition.
CREATE TABLE requisicao_grupos (
  requisicao_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  grupo_id uuid NOT NULL,
  ano integer NOT NULL,
  categoria text NOT NULL,
  valor numeric(17, 2) NOT NULL,
  conta boolean NOT NULL DEFAULT false,
  PRIMARY KEY (requisicao_id, grupo_id),
  FOREIGN KEY (requisicao_id, entidade_id) REFERENCES requisicoes (id, entidade_id) ON DELETE CASCADE
);
-- the fracionamento sum of one grupo in one year: an index-only walk over the counted rows
CREATE INDEX requisicao_grupos_soma_idx ON requisicao_grupos (entidade_id, grupo_id, ano, categoria) INCLUDE (valor, requisicao_id) WHERE conta;

-- approval levels (alçadas): level `nivel` applies from `valor_minimo` (inclusive); approvers by
-- perfis and/or users; a row with a centro de custo replaces the general rows of its level for that centro
CREATE TABLE requisicao_alcadas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nivel integer NOT NULL CHECK (nivel BETWEEN 1 AND 20),
  nome text NOT NULL CHECK (length(nome) BETWEEN 2 AND 100),
  valor_minimo numeric(17, 2) NOT NULL CHECK (valor_minimo >= 0),
  centro_custo_id uuid,
  perfis uuid[] NOT NULL DEFAULT '{}',
  usuarios uuid[] NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (centro_custo_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id)
);
CREATE UNIQUE INDEX requisicao_alcadas_nivel_key ON requisicao_alcadas (entidade_id, nivel, coalesce(centro_custo_id, '00000000-0000-0000-0000-000000000000'::uuid));
COMMENT ON TABLE requisicao_alcadas IS 'alçada|alçadas';

-- dispensa limits by year (art. 75 I: obras e serviços de engenharia; II: compras e outros serviços)
CREATE TABLE requisicao_limites_dispensa (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  categoria text NOT NULL CHECK (categoria IN ('compras', 'obras')),
  valor numeric(17, 2) NOT NULL CHECK (valor > 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entidade_id, ano, categoria)
);
COMMENT ON TABLE requisicao_limites_dispensa IS 'limite de dispensa|limites de dispensa';
-- the values of 2025 and 2026 for every entidade (new entidades get them from the plugin's seed / admin)
INSERT INTO requisicao_limites_dispensa (entidade_id, ano, categoria, valor)
SELECT e.id, v.ano, v.categoria, v.valor
  FROM entidades e
 CROSS JOIN (VALUES (2025, 'obras', 125451.15), (2025, 'compras', 62725.59), (2026, 'obras', 130984.20), (2026, 'compras', 65492.11))
       AS v (ano, categoria, valor);
