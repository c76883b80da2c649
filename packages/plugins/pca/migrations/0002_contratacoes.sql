-- @app/pca: the contratações planejadas of a plan (PGC's "Criar Contratação"): the setor groups plan
-- items of one PCA category into a contratação with a title, a priority and the estimated start and end
-- of its process, from which the plan's calendar is drawn by month. An item belongs to at most one.
-- Items are consolidated again on every save: each keeps its consolidation key (chave) so that the
-- contratação it was put in follows it into the new items.
CREATE TABLE pca_contratacoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  plano_id uuid NOT NULL,
  numero integer NOT NULL CHECK (numero >= 1),
  titulo text NOT NULL CHECK (length(titulo) BETWEEN 1 AND 200),
  categoria_item_pca smallint NOT NULL CHECK (categoria_item_pca BETWEEN 1 AND 8),
  prioridade text NOT NULL CHECK (prioridade IN ('baixa', 'media', 'alta')),
  inicio date NOT NULL,
  fim date NOT NULL,
  version integer NOT NULL DEFAULT 1,
  CHECK (fim >= inicio),
  UNIQUE (plano_id, numero),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (plano_id, entidade_id) REFERENCES pca_planos (id, entidade_id) ON DELETE CASCADE
);
COMMENT ON TABLE pca_contratacoes IS 'contratação planejada do PCA|contratações planejadas do PCA';

ALTER TABLE pca_itens ADD COLUMN chave text;
ALTER TABLE pca_itens ADD COLUMN contratacao_id uuid REFERENCES pca_contratacoes (id) ON DELETE SET NULL;
CREATE INDEX pca_itens_contratacao_idx ON pca_itens (contratacao_id);
