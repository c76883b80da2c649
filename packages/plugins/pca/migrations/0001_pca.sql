-- @app/pca: the Plano de Contratações Anual (Lei 14.133 art. 12 VII; Decreto 10.947/2022), one per
-- entidade, year of the plan and PNCP unit (codigo_unidade), numbered per entidade and year by the
-- document kit's counter. Its sources, the accepted memorandos (DFDs) of the plan's year, are kept by
-- the kit in documento_vinculos (many → one); their lines are consolidated into pca_itens (one per key:
-- category, catálogo, classificação, Classe/Grupo, item, unit of supply) and each plan item keeps the
-- DFD lines it came from in pca_item_fontes. Money and quantities NUMERIC(17,4) as the PNCP takes them.

CREATE TABLE pca_planos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data date NOT NULL,
  status text NOT NULL DEFAULT 'em_elaboracao'
    CHECK (status IN ('em_elaboracao', 'em_aprovacao', 'devolvido', 'aprovado', 'publicado', 'cancelado')),
  -- the year planned (anoPca of the PNCP) and the PNCP unit code of the entidade
  ano_pca integer NOT NULL CHECK (ano_pca BETWEEN 2000 AND 9999),
  codigo_unidade text NOT NULL CHECK (codigo_unidade ~ '^[0-9A-Za-z.-]{1,30}$'),
  -- the setor de contratações that elaborates it (row scope)
  centro_custo_id uuid NOT NULL,
  solicitante_id uuid NOT NULL REFERENCES usuarios (id),
  solicitante_nome text NOT NULL,
  observacao text CHECK (length(observacao) <= 2000),
  -- sum of the items' values, kept by the consolidation
  valor_total numeric(17, 4) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' PCA ' || ano_pca::text || ' ' || codigo_unidade || ' ' || solicitante_nome)
  ) STORED,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (centro_custo_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id)
);
CREATE UNIQUE INDEX pca_planos_numero_key ON pca_planos (entidade_id, ano DESC, numero DESC);
-- one live plan per entidade, year and PNCP unit
CREATE UNIQUE INDEX pca_planos_ano_pca_key ON pca_planos (entidade_id, ano_pca, codigo_unidade) WHERE status <> 'cancelado';
CREATE INDEX pca_planos_status_idx ON pca_planos (entidade_id, status, ano DESC, numero DESC);
CREATE INDEX pca_planos_centro_idx ON pca_planos (centro_custo_id);
CREATE INDEX pca_planos_solicitante_idx ON pca_planos (solicitante_id);
CREATE INDEX pca_planos_busca_idx ON pca_planos USING gin (busca gin_trgm_ops);
COMMENT ON TABLE pca_planos IS 'plano de contratações anual|planos de contratações anuais';

CREATE TABLE pca_itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  plano_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  numero_item integer NOT NULL CHECK (numero_item >= 1),
  categoria_item_pca smallint NOT NULL CHECK (categoria_item_pca BETWEEN 1 AND 8),
  -- 1 CNBS (the product has a CATMAT/CATSER code), 2 Outros
  catalogo smallint NOT NULL CHECK (catalogo IN (1, 2)),
  -- 1 Material, 2 Serviço
  classificacao_catalogo smallint NOT NULL CHECK (classificacao_catalogo IN (1, 2)),
  classificacao_superior_codigo text,
  classificacao_superior_nome text,
  pdm_codigo text,
  pdm_descricao text,
  codigo_item text,
  produto_id uuid,
  descricao text NOT NULL,
  unidade_fornecimento text,
  quantidade numeric(17, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(17, 4) NOT NULL CHECK (valor_unitario >= 0),
  valor_total numeric(17, 4) NOT NULL CHECK (valor_total >= 0),
  data_desejada date,
  unidade_requisitante text,
  -- what the PNCP needs and the catalogue lacks ('classe_cnbs', 'data_desejada', 'unidade'): shown, never invented
  pendencias text[] NOT NULL DEFAULT '{}',
  UNIQUE (plano_id, numero_item),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (plano_id, entidade_id) REFERENCES pca_planos (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX pca_itens_produto_idx ON pca_itens (produto_id);
COMMENT ON TABLE pca_itens IS 'item do plano de contratações anual|itens do plano de contratações anual';

-- the DFD lines behind each plan item (the drill-down; each DFD shows the plan item it went into)
CREATE TABLE pca_item_fontes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  item_id uuid NOT NULL,
  memorando_id uuid NOT NULL,
  memorando_item_id uuid NOT NULL,
  quantidade numeric(17, 4) NOT NULL,
  valor_total numeric(17, 4) NOT NULL,
  FOREIGN KEY (item_id, entidade_id) REFERENCES pca_itens (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (memorando_id, entidade_id) REFERENCES memorandos (id, entidade_id),
  FOREIGN KEY (memorando_item_id) REFERENCES memorando_itens (id)
);
CREATE INDEX pca_item_fontes_item_idx ON pca_item_fontes (item_id);
CREATE INDEX pca_item_fontes_memorando_idx ON pca_item_fontes (memorando_id);
COMMENT ON TABLE pca_item_fontes IS 'linha de DFD consolidada no PCA|linhas de DFD consolidadas no PCA';
