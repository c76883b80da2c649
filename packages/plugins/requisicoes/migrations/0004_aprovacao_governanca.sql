-- Approval governance (issue 18).
-- 1. Approved value and researched value. `valor_total` stays the sum of the items (what they say now);
--    `valor_aprovado` is the total the last level approved (set on that approval, each round);
--    `valor_pesquisado` the total after a price research (a concluded cotação wrote its estimates into
--    the items). When the researched total passes the approved one, the requisição goes back to
--    approval for the new value (server/aprovacao.ts registrarPesquisaDePrecos).
ALTER TABLE requisicoes ADD COLUMN valor_aprovado numeric(17, 2) CHECK (valor_aprovado >= 0);
ALTER TABLE requisicoes ADD COLUMN valor_pesquisado numeric(17, 2) CHECK (valor_pesquisado >= 0);
-- the approved ones so far: the total before the first cotação fed it back (audited), else today's total
UPDATE requisicoes r
   SET valor_aprovado = coalesce((SELECT (a.antes ->> 'valorTotal')::numeric FROM audit_log a
                                   WHERE a.plugin = 'requisicoes' AND a.registro = r.id::text AND a.acao = 'valores_da_cotacao'
                                   ORDER BY a.id LIMIT 1), r.valor_total),
       valor_pesquisado = CASE WHEN EXISTS (SELECT 1 FROM audit_log a WHERE a.plugin = 'requisicoes' AND a.registro = r.id::text
                                              AND a.acao = 'valores_da_cotacao') THEN r.valor_total END
 WHERE r.status = 'aprovada';

-- 2. Substitutes: people named on a level who decide it when nobody of that level (nor of the next
--    higher one) may decide it; and how each approval was given ('nivel_superior': by an approver of
--    the next higher level; 'substituto': by a substitute named on the alçada; NULL: by the level's own).
ALTER TABLE requisicao_alcadas ADD COLUMN substitutos uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE requisicao_aprovacoes ADD COLUMN substituicao text CHECK (substituicao IN ('nivel_superior', 'substituto'));
