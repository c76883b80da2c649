// `noDelete`: the form of a record that is never deleted has no 'Excluir' (a document that is
// cancelled instead, keeping its number); without it, an editable record has one.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import FormPage from '../src/resource/FormPage';
import type { ResourceConfig, SchemaLike } from '../src/resource/types';
import { json, mockApi } from './helpers';

const schema: SchemaLike = { safeParse: (value) => ({ success: true, data: value }) };

const config = (noDelete: boolean): ResourceConfig => ({
  endpoint: '/teste/registros',
  title: 'Registros',
  newTitle: 'Novo registro',
  editTitle: 'Editar registro',
  columns: [{ key: 'nome', header: 'Nome' }],
  schema,
  fields: [{ name: 'nome', type: 'text', label: 'Nome', required: true }],
  ativo: false,
  noDelete,
});

async function editPage(noDelete: boolean) {
  mockApi({ 'GET /api/teste/registros/r1': () => json({ id: 'r1', nome: 'Primeiro', version: 1 }) });
  window.history.replaceState(null, '', '/registro/edit/r1');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <Router base="/registro">
        <Route path="/edit/:id">
          <FormPage config={config(noDelete)} mode="edit" />
        </Route>
      </Router>
    </QueryClientProvider>,
  );
  await screen.findByDisplayValue('Primeiro');
  return view;
}

describe('noDelete', () => {
  it("hides 'Excluir' and keeps 'Salvar'", async () => {
    const view = await editPage(true);
    expect(screen.getByRole('button', { name: 'Salvar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    view.unmount();
  });
  it("shows 'Excluir' without it", async () => {
    const view = await editPage(false);
    expect(screen.getByRole('button', { name: 'Excluir' })).toBeTruthy();
    view.unmount();
  });
});
