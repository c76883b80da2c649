// @app/pncp-fake: a fake of the PNCP API for tests (not published).
export { startFakePncp } from './fake';
export type {
  FakeCall,
  FakeContratacao,
  FakeContratacaoItem,
  FakeFault,
  FakeFaultKind,
  FakePlan,
  FakePlanItem,
  FakePncp,
  FakePncpOptions,
  FakeResultado,
  FakeRoute,
} from './types';
