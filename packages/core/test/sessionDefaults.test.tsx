// `defaults` as a function of the session: a New form starts with the user's own values (the
// origin centro de custo of a document), and a record loaded in the Edit form is not affected.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import FormPage from '../src/resource/FormPage';
import { formValuesOf } from '../src/resource/form/values';
import type { ResourceConfig, SchemaLike } from '../src/resource/types';
import { getCoreStore } from '../src/store';
import { makeTestSession, signInForTest } from '../src/test-kit';
import { resetCoreState } from '../src/testing';

const schema: SchemaLike = { safeParse: (value) => ({ success: true, data: value }) };

const config: ResourceConfig = {
  endpoint: '/teste/documentos',
  title: 'Documentos',
  newTitle: 'Novo documento',
  editTitle: 'Editar documento',
  columns: [{ key: 'origem', header: 'Origem' }],
  schema,
  fields: [{ name: 'origem', type: 'text', label: 'Origem' }],
  defaults: (session) => ({ origem: session?.centrosCusto?.[0] ?? '' }),
};

afterEach(() => {
  localStorage.clear();
  resetCoreState();
});

describe('defaults of the session', () => {
  it('the New form starts with the value the function gives for the signed-in user', async () => {
    signInForTest(makeTestSession({ centrosCusto: ['centro-da-rita', 'outro'] }));
    window.history.replaceState(null, '', '/doc/new');
    // the app's store, as App provides it
    render(
      <Provider store={getCoreStore()}>
        <QueryClientProvider client={new QueryClient()}>
          <Router base="/doc">
            <Route path="/new">
              <FormPage config={config} mode="new" />
            </Route>
          </Router>
        </QueryClientProvider>
      </Provider>,
    );
    expect(((await screen.findByLabelText('Origem')) as HTMLInputElement).value).toBe('centro-da-rita');
  });

  it('a record keeps its own values; without a session the function still answers', () => {
    expect(formValuesOf(config, { origem: 'do registro' }, makeTestSession({ centrosCusto: ['x'] })).origem).toBe('do registro');
    expect(formValuesOf(config, undefined, null).origem).toBe('');
  });
});
