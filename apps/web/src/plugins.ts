// THE list of enabled plugins: one default import per line, then the array (scripts/bench.mjs
// parses this file to measure what each plugin adds to the first page). Order = menu and About order.
import about from '@app/about';
import dashboard from '@app/dashboard';
import usuarios from '@app/usuarios';
import auditoria from '@app/auditoria';
import registros from '@app/registros';
import produtos from '@app/produtos';
import fornecedores from '@app/fornecedores';
import memorandos from '@app/memorandos';
import requisicoes from '@app/requisicoes';
import cotacoes from '@app/cotacoes';
import pca from '@app/pca';
import pncp from '@app/pncp';
import analise from '@app/analise';
import relatorios from '@app/relatorios';
import type { PluginManifest } from '@app/core';

export const plugins: PluginManifest[] = [
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
