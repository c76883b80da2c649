export * from './documents';
export * from './schemas';
