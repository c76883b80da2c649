// The demo seed on top of @app/registros' real seed (its grupos, sub-grupos, unidades, tipos de material).
import type { Logger } from '@app/server-core';
import registros from '@app/registros/server';
import { describeEachDatabase } from '@app/server-core/testing';
import { expect, it } from 'vitest';
import produtos from '../../src/server/index.js';

const warnings: string[] = [];
const logger: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: (m, ...d) => console.error(m, ...d) };

describeEachDatabase('produtos demo seed', { plugins: [registros, produtos], logger }, (t) => {
  it('seeds hundreds of products of the Prefeitura, each in a registros grupo with its unit', async () => {
    expect(warnings.filter((w) => w.startsWith('produtos'))).toEqual([]);
    const [{ n, grupos, semSub }] = (await t.server.sql<{ n: number; grupos: number; semSub: number }>(`
      SELECT count(*)::int AS n, count(DISTINCT p.grupo_id)::int AS grupos, count(*) FILTER (WHERE p.sub_grupo_id IS NULL)::int AS "semSub"
        FROM produtos p JOIN entidades e ON e.id = p.entidade_id WHERE e.nome LIKE 'Prefeitura%'`)) as [{ n: number; grupos: number; semSub: number }];
    expect(n).toBeGreaterThanOrEqual(300);
    expect(grupos).toBeGreaterThanOrEqual(8);
    expect(semSub).toBeLessThan(n / 2);
    const rows = await t.server.sql<Record<string, string | null>>(`
      SELECT p.codigo, p.tipo, g.nome AS grupo, s.nome AS sub, u.sigla AS unidade, tm.nome AS tipo_material
        FROM produtos p
        JOIN registros_grupos g ON g.id = p.grupo_id
        LEFT JOIN registros_subgrupos s ON s.id = p.sub_grupo_id
        JOIN registros_unidades u ON u.id = p.unidade_id
        LEFT JOIN registros_tipos_material tm ON tm.id = p.tipo_material_id
       WHERE p.descricao IN ('Papel sulfite A4 75 g/m², branco, resma 500 folhas', 'Amoxicilina 500 mg, cápsula',
                             'Serviço de limpeza e conservação predial, posto 44 h semanais', 'Toner compatível HP CF258A preto')
       ORDER BY p.descricao`);
    expect(rows).toEqual([
      {
        codigo: expect.stringMatching(/^\d{6}$/),
        tipo: 'material',
        grupo: 'Medicamentos',
        sub: 'Antibióticos',
        unidade: 'CP',
        tipo_material: 'Material de consumo',
      },
      { codigo: '000001', tipo: 'material', grupo: 'Material de Expediente', sub: 'Papelaria', unidade: 'RESMA', tipo_material: 'Material de consumo' },
      {
        codigo: expect.any(String),
        tipo: 'servico',
        grupo: 'Serviços de Limpeza e Conservação',
        sub: 'Limpeza de prédios públicos',
        unidade: 'SV',
        tipo_material: null,
      },
      {
        codigo: expect.any(String),
        tipo: 'material',
        grupo: 'Material de Informática',
        sub: 'Cartuchos e toners',
        unidade: 'UN',
        tipo_material: 'Material de consumo',
      },
    ]);
    const [audit] = await t.server.sql<{ depois: { produtos: number } }>(
      "SELECT depois FROM audit_log WHERE plugin = 'produtos' AND acao = 'dados_demonstracao'",
    );
    expect(audit?.depois.produtos).toBe(n);
  });

  it('the seeded catalogue answers the picker query', async () => {
    const { token } = await t.server.signIn(undefined, undefined, (await t.server.demoEntidades()).prefeitura);
    const res = await t.server.request('/api/produtos/produtos?ativo=true&q=papel%20a4&pageSize=50', { token });
    const page = (await res.json()) as { total: number; items: { descricao: string }[] };
    expect(page.total).toBeGreaterThanOrEqual(3);
  });
});
