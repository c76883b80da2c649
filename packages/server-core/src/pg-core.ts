// drizzle's PostgreSQL table builders, for plugins: `import { pgTable, text, uuid } from '@app/server-core/pg-core'`.
export * from 'drizzle-orm/pg-core';
export { generatedByMigration } from './platform/db/generated.js';
