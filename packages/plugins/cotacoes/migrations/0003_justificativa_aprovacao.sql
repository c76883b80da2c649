-- The approval of the justification of items with fewer than three valid prices covers exactly what
-- the autoridade competente saw (issue 18): the justification text, the items short of three valid
-- prices and every price of those items with its decisions and its evaluation (see
-- src/server/justificativa.ts for the exact content). The approval keeps its SHA-256 fingerprint and
-- one fingerprint per item; any later change of that content voids the approval: the voiding is
-- recorded here (when, why, whose approval) and in the audit trail, and the cotação cannot be
-- concluded until a new approval.
ALTER TABLE cotacoes
  -- SHA-256 (hex) of the canonical content the approval covered
  ADD COLUMN justificativa_aprovada_impressao char(64) CHECK (justificativa_aprovada_impressao ~ '^[0-9a-f]{64}$'),
  -- [{ produtoId, rotulo: '2. Caneta azul', impressao }] of the items short of three prices it covered
  ADD COLUMN justificativa_aprovada_itens jsonb,
  -- an approval voided by a later change: when, whose approval it was and which items changed
  ADD COLUMN justificativa_anulada_em timestamptz,
  ADD COLUMN justificativa_anulada_aprovador text,
  ADD COLUMN justificativa_anulada_motivo text CHECK (length(justificativa_anulada_motivo) <= 4000);
