// Fixtures of the fornecedores tests: ramos de atividade in each demo entidade, created with SQL so
// the tests control them (the server itself is @app/server-core/testing's).
import type { TestServer } from '@app/server-core/testing';

export interface Fixture {
  entidadeId: string;
  papelaria: string;
  informatica: string;
  limpeza: string;
  inativo: string;
}

export async function createRamos(server: TestServer): Promise<{ prefeitura: Fixture; camara: Fixture }> {
  const ramo = (entidade_id: string, nome: string, cnae: string, ativo = true) =>
    server.insert('registros_ramos_atividade', { entidade_id, nome, cnae, ativo });
  const fixture = async (entidadeId: string): Promise<Fixture> => ({
    entidadeId,
    papelaria: await ramo(entidadeId, 'Comércio varejista de artigos de papelaria', '4761003'),
    informatica: await ramo(entidadeId, 'Comércio atacadista de equipamentos de informática', '4651601'),
    limpeza: await ramo(entidadeId, 'Limpeza em prédios e em domicílios', '8121400'),
    inativo: await ramo(entidadeId, 'Comércio varejista de combustíveis', '4731800', false),
  });
  const { prefeitura, camara } = await server.demoEntidades();
  return { camara: await fixture(camara), prefeitura: await fixture(prefeitura) };
}
