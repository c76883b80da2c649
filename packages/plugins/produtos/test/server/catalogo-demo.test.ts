import { describe, expect, it } from 'vitest';
import { catalogoDemo } from '../../src/server/catalogo-demo.js';

describe('demo catalogue', () => {
  const catalogo = catalogoDemo();

  it('has over 300 products across the six grupos, with unique descriptions', () => {
    expect(catalogo.length).toBeGreaterThanOrEqual(300);
    const porGrupo = new Map<string, number>();
    for (const p of catalogo) porGrupo.set(p.grupo, (porGrupo.get(p.grupo) ?? 0) + 1);
    expect([...porGrupo.keys()].sort()).toEqual(['alimentos', 'expediente', 'informatica', 'limpeza', 'medicamentos', 'servicos']);
    for (const n of porGrupo.values()) expect(n).toBeGreaterThanOrEqual(30);
    expect(new Set(catalogo.map((p) => p.descricao.toLowerCase())).size).toBe(catalogo.length);
  });

  it('services have no tipo de material; materials have one', () => {
    for (const p of catalogo) {
      if (p.tipo === 'servico') expect(p.tipoMaterial).toBeNull();
      else expect(p.tipoMaterial).not.toBeNull();
    }
    expect(catalogo.filter((p) => p.grupo === 'servicos').every((p) => p.tipo === 'servico')).toBe(true);
  });

  it('descriptions read well: capitalised, no dangling commas', () => {
    expect(catalogo.find((p) => p.descricao.startsWith('Papel sulfite A4 75 g/m², branco'))?.unidade).toBe('RESMA');
    for (const p of catalogo) {
      expect(p.descricao).toMatch(/^[A-ZÁÉÍÓÚÂÊÔÃÕÇ]/);
      expect(p.descricao).not.toMatch(/,\s*$|\s,|\s{2}/);
      expect(p.descricao.length).toBeLessThanOrEqual(500);
    }
  });
});
