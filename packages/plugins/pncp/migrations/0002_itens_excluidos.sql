-- @app/pncp: an item the PNCP held and a revision took out of the plan is kept once the PNCP deleted it
-- (excluido_em), so the plan still shows "Excluído do PNCP em dd/mm/aaaa (item n)"; and what was last sent of
-- each item (description, quantity, total value) is kept with it, to name the items the plan no longer has.
-- A row with excluido_em is not on the PNCP: the synchronisation reads only the rows without it, and sending
-- the number again (a new item) clears it.
ALTER TABLE pncp_plano_itens
  ADD COLUMN descricao text,
  ADD COLUMN quantidade numeric(17, 4),
  ADD COLUMN valor_total numeric(17, 4),
  ADD COLUMN excluido_em timestamptz;
