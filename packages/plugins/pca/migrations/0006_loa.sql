-- @app/pca: the publication date of each year's budget law (LOA), a setting the entidade records
-- (administration, tag 3). The 15 days after it are a revision window of that year's plan (besides
-- 15/09–15/11 of the year before): `revisar` reads it here instead of asking the person who revises.
CREATE TABLE pca_loas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  entidade_id uuid NOT NULL REFERENCES entidades (id),
  ano integer NOT NULL CHECK (ano BETWEEN 2000 AND 9999),
  data_publicacao date NOT NULL,
  lei text CHECK (length(lei) <= 120),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (entidade_id, ano)
);
COMMENT ON TABLE pca_loas IS 'publicação da LOA|publicações da LOA';
-- the dates plans recorded with their revisions until now become the entidade's (the latest of each year)
INSERT INTO pca_loas (entidade_id, ano, data_publicacao)
SELECT DISTINCT ON (entidade_id, ano_pca) entidade_id, ano_pca, data_loa
  FROM pca_planos
 WHERE data_loa IS NOT NULL
 ORDER BY entidade_id, ano_pca, updated_at DESC;
