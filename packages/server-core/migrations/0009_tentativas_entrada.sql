-- Sign-in under concurrency (issue 8).
--
-- login_attempts rows are now also reservations: a sign-in inserts its row BEFORE hashing the
-- password (under a per-key advisory lock, so the limits hold with any number of concurrent requests
-- and server instances) and deletes it by id when the password was right. The id names that row.
ALTER TABLE login_attempts ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;

-- Refused and blocked sign-ins, counted per (login, address, fixed window) without touching the
-- audit hash chain: the audit trail gets the FIRST refusal ('entrar_falhou') and the FIRST block
-- ('entrar_bloqueado') of each row, the later ones are only counted here. Not chained, not
-- append-only: counters of the audit trail, not part of it.
--   login: as typed, in lower case; ip: '' when unknown; janela: start of the throttle window.
CREATE TABLE tentativas_entrada (
  login text NOT NULL,
  ip text NOT NULL,
  janela timestamptz NOT NULL,
  usuario_id uuid REFERENCES usuarios (id) ON DELETE SET NULL,
  falhas integer NOT NULL DEFAULT 0,
  bloqueios integer NOT NULL DEFAULT 0,
  primeira_em timestamptz NOT NULL,
  ultima_em timestamptz NOT NULL,
  PRIMARY KEY (login, ip, janela)
);
CREATE INDEX tentativas_entrada_usuario_idx ON tentativas_entrada (usuario_id, ultima_em) WHERE usuario_id IS NOT NULL;
CREATE INDEX tentativas_entrada_janela_idx ON tentativas_entrada (janela);
