// The server plugins enabled in this app (the web app lists the same plugins in apps/web/src/plugins.ts).
import about from '@app/about/server';
import dashboard from '@app/dashboard/server';
import usuarios from '@app/usuarios/server';
import auditoria from '@app/auditoria/server';
import registros from '@app/registros/server';
import produtos from '@app/produtos/server';
import fornecedores from '@app/fornecedores/server';
import memorandos from '@app/memorandos/server';
import requisicoes from '@app/requisicoes/server';
import cotacoes from '@app/cotacoes/server';
import pca from '@app/pca/server';
import pncp from '@app/pncp/server';
import analise from '@app/analise/server';
import relatorios from '@app/relatorios/server';
import type { ServerPlugin } from '@app/server-core';

export const serverPlugins: readonly ServerPlugin[] = [
  dashboard,
  usuarios,
  auditoria,
  registros,
  produtos,
  fornecedores,
  memorandos,
  requisicoes,
  cotacoes,
  pca,
  pncp,
  analise,
  relatorios,
  about,
];
