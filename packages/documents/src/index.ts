export * from './decimal';
export * from './flow';
export * from './numbering';
export * from './schemas';
