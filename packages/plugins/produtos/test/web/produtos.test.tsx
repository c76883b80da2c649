// @vitest-environment jsdom
import { makeTestSession, mockApi, pageOf, renderPlugin } from '@app/core/testing';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import produtos from '../../src/web/index';

const T = { timeout: 5000 };

/** Opens the page as a user of the catalogue: tags 24 (registros), 25 (produtos) and 26 (fornecedores). */
const start = (path: string) => renderPlugin(produtos, { path, session: makeTestSession({ tags: [24, 25, 26] }) });

const produto = {
  id: '00000000-0000-4000-8000-000000000001',
  codigo: '000001',
  descricao: 'Papel sulfite A4 75 g/m², branco, resma 500 folhas',
  tipo: 'material',
  grupoId: 'g1',
  grupoNome: 'Material de Expediente',
  subGrupoId: null,
  unidadeId: 'u1',
  unidadeSigla: 'RESMA',
  tipoMaterialId: null,
  codigoCatalogo: '461800',
  especificacao: null,
  ativo: true,
  version: 1,
};

describe('@app/produtos manifest', () => {
  it("'Produtos e Serviços' at /produtos with tag 25 in 'Cadastros'; lazy pages only", () => {
    expect(produtos).toMatchObject({ id: 'produtos', basePath: '/produtos', tag: 25, title: 'Produtos e Serviços', packageName: '@app/produtos' });
    expect(produtos.menu).toMatchObject({ label: 'Produtos e Serviços', group: 'Cadastros' });
    expect(produtos.routes.map((r) => [r.path, r.title])).toEqual([
      ['/', 'Produtos e Serviços'],
      ['/new', 'Novo produto ou serviço'],
      ['/edit/:id', 'Editar produto ou serviço'],
      ['/importar', 'Importar produtos e serviços'],
    ]);
    expect(readFileSync('src/web/index.ts', 'utf8')).not.toMatch(/^import .*pages/m);
  });
});

describe('list', () => {
  it("lists products with the kit and links to 'Importar planilha'", async () => {
    const { calls } = mockApi({ 'GET /api/produtos/produtos': () => Response.json(pageOf([produto])) });
    start('/produtos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Produtos e Serviços' }, T)).toBeTruthy();
    expect(await screen.findByText('Papel sulfite A4 75 g/m², branco, resma 500 folhas', {}, T)).toBeTruthy();
    expect(screen.getByText('Material de Expediente')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Importar planilha' }).getAttribute('href')).toBe('/produtos/importar');
    expect(calls.find((c) => c.path === '/api/produtos/produtos')?.search.get('ativo')).toBe('true');
  });
});

describe('import page', () => {
  it("'Validar arquivo' shows the errors table; 'Importar' is enabled only for a clean file and imports it", async () => {
    let clean = false;
    const { calls } = mockApi({
      'POST /api/produtos/produtos/importar': (call) => {
        const dryRun = call.search.get('dryRun') === 'true';
        if (!clean) {
          return Response.json({
            ok: false,
            dryRun,
            total: 3,
            imported: 0,
            errorCount: 2,
            errors: [
              { linha: 3, coluna: 'Unidade', motivo: "Unidade 'LITRO' não encontrada em Registros (informe a sigla ou a descrição)." },
              { linha: 4, coluna: 'Descrição', motivo: 'Já existe um produto com esta descrição.' },
            ],
          });
        }
        return Response.json({ ok: true, dryRun, total: 3, imported: dryRun ? 0 : 3, errorCount: 0, errors: [] });
      },
      'GET /api/produtos/produtos': () => Response.json(pageOf([produto])),
    });
    start('/produtos/importar');
    expect(await screen.findByRole('heading', { level: 1, name: 'Importar produtos e serviços' }, T)).toBeTruthy();
    const validar = screen.getByRole('button', { name: 'Validar arquivo' }) as HTMLButtonElement;
    const importar = screen.getByRole('button', { name: 'Importar' }) as HTMLButtonElement;
    expect(validar.disabled).toBe(true);
    expect(importar.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Baixar modelo' })).toBeTruthy();

    const input = screen.getByLabelText('Arquivo da planilha (.xlsx ou .csv)') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['Descrição;Tipo\n'], 'produtos.csv', { type: 'text/csv' })] } });
    fireEvent.click(validar);
    const table = await screen.findByRole('table', { name: 'Erros encontrados na planilha' }, T);
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Linha', 'Coluna', 'Motivo'],
      ['3', 'Unidade', "Unidade 'LITRO' não encontrada em Registros (informe a sigla ou a descrição)."],
      ['4', 'Descrição', 'Já existe um produto com esta descrição.'],
    ]);
    expect(screen.getByText('2 problemas encontrados no arquivo')).toBeTruthy();
    expect(importar.disabled).toBe(true);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.search.get('dryRun'))).toEqual(['true']);

    // a corrected file: choose it again, validate, then import
    clean = true;
    fireEvent.change(input, { target: { files: [new File(['Descrição;Tipo\n'], 'produtos-corrigido.csv', { type: 'text/csv' })] } });
    expect(screen.queryByRole('table', { name: 'Erros encontrados na planilha' })).toBeNull();
    fireEvent.click(validar);
    expect(await screen.findByText('Arquivo válido', {}, T)).toBeTruthy();
    await waitFor(() => expect(importar.disabled).toBe(false));
    fireEvent.click(importar);
    await waitFor(() => expect(window.location.pathname).toBe('/produtos'), T);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.search.get('dryRun'))).toEqual(['true', 'true', 'false']);
    expect(await screen.findByText('3 produtos importados.', {}, T)).toBeTruthy();
  });
});
