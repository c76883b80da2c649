// Demo data of @app/cotacoes (embedded database, first run): the 'autoridade competente' who approves
// justifications (user 'autoridade', perfil with tags 73 and 100), a cotação em coleta from the demo's
// approved requisição plus an item picked directly (three suppliers invited: one answered, one still
// awaited, one 'não respondeu'; prices of the other sources, one of them old, one with an HTML
// evidence) and a concluded cotação of items picked directly, its estimated prices frozen. Written the way the routes write them, one
// audit row per step.
import { createHash } from 'node:crypto';
import { cpfCheckDigits, today } from '@app/br';
import { formatNumero, lineTotal, sumMoney } from '@app/documents';
import { fornecedores } from '@app/fornecedores/server';
import { produtos, setProdutoUsos } from '@app/produtos/server';
import { centrosCusto } from '@app/registros/server';
import { requisicaoItens, requisicoes } from '@app/requisicoes/server';
import {
  type AuditEntry,
  type RequestContext,
  type SeedContext,
  type Tx,
  nextDocumentNumber,
  perfis,
  recordDocumentAuthor,
  usuarioEntidades,
  usuarios,
} from '@app/server-core';
import { and, asc, eq, sql } from '@app/server-core/orm';
import { AUTORIDADE_TAG, COTACOES_TAG, type Fonte } from '../shared/index.js';
import { congelarConclusao } from './conclusao.js';
import { lerConfiguracao } from './configuracao.js';
import { cotacaoEvidencias, cotacaoFornecedores, cotacaoItens, cotacaoPrecos, cotacoes } from './tables.js';

/** The demo autoridade competente (password: the demo one). */
export const DEMO_AUTORIDADE = {
  login: 'autoridade',
  nome: 'Augusto Autoridade',
  cargo: 'Secretário de Administração',
  perfil: 'Autoridade competente',
  cpf: `903418275${cpfCheckDigits('903418275')}`,
} as const;

/** Suppliers of office material in the demo catalogue (found by name; any active one otherwise). */
const FORNECEDORES_DEMO = ['papelaria alianca', 'distribuidora paulista de papeis', 'infoprint', 'grafica e editora ponto final'];

/** 'aaaa-mm-dd' of today + `dias` (São Paulo). */
function dia(dias: number): string {
  const d = new Date(`${today()}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}
/** An instant `dias` from today at `hora` (São Paulo, UTC−3), ISO. */
const instante = (dias: number, hora = '10:00') => `${dia(dias)}T${hora}:00-03:00`;
/** 'aaaa-mm-dd' `meses` before today, same day (clamped). */
function mesesAtras(meses: number, dias = 0): string {
  const [a, m, d] = dia(-dias).split('-').map(Number) as [number, number, number];
  const total = a * 12 + (m - 1) - meses;
  const ano = Math.floor(total / 12);
  const mes = total - ano * 12 + 1;
  const ultimo = new Date(Date.UTC(ano, mes, 0)).getUTCDate();
  return `${ano}-${String(mes).padStart(2, '0')}-${String(Math.min(d, ultimo)).padStart(2, '0')}`;
}

const SNAPSHOT = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Papel sulfite A4 – Loja Exemplo</title></head>
<body><h1>Papel sulfite A4 75 g/m² – caixa com 10 resmas</h1><p>Preço à vista: R$ 29,90 a resma</p>
<p>Página salva para a pesquisa de preços.</p></body></html>
`;

export async function seedCotacoes(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await seedAutoridade(ctx, entidadeId);
  await ctx.mutate(async (tx, audit) => {
    const [existe] = await tx.select({ id: cotacoes.id }).from(cotacoes).where(eq(cotacoes.entidadeId, entidadeId)).limit(1);
    if (existe) return;
    const aprovadas = await tx
      .select({
        id: requisicoes.id,
        numero: requisicoes.numero,
        ano: requisicoes.ano,
        centroCustoId: requisicoes.centroCustoId,
        justificativa: requisicoes.justificativa,
      })
      .from(requisicoes)
      .where(and(eq(requisicoes.entidadeId, entidadeId), eq(requisicoes.status, 'aprovada')))
      .orderBy(asc(requisicoes.ano), asc(requisicoes.numero));
    const escolhidos: { id: string; nome: string }[] = [];
    for (const palavras of FORNECEDORES_DEMO) {
      const [f] = await tx
        .select({ id: fornecedores.id, nome: fornecedores.razaoSocial })
        .from(fornecedores)
        .where(
          and(
            eq(fornecedores.entidadeId, entidadeId),
            eq(fornecedores.ativo, true),
            eq(fornecedores.situacao, 'ativo'),
            sql`${fornecedores.busca} LIKE ${`%${palavras}%`}`,
          ),
        )
        .limit(1);
      if (f) escolhidos.push(f);
    }
    if (escolhidos.length < 4) {
      const outros = await tx
        .select({ id: fornecedores.id, nome: fornecedores.razaoSocial })
        .from(fornecedores)
        .where(and(eq(fornecedores.entidadeId, entidadeId), eq(fornecedores.ativo, true), eq(fornecedores.situacao, 'ativo')))
        .orderBy(asc(fornecedores.razaoSocial))
        .limit(8);
      for (const f of outros) if (escolhidos.length < 4 && !escolhidos.some((e) => e.id === f.id)) escolhidos.push(f);
    }
    const [comprador] = await tx.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios).where(sql`lower(${usuarios.login}) = 'comprador'`);
    const [admin] = await tx.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios).where(eq(usuarios.id, ctx.usuarios.admin.id));
    const pessoa = comprador ?? admin;
    if (aprovadas.length === 0 || escolhidos.length < 4 || !pessoa) return;
    const config = await lerConfiguracao(tx, entidadeId);
    const por = (usuarioId: string) => (entry: AuditEntry) => audit({ ...entry, entidadeId, usuarioId });
    const auditar = por(pessoa.id);

    const produtoDe = async (palavras: string) => {
      const [row] = await tx
        .select({ id: produtos.id })
        .from(produtos)
        .where(and(eq(produtos.entidadeId, entidadeId), eq(produtos.ativo, true), sql`${produtos.busca} LIKE ${`%${palavras}%`}`))
        .orderBy(asc(produtos.codigo))
        .limit(1);
      return row?.id;
    };
    type Linha = { produtoId: string; requisicaoItemId: string | null; quantidade: string; valorUnitario: string };
    /** A cotação in rascunho (as POST /cotacoes or /cotacoes/de-requisicao writes it). */
    const criar = async (
      dados: { objeto: string; centroCustoId: string; requisicaoId: string | null; itens: Linha[] },
      dataReferencia: string,
      prazo: string | null,
    ) => {
      const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: 'cotacoes/cotacoes' });
      const linhas = dados.itens.map((i, n) => ({ ...i, ordem: n + 1, valorTotal: lineTotal(i.quantidade, i.valorUnitario) }));
      const header = {
        numero,
        ano,
        data: dataReferencia,
        status: 'rascunho' as const,
        objeto: dados.objeto.slice(0, 2000),
        centroCustoId: dados.centroCustoId,
        requisicaoId: dados.requisicaoId,
        dataReferencia,
        prazo,
        metodo: config.metodo,
        iterar: config.iterar,
        responsavelId: pessoa.id,
        responsavelNome: pessoa.nome,
        valorTotal: sumMoney(linhas.map((l) => l.valorTotal)),
      };
      const [row] = await tx
        .insert(cotacoes)
        .values({ ...header, entidadeId })
        .returning({ id: cotacoes.id });
      const id = row!.id;
      // its author, as the document kit records it (segregation of duties; only authors edit a draft)
      await recordDocumentAuthor(tx, { entidadeId, documentoId: id, usuarioId: pessoa.id, papel: 'autor' });
      await tx.insert(cotacaoItens).values(linhas.map((l) => ({ ...l, cotacaoId: id, entidadeId })));
      await setProdutoUsos(
        tx,
        { entidadeId, origem: 'cotacoes', documentoId: id, descricao: `Cotação ${formatNumero(numero, ano)}` },
        linhas.map((l) => l.produtoId),
      );
      auditar({ registro: id, acao: 'criar', depois: { ...header, version: 1, itens: linhas } });
      return { id, numero, ano, header, linhas };
    };
    const iniciar = async (id: string) => {
      await tx
        .update(cotacoes)
        .set({ status: 'em_coleta', version: sql`${cotacoes.version} + 1` })
        .where(eq(cotacoes.id, id));
      auditar({ registro: id, acao: 'iniciar', antes: { status: 'rascunho', version: 1 }, depois: { status: 'em_coleta', version: 2 } });
    };
    const convidar = async (id: string, f: { id: string; nome: string }, motivoEscolha: string) => {
      await tx.insert(cotacaoFornecedores).values({ entidadeId, cotacaoId: id, fornecedorId: f.id, motivoEscolha, convidadoEm: instante(-6, '09:00') });
      auditar({ registro: id, acao: 'convidar_fornecedor', depois: { fornecedor: f.nome, fornecedorId: f.id, motivoEscolha } });
    };
    const responder = async (id: string, f: { id: string; nome: string }, precos: [produtoId: string, valor: string, marca: string][], validade: string) => {
      const dataProposta = instante(-2, '14:30');
      await tx.insert(cotacaoPrecos).values(
        precos.map(([produtoId, valorUnitario, marca]) => ({
          entidadeId,
          cotacaoId: id,
          produtoId,
          fonte: 'fornecedor' as const,
          fornecedorId: f.id,
          fonteDescricao: `Proposta de ${f.nome}`,
          valorUnitario,
          marca,
          dataColeta: dataProposta,
          validade,
          coletadoPor: pessoa.id,
          coletadoPorNome: pessoa.nome,
        })),
      );
      await tx
        .update(cotacaoFornecedores)
        .set({ situacao: 'respondeu', dataProposta, validade, version: sql`${cotacaoFornecedores.version} + 1` })
        .where(and(eq(cotacaoFornecedores.cotacaoId, id), eq(cotacaoFornecedores.fornecedorId, f.id)));
      auditar({
        registro: id,
        acao: 'resposta_fornecedor',
        antes: { situacao: 'convidado', precos: [] },
        depois: {
          fornecedor: f.nome,
          situacao: 'respondeu',
          dataProposta,
          validade,
          precos: precos.map(([produtoId, valorUnitario, marca]) => ({ produtoId, valorUnitario, marca })),
        },
      });
    };
    const outraFonte = async (
      id: string,
      produtoId: string,
      fonte: Exclude<Fonte, 'fornecedor'>,
      fonteDescricao: string,
      valorUnitario: string,
      dataColeta: string,
      link: string | null,
      evidenciaId: string | null = null,
    ) => {
      const [row] = await tx
        .insert(cotacaoPrecos)
        .values({
          entidadeId,
          cotacaoId: id,
          produtoId,
          fonte,
          fonteDescricao,
          valorUnitario,
          dataColeta,
          link,
          evidenciaId,
          coletadoPor: pessoa.id,
          coletadoPorNome: pessoa.nome,
        })
        .returning({ id: cotacaoPrecos.id });
      auditar({
        registro: id,
        acao: 'incluir_preco',
        depois: { precoId: row!.id, produtoId, fonte, fonteDescricao, valorUnitario, dataColeta, link, evidenciaId },
      });
    };
    const [f1, f2, f3, f4] = escolhidos as [(typeof escolhidos)[number], (typeof escolhidos)[number], (typeof escolhidos)[number], (typeof escolhidos)[number]];

    // 1) em coleta: the approved requisição's items, and pens picked directly
    const req = aprovadas[0]!;
    const itensReq = await tx
      .select({
        requisicaoItemId: requisicaoItens.id,
        produtoId: requisicaoItens.produtoId,
        quantidade: sql<string>`${requisicaoItens.quantidade}::text`,
        valorUnitario: sql<string>`${requisicaoItens.valorUnitario}::text`,
      })
      .from(requisicaoItens)
      .where(eq(requisicaoItens.requisicaoId, req.id))
      .orderBy(requisicaoItens.ordem);
    const caneta = await produtoDe('caneta esferografica azul');
    const extras: Linha[] =
      caneta && !itensReq.some((i) => i.produtoId === caneta) ? [{ produtoId: caneta, requisicaoItemId: null, quantidade: '500', valorUnitario: '1.15' }] : [];
    const a = await criar(
      { objeto: `Pesquisa de preços: ${req.justificativa}`, centroCustoId: req.centroCustoId, requisicaoId: req.id, itens: [...itensReq, ...extras] },
      today(),
      instante(7, '17:00'),
    );
    await convidar(a.id, f1, 'Fornecedor local do ramo de papelaria, com entregas regulares à prefeitura.');
    await convidar(a.id, f2, 'Distribuidora da região com preço competitivo em contratações anteriores.');
    await convidar(a.id, f3, 'Indicado pelo setor de compras para ampliar a pesquisa.');
    await iniciar(a.id);
    const [itemA1, itemA2] = a.linhas;
    if (itemA1) {
      const precosF1: [string, string, string][] = [[itemA1.produtoId, '26.5', 'Chamex']];
      if (itemA2) precosF1.push([itemA2.produtoId, '1.09', 'BIC']);
      await responder(a.id, f1, precosF1, dia(30));
      await tx
        .update(cotacaoFornecedores)
        .set({ situacao: 'nao_respondeu', motivoNaoResposta: 'Sem retorno até o prazo; contato por telefone sem sucesso.' })
        .where(and(eq(cotacaoFornecedores.cotacaoId, a.id), eq(cotacaoFornecedores.fornecedorId, f3.id)));
      auditar({
        registro: a.id,
        acao: 'fornecedor_nao_respondeu',
        antes: { situacao: 'convidado' },
        depois: { fornecedor: f3.nome, situacao: 'nao_respondeu', motivo: 'Sem retorno até o prazo; contato por telefone sem sucesso.' },
      });
      const bytes = new TextEncoder().encode(SNAPSHOT);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const [ev] = await tx
        .insert(cotacaoEvidencias)
        .values({
          entidadeId,
          cotacaoId: a.id,
          nome: 'papel-sulfite-loja-exemplo.html',
          tipo: 'text/html',
          tamanho: bytes.length,
          sha256,
          conteudo: bytes,
          enviadoPor: pessoa.id,
          enviadoPorNome: pessoa.nome,
        })
        .returning({ id: cotacaoEvidencias.id });
      auditar({
        registro: a.id,
        acao: 'enviar_evidencia',
        depois: { id: ev!.id, nome: 'papel-sulfite-loja-exemplo.html', tipo: 'text/html', tamanho: bytes.length, sha256 },
      });
      await outraFonte(
        a.id,
        itemA1.produtoId,
        'painel',
        'Painel de Preços do Governo Federal (compras.gov.br)',
        '27.1',
        instante(-12, '11:20'),
        'https://paineldeprecos.planejamento.gov.br/',
      );
      await outraFonte(
        a.id,
        itemA1.produtoId,
        'midia',
        'Loja Exemplo de Papelaria (sítio eletrônico)',
        '29.9',
        instante(-3, '16:05'),
        'https://www.example.com/papel-sulfite-a4',
        ev!.id,
      );
      await outraFonte(
        a.id,
        itemA1.produtoId,
        'nota_fiscal',
        'NF-e 000.123.456 – Prefeitura de Várzea Paulista',
        '25.8',
        `${mesesAtras(4)}T12:00:00-03:00`,
        null,
      );
      if (itemA2) {
        await outraFonte(
          a.id,
          itemA2.produtoId,
          'painel',
          'Painel de Preços do Governo Federal (compras.gov.br)',
          '1.12',
          instante(-12, '11:25'),
          'https://paineldeprecos.planejamento.gov.br/',
        );
        // older than a year: flagged and left out of the calculation by default
        await outraFonte(
          a.id,
          itemA2.produtoId,
          'contrato',
          'Contrato 45/2024 – Câmara Municipal de Itupeva',
          '1.25',
          `${mesesAtras(14)}T12:00:00-03:00`,
          null,
        );
        await outraFonte(
          a.id,
          itemA2.produtoId,
          'midia',
          'Loja Exemplo de Papelaria (sítio eletrônico)',
          '1.39',
          instante(-3, '16:10'),
          'https://www.example.com/caneta-azul',
        );
      }
    }

    // 2) concluída: items picked directly (no requisição), three answers and an official price
    const [compras] = await tx
      .select({ id: centrosCusto.id })
      .from(centrosCusto)
      .where(and(eq(centrosCusto.entidadeId, entidadeId), eq(centrosCusto.codigo, '01.01')));
    const grampeador = await produtoDe('grampo para grampeador');
    const papel = await produtoDe('papel sulfite');
    if (!grampeador || !papel) return;
    const b = await criar(
      {
        objeto: 'Pesquisa de preços de papel sulfite e grampos para o Departamento de Compras e Licitações.',
        centroCustoId: compras?.id ?? req.centroCustoId,
        requisicaoId: null,
        itens: [
          { produtoId: papel, requisicaoItemId: null, quantidade: '200', valorUnitario: '27.9' },
          { produtoId: grampeador, requisicaoItemId: null, quantidade: '12', valorUnitario: '13.2' },
        ],
      },
      dia(-10),
      instante(-3, '17:00'),
    );
    for (const f of [f1, f2, f4]) await convidar(b.id, f, 'Fornecedor do ramo de papelaria cadastrado no município.');
    await iniciar(b.id);
    const valores: Record<string, string[]> = { [f1.id]: ['26.9', '12.9'], [f2.id]: ['27.4', '13.5'], [f4.id]: ['28.1', '11.8'] };
    for (const f of [f1, f2, f4]) {
      await responder(
        b.id,
        f,
        b.linhas.map((l, i) => [l.produtoId, valores[f.id]![i]!, i === 0 ? 'Report' : 'Cis']),
        dia(20),
      );
    }
    for (const l of b.linhas) {
      await outraFonte(
        b.id,
        l.produtoId,
        'painel',
        'Painel de Preços do Governo Federal (compras.gov.br)',
        l.ordem === 1 ? '27.35' : '12.4',
        instante(-11, '10:00'),
        'https://paineldeprecos.planejamento.gov.br/',
      );
    }
    // concluir as the route does: the estimated prices frozen
    const comoPessoa = {
      db: ctx.db,
      entidadeId,
      user: { id: pessoa.id, nome: pessoa.nome, login: 'comprador', email: '' },
      todosCentros: true,
      centrosCusto: [],
      hasTag: (tag: number) => tag === COTACOES_TAG,
    } as unknown as RequestContext;
    await tx
      .update(cotacoes)
      .set({ status: 'concluida', concluidaEm: sql`now()`, version: sql`${cotacoes.version} + 1` })
      .where(eq(cotacoes.id, b.id));
    await congelarConclusao(tx as Tx, comoPessoa, { id: b.id }, auditar);
    const [total] = await tx
      .select({ total: sql<string>`coalesce(sum(${cotacaoItens.valorTotal}), 0)::text` })
      .from(cotacaoItens)
      .where(eq(cotacaoItens.cotacaoId, b.id));
    await tx.update(cotacoes).set({ valorTotal: total!.total }).where(eq(cotacoes.id, b.id));
    auditar({
      registro: b.id,
      acao: 'concluir',
      antes: { status: 'em_coleta', version: 2 },
      depois: { status: 'concluida', version: 3, valorTotal: total!.total },
    });
  });
}

/** The perfil 'Autoridade competente' (tags 73 and 100, every centro) and the demo user who holds it. */
async function seedAutoridade(ctx: SeedContext, entidadeId: string): Promise<void> {
  await ctx.mutate(async (tx, audit) => {
    const [existing] = await tx.select({ id: usuarios.id }).from(usuarios).where(sql`lower(${usuarios.login}) = ${DEMO_AUTORIDADE.login}`);
    if (existing) return;
    const [senha] = await tx.select({ h: usuarios.senhaHash }).from(usuarios).where(eq(usuarios.id, ctx.usuarios.admin.id));
    if (!senha) return;
    const tags = [COTACOES_TAG, AUTORIDADE_TAG];
    let [perfil] = await tx
      .select({ id: perfis.id })
      .from(perfis)
      .where(and(eq(perfis.entidadeId, entidadeId), eq(perfis.nome, DEMO_AUTORIDADE.perfil)));
    if (!perfil) {
      [perfil] = await tx.insert(perfis).values({ entidadeId, nome: DEMO_AUTORIDADE.perfil, tags, todosCentros: true }).returning({ id: perfis.id });
      audit({ registro: perfil!.id, acao: 'criar', plugin: 'usuarios', depois: { nome: DEMO_AUTORIDADE.perfil, tags, todosCentros: true }, entidadeId });
    }
    const values = {
      nome: DEMO_AUTORIDADE.nome,
      login: DEMO_AUTORIDADE.login,
      email: `${DEMO_AUTORIDADE.login}@exemplo.gov.br`,
      cpf: DEMO_AUTORIDADE.cpf,
      cargo: DEMO_AUTORIDADE.cargo,
    };
    const [row] = await tx
      .insert(usuarios)
      .values({ ...values, senhaHash: senha.h })
      .returning({ id: usuarios.id });
    await tx.insert(usuarioEntidades).values({ usuarioId: row!.id, entidadeId, perfilId: perfil!.id, centrosCusto: [] });
    audit({ registro: row!.id, acao: 'criar', plugin: 'usuarios', depois: { ...values, ativo: true, perfil: DEMO_AUTORIDADE.perfil }, entidadeId });
  });
}
