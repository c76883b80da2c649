// The person the usuarios pages are tested as (the harness itself is @app/core/testing's).
import type { Session } from '@app/core';
import { makeTestSession } from '@app/core/testing';

/** The demo administrator in the Prefeitura (entidade 'e1'), holding tag 3. */
export function makeSession(overrides: Partial<Session> = {}): Session {
  return makeTestSession({
    user: { id: 'u-admin', nome: 'Administrador do Sistema', login: 'admin', email: 'admin@exemplo.gov.br' },
    entidade: { id: 'e1', nome: 'Prefeitura Municipal de Exemplo', cnpj: '1', municipio: 'Jundiaí', uf: 'SP', telefoneSuporte: '' },
    entidades: [{ id: 'e1', nome: 'Prefeitura Municipal de Exemplo' }],
    tags: [3],
    ...overrides,
  });
}
