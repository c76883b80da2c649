// @app/pncp-fake: a fake of the PNCP API for tests (not published).
export { startFakePncp } from './fake';
export type * from './types';
