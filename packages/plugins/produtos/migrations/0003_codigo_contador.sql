-- Automatic códigos from a counter per entidade, instead of max(codigo)+1 with lpad(…, 6): lpad cuts
-- longer text, so after a manual código 999999999999999 the next number was '100000' and every later
-- creation failed with 409, for good. Now:
--   * produtos_codigo_contador holds the last number handed out in each entidade; the row is updated
--     in the creating transaction (INSERT … ON CONFLICT DO UPDATE … RETURNING), so concurrent
--     creations wait for each other on that row and never get the same number;
--   * a number whose código is already taken (a manual código, compared like produtos_codigo_key) is
--     skipped: the loop goes on until a free one;
--   * numbers are padded to 6 digits but never cut (1234567 stays '1234567').
-- A manual código does not move the counter: after '999999999999999' the sequence goes on (000001…).

CREATE TABLE produtos_codigo_contador (
  entidade_id uuid PRIMARY KEY REFERENCES entidades (id),
  ultimo bigint NOT NULL CHECK (ultimo >= 0)
);

-- Existing entidades go on where the old trigger would have (its max + 1): the largest numeric código
-- that fits a bigint.
INSERT INTO produtos_codigo_contador (entidade_id, ultimo)
SELECT entidade_id, max(codigo::bigint)
  FROM produtos
 WHERE codigo ~ '^[0-9]{1,18}$'
 GROUP BY entidade_id;

-- 7 → '000007', 1234567 → '1234567' (padded to 6, never truncated).
CREATE FUNCTION produtos_formatar_codigo(n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN n < 1000000 THEN lpad(n::text, 6, '0') ELSE n::text END
$$;

-- The next `quantidade` free automatic códigos of the entidade, in order. `reservados`: códigos that
-- are about to be inserted by the same statement (the manual códigos of an import) and must be skipped
-- too. Takes the counter row's lock until the end of the transaction.
CREATE FUNCTION produtos_proximos_codigos(p_entidade uuid, p_quantidade integer, p_reservados text[] DEFAULT '{}')
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  v_faltam integer := p_quantidade;
  v_ultimo bigint;
  v_n bigint;
  v_candidato text;
  v_saida text[] := '{}';
  v_ocupados text[];
BEGIN
  SELECT coalesce(array_agg(compras_busca(r)), '{}') INTO v_ocupados FROM unnest(p_reservados) AS r;
  WHILE v_faltam > 0 LOOP
    -- reserve the block of numbers still missing, then keep the free ones
    INSERT INTO produtos_codigo_contador AS c (entidade_id, ultimo) VALUES (p_entidade, v_faltam)
      ON CONFLICT (entidade_id) DO UPDATE SET ultimo = c.ultimo + v_faltam
      RETURNING c.ultimo INTO v_ultimo;
    v_n := v_ultimo - v_faltam + 1;
    WHILE v_n <= v_ultimo LOOP
      v_candidato := produtos_formatar_codigo(v_n);
      IF NOT (compras_busca(v_candidato) = ANY (v_ocupados))
         AND NOT EXISTS (SELECT 1 FROM produtos p
                          WHERE p.entidade_id = p_entidade AND compras_busca(p.codigo) = compras_busca(v_candidato)) THEN
        v_saida := v_saida || v_candidato;
        v_faltam := v_faltam - 1;
      END IF;
      v_n := v_n + 1;
    END LOOP;
  END LOOP;
  RETURN v_saida;
END
$$;

-- An empty código gets the entidade's next free number.
CREATE OR REPLACE FUNCTION produtos_proximo_codigo() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.codigo IS NULL OR NEW.codigo = '' THEN
    NEW.codigo := (produtos_proximos_codigos(NEW.entidade_id, 1))[1];
  END IF;
  RETURN NEW;
END
$$;
