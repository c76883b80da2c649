-- @app/pca: lines the setor de contratações adds to the plan without a DFD (a need of the whole body, a
-- contract that renews), each with its justification, printed. They are consolidated with the DFD lines
-- under the same key (the requesting unit is the plan's setor), and the plan item's drill-down lists
-- them beside the DFD lines (pca_item_fontes.manual_id).
CREATE TABLE pca_itens_manuais (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  plano_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  categoria_item_pca smallint NOT NULL CHECK (categoria_item_pca BETWEEN 1 AND 8),
  quantidade numeric(17, 4) NOT NULL CHECK (quantidade > 0),
  valor_unitario numeric(17, 4) NOT NULL CHECK (valor_unitario > 0),
  data_desejada date NOT NULL,
  justificativa text NOT NULL CHECK (length(justificativa) BETWEEN 10 AND 2000),
  version integer NOT NULL DEFAULT 1,
  UNIQUE (id, entidade_id),
  FOREIGN KEY (plano_id, entidade_id) REFERENCES pca_planos (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id) ON DELETE RESTRICT
);
CREATE INDEX pca_itens_manuais_plano_idx ON pca_itens_manuais (plano_id);
CREATE INDEX pca_itens_manuais_produto_idx ON pca_itens_manuais (produto_id);
COMMENT ON TABLE pca_itens_manuais IS 'item incluído no PCA sem DFD|itens incluídos no PCA sem DFD';

-- a plan item's source is a DFD line or a line added by hand, one of the two
ALTER TABLE pca_item_fontes ALTER COLUMN memorando_id DROP NOT NULL;
ALTER TABLE pca_item_fontes ALTER COLUMN memorando_item_id DROP NOT NULL;
ALTER TABLE pca_item_fontes ADD COLUMN manual_id uuid REFERENCES pca_itens_manuais (id) ON DELETE CASCADE;
ALTER TABLE pca_item_fontes ADD CONSTRAINT pca_item_fontes_uma_origem CHECK ((memorando_item_id IS NULL) <> (manual_id IS NULL));
CREATE INDEX pca_item_fontes_manual_idx ON pca_item_fontes (manual_id);
