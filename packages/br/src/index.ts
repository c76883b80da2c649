export * from './busca';
export * from './dates';
export * from './documents';
export * from './mask';
export * from './schemas';
export * from './time';
