// The drizzle-orm server-core is built with, for plugins: `import { and, eq, sql } from '@app/server-core/orm'`.
// Importing drizzle through server-core keeps one copy of it in the app.
export * from 'drizzle-orm';
