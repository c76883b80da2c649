-- @app/produtos: the catalogue of materials and services (CATMAT/CATSER), per entidade.
-- Grupo, sub-grupo, unidade and tipo de material point at @app/registros' tables through
-- (id, entidade_id) keys, so a product never references another entidade's registry, and a registry
-- used by a product cannot be deleted ("Usado em 3 produtos", from the table comment).

CREATE TABLE produtos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  codigo text NOT NULL CHECK (codigo ~ '^[0-9A-Za-z][0-9A-Za-z./_-]{0,29}$'),
  descricao text NOT NULL CHECK (length(descricao) BETWEEN 3 AND 500),
  tipo text NOT NULL CHECK (tipo IN ('material', 'servico')),
  grupo_id uuid NOT NULL,
  sub_grupo_id uuid,
  unidade_id uuid NOT NULL,
  tipo_material_id uuid,
  codigo_catalogo text CHECK (codigo_catalogo ~ '^[0-9]{1,9}$'),
  especificacao text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || descricao || ' ' || coalesce(codigo_catalogo, ''))) STORED,
  UNIQUE (id, entidade_id),
  -- a service has no tipo de material
  CONSTRAINT produtos_tipo_material_check CHECK (tipo = 'material' OR tipo_material_id IS NULL),
  FOREIGN KEY (grupo_id, entidade_id) REFERENCES registros_grupos (id, entidade_id),
  FOREIGN KEY (sub_grupo_id, entidade_id) REFERENCES registros_subgrupos (id, entidade_id),
  FOREIGN KEY (unidade_id, entidade_id) REFERENCES registros_unidades (id, entidade_id),
  FOREIGN KEY (tipo_material_id, entidade_id) REFERENCES registros_tipos_material (id, entidade_id)
);
-- código and descrição are unique in the entidade, compared without case or accents
CREATE UNIQUE INDEX produtos_codigo_key ON produtos (entidade_id, compras_busca(codigo));
CREATE UNIQUE INDEX produtos_descricao_key ON produtos (entidade_id, compras_busca(descricao));
CREATE INDEX produtos_busca_idx ON produtos USING gin (busca gin_trgm_ops);
CREATE INDEX produtos_grupo_idx ON produtos (grupo_id);
CREATE INDEX produtos_subgrupo_idx ON produtos (sub_grupo_id);
CREATE INDEX produtos_unidade_idx ON produtos (unidade_id);
CREATE INDEX produtos_tipo_material_idx ON produtos (tipo_material_id);
COMMENT ON TABLE produtos IS 'produto|produtos';

-- An empty código gets the next number of the entidade (000001, 000002…), serialised per entidade.
CREATE FUNCTION produtos_proximo_codigo() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.codigo IS NULL OR NEW.codigo = '' THEN
    PERFORM pg_advisory_xact_lock(725031025, hashtext(NEW.entidade_id::text));
    SELECT lpad((coalesce(max(codigo::bigint), 0) + 1)::text, 6, '0') INTO NEW.codigo
      FROM produtos
     WHERE entidade_id = NEW.entidade_id AND codigo ~ '^[0-9]{1,15}$';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER produtos_codigo BEFORE INSERT ON produtos
  FOR EACH ROW EXECUTE FUNCTION produtos_proximo_codigo();

-- Where each product is used: other plugins (memorandos, requisições, cotações…) add a row when a
-- document starts using a product and remove it when it stops. A used product cannot be deleted nor
-- have its descrição changed; deactivating it only takes it out of the pickers.
CREATE TABLE produto_usos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL,
  produto_id uuid NOT NULL,
  -- plugin that uses it, e.g. 'memorandos'
  origem text NOT NULL,
  -- id of the document in that plugin
  documento_id text NOT NULL,
  -- how people call the document, e.g. 'Memorando 12/2026'
  descricao text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (produto_id, origem, documento_id),
  FOREIGN KEY (produto_id, entidade_id) REFERENCES produtos (id, entidade_id)
);
CREATE INDEX produto_usos_documento_idx ON produto_usos (origem, documento_id);
COMMENT ON TABLE produto_usos IS 'documento|documentos';
