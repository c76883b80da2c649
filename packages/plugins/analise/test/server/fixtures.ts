// The hand-computed fixtures of the API tests, shared with the reports' test (the same rows, the same
// figures). Written with SQL so each approval and each price has a chosen instant (America/Sao_Paulo, UTC−3).
import type { TestServer } from '@app/server-core/testing';

export type Pessoa = { token: string; id: string };
export interface Fixture {
  /** Ids of the rows by name (fx.edu, fx.papel, fx.r1…). */
  fx: Record<string, string>;
  /** The demo admin's token (every centro). */
  admin: string;
  /** Tag 106, only the Secretaria de Educação. */
  edu: Pessoa;
  /** Tag 39 (requisições), every centro, no 106. */
  semTag: string;
}

/** The demo Prefeitura and its admin (signed in there). */
async function prefeitura(server: TestServer) {
  const ent = (await server.demoEntidades()).prefeitura;
  const adminId = (await server.sql<{ id: string }>("SELECT id FROM usuarios WHERE login = 'admin'"))[0]!.id;
  const admin = (await server.signIn(undefined, undefined, ent)).token;
  return { ent, adminId, admin };
}

/**
 * Consumption (GET /api/analise/consumo): three centros (02 Educação, 03 Saúde, 04 Obras), núcleos Social
 * (Educação, Saúde) and Escolar (Educação), grupos GA (subgrupo Papelaria) and GB, and the approved requisições
 * R1–R5 of January to April 2026 plus three outside the period or not approved (see consumo.test.ts).
 * `tags`: more tags for edu and semtag (the reports' test gives them /reports' 105).
 */
export async function fixtureConsumo(server: TestServer, tags: number[] = []): Promise<Fixture> {
  const { ent, adminId, admin } = await prefeitura(server);
  const fx: Record<string, string> = { ent, adminId };
  const ins = (table: string, values: Record<string, unknown>) => server.insert(table, { entidade_id: ent, ...values });
  fx.edu = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
  fx.sau = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
  fx.obr = await ins('registros_centros_custo', { codigo: '04', nome: 'Secretaria de Obras' });
  fx.social = await ins('registros_nucleos_consumo', { nome: 'Núcleo Social' });
  fx.escolar = await ins('registros_nucleos_consumo', { nome: 'Núcleo Escolar' });
  for (const [nucleo, centro] of [
    [fx.social, fx.edu],
    [fx.social, fx.sau],
    [fx.escolar, fx.edu],
  ]) {
    await server.sql('INSERT INTO registros_nucleo_centros (nucleo_id, centro_id, entidade_id) VALUES ($1, $2, $3)', [nucleo, centro, ent]);
  }
  fx.tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
  fx.ga = await ins('registros_grupos', { codigo: 'GA', nome: 'Material de expediente' });
  fx.gb = await ins('registros_grupos', { codigo: 'GB', nome: 'Material de limpeza' });
  fx.papelaria = await ins('registros_subgrupos', { grupo_id: fx.ga, codigo: 'GA1', nome: 'Papelaria' });
  const un = await ins('registros_unidades', { sigla: 'UN', descricao: 'Unidade' });
  const produto = (codigo: string, descricao: string, grupo: string, sub?: string) =>
    ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: grupo, sub_grupo_id: sub ?? null, unidade_id: un });
  fx.papel = await produto('000001', 'Papel sulfite A4', fx.ga, fx.papelaria);
  fx.caneta = await produto('000002', 'Caneta esferográfica azul', fx.ga);
  fx.detergente = await produto('000003', 'Detergente neutro', fx.gb);

  const edu = await server.createUser({ login: 'edu', tags: [106, ...tags], centros: [fx.edu] });
  const semTag = (await server.createUser({ login: 'semtag', tags: [39, ...tags], todosCentros: true })).token;

  let numero = 0;
  /**
   * An approved requisição of `centro` with `itens` [produto, quantidade, valor], approved at `aprovacoes` ('AAAA-MM-DD HH:MI'
   * local) by round; `aprovada_em` as @app/requisicoes keeps it: the last approval of the last round (NULL when not approved).
   */
  const requisicao = async (centro: string, itens: [string, string, string][], aprovacoes: string[][], status = 'aprovada') => {
    const ultima = aprovacoes.at(-1)?.at(-1);
    const id = await ins('requisicoes', {
      numero: ++numero,
      ano: 2026,
      data: '2026-01-02',
      status,
      aprovada_em: status === 'aprovada' && ultima ? `${ultima}:00-03` : null,
      centro_custo_id: centro,
      tipo_solicitacao_id: fx.tipo,
      categoria: 'compras',
      justificativa: 'Consumo das secretarias no ano.',
      solicitante_id: edu.id,
      solicitante_nome: 'Pessoa edu',
      ciclo: aprovacoes.length,
    });
    for (const [i, [produto, quantidade, valor]] of itens.entries()) {
      await ins('requisicao_itens', { requisicao_id: id, ordem: i + 1, produto_id: produto, quantidade, valor_unitario: '1', valor_total: valor });
    }
    for (const [ciclo, instantes] of aprovacoes.entries()) {
      for (const [nivel, instante] of instantes.entries()) {
        await ins('requisicao_aprovacoes', {
          requisicao_id: id,
          ciclo: ciclo + 1,
          nivel: nivel + 1,
          usuario_id: nivel === 0 ? adminId : edu.id,
          usuario_nome: 'Aprovador',
          created_at: `${instante}:00-03`,
        });
      }
    }
    return id;
  };

  // janeiro: R1 and R2 (approved 31/01 23:30 local = 01/02 02:30 UTC)
  fx.r1 = await requisicao(
    fx.edu,
    [
      [fx.papel, '10', '255.00'],
      [fx.caneta, '3', '4.00'],
    ],
    [['2026-01-10 10:00']],
  );
  fx.r2 = await requisicao(fx.edu, [[fx.detergente, '2', '10.01']], [['2026-01-31 23:30']]);
  // fevereiro: approved in January, back to approval and approved again in February (the last round counts)
  fx.r3 = await requisicao(fx.edu, [[fx.papel, '1', '25.50']], [['2026-01-05 09:00'], ['2026-02-10 09:00']]);
  // março: two levels, the last approval decides the month
  fx.r4 = await requisicao(fx.sau, [[fx.papel, '5', '127.75']], [['2026-02-27 10:00', '2026-03-15 11:00']]);
  // abril: 30/04 23:30 local is April (UTC says May), inside a period that ends in April
  fx.r5 = await requisicao(fx.obr, [[fx.detergente, '1', '5.00']], [['2026-04-30 23:30']]);
  // outside: 31/12/2025 23:30 local (UTC: January), 01/05 00:30 local, and a requisição not approved
  await requisicao(fx.edu, [[fx.papel, '40', '1000.00']], [['2025-12-31 23:30']]);
  await requisicao(fx.sau, [[fx.papel, '40', '2000.00']], [['2026-05-01 00:30']]);
  await requisicao(fx.edu, [[fx.papel, '40', '3000.00']], [['2026-01-20 10:00']], 'em_aprovacao');
  return { fx, admin, edu, semTag };
}

/**
 * Prices of Papel sulfite, Caneta and Clipe (GET /api/analise/precos): two centros (02 Educação, 03 Saúde),
 * two suppliers, requisições R1 (Educação, aprovada), R2 (Saúde, em aprovação), a draft and a cancelled one,
 * cotações C1 (Educação, concluída), C2 (Saúde, em coleta) and a cancelled one (see precos.test.ts).
 * `tags`: as in fixtureConsumo.
 */
export async function fixturePrecos(server: TestServer, tags: number[] = []): Promise<Fixture> {
  const { ent, adminId, admin } = await prefeitura(server);
  const fx: Record<string, string> = { ent, adminId };
  const ins = (table: string, values: Record<string, unknown>) => server.insert(table, { entidade_id: ent, ...values });
  fx.edu = await ins('registros_centros_custo', { codigo: '02', nome: 'Secretaria de Educação' });
  fx.sau = await ins('registros_centros_custo', { codigo: '03', nome: 'Secretaria de Saúde' });
  fx.tipo = await ins('registros_tipos_solicitacao', { nome: 'Material de consumo' });
  const grupo = await ins('registros_grupos', { codigo: 'GA', nome: 'Material de expediente' });
  const un = await ins('registros_unidades', { sigla: 'RESMA', descricao: 'Resma' });
  const produto = (codigo: string, descricao: string) => ins('produtos', { codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: un });
  fx.papel = await produto('000001', 'Papel sulfite A4');
  fx.caneta = await produto('000002', 'Caneta esferográfica azul');
  fx.clipe = await produto('000003', 'Clipe niquelado');
  const fornecedor = (documento: string, razao_social: string) =>
    ins('fornecedores', { documento, razao_social, logradouro: 'Rua das Flores', cep: '13220000', municipio: 'Várzea Paulista', uf: 'SP' });
  fx.alianca = await fornecedor('11222333000181', 'Papelaria Aliança Ltda');
  fx.paulista = await fornecedor('44555666000199', 'Distribuidora Paulista de Papéis S.A.');

  const edu = await server.createUser({ login: 'edu', tags: [106, ...tags], centros: [fx.edu] });
  const semTag = (await server.createUser({ login: 'semtag', tags: [39, ...tags], todosCentros: true })).token;

  let numeroCotacao = 0;
  let numeroRequisicao = 0;
  const cotacao = async (centro: string, status: string, concluidaEm: string | null, itens: [string, string][]) => {
    const id = await ins('cotacoes', {
      numero: ++numeroCotacao,
      ano: 2026,
      data: '2026-03-01',
      status,
      objeto: 'Pesquisa de preços de material de expediente.',
      centro_custo_id: centro,
      data_referencia: '2026-03-01',
      metodo: 'media_saneada',
      responsavel_id: adminId,
      responsavel_nome: 'Administrador',
      concluida_em: concluidaEm ? `${concluidaEm}:00-03` : null,
    });
    for (const [i, [produto, valor]] of itens.entries()) {
      await ins('cotacao_itens', { cotacao_id: id, ordem: i + 1, produto_id: produto, quantidade: '10', valor_unitario: valor, valor_total: '0' });
    }
    return id;
  };
  const convidados = new Set<string>();
  /** A price of `cotacaoId` collected at `instante` ('AAAA-MM-DD HH:MI' local); `fornecedor` for a supplier's quote. */
  const preco = async (cotacaoId: string, produto: string, fonte: string, valor: string, instante: string, fornecedor?: string, exclusao?: string) => {
    if (fornecedor && !convidados.has(`${cotacaoId}|${fornecedor}`)) {
      convidados.add(`${cotacaoId}|${fornecedor}`);
      await ins('cotacao_fornecedores', { cotacao_id: cotacaoId, fornecedor_id: fornecedor, situacao: 'respondeu' });
    }
    return ins('cotacao_precos', {
      cotacao_id: cotacaoId,
      produto_id: produto,
      fonte,
      fornecedor_id: fornecedor ?? null,
      fonte_descricao: fornecedor ? 'Proposta do fornecedor' : `Fonte ${fonte}`,
      valor_unitario: valor,
      data_coleta: `${instante}:00-03`,
      coletado_por: adminId,
      coletado_por_nome: 'Administrador',
      exclusao_motivo: exclusao ?? null,
    });
  };
  const requisicao = async (centro: string, data: string, status: string, itens: [string, string][]) => {
    const id = await ins('requisicoes', {
      numero: ++numeroRequisicao,
      ano: 2026,
      data,
      status,
      aprovada_em: status === 'aprovada' ? `${data} 00:00:00-03` : null,
      centro_custo_id: centro,
      tipo_solicitacao_id: fx.tipo,
      categoria: 'compras',
      justificativa: 'Material para as secretarias no ano.',
      solicitante_id: edu.id,
      solicitante_nome: 'Pessoa edu',
    });
    for (const [i, [produto, valor]] of itens.entries()) {
      await ins('requisicao_itens', { requisicao_id: id, ordem: i + 1, produto_id: produto, quantidade: '10', valor_unitario: valor, valor_total: '0' });
    }
    return id;
  };

  fx.r1 = await requisicao(fx.edu, '2026-02-01', 'aprovada', [[fx.papel, '25']]);
  fx.r2 = await requisicao(fx.sau, '2026-06-01', 'em_aprovacao', [[fx.papel, '12']]);
  await requisicao(fx.edu, '2026-02-15', 'rascunho', [[fx.papel, '99']]);
  await requisicao(fx.edu, '2026-02-16', 'cancelada', [[fx.papel, '98']]);

  fx.c1 = await cotacao(fx.edu, 'concluida', '2026-03-20 10:00', [
    [fx.papel, '26.9'],
    [fx.caneta, '0.0126'],
  ]);
  await preco(fx.c1, fx.papel, 'painel', '26.9', '2026-03-05 12:00');
  await preco(fx.c1, fx.papel, 'fornecedor', '25.5', '2026-03-10 10:00', fx.alianca);
  await preco(fx.c1, fx.papel, 'fornecedor', '27.5', '2026-03-11 23:30', fx.paulista);
  await preco(fx.c1, fx.papel, 'midia', '40', '2026-03-12 10:00', undefined, 'Preço de um produto de outra gramatura.');
  await preco(fx.c1, fx.caneta, 'fornecedor', '0.0125', '2026-03-10 10:00', fx.alianca);
  await preco(fx.c1, fx.caneta, 'fornecedor', '0.0126', '2026-03-11 10:00', fx.paulista);
  fx.c2 = await cotacao(fx.sau, 'em_coleta', null, [[fx.papel, '0']]);
  await preco(fx.c2, fx.papel, 'nota_fiscal', '50', '2026-04-15 12:00');
  await preco(fx.c2, fx.papel, 'fornecedor', '24', '2026-05-02 09:00', fx.alianca);
  const c3 = await cotacao(fx.edu, 'cancelada', null, [[fx.papel, '10']]);
  await preco(c3, fx.papel, 'fornecedor', '10', '2026-03-15 10:00', fx.paulista);
  return { fx, admin, edu, semTag };
}
