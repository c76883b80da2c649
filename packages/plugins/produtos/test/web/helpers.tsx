// Page tests render against core's test kit (@app/core/testing): no server, fetch mocked.
import type { Session } from '@app/core';
import { type ApiHandler, makeTestSession, mockApi as mockCoreApi } from '@app/core/testing';

export { pageOf as page, signInForTest as signedIn } from '@app/core/testing';

/** A user of the catalogue: tags 24 (registros), 25 (produtos) and 26 (fornecedores). */
export const makeSession = (overrides: Partial<Session> = {}): Session => makeTestSession({ tags: [24, 25, 26], ...overrides });

/** Mocked API; returns the recorded calls. */
export const mockApi = (routes: Record<string, ApiHandler>) => mockCoreApi(routes).calls;
