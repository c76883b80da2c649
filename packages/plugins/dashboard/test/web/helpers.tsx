// Page tests render against core's test kit (@app/core/testing): no server, fetch mocked.
export { makeTestSession as makeSession, mockApi, signInForTest as signedIn } from '@app/core/testing';
