import { z } from '@hono/zod-openapi';

/** `?q=&page=&pageSize=&sort=` of every list route (page from 1, pageSize up to 200). */
export const pageQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  sort: z
    .string()
    .regex(/^-?[A-Za-z_][A-Za-z0-9_]*$/, 'Ordenação inválida.')
    .optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `{ items, total, page, pageSize }` with `item` as the schema of each item. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };
