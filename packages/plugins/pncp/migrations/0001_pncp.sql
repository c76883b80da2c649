-- @app/pncp: the entidade's PNCP system user (password encrypted with a key kept outside the database),
-- what the PNCP holds of each published PCA (its sequencial and the fingerprint of every item sent) and
-- one row per publication asked for (its progress, attempts and last error, read by the /pncp page).
-- The work itself runs as pg-boss jobs (queue pncp.publicar); these rows carry no secret.

CREATE TABLE pncp_credenciais (
  entidade_id uuid PRIMARY KEY REFERENCES entidades (id),
  login text NOT NULL CHECK (length(login) BETWEEN 1 AND 255),
  -- AES-256-GCM of the password: 'v1:' || iv || ':' || tag || ':' || ciphertext (base64), key from PNCP_CREDENCIAIS_KEY
  senha_cifrada text NOT NULL,
  atualizado_por uuid REFERENCES usuarios (id),
  atualizado_por_nome text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pncp_planos (
  -- the PCA (pca_planos.id of @app/pca)
  plano_id uuid PRIMARY KEY,
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  cnpj char(14) NOT NULL,
  codigo_unidade text NOT NULL,
  ano_pca integer NOT NULL,
  -- the PNCP's sequencial of the plan once it holds it; numero_controle = CNPJ-0-SEQ/ANO
  sequencial integer CHECK (sequencial > 0),
  numero_controle text,
  publicado_em timestamptz,
  excluido_em timestamptz
);

CREATE TABLE pncp_plano_itens (
  plano_id uuid NOT NULL REFERENCES pncp_planos (plano_id),
  numero_item integer NOT NULL CHECK (numero_item > 0),
  -- SHA-256 of the fields the PNCP holds for the item (what was last sent)
  fingerprint text NOT NULL,
  enviado_em timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (plano_id, numero_item)
);

CREATE TABLE pncp_publicacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  plano_id uuid NOT NULL REFERENCES pncp_planos (plano_id),
  -- what the plan is called to a person ('PCA 3/2026 — 2027, unidade 1')
  documento text NOT NULL,
  operacao text NOT NULL CHECK (operacao IN ('publicar', 'excluir')),
  justificativa text CHECK (length(justificativa) <= 255),
  estado text NOT NULL DEFAULT 'aguardando' CHECK (estado IN ('aguardando', 'enviando', 'concluido', 'erro', 'cancelado')),
  etapa text,
  feitos integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  tentativas integer NOT NULL DEFAULT 0,
  proxima_tentativa timestamptz,
  ultimo_erro text,
  -- [{ numeroItem, campo, mensagem }] of a refusal by the PNCP (400/422)
  erros jsonb NOT NULL DEFAULT '[]',
  job_id text,
  solicitado_por uuid REFERENCES usuarios (id),
  solicitado_por_nome text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  concluido_em timestamptz
);
CREATE INDEX pncp_publicacoes_entidade ON pncp_publicacoes (entidade_id, created_at DESC);
CREATE INDEX pncp_publicacoes_plano ON pncp_publicacoes (plano_id, created_at DESC);
