-- @app/fornecedores: suppliers of an entidade. The document (CPF, 11 digits, or CNPJ, 14 characters:
-- numeric or, from July 2026, alphanumeric with numeric check digits) is stored upper case without
-- mask, unique in the entidade. Ramos de atividade point at @app/registros (same entidade).

CREATE TABLE fornecedores (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  documento varchar(14) NOT NULL CHECK (documento ~ '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$'),
  tipo_pessoa text GENERATED ALWAYS AS (CASE WHEN length(documento) = 11 THEN 'fisica' ELSE 'juridica' END) STORED,
  razao_social text NOT NULL,
  nome_fantasia text,
  logradouro text NOT NULL,
  numero text,
  complemento text,
  bairro text,
  cep char(8) NOT NULL CHECK (cep ~ '^[0-9]{8}$'),
  municipio text NOT NULL,
  uf char(2) NOT NULL,
  -- [{ nome, email, telefone }] (telefone: digits only)
  contatos jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(contatos) = 'array'),
  situacao text NOT NULL DEFAULT 'ativo' CHECK (situacao IN ('ativo', 'inativo', 'impedido')),
  impedimento_motivo text,
  impedimento_de date,
  impedimento_ate date,
  -- false only when situacao = 'inativo' (kept in step by the trigger below): out of the pickers
  ativo boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  busca text GENERATED ALWAYS AS (compras_busca(
    documento || ' ' ||
    CASE WHEN length(documento) = 14
      THEN substr(documento, 1, 2) || '.' || substr(documento, 3, 3) || '.' || substr(documento, 6, 3) || '/' || substr(documento, 9, 4) || '-' || substr(documento, 13, 2)
      ELSE substr(documento, 1, 3) || '.' || substr(documento, 4, 3) || '.' || substr(documento, 7, 3) || '-' || substr(documento, 10, 2)
    END || ' ' || razao_social || ' ' || coalesce(nome_fantasia, '') || ' ' || municipio || ' ' || uf
  )) STORED,
  UNIQUE (entidade_id, documento),
  UNIQUE (id, entidade_id),
  CONSTRAINT fornecedores_impedimento_check CHECK (
    situacao <> 'impedido'
    OR (impedimento_motivo IS NOT NULL AND impedimento_de IS NOT NULL AND impedimento_ate IS NOT NULL AND impedimento_ate >= impedimento_de)
  )
);
CREATE INDEX fornecedores_busca_idx ON fornecedores USING gin (busca gin_trgm_ops);
CREATE INDEX fornecedores_razao_idx ON fornecedores (entidade_id, compras_busca(razao_social));
COMMENT ON TABLE fornecedores IS 'fornecedor|fornecedores';

-- ativo follows situacao (and the kit's ativar/desativar, which change ativo, move situacao):
--   situacao inativo ⇔ ativo false; reactivating an inativo supplier makes it ativo again.
CREATE FUNCTION fornecedores_situacao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.ativo IS DISTINCT FROM OLD.ativo AND NEW.situacao IS NOT DISTINCT FROM OLD.situacao THEN
    IF NOT NEW.ativo THEN
      NEW.situacao := 'inativo';
    ELSIF NEW.situacao = 'inativo' THEN
      NEW.situacao := 'ativo';
    END IF;
  END IF;
  NEW.ativo := NEW.situacao <> 'inativo';
  IF NEW.situacao <> 'impedido' THEN
    NEW.impedimento_motivo := NULL;
    NEW.impedimento_de := NULL;
    NEW.impedimento_ate := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER fornecedores_situacao BEFORE INSERT OR UPDATE ON fornecedores
  FOR EACH ROW EXECUTE FUNCTION fornecedores_situacao();

CREATE TABLE fornecedor_ramos (
  fornecedor_id uuid NOT NULL,
  ramo_id uuid NOT NULL,
  entidade_id uuid NOT NULL,
  PRIMARY KEY (fornecedor_id, ramo_id),
  FOREIGN KEY (fornecedor_id, entidade_id) REFERENCES fornecedores (id, entidade_id) ON DELETE CASCADE,
  -- a ramo used by a supplier cannot be deleted: "Usado em 3 fornecedores"
  FOREIGN KEY (ramo_id, entidade_id) REFERENCES registros_ramos_atividade (id, entidade_id)
);
CREATE INDEX fornecedor_ramos_ramo_idx ON fornecedor_ramos (ramo_id);
COMMENT ON TABLE fornecedor_ramos IS 'fornecedor|fornecedores';
