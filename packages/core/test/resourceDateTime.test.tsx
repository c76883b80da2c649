// The resource kit's 'datetime' field: an instant typed on São Paulo's clock in a native
// date-and-time input, sent as an ISO date-time in UTC, shown back on São Paulo's clock.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import FormPage, { fromFormValue, toFormValue } from '../src/resource/FormPage';
import { registerFieldType } from '../src/resource/form/registry';
import type { FieldDescriptor, ResourceConfig, SchemaIssue, SchemaLike } from '../src/resource/types';
import { json, mockApi } from './helpers';

type Row = Record<string, unknown>;

const prazo: FieldDescriptor = { name: 'prazo', type: 'datetime', label: 'Prazo de resposta', hint: 'Data e hora.' };

function schemaOf(check: (body: Row) => SchemaIssue[]): SchemaLike & { seen: Row[] } {
  const seen: Row[] = [];
  return {
    seen,
    safeParse(value) {
      seen.push(value as Row);
      const issues = check(value as Row);
      return issues.length ? { success: false, error: { issues } } : { success: true, data: value };
    },
  };
}

const configOf = (schema: SchemaLike): ResourceConfig => ({
  endpoint: '/teste/cotacoes',
  title: 'Cotações',
  newTitle: 'Nova cotação',
  editTitle: 'Editar cotação',
  columns: [{ key: 'objeto', header: 'Objeto' }],
  schema,
  fields: [{ name: 'objeto', type: 'text', label: 'Objeto' }, prazo],
});

function renderForm(config: ResourceConfig, path: string) {
  window.history.replaceState(null, '', path);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <Router base="/cotacao">
        <Switch>
          <Route path="/new">
            <FormPage config={config} mode="new" />
          </Route>
          <Route path="/edit/:id">
            <FormPage config={config} mode="edit" />
          </Route>
        </Switch>
      </Router>
    </QueryClientProvider>,
  );
}

describe("'datetime' field", () => {
  it('the API instant is shown on São Paulo’s clock; empty is ""', () => {
    expect(toFormValue(prazo, '2026-03-10T20:00:00.000Z')).toBe('2026-03-10T17:00');
    expect(toFormValue(prazo, '2026-03-10T20:00:00+00:00')).toBe('2026-03-10T17:00');
    // past midnight in UTC is still the day before in São Paulo
    expect(toFormValue(prazo, '2026-03-11T02:30:00.000Z')).toBe('2026-03-10T23:30');
    // a value already in the input's form (a default) stays
    expect(toFormValue(prazo, '2026-03-10T17:00')).toBe('2026-03-10T17:00');
    expect(toFormValue(prazo, null)).toBe('');
    expect(toFormValue(prazo, undefined)).toBe('');
  });

  it('what is typed is sent as the ISO instant in UTC; empty is null; what is not a date and time goes as typed', () => {
    expect(fromFormValue(prazo, '2026-03-10T17:00')).toBe('2026-03-10T20:00:00.000Z');
    expect(fromFormValue(prazo, '2026-03-10T23:30')).toBe('2026-03-11T02:30:00.000Z');
    expect(fromFormValue(prazo, '2026-03-10T17:00:45')).toBe('2026-03-10T20:00:45.000Z');
    // São Paulo kept summer time (UTC-2) until 2019: the offset of that moment is used
    expect(fromFormValue(prazo, '2018-12-01T12:00')).toBe('2018-12-01T14:00:00.000Z');
    expect(fromFormValue(prazo, '')).toBeNull();
    expect(fromFormValue(prazo, '   ')).toBeNull();
    expect(fromFormValue(prazo, '2026-02-31T10:00')).toBe('2026-02-31T10:00');
    expect(fromFormValue(prazo, '10/03/2026 17:00')).toBe('10/03/2026 17:00');
    // round trip
    expect(fromFormValue(prazo, toFormValue(prazo, '2026-07-01T12:34:00.000Z'))).toBe('2026-07-01T12:34:00.000Z');
  });

  it('is a built-in type: a plugin cannot register another under its name', () => {
    expect(() => registerFieldType('datetime', { render: () => null })).toThrow(/built-in/);
  });

  it('renders a labelled date-and-time input; the body validated and sent carries the ISO instant', async () => {
    let sent: Row | undefined;
    mockApi({
      'POST /api/teste/cotacoes': async (req) => {
        sent = (await req.json()) as Row;
        return json({ id: 'c1', version: 1, ...sent }, 201);
      },
      'GET /api/teste/cotacoes/c1': () => json({ id: 'c1', version: 1, objeto: 'Papel', prazo: '2026-03-10T20:00:00.000Z' }),
    });
    const schema = schemaOf((b) => (b.prazo === null ? [{ path: ['prazo'], message: 'Informe o prazo de resposta.' }] : []));
    renderForm(configOf(schema), '/cotacao/new');
    const field = (await screen.findByLabelText('Prazo de resposta')) as HTMLInputElement;
    expect(field.type).toBe('datetime-local');
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-dica`);
    fireEvent.change(screen.getByLabelText('Objeto'), { target: { value: 'Papel' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(screen.getByText('Informe o prazo de resposta.')).toBeTruthy();
    expect(sent).toBeUndefined();

    fireEvent.change(field, { target: { value: '2026-03-10T17:00' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    await waitFor(() => expect(sent).toEqual({ objeto: 'Papel', prazo: '2026-03-10T20:00:00.000Z' }));
    expect(schema.seen.at(-1)).toEqual({ objeto: 'Papel', prazo: '2026-03-10T20:00:00.000Z' });
  });

  it('edit: the saved instant is in the input on São Paulo’s clock and an unchanged form is not dirty', async () => {
    mockApi({ 'GET /api/teste/cotacoes/c1': () => json({ id: 'c1', version: 1, objeto: 'Papel', prazo: '2026-03-10T20:00:00.000Z' }) });
    renderForm(configOf(schemaOf(() => [])), '/cotacao/edit/c1');
    const field = (await screen.findByLabelText('Prazo de resposta')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('2026-03-10T17:00'));
    expect(window.history.state?.comprasGuard).toBeUndefined();
  });
});
