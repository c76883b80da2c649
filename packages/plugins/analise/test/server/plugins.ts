// The plugins whose tables the analysis reads, stood in by their migrations (this package reads them,
// it does not run them), and the analysis itself: the server of every API test of this package.
import { defineServerPlugin } from '@app/server-core';
import analise from '../../src/server/index.js';

const tabelasDe = (id: string, dependsOn: string[] = []) =>
  defineServerPlugin({
    id,
    version: '1.0.0',
    core: '^1.0.0',
    dependsOn,
    migrations: new URL(`../../../${id}/migrations/`, import.meta.url),
    tags: [],
    routes: () => undefined,
  });

export const plugins = [
  tabelasDe('registros'),
  tabelasDe('produtos', ['registros']),
  tabelasDe('fornecedores', ['registros']),
  tabelasDe('memorandos', ['registros', 'produtos']),
  tabelasDe('requisicoes', ['registros', 'produtos', 'memorandos']),
  tabelasDe('cotacoes', ['registros', 'produtos', 'fornecedores', 'requisicoes']),
  analise,
];
