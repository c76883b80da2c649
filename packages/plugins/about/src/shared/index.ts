// @app/about/shared: what GET /api/about/versions answers.
import { z } from 'zod';

/** The About page is open to any signed-in user (exempt tag 0). */
export const ABOUT_TAG = 0;

export const pluginVersionSchema = z.object({
  id: z.string(),
  version: z.string(),
  /** Range of @app/server-core the plugin was built against. */
  core: z.string(),
  dependsOn: z.array(z.string()),
  tags: z.array(z.object({ tag: z.number().int(), nome: z.string() })),
});

export const versionsSchema = z.object({
  /** Version of @app/server-core running on the server. */
  core: z.string(),
  /** Every enabled server plugin, in dependency order. */
  plugins: z.array(pluginVersionSchema),
});

export type Versions = z.infer<typeof versionsSchema>;
