import { describe, expect, it } from 'vitest';
import { contagemDeAcao } from '../../src/server/index';

describe('audit actions on the summary', () => {
  it('agree in number with their count, and never show a raw code', () => {
    expect(contagemDeAcao(1, 'trocar_entidade')).toBe('1 troca de entidade');
    expect(contagemDeAcao(2, 'trocar_entidade')).toBe('2 trocas de entidade');
    expect(contagemDeAcao(1, 'dados_demonstracao')).toBe('1 carga de dados de demonstração');
    expect(contagemDeAcao(3, 'caixa_saida_consultada')).toBe('3 consultas à caixa de saída');
    expect(contagemDeAcao(1200, 'criar')).toBe('1.200 inclusões');
    expect(contagemDeAcao(2, 'pedir_revisao')).toBe('Pedir revisao: 2');
  });
});
