-- @app/pca: an approved or published plan is revised through a new version (Decreto 10.947/2022 art. 12):
-- em revisão → em aprovação → aprovado → publicado. Each approval keeps the version's items (pca_versoes)
-- so the next version shows what changed (included, excluded, resized). Outside the revision windows
-- (15/09–15/11 of the year before the plan's, and the 15 days after the budget law, whose publication
-- date the plan records) a revision needs a justification, printed with the plan.
ALTER TABLE pca_planos DROP CONSTRAINT pca_planos_status_check;
ALTER TABLE pca_planos ADD CONSTRAINT pca_planos_status_check
  CHECK (status IN ('em_elaboracao', 'em_aprovacao', 'devolvido', 'aprovado', 'publicado', 'em_revisao', 'cancelado'));
ALTER TABLE pca_planos ADD COLUMN versao integer NOT NULL DEFAULT 1 CHECK (versao >= 1);
ALTER TABLE pca_planos ADD COLUMN data_loa date;
ALTER TABLE pca_planos ADD COLUMN revisao_justificativa text CHECK (length(revisao_justificativa) <= 2000);

CREATE TABLE pca_versoes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  plano_id uuid NOT NULL,
  versao integer NOT NULL CHECK (versao >= 1),
  aprovado_em timestamptz NOT NULL DEFAULT now(),
  valor_total numeric(17, 4) NOT NULL,
  -- the approved items (those not refused): chave, numeroItem, descricao, unidade, quantidade, valorTotal
  itens jsonb NOT NULL,
  UNIQUE (plano_id, versao),
  FOREIGN KEY (plano_id, entidade_id) REFERENCES pca_planos (id, entidade_id) ON DELETE CASCADE
);
COMMENT ON TABLE pca_versoes IS 'versão aprovada do PCA|versões aprovadas do PCA';
