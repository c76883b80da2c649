-- @app/registros: the registries every document points to. Every table: entidade_id (tenancy),
-- version (optimistic concurrency), ativo (deactivate instead of delete), timestamps, and `busca`
-- (compras_busca(...), accent/case-insensitive, pg_trgm index) for the list search.
-- UNIQUE (id, entidade_id) is the target of same-entidade foreign keys; names are unique regardless
-- of case (lower()). The registries are small: lists sort without dedicated indexes. The table comments
-- ('singular|plural') name the table in "Usado em 3 sub-grupos" (defineCrudResource).

CREATE TABLE registros_grupos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  codigo text NOT NULL,
  nome text NOT NULL,
  catalogo_tipo text CHECK (catalogo_tipo IN ('material', 'servico')),
  catalogo_codigo text,
  catalogo_nome text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || nome || ' ' || coalesce(catalogo_codigo, '') || ' ' || coalesce(catalogo_nome, ''))) STORED,
  UNIQUE (entidade_id, codigo),
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_grupos_nome_key ON registros_grupos (entidade_id, lower(nome));
CREATE INDEX registros_grupos_busca_idx ON registros_grupos USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_grupos IS 'grupo|grupos';

CREATE TABLE registros_subgrupos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  grupo_id uuid NOT NULL,
  codigo text NOT NULL,
  nome text NOT NULL,
  catalogo_tipo text CHECK (catalogo_tipo IN ('material', 'servico')),
  catalogo_codigo text,
  catalogo_nome text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || nome || ' ' || coalesce(catalogo_codigo, '') || ' ' || coalesce(catalogo_nome, ''))) STORED,
  UNIQUE (grupo_id, codigo),
  UNIQUE (id, entidade_id),
  FOREIGN KEY (grupo_id, entidade_id) REFERENCES registros_grupos (id, entidade_id)
);
CREATE INDEX registros_subgrupos_grupo_idx ON registros_subgrupos (grupo_id);
CREATE INDEX registros_subgrupos_busca_idx ON registros_subgrupos USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_subgrupos IS 'sub-grupo|sub-grupos';

CREATE TABLE registros_unidades (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  sigla text NOT NULL CHECK (sigla = upper(sigla)),
  descricao text NOT NULL,
  fracionavel boolean NOT NULL DEFAULT false,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(sigla || ' ' || descricao)) STORED,
  UNIQUE (entidade_id, sigla),
  UNIQUE (id, entidade_id)
);
CREATE INDEX registros_unidades_busca_idx ON registros_unidades USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_unidades IS 'unidade|unidades';

CREATE TABLE registros_tipos_material (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  descricao text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(descricao, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_tipos_material_nome_key ON registros_tipos_material (entidade_id, lower(nome));
CREATE INDEX registros_tipos_material_busca_idx ON registros_tipos_material USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_tipos_material IS 'tipo de material|tipos de material';

CREATE TABLE registros_centros_custo (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  codigo text NOT NULL,
  nome text NOT NULL,
  parent_id uuid,
  responsavel_nome text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(codigo || ' ' || nome || ' ' || coalesce(responsavel_nome, ''))) STORED,
  UNIQUE (entidade_id, codigo),
  UNIQUE (id, entidade_id),
  CHECK (parent_id IS NULL OR parent_id <> id),
  FOREIGN KEY (parent_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id)
);
CREATE INDEX registros_centros_custo_parent_idx ON registros_centros_custo (parent_id);
CREATE INDEX registros_centros_custo_busca_idx ON registros_centros_custo USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_centros_custo IS 'centro de custo|centros de custo';

CREATE TABLE registros_nucleos_consumo (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  descricao text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(descricao, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_nucleos_consumo_nome_key ON registros_nucleos_consumo (entidade_id, lower(nome));
CREATE INDEX registros_nucleos_consumo_busca_idx ON registros_nucleos_consumo USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_nucleos_consumo IS 'núcleo de consumo|núcleos de consumo';

-- A núcleo groups several centros de custo; deleting the núcleo drops its links, deleting a centro
-- linked to a núcleo is refused ("Usado em 1 núcleo de consumo").
CREATE TABLE registros_nucleo_centros (
  nucleo_id uuid NOT NULL,
  centro_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  PRIMARY KEY (nucleo_id, centro_id),
  FOREIGN KEY (nucleo_id, entidade_id) REFERENCES registros_nucleos_consumo (id, entidade_id) ON DELETE CASCADE,
  FOREIGN KEY (centro_id, entidade_id) REFERENCES registros_centros_custo (id, entidade_id)
);
CREATE INDEX registros_nucleo_centros_centro_idx ON registros_nucleo_centros (centro_id);
COMMENT ON TABLE registros_nucleo_centros IS 'núcleo de consumo|núcleos de consumo';

CREATE TABLE registros_ramos_atividade (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  cnae char(7) CHECK (cnae ~ '^[0-9]{7}$'),
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(cnae, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_ramos_atividade_nome_key ON registros_ramos_atividade (entidade_id, lower(nome));
CREATE INDEX registros_ramos_atividade_busca_idx ON registros_ramos_atividade USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_ramos_atividade IS 'ramo de atividade|ramos de atividade';

CREATE TABLE registros_tipos_solicitacao (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  descricao text,
  prazo_dias integer CHECK (prazo_dias >= 0),
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(descricao, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_tipos_solicitacao_nome_key ON registros_tipos_solicitacao (entidade_id, lower(nome));
CREATE INDEX registros_tipos_solicitacao_busca_idx ON registros_tipos_solicitacao USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_tipos_solicitacao IS 'tipo de solicitação|tipos de solicitação';

CREATE TABLE registros_cargos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  nome text NOT NULL,
  descricao text,
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(nome || ' ' || coalesce(descricao, ''))) STORED,
  UNIQUE (id, entidade_id)
);
CREATE UNIQUE INDEX registros_cargos_nome_key ON registros_cargos (entidade_id, lower(nome));
CREATE INDEX registros_cargos_busca_idx ON registros_cargos USING gin (busca gin_trgm_ops);
COMMENT ON TABLE registros_cargos IS 'cargo|cargos';
