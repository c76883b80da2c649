// The demo seed on top of @app/registros' real seed (its ramos de atividade).
import { isValidCnpj, isValidCpf } from '@app/br';
import registros from '@app/registros/server';
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import fornecedores from '../../src/server/index.js';

describeEachDatabase('fornecedores demo seed', { plugins: [registros, fornecedores] }, (t) => {
  it('seeds 30+ suppliers with valid documents, addresses, contacts and ramos', async () => {
    const rows = await t.server.sql<{ documento: string; municipio: string; contatos: unknown[]; ramos: number; situacao: string }>(`
      SELECT f.documento, f.municipio, f.contatos, f.situacao,
             (SELECT count(*)::int FROM fornecedor_ramos fr WHERE fr.fornecedor_id = f.id) AS ramos
        FROM fornecedores f JOIN entidades e ON e.id = f.entidade_id WHERE e.nome LIKE 'Prefeitura%'`);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const f of rows) {
      expect(f.documento.length === 11 ? isValidCpf(f.documento) : isValidCnpj(f.documento)).toBe(true);
      expect(f.ramos).toBeGreaterThan(0);
      expect(f.contatos.length).toBeGreaterThan(0);
    }
    expect(rows.filter((f) => /[A-Z]/.test(f.documento)).length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((f) => f.situacao === 'impedido')).toHaveLength(1);
    // registros' own ramos are reused, not duplicated
    const [dup] = await t.server.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM (SELECT entidade_id, compras_busca(nome) FROM registros_ramos_atividade GROUP BY 1, 2 HAVING count(*) > 1) x',
    );
    expect(dup?.n).toBe(0);
    const { token } = await t.server.signIn(undefined, undefined, (await t.server.demoEntidades()).prefeitura);
    const res = await t.server.request('/api/fornecedores/fornecedores?q=12.ABC', { token });
    const page = (await res.json()) as { items: { documentoFormatado: string; ramos: { nome: string }[] }[] };
    expect(page.items[0]?.documentoFormatado).toMatch(/^12\.ABC\.345\/0001-\d\d$/);
    expect(page.items[0]?.ramos.length).toBeGreaterThan(0);
  });
});
