import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_LABELS,
  auditActionLabel,
  auditEntrySummary,
  describeAuditChange,
  describeAuditItems,
  formatAuditValue,
  type HistoryEntry,
  humanizeField,
  RecordTimeline,
  recordHistoryKey,
  sortAuditChanges,
  Timeline,
} from '../src/index';
import { getCoreStore, tokenAtom } from '../src/store';
import { json, makeToken, mockApi } from './helpers';

// a flow's transitions, as @app/documents' defineFlow declares them
const transitions = {
  enviar: { label: 'Enviar', done: 'enviado' },
  devolver: { label: 'Devolver', done: 'devolvido' },
};
const states = { rascunho: { label: 'Rascunho' }, enviado: { label: 'Enviado' }, devolvido: { label: 'Devolvido' } };
const labels = {
  numero: 'Número',
  assunto: 'Assunto',
  status: 'Situação',
  urgente: 'Urgente',
  dataDesejada: 'Data desejada',
  itens: 'Itens',
  'itens.quantidade': 'Quantidade',
  valorUnitario: 'Valor unitário',
};

const entries: HistoryEntry[] = [
  {
    id: 30,
    at: '2026-03-10T17:45:00.000Z',
    usuario: { id: 'u2', nome: 'Joana Destino' },
    acao: 'devolver',
    motivo: 'Falta o orçamento.',
    duplicadoDe: null,
    mudancas: [{ campo: 'status', antes: 'enviado', depois: 'devolvido' }],
  },
  {
    id: 20,
    at: '2026-03-09T12:00:00.000Z',
    usuario: { id: 'u1', nome: 'Carla Compradora' },
    acao: 'alterar',
    motivo: null,
    duplicadoDe: null,
    mudancas: [
      {
        campo: 'itens',
        antes: 1,
        depois: 2,
        itens: {
          adicionados: ['000002 – Lápis preto'],
          removidos: [],
          alterados: [{ item: '000001 – Caneta azul', mudancas: [{ campo: 'quantidade', antes: '2.0000', depois: '1250.5000' }] }],
        },
      },
      { campo: 'urgente', antes: false, depois: true },
      { campo: 'assunto', antes: 'Papel', depois: 'Papel A4' },
      { campo: 'dataDesejada', antes: '2026-04-01', depois: null },
    ],
  },
  {
    id: 10,
    at: '2026-03-09T02:30:00.000Z',
    usuario: null,
    acao: 'criar',
    motivo: null,
    duplicadoDe: '12/2026',
    mudancas: [{ campo: 'assunto', antes: null, depois: 'Papel' }],
  },
];

describe('audit wording (pure)', () => {
  it('action labels: built-in, flow transitions in the past tense, caller strings, unknown codes readable', () => {
    expect(['criar', 'alterar', 'excluir', 'ativar', 'desativar', 'reativar'].map((a) => auditActionLabel(a))).toEqual([
      'Criação',
      'Alteração',
      'Exclusão',
      'Ativação',
      'Desativação',
      'Ativação', // the legacy code of @app/usuarios, one verb now
    ]);
    expect(Object.hasOwn(AUDIT_ACTION_LABELS, 'reativar')).toBe(false);
    expect(auditActionLabel('enviar', transitions)).toBe('Enviado');
    expect(auditActionLabel('aceitar', { aceitar: { label: 'Aceitar' } })).toBe('Aceitar');
    expect(auditActionLabel('alterar', { alterar: 'Edição' })).toBe('Edição');
    expect(auditActionLabel('pedir_revisao')).toBe('Pedir revisão');
    expect(auditActionLabel('incluir_preco')).toBe('Incluir preço');
    expect(auditActionLabel('toString')).toBe('To string'); // not Object.prototype's
    expect(AUDIT_ACTION_LABELS.criar).toBe('Criação');
    expect(auditEntrySummary({ acao: 'criar', duplicadoDe: '12/2026' })).toBe('Criação — duplicado a partir de 12/2026');
  });

  it('values: Sim/Não, dd/mm/aaaa, instants in São Paulo, exact pt-BR decimals, value labels, formats, lists', () => {
    expect(formatAuditValue(true, 'x')).toBe('Sim');
    expect(formatAuditValue(false, 'x')).toBe('Não');
    expect(formatAuditValue(null, 'x')).toBe('—');
    expect(formatAuditValue('', 'x')).toBe('—');
    // an id the server could not name is never shown raw
    expect(formatAuditValue('e8a8f673-1b2c-4d5e-8f90-123456789abc', 'memorandoId')).toBe('registro não encontrado');
    expect(formatAuditValue('2026-04-01', 'x')).toBe('01/04/2026');
    expect(formatAuditValue('2026-03-10T02:30:00.000Z', 'x')).toBe('09/03/2026 23:30');
    expect(formatAuditValue('1234567890123.4567', 'x')).toBe('1.234.567.890.123,4567');
    expect(formatAuditValue('0.10', 'x')).toBe('0,1');
    expect(formatAuditValue(2026, 'ano')).toBe('2026');
    expect(formatAuditValue(1.5, 'x')).toBe('1,5');
    expect(formatAuditValue('001.2', 'codigo')).toBe('001.2'); // a código, not a decimal
    expect(formatAuditValue('12.50', 'codigo', { formats: { codigo: 'text' } })).toBe('12.50');
    expect(formatAuditValue('2.5', 'valorUnitario', { formats: { valorUnitario: 'money' } })).toBe('R$ 2,50');
    expect(formatAuditValue('enviado', 'status', { values: { status: states } })).toBe('Enviado');
    expect(formatAuditValue('alta', 'prioridade', { values: { prioridade: { alta: 'Alta' } } })).toBe('Alta');
    expect(formatAuditValue(['a', 'b'], 'x')).toBe('a, b');
    expect(formatAuditValue({ de: '2026-01-02', usuario: 'ana' }, 'filtros')).toBe('De: 02/01/2026; Usuário: ana');
  });

  it("one line per change with the caller's labels, never a key when a label exists", () => {
    expect(describeAuditChange({ campo: 'status', antes: 'enviado', depois: 'devolvido' }, { labels, values: { status: states } })).toBe(
      'Situação: Enviado → Devolvido',
    );
    expect(describeAuditChange({ campo: 'assunto', antes: null, depois: 'Papel' }, { labels, acao: 'criar' })).toBe('Assunto: Papel');
    expect(describeAuditChange({ campo: 'assunto', antes: 'Papel', depois: null }, { labels, acao: 'excluir' })).toBe('Assunto: Papel');
    expect(describeAuditChange({ campo: 'assunto', antes: null, depois: 'Papel' }, { labels })).toBe('Assunto: — → Papel');
    // no label given: the key made readable
    expect(describeAuditChange({ campo: 'valorUnitario', antes: '1.5', depois: '2' })).toBe('Valor unitário: 1,5 → 2');
    expect(humanizeField('subGrupoId')).toBe('Sub grupo');
    expect(humanizeField('descricao')).toBe('Descrição');
    expect(humanizeField('cpfResponsavel')).toBe('CPF responsável');
    // initials of the procurement law in capitals, never 'dfd'
    expect(auditActionLabel('incluir_item_sem_dfd')).toBe('Incluir item sem DFD');
    expect(humanizeField('dataLoa')).toBe('Data LOA');
    const itens = entries[1]!.mudancas[0]!;
    expect(describeAuditChange(itens, { labels })).toBe('Itens: 1 → 2');
    expect(describeAuditChange(itens, { labels, acao: 'criar' })).toBe('Itens: 2');
    expect(describeAuditItems(itens, { labels })).toEqual(['Incluído: 000002 – Lápis preto', '000001 – Caneta azul — Quantidade: 2 → 1.250,5']);
    expect(describeAuditItems({ campo: 'itens', antes: 3, depois: 1, itens: { adicionados: [], removidos: ['A', 'B'], alterados: [] } })).toEqual([
      'Removidos: A, B',
    ]);
    expect(sortAuditChanges(entries[1]!.mudancas, labels).map((c) => c.campo)).toEqual(['assunto', 'urgente', 'dataDesejada', 'itens']);
  });

  it("the server's label of a field wins (the Logs de Auditoria); an item the server could not name is never shown by its id", () => {
    expect(describeAuditChange({ campo: 'metodo', rotulo: 'Método de cálculo', antes: 'Média', depois: 'Mediana' }, { labels })).toBe(
      'Método de cálculo: Média → Mediana',
    );
    expect(humanizeField('metodo')).toBe('Método');
    const id = '9c131b6a-c50a-4259-b4ea-e521a83fd886';
    const itens = { adicionados: [id, 'Caneta'], removidos: [id], alterados: [{ item: id, mudancas: [{ campo: 'quantidade', antes: '1', depois: '2' }] }] };
    expect(describeAuditItems({ campo: 'itens', antes: 1, depois: 2, itens })).toEqual([
      'Incluídos: registro não encontrado, Caneta',
      'Removido: registro não encontrado',
      'registro não encontrado — Quantidade: 1 → 2',
    ]);
  });
});

describe('<Timeline>', () => {
  it('an ordered list, newest first: when (São Paulo), who, what, reason and labelled changes', () => {
    render(<Timeline entries={entries} labels={labels} actions={transitions} values={{ status: states }} />);
    const list = screen.getByRole('list', { name: 'Histórico' });
    expect(list.tagName).toBe('OL');
    expect(list.hasAttribute('reversed')).toBe(true);
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(items).toHaveLength(3);

    const [devolvido, alterado, criado] = items as [HTMLElement, HTMLElement, HTMLElement];
    const time = devolvido.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2026-03-10T17:45:00.000Z');
    expect(time.textContent).toBe('10/03/2026 14:45');
    expect(devolvido.querySelector('p')!.textContent).toBe('10/03/2026 14:45 · Joana Destino · Devolvido');
    expect(within(devolvido).getByText('Motivo: Falta o orçamento.')).toBeTruthy();
    expect(within(devolvido).getByRole('list', { name: 'Alterações de 10/03/2026 14:45' }).textContent).toBe('Situação: Enviado → Devolvido');

    const changes = within(alterado).getByRole('list', { name: /^Alterações/ });
    const lines = within(changes)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === changes)
      .map((li) => li.firstChild?.textContent);
    expect(lines).toEqual(['Assunto: Papel → Papel A4', 'Urgente: Não → Sim', 'Data desejada: 01/04/2026 → —', 'Itens: 1 → 2']);
    expect(alterado.textContent).toContain('Incluído: 000002 – Lápis preto');
    expect(alterado.textContent).toContain('000001 – Caneta azul — Quantidade: 2 → 1.250,5');
    expect(alterado.textContent).not.toMatch(/dataDesejada|quantidade|urgente/);

    expect(criado.querySelector('p')!.textContent).toBe('08/03/2026 23:30 · Sistema · Criação — duplicado a partir de 12/2026');
    expect(within(criado).getByRole('list').textContent).toBe('Assunto: Papel');
  });

  it('says when there is nothing', () => {
    render(<Timeline entries={[]} />);
    expect(screen.getByText('Nenhum registro no histórico.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('<RecordTimeline> / useRecordHistory', () => {
  const wrap = (ui: React.ReactNode) => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
    return { client, ...render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>) };
  };

  it('fetches GET <endpoint>/:id/historico with the bearer token and renders it', async () => {
    getCoreStore().set(tokenAtom, makeToken());
    const { calls } = mockApi({
      'GET /api/memorandos/memorandos/m%201/historico': () => json({ items: entries.slice(0, 1), truncated: true }),
    });
    const { client } = wrap(<RecordTimeline endpoint="/memorandos/memorandos" id="m 1" labels={labels} actions={transitions} />);
    expect(screen.getByRole('status').textContent).toContain('Carregando o histórico…');
    const list = await screen.findByRole('list', { name: 'Histórico' });
    expect(list.textContent).toContain('Devolvido');
    expect(calls[0]!.headers.get('authorization')).toMatch(/^Bearer /);
    expect(screen.getByText('Mostrando os 1 registros mais recentes.')).toBeTruthy();
    // under the resource's key: invalidating the resource refreshes the timeline
    expect(recordHistoryKey('/memorandos/memorandos', 'm 1').slice(0, 2)).toEqual(['resource', '/memorandos/memorandos']);
    await client.invalidateQueries({ queryKey: ['resource', '/memorandos/memorandos'] });
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('shows the API error with a retry, and nothing without an id', async () => {
    getCoreStore().set(tokenAtom, makeToken());
    const { calls } = mockApi({
      'GET /api/docs/x/historico': () => json({ error: { code: 'not_found', message: 'Documento não encontrado.' } }, 404),
    });
    wrap(<RecordTimeline endpoint="docs" id="x" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Não foi possível carregar o histórico');
    expect(alert.textContent).toContain('Documento não encontrado.');
    expect(within(alert).getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
    const before = calls.length;
    const { container } = wrap(<RecordTimeline endpoint="docs" id={undefined} />);
    expect(container.textContent).toBe('');
    expect(calls).toHaveLength(before);
  });
});
