-- @app/pca: the autoridade competente may refuse single items of a plan under approval, with a reason
-- (who and when kept): a refused item stays on the plan's record, printed, but leaves its total and is
-- not sent to the PNCP. Items are consolidated again when the plan is sent anew: the refusal follows the
-- item's key (chave), as its contratação does.
ALTER TABLE pca_itens ADD COLUMN recusa_motivo text CHECK (length(recusa_motivo) BETWEEN 5 AND 1000);
ALTER TABLE pca_itens ADD COLUMN recusado_por text;
ALTER TABLE pca_itens ADD COLUMN recusado_em timestamptz;
ALTER TABLE pca_itens ADD CONSTRAINT pca_itens_recusa_completa CHECK ((recusa_motivo IS NULL) = (recusado_por IS NULL) AND (recusa_motivo IS NULL) = (recusado_em IS NULL));
