-- @app/relatorios: the files of reports generated in the background (a report above 10 000 rows, job
-- relatorios.gerar): who asked (only they download it), the report and its filters, the progress
-- (phase, rows), the file itself until it expires (RELATORIOS_ARQUIVO_DIAS), or why it failed.

CREATE TABLE relatorios_arquivos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  usuario_id uuid NOT NULL REFERENCES usuarios (id),
  -- the report's id in RELATORIOS ('requisicoes.por-periodo') and its title when asked
  relatorio_id text NOT NULL CHECK (length(relatorio_id) BETWEEN 1 AND 100),
  titulo text NOT NULL,
  formato text NOT NULL CHECK (formato IN ('pdf', 'xlsx')),
  -- the query string as asked (filters, ordem, direcao), checked again by the job
  filtros jsonb NOT NULL DEFAULT '{}',
  -- [{ label, valor }] as a person reads them
  filtros_usados jsonb NOT NULL DEFAULT '[]',
  estado text NOT NULL DEFAULT 'na_fila' CHECK (estado IN ('na_fila', 'gerando', 'pronto', 'falhou')),
  fase text CHECK (fase IN ('lendo', 'montando', 'gravando')),
  linhas integer NOT NULL DEFAULT 0 CHECK (linhas >= 0),
  total integer CHECK (total >= 0),
  erro text,
  job_id text,
  nome_arquivo text,
  tamanho integer CHECK (tamanho >= 0),
  conteudo bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  concluido_em timestamptz,
  expira_em timestamptz,
  CHECK (estado <> 'pronto' OR (conteudo IS NOT NULL AND expira_em IS NOT NULL))
);
CREATE INDEX relatorios_arquivos_dono ON relatorios_arquivos (entidade_id, usuario_id, created_at DESC);
CREATE INDEX relatorios_arquivos_expira ON relatorios_arquivos (expira_em) WHERE expira_em IS NOT NULL;
