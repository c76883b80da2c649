// Fixtures of the produtos tests: the same registries (same codes and names, different ids) in each
// demo entidade, created with SQL so the tests control them (the server is @app/server-core/testing's).
import type { TestServer } from '@app/server-core/testing';

export interface Fixture {
  entidadeId: string;
  expediente: string;
  servicos: string;
  limpezaInativo: string;
  papelaria: string;
  manutencao: string;
  un: string;
  resma: string;
  sv: string;
  cxInativa: string;
  consumo: string;
  permanente: string;
}

export async function createRegistros(server: TestServer): Promise<{ prefeitura: Fixture; camara: Fixture }> {
  const fixture = async (entidade_id: string): Promise<Fixture> => {
    const expediente = await server.insert('registros_grupos', { entidade_id, codigo: '01', nome: 'Material de expediente' });
    const servicos = await server.insert('registros_grupos', { entidade_id, codigo: '02', nome: 'Serviços' });
    const limpezaInativo = await server.insert('registros_grupos', { entidade_id, codigo: '03', nome: 'Material de limpeza', ativo: false });
    return {
      entidadeId: entidade_id,
      expediente,
      servicos,
      limpezaInativo,
      papelaria: await server.insert('registros_subgrupos', { entidade_id, grupo_id: expediente, codigo: '01.01', nome: 'Papelaria' }),
      manutencao: await server.insert('registros_subgrupos', { entidade_id, grupo_id: servicos, codigo: '02.01', nome: 'Manutenção predial' }),
      un: await server.insert('registros_unidades', { entidade_id, sigla: 'UN', descricao: 'Unidade' }),
      resma: await server.insert('registros_unidades', { entidade_id, sigla: 'RESMA', descricao: 'Resma' }),
      sv: await server.insert('registros_unidades', { entidade_id, sigla: 'SV', descricao: 'Serviço' }),
      cxInativa: await server.insert('registros_unidades', { entidade_id, sigla: 'CX', descricao: 'Caixa', ativo: false }),
      consumo: await server.insert('registros_tipos_material', { entidade_id, nome: 'Consumo' }),
      permanente: await server.insert('registros_tipos_material', { entidade_id, nome: 'Permanente' }),
    };
  };
  const { prefeitura, camara } = await server.demoEntidades();
  return { camara: await fixture(camara), prefeitura: await fixture(prefeitura) };
}
