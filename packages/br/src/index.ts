export * from './busca';
export * from './dates';
export * from './documents';
export * from './schemas';
