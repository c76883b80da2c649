# @app/__ID__

__TITLE__: a Compras document plugin (web and server halves, one version). Scaffolded by
`pnpm new:plugin __ID__ --document`; the maintainer's guide is `docs/plugins.md` at the root of the repository.

| | |
|---|---|
| menu / URL | '__TITLE__' (group Documentos), `__BASE_PATH__`: list, `__BASE_PATH__/new`, `__BASE_PATH__/edit/:id`, `__BASE_PATH__/duplicar/:id` |
| tag | __TAG__ (declared by the server half: grantable in a perfil; the demo Administrador holds it) |
| API | `/api/__ID____BASE_PATH__` (defineDocumentResource: list, read, create, update, the flow's transitions, duplicar, historico, CSV/XLSX, `{id}.pdf`) |
| flow | rascunho → enviado → aceito (or devolvido → enviado); cancelado with a reason (`fluxo` in `src/shared/index.ts`) |
| tables | `__TABLE__` and `__TABLE___itens` (`migrations/0001___TABLE__.sql`, mirrored in `src/server/tables.ts`) |

```sh
pnpm --filter @app/__ID__ lint
pnpm --filter @app/__ID__ typecheck
pnpm --filter @app/__ID__ test      # TEST_DATABASE_URL=postgres://… also runs the API tests on PostgreSQL
```
