-- The PNCP classification of a CATMAT/CATSER item, which the Plano de Contratações Anual sends with each
-- item (classificacaoSuperiorCodigo/Nome: the Classe of a material or the Grupo of a service in the
-- CNBS; pdmCodigo/pdmDescricao: the material's Padrão Descritivo de Material). Optional, typed by who
-- keeps the catalogue; a plan never invents them (an item without them is a pendência of the plan).
ALTER TABLE produtos
  ADD COLUMN classe_cnbs_codigo text CHECK (classe_cnbs_codigo ~ '^[0-9]{1,10}$'),
  ADD COLUMN classe_cnbs_nome text CHECK (length(classe_cnbs_nome) BETWEEN 2 AND 255),
  ADD COLUMN pdm_codigo text CHECK (pdm_codigo ~ '^[0-9]{1,10}$'),
  ADD COLUMN pdm_descricao text CHECK (length(pdm_descricao) BETWEEN 2 AND 255),
  -- code and name go together; a PDM is of materials only
  ADD CONSTRAINT produtos_classe_cnbs_check CHECK ((classe_cnbs_codigo IS NULL) = (classe_cnbs_nome IS NULL)),
  ADD CONSTRAINT produtos_pdm_check CHECK ((pdm_codigo IS NULL) = (pdm_descricao IS NULL) AND (tipo = 'material' OR pdm_codigo IS NULL));
