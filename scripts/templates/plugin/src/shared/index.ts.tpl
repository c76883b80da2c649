// @app/__ID__, isomorphic half: the tag, the API path, the zod schema (the same pt-BR messages in the
// form and in the API) and the list/export columns. Used by the web and the server halves.
import { z } from 'zod';

/** Permission tag of the section (spec §6): the server declares it, so a perfil can grant it. */
export const __CONST___TAG = __TAG__;

/** Name of the tag in the perfil checklist. */
export const __CONST___TAG_NOME = __TITLE_TS__;

/** The resource's path under /api/__ID__ (the list is GET /api/__ID____BASE_PATH__). */
export const __CONST___PATH = '__BASE_PATH__';

/** Titles of the pages (no imports: read by the cheap manifest and by the lazy pages). */
export const __CONST___TITLES = {
  title: __TITLE_TS__,
  newTitle: 'Novo registro',
  editTitle: 'Editar registro',
} as const;

/** What the form sends and the API validates (POST and PUT). */
export const __CAMEL__Schema = z.object({
  nome: z
    .string({ error: 'Informe o nome.' })
    .trim()
    .min(1, 'Informe o nome.')
    .max(120, 'Use no máximo 120 caracteres.'),
  descricao: z
    .string()
    .trim()
    .max(500, 'Use no máximo 500 caracteres.')
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** Columns of the list and of the CSV/XLSX export (both kits accept this shape). */
export const __CAMEL__Columns: { key: string; header: string }[] = [
  { key: 'nome', header: 'Nome' },
  { key: 'descricao', header: 'Descrição' },
];
