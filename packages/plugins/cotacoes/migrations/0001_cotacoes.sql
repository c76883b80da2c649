-- Cotações (pesquisa de preços, IN SEGES/ME 65/2021): the header (a document of the kit: number per
-- entidade and year, status flow), its items (one line per product), the invited suppliers, every
-- price collected with its source and evidence, the winners a person chose and the entidade's defaults.

CREATE TABLE cotacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  numero integer NOT NULL CHECK (numero > 0),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data date NOT NULL,
  status text NOT NULL DEFAULT 'rascunho' CHECK (status IN ('rascunho', 'em_coleta', 'concluida', 'cancelada')),
  objeto text NOT NULL CHECK (length(objeto) BETWEEN 10 AND 2000),
  centro_custo_id uuid NOT NULL,
  -- the approved requisição it prices (NULL: items picked directly)
  requisicao_id uuid,
  -- the ages of the prices are counted back from this date (America/Sao_Paulo)
  data_referencia date NOT NULL,
  -- deadline of the suppliers' answers (date and time)
  prazo timestamptz,
  metodo text NOT NULL CHECK (metodo IN ('media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana')),
  iterar boolean NOT NULL DEFAULT false,
  observacoes text CHECK (length(observacoes) <= 5000),
  responsavel_id uuid NOT NULL REFERENCES usuarios (id),
  responsavel_nome text NOT NULL,
  -- items with fewer than three valid prices: the justification and who approved it (autoridade competente)
  justificativa text CHECK (length(justificativa) <= 2000),
  -- who typed it: the autoridade competente who approves it must be another person (segregation of duties)
  justificativa_por uuid REFERENCES usuarios (id),
  justificativa_por_nome text,
  justificativa_em timestamptz,
  justificativa_aprovada_por uuid REFERENCES usuarios (id),
  justificativa_aprovada_por_nome text,
  justificativa_aprovada_em timestamptz,
  -- the estimated total: Σ line totals (the reference values while open, the estimated prices once concluded)
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  concluida_em timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (
    compras_busca(numero::text || '/' || ano::text || ' ' || objeto || ' ' || responsavel_nome)
  ) STORED,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (centro_custo_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id),
  FOREIGN KEY (requisicao_id, entidade_id) REFERENCES requisicoes (id, entidade_id)
);
CREATE UNIQUE INDEX cotacoes_numero_key ON cotacoes (entidade_id, ano DESC, numero DESC);
CREATE INDEX cotacoes_status_idx ON cotacoes (entidade_id, status, ano DESC, numero DESC);
CREATE INDEX cotacoes_centro_idx ON cotacoes (centro_custo_id, ano DESC, numero DESC);
CREATE INDEX cotacoes_requisicao_idx ON cotacoes (requisicao_id) WHERE requisicao_id IS NOT NULL;
CREATE INDEX cotacoes_busca_idx ON cotacoes USING gin (busca gin_trgm_ops);
COMMENT ON TABLE cotacoes IS 'cotação|cotações';

CREATE TABLE cotacao_itens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cotacao_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  ordem integer NOT NULL CHECK (ordem >= 1),
  produto_id uuid NOT NULL,
  requisicao_item_id uuid,
  quantidade numeric(15, 4) NOT NULL CHECK (quantidade > 0),
  -- the reference value while open (0: none); the estimated price (to cents) once concluded
  valor_unitario numeric(15, 4) NOT NULL DEFAULT 0 CHECK (valor_unitario >= 0),
  valor_total numeric(17, 2) NOT NULL DEFAULT 0 CHECK (valor_total >= 0),
  UNIQUE (cotacao_id, ordem),
  UNIQUE (cotacao_id, produto_id),
  FOREIGN KEY (cotacao_id, entidade_id) REFERENCES cotacoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT,
  FOREIGN KEY (requisicao_item_id) REFERENCES requisicao_itens (id) ON DELETE SET NULL
);
CREATE INDEX cotacao_itens_produto_idx ON cotacao_itens (produto_id);
COMMENT ON TABLE cotacao_itens IS 'item de cotação|itens de cotação';

-- the suppliers invited to quote (IN 65, art. 5 IV: who was asked, why, and who did not answer)
CREATE TABLE cotacao_fornecedores (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  cotacao_id uuid NOT NULL,
  fornecedor_id uuid NOT NULL,
  situacao text NOT NULL DEFAULT 'convidado' CHECK (situacao IN ('convidado', 'respondeu', 'nao_respondeu')),
  motivo_escolha text CHECK (length(motivo_escolha) <= 1000),
  motivo_nao_resposta text CHECK (length(motivo_nao_resposta) <= 1000),
  convidado_em timestamptz NOT NULL DEFAULT now(),
  -- the answer: date (and time) of the quote document and its validity
  data_proposta timestamptz,
  validade date,
  version integer NOT NULL DEFAULT 1,
  UNIQUE (cotacao_id, fornecedor_id),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (cotacao_id, entidade_id) REFERENCES cotacoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (fornecedor_id, entidade_id) REFERENCES fornecedores (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX cotacao_fornecedores_fornecedor_idx ON cotacao_fornecedores (fornecedor_id);
COMMENT ON TABLE cotacao_fornecedores IS 'fornecedor convidado|fornecedores convidados';

-- evidence of a price (PDF, image or HTML snapshot), kept with its SHA-256 so the price survives the link
CREATE TABLE cotacao_evidencias (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  cotacao_id uuid NOT NULL,
  nome text NOT NULL CHECK (length(nome) BETWEEN 1 AND 255),
  tipo text NOT NULL,
  tamanho integer NOT NULL CHECK (tamanho BETWEEN 1 AND 5242880),
  sha256 char(64) NOT NULL,
  conteudo bytea NOT NULL,
  enviado_por uuid NOT NULL REFERENCES usuarios (id),
  enviado_por_nome text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (cotacao_id, entidade_id) REFERENCES cotacoes (id, entidade_id) ON DELETE CASCADE
);
CREATE INDEX cotacao_evidencias_cotacao_idx ON cotacao_evidencias (cotacao_id);
COMMENT ON TABLE cotacao_evidencias IS 'evidência de preço|evidências de preço';

-- every price collected, of every source (art. 5): one per (item, supplier) for supplier quotes.
-- The item key is checked at COMMIT (the kit replaces the item rows on each save; the plugin deletes
-- the prices of a product taken out of the items in the same transaction).
CREATE TABLE cotacao_precos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  cotacao_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  fonte text NOT NULL CHECK (fonte IN ('painel', 'contrato', 'midia', 'fornecedor', 'nota_fiscal')),
  fornecedor_id uuid,
  fonte_descricao text NOT NULL CHECK (length(fonte_descricao) BETWEEN 1 AND 500),
  valor_unitario numeric(15, 4) NOT NULL CHECK (valor_unitario > 0),
  marca text CHECK (length(marca) <= 200),
  data_coleta timestamptz NOT NULL,
  validade date,
  link text CHECK (length(link) <= 2000),
  evidencia_id uuid,
  coletado_por uuid NOT NULL REFERENCES usuarios (id),
  coletado_por_nome text NOT NULL,
  inclusao_motivo text CHECK (length(inclusao_motivo) <= 2000),
  exclusao_motivo text CHECK (length(exclusao_motivo) <= 2000),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((fonte = 'fornecedor') = (fornecedor_id IS NOT NULL)),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (cotacao_id, entidade_id) REFERENCES cotacoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (cotacao_id, produto_id) REFERENCES cotacao_itens (cotacao_id, produto_id) DEFERRABLE INITIALLY DEFERRED,
  FOREIGN KEY (cotacao_id, fornecedor_id) REFERENCES cotacao_fornecedores (cotacao_id, fornecedor_id) ON DELETE CASCADE,
  FOREIGN KEY (evidencia_id, entidade_id) REFERENCES cotacao_evidencias (id, entidade_id) ON DELETE RESTRICT
);
CREATE UNIQUE INDEX cotacao_precos_fornecedor_key ON cotacao_precos (cotacao_id, produto_id, fornecedor_id) WHERE fornecedor_id IS NOT NULL;
CREATE INDEX cotacao_precos_cotacao_idx ON cotacao_precos (cotacao_id, produto_id);
COMMENT ON TABLE cotacao_precos IS 'preço coletado|preços coletados';

-- a winner a person chose instead of the lowest valid supplier price (reason ≥ 20 characters)
CREATE TABLE cotacao_vencedores (
  cotacao_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  preco_id uuid NOT NULL,
  motivo text NOT NULL CHECK (length(motivo) BETWEEN 20 AND 2000),
  escolhido_por uuid NOT NULL REFERENCES usuarios (id),
  escolhido_por_nome text NOT NULL,
  escolhido_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cotacao_id, produto_id),
  FOREIGN KEY (cotacao_id, entidade_id) REFERENCES cotacoes (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (preco_id, entidade_id) REFERENCES cotacao_precos (id, entidade_id) ON DELETE CASCADE
);

-- the entidade's defaults for new cotações (administration, tag 3)
CREATE TABLE cotacao_configuracoes (
  entidade_id uuid PRIMARY KEY REFERENCES entidades (id),
  metodo text NOT NULL DEFAULT 'media_saneada' CHECK (metodo IN ('media', 'mediana', 'menor', 'media_saneada', 'intervalo_mediana')),
  iterar boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE cotacao_configuracoes IS 'configuração de cotações|configurações de cotações';
