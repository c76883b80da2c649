// Demo data of @app/requisicoes (embedded database, first run): the approval levels of the example
// (one level, chefia, below R$ 10.000,00; two, chefia then the ordenador de despesa, from it), the
// dispensa limits of 2025 and 2026, and the demo people who walk the flow: the requisitante
// (Educação) raises, the chefia approves level 1, the ordenador level 2, the comprador converts.
import { cpfCheckDigits, today } from '@app/br';
import { formatNumero, lineTotal, sumMoney } from '@app/documents';
import { produtos, setProdutoUsos } from '@app/produtos/server';
import { centrosCusto, tiposSolicitacao } from '@app/registros/server';
import { type AuditEntry, DEMO, type SeedContext, nextDocumentNumber, perfis, recordDocumentAuthor, usuarioEntidades, usuarios } from '@app/server-core';
import { and, asc, eq, inArray, sql } from '@app/server-core/orm';
import { LIMITES_DISPENSA_PADRAO, REQUISICAO_LIBERA_ITENS, REQUISICOES_TAG } from '../shared/index.js';
import { aprovacao, atualizarAprovadaEm } from './aprovacao.js';
import { atendimento } from './atendimento.js';
import { recalcularGrupos } from './dispensa.js';
import { alcadas, limitesDispensa, preRequisicaoItens, preRequisicoes, requisicaoAprovacoes, requisicaoItens, requisicoes } from './tables.js';

const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;

/** Perfis of the approvers (created when missing) and the demo users who hold them. */
export const DEMO_APROVADORES = [
  { login: 'chefia', nome: 'Cláudia Chefia', cargo: 'Chefe de Gabinete', perfil: 'Chefia', cpf: cpf('518273946'), centros: ['02', '03'] },
  {
    login: 'ordenador',
    nome: 'Otávio Ordenador',
    cargo: 'Ordenador de Despesa',
    perfil: 'Ordenador de despesa',
    cpf: cpf('627384915'),
    centros: [] as string[],
  },
] as const;

export async function seedRequisicoes(ctx: SeedContext): Promise<void> {
  const senhaHash = (await ctx.db.select({ h: usuarios.senhaHash }).from(usuarios).where(eq(usuarios.id, ctx.usuarios.admin.id)))[0]?.h;
  for (const entidade of [ctx.entidades.prefeitura, ctx.entidades.camara]) {
    const entidadeId = entidade.id;
    await ctx.mutate(async (tx, audit) => {
      for (const l of LIMITES_DISPENSA_PADRAO) {
        const [row] = await tx
          .insert(limitesDispensa)
          .values({ entidadeId, ano: l.ano, categoria: l.categoria, valor: l.valor })
          .onConflictDoNothing()
          .returning({ id: limitesDispensa.id });
        if (row) audit({ registro: row.id, acao: 'criar', depois: { ano: l.ano, categoria: l.categoria, valor: l.valor }, entidadeId });
      }
    });
  }

  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    // the demo perfis that act on requisições hold tag 39 (and 29 for memorandos where they ask)
    for (const nome of ['Requisitante', 'Aprovador', 'Comprador']) {
      await tx.execute(sql`
        UPDATE perfis SET tags = (SELECT array_agg(DISTINCT t ORDER BY t) FROM unnest(tags || ARRAY[${REQUISICOES_TAG}, 29]::int[]) AS t)
         WHERE entidade_id = ${entidadeId}::uuid AND nome = ${nome} AND NOT (tags @> ARRAY[${REQUISICOES_TAG}, 29]::int[])`);
    }
    const criados: Record<string, string> = {};
    for (const nome of ['Chefia', 'Ordenador de despesa']) {
      const todos = nome !== 'Chefia';
      const [p] = await tx
        .insert(perfis)
        .values({ entidadeId, nome, tags: [29, REQUISICOES_TAG], todosCentros: todos })
        .onConflictDoNothing()
        .returning({ id: perfis.id });
      if (p) {
        criados[nome] = p.id;
        audit({ registro: p.id, acao: 'criar', plugin: 'usuarios', depois: { nome, tags: [29, REQUISICOES_TAG], todosCentros: todos }, entidadeId });
      }
    }
    const { rows: centros } = await tx.execute<{ id: string; codigo: string }>(
      sql`SELECT id, codigo FROM registros_centros_custo WHERE entidade_id = ${entidadeId}::uuid`,
    );
    for (const u of DEMO_APROVADORES) {
      const perfilId = criados[u.perfil];
      if (!perfilId || !senhaHash) continue;
      const [existing] = await tx.select({ id: usuarios.id }).from(usuarios).where(sql`lower(${usuarios.login}) = ${u.login}`);
      if (existing) continue;
      const values = { nome: u.nome, login: u.login, email: `${u.login}@exemplo.gov.br`, cpf: u.cpf, cargo: u.cargo };
      const [row] = await tx
        .insert(usuarios)
        .values({ ...values, senhaHash })
        .returning({ id: usuarios.id });
      const seus = centros.filter((c) => (u.centros as readonly string[]).includes(c.codigo)).map((c) => c.id);
      await tx.insert(usuarioEntidades).values({ usuarioId: row!.id, entidadeId, perfilId, centrosCusto: seus });
      audit({ registro: row!.id, acao: 'criar', plugin: 'usuarios', depois: { ...values, ativo: true, perfil: u.perfil }, entidadeId });
    }
    const aprovadores = await tx
      .select({ id: perfis.id, nome: perfis.nome })
      .from(perfis)
      .where(and(eq(perfis.entidadeId, entidadeId), inArray(perfis.nome, ['Chefia', 'Ordenador de despesa', 'Aprovador'])));
    const perfil = (nome: string) => aprovadores.filter((p) => p.nome === nome).map((p) => p.id);
    const niveis = [
      { nivel: 1, nome: 'Chefia', valorMinimo: '0.00', perfis: [...perfil('Chefia'), ...perfil('Aprovador')] },
      { nivel: 2, nome: 'Ordenador de despesa', valorMinimo: '10000.00', perfis: perfil('Ordenador de despesa') },
    ];
    for (const n of niveis) {
      if (n.perfis.length === 0) continue;
      const [row] = await tx
        .insert(alcadas)
        .values({ entidadeId, ...n })
        .onConflictDoNothing()
        .returning({ id: alcadas.id });
      if (row) audit({ registro: row.id, acao: 'criar', depois: n, entidadeId });
    }
  });
  void DEMO;
  await seedDocumentos(ctx);
}

// ---- demo documents: pré-requisições and requisições in every state, in several centros de custo

type PassoReq =
  | { acao: 'enviar' }
  | { acao: 'aprovar'; por: 'chefia' | 'ordenador' }
  | { acao: 'reprovar' | 'devolver'; por: 'chefia' | 'ordenador'; motivo: string }
  | { acao: 'cancelar'; motivo: string };

interface LinhaDemo {
  palavras: string;
  quantidade: string;
  valorUnitario: string;
  /** Index of the pré-requisição (in PRE_DEMO) and of its line this line converts. */
  de?: [number, number];
}

interface PreDemo {
  centro: string;
  solicitante: 'requisitante' | 'comprador';
  justificativa: string;
  itens: Omit<LinhaDemo, 'de'>[];
  /** 'enviar', then optionally 'devolver' / 'cancelar' (by the comprador / the requester). */
  passos: ('enviar' | 'devolver' | 'cancelar')[];
}

interface ReqDemo {
  centro: string;
  solicitante: 'requisitante' | 'comprador';
  categoria: 'compras' | 'obras';
  justificativa: string;
  dotacao: string | null;
  itens: LinhaDemo[];
  passos: PassoReq[];
}

const PRE_DEMO: PreDemo[] = [
  {
    centro: '02',
    solicitante: 'requisitante',
    justificativa: 'Material de expediente para as escolas municipais no 2º semestre.',
    itens: [{ palavras: 'caneta esferografica azul', quantidade: '600', valorUnitario: '1.15' }],
    passos: [],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    justificativa: 'Produtos de limpeza para as unidades escolares (reposição trimestral).',
    itens: [
      { palavras: 'detergente', quantidade: '240', valorUnitario: '2.39' },
      { palavras: 'agua sanitaria', quantidade: '180', valorUnitario: '4.2' },
    ],
    passos: ['enviar'],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    justificativa: 'Papel para impressão das avaliações bimestrais da rede municipal.',
    itens: [
      { palavras: 'papel sulfite', quantidade: '2000', valorUnitario: '27.9' },
      { palavras: 'grampeador', quantidade: '40', valorUnitario: '32.5' },
    ],
    passos: ['enviar'],
  },
  {
    centro: '03',
    solicitante: 'comprador',
    justificativa: 'Papel e canetas para as unidades básicas de saúde.',
    itens: [
      { palavras: 'papel sulfite', quantidade: '900', valorUnitario: '27.9' },
      { palavras: 'caneta esferografica azul', quantidade: '1000', valorUnitario: '1.15' },
    ],
    passos: ['enviar'],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    justificativa: 'Grampeadores para a secretaria.',
    itens: [{ palavras: 'grampeador', quantidade: '15', valorUnitario: '32.5' }],
    passos: ['enviar', 'devolver'],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    justificativa: 'Canetas para o evento de formação de professores.',
    itens: [{ palavras: 'caneta esferografica azul', quantidade: '300', valorUnitario: '1.15' }],
    passos: ['cancelar'],
  },
];

const MOTIVO_DEVOLUCAO_PRE = 'Informe a quantidade por unidade escolar antes de reenviar.';
const MOTIVO_CANCELAMENTO_PRE = 'O evento de formação foi adiado para o próximo ano.';

const REQ_DEMO: ReqDemo[] = [
  {
    centro: '02',
    solicitante: 'requisitante',
    categoria: 'compras',
    justificativa: 'Reposição de canetas da secretaria (rascunho em elaboração).',
    dotacao: null,
    itens: [{ palavras: 'caneta esferografica azul', quantidade: '200', valorUnitario: '1.15' }],
    passos: [],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    categoria: 'compras',
    justificativa: 'Detergente para as cozinhas das escolas.',
    dotacao: '12.361.0005.2.015 – 3.3.90.30',
    itens: [{ palavras: 'detergente', quantidade: '240', valorUnitario: '2.39' }],
    passos: [{ acao: 'enviar' }],
  },
  {
    centro: '03',
    solicitante: 'comprador',
    categoria: 'compras',
    justificativa: 'Papel e canetas das unidades básicas de saúde (toda a pré-requisição).',
    dotacao: '10.301.0010.2.030 – 3.3.90.30',
    itens: [
      { palavras: 'papel sulfite', quantidade: '900', valorUnitario: '27.9', de: [3, 0] },
      { palavras: 'caneta esferografica azul', quantidade: '1000', valorUnitario: '1.15', de: [3, 1] },
    ],
    passos: [{ acao: 'enviar' }, { acao: 'aprovar', por: 'chefia' }],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    categoria: 'compras',
    justificativa: 'Papel das avaliações bimestrais (parte da pré-requisição).',
    dotacao: '12.361.0005.2.015 – 3.3.90.30',
    itens: [{ palavras: 'papel sulfite', quantidade: '1500', valorUnitario: '27.9', de: [2, 0] }],
    passos: [{ acao: 'enviar' }, { acao: 'aprovar', por: 'chefia' }, { acao: 'aprovar', por: 'ordenador' }],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    categoria: 'compras',
    justificativa: 'Grampeadores adicionais para a biblioteca.',
    dotacao: null,
    itens: [{ palavras: 'grampeador', quantidade: '30', valorUnitario: '32.5' }],
    passos: [{ acao: 'enviar' }, { acao: 'reprovar', por: 'chefia', motivo: 'A biblioteca recebeu grampeadores no mês passado.' }],
  },
  {
    centro: '03',
    solicitante: 'comprador',
    categoria: 'compras',
    justificativa: 'Água sanitária para as unidades de saúde.',
    dotacao: null,
    itens: [{ palavras: 'agua sanitaria', quantidade: '300', valorUnitario: '4.2' }],
    passos: [{ acao: 'enviar' }, { acao: 'devolver', por: 'chefia', motivo: 'Informe a dotação orçamentária da Saúde.' }],
  },
  {
    centro: '02',
    solicitante: 'requisitante',
    categoria: 'compras',
    justificativa: 'Água sanitária das escolas (substituída por outra requisição).',
    dotacao: null,
    itens: [{ palavras: 'agua sanitaria', quantidade: '180', valorUnitario: '4.2', de: [1, 1] }],
    passos: [{ acao: 'cancelar', motivo: 'Será incluída na compra conjunta da Saúde.' }],
  },
];

const PRE_STATUS = { enviar: 'enviada', devolver: 'devolvida', cancelar: 'cancelada' } as const;

/**
 * The demo documents of the Prefeitura, written the way the routes write them (numbers from the
 * counter, exact totals, approvals per level and round, the grupo amounts of the dispensa alert, the
 * pré-requisições' status from what was converted) with one audit row per step, attributed to the
 * demo user who would have taken it. Skipped when the entidade already has requisições.
 */
export async function seedDocumentos(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    const [existe] = await tx.select({ id: requisicoes.id }).from(requisicoes).where(eq(requisicoes.entidadeId, entidadeId)).limit(1);
    if (existe) return;
    const [tipo] = await tx
      .select({ id: tiposSolicitacao.id })
      .from(tiposSolicitacao)
      .where(and(eq(tiposSolicitacao.entidadeId, entidadeId), eq(tiposSolicitacao.ativo, true)))
      .orderBy(asc(tiposSolicitacao.nome))
      .limit(1);
    const centros = await tx.select({ id: centrosCusto.id, codigo: centrosCusto.codigo }).from(centrosCusto).where(eq(centrosCusto.entidadeId, entidadeId));
    const centroId = (codigo: string) => centros.find((c) => c.codigo === codigo)?.id;
    const pessoa = async (login: string) => {
      const [row] = await tx.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios).where(sql`lower(${usuarios.login}) = ${login}`);
      return row;
    };
    const gente = {
      requisitante: await pessoa('requisitante'),
      comprador: await pessoa('comprador'),
      chefia: await pessoa('chefia'),
      ordenador: await pessoa('ordenador'),
    };
    if (!tipo || !gente.requisitante || !gente.comprador || !gente.chefia || !gente.ordenador) return;
    const produtoDe = async (palavras: string) => {
      const [row] = await tx
        .select({ id: produtos.id })
        .from(produtos)
        .where(and(eq(produtos.entidadeId, entidadeId), eq(produtos.ativo, true), sql`${produtos.busca} LIKE ${`%${palavras}%`}`))
        .orderBy(asc(produtos.codigo))
        .limit(1);
      return row?.id;
    };
    const linhasDe = async (itens: Omit<LinhaDemo, 'de'>[]) => {
      const out: { produtoId: string; quantidade: string; valorUnitario: string; valorTotal: string }[] = [];
      for (const l of itens) {
        const produtoId = await produtoDe(l.palavras);
        if (produtoId) out.push({ produtoId, quantidade: l.quantidade, valorUnitario: l.valorUnitario, valorTotal: lineTotal(l.quantidade, l.valorUnitario) });
      }
      return out;
    };

    // pré-requisições
    const preItens: string[][] = [];
    for (const [n, demo] of PRE_DEMO.entries()) {
      const solicitante = gente[demo.solicitante]!;
      const centro = centroId(demo.centro);
      const linhas = await linhasDe(demo.itens);
      if (!centro || linhas.length !== demo.itens.length) {
        preItens.push([]);
        continue;
      }
      const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: 'requisicoes/pre-requisicoes' });
      const header = {
        numero,
        ano,
        data: dia(-30 + n * 3),
        status: 'rascunho' as string,
        centroCustoId: centro,
        tipoSolicitacaoId: tipo.id,
        solicitanteId: solicitante.id,
        solicitanteNome: solicitante.nome,
        justificativa: demo.justificativa,
        valorTotal: sumMoney(linhas.map((l) => l.valorTotal)),
      };
      const [row] = await tx
        .insert(preRequisicoes)
        .values({ ...header, status: 'rascunho' as const, entidadeId })
        .returning({ id: preRequisicoes.id });
      const id = row!.id;
      // its author, as the document kit records it (segregation of duties; only authors edit a draft)
      await recordDocumentAuthor(tx, { entidadeId, documentoId: id, usuarioId: solicitante.id, papel: 'autor' });
      const itens = await tx
        .insert(preRequisicaoItens)
        .values(linhas.map((l, i) => ({ ...l, preRequisicaoId: id, entidadeId, ordem: i + 1 })))
        .returning({ id: preRequisicaoItens.id, ordem: preRequisicaoItens.ordem });
      preItens.push(itens.sort((a, b) => a.ordem - b.ordem).map((i) => i.id));
      await setProdutoUsos(
        tx,
        { entidadeId, origem: 'requisicoes', documentoId: id, descricao: `Pré-requisição ${formatNumero(numero, ano)}` },
        linhas.map((l) => l.produtoId),
      );
      audit({
        registro: id,
        acao: 'criar',
        entidadeId,
        usuarioId: solicitante.id,
        depois: { ...header, version: 1, itens: linhas.map((l, i) => ({ ordem: i + 1, ...l })) },
      });
      let status = header.status;
      let version = 1;
      for (const passo of demo.passos) {
        const novo = PRE_STATUS[passo];
        const motivo = passo === 'devolver' ? MOTIVO_DEVOLUCAO_PRE : passo === 'cancelar' ? MOTIVO_CANCELAMENTO_PRE : undefined;
        audit({
          registro: id,
          acao: passo,
          entidadeId,
          usuarioId: passo === 'devolver' ? gente.comprador.id : solicitante.id,
          antes: { status, version },
          depois: { status: novo, version: version + 1, ...(motivo ? { motivo } : {}) },
        });
        status = novo;
        version += 1;
      }
      if (version > 1)
        await tx
          .update(preRequisicoes)
          .set({ status: status as never, version })
          .where(eq(preRequisicoes.id, id));
    }

    // requisições
    for (const [n, demo] of REQ_DEMO.entries()) {
      const solicitante = gente[demo.solicitante]!;
      const centro = centroId(demo.centro);
      const linhas = (await linhasDe(demo.itens)).map((l, i) => {
        const de = demo.itens[i]!.de;
        return { ...l, preRequisicaoItemId: de ? (preItens[de[0]]?.[de[1]] ?? null) : null };
      });
      if (!centro || linhas.length !== demo.itens.length) continue;
      const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: 'requisicoes/requisicoes' });
      const descricao = `Requisição ${formatNumero(numero, ano)}`;
      const header = {
        numero,
        ano,
        data: dia(-20 + n * 2),
        status: 'rascunho' as string,
        centroCustoId: centro,
        tipoSolicitacaoId: tipo.id,
        categoria: demo.categoria,
        dotacao: demo.dotacao,
        justificativa: demo.justificativa,
        solicitanteId: solicitante.id,
        solicitanteNome: solicitante.nome,
        valorTotal: sumMoney(linhas.map((l) => l.valorTotal)),
        niveis: 0,
        nivelAtual: null as number | null,
        ciclo: 0,
      };
      const [row] = await tx
        .insert(requisicoes)
        .values({ ...header, entidadeId } as never)
        .returning({ id: requisicoes.id });
      const id = row!.id;
      await recordDocumentAuthor(tx, { entidadeId, documentoId: id, usuarioId: solicitante.id, papel: 'autor' });
      await tx.insert(requisicaoItens).values(linhas.map((l, i) => ({ ...l, requisicaoId: id, entidadeId, ordem: i + 1 })));
      await setProdutoUsos(
        tx,
        { entidadeId, origem: 'requisicoes', documentoId: id, descricao },
        linhas.map((l) => l.produtoId),
      );
      const auditPor = (usuarioId: string) => (entry: AuditEntry) => audit({ ...entry, entidadeId, usuarioId });
      audit({
        registro: id,
        acao: 'criar',
        entidadeId,
        usuarioId: solicitante.id,
        depois: { ...header, version: 1, itens: linhas.map((l, i) => ({ ordem: i + 1, ...l })) },
      });
      const ligadas = await atendimento.sourcesOf(tx, id);
      await atendimento.feedback(tx, ligadas, auditPor(solicitante.id), descricao);
      const estado = { status: header.status, version: 1, niveis: 0, nivelAtual: null as number | null, ciclo: 0, valorAprovado: null as string | null };
      for (const passo of demo.passos) {
        const antes = { ...estado };
        let por = solicitante;
        let motivo: string | undefined;
        if (passo.acao === 'enviar') {
          const niveis = aprovacao.requiredLevels(header.valorTotal, await aprovacao.levelsFor(tx, entidadeId, centro));
          Object.assign(estado, { status: 'em_aprovacao', niveis: niveis.length, nivelAtual: niveis[0] ?? null, ciclo: estado.ciclo + 1 });
        } else if (passo.acao === 'aprovar') {
          por = gente[passo.por]!;
          const nivel = Number(estado.nivelAtual);
          await tx.insert(requisicaoAprovacoes).values({ entidadeId, requisicaoId: id, ciclo: estado.ciclo, nivel, usuarioId: por.id, usuarioNome: por.nome });
          const niveis = aprovacao.requiredLevels(header.valorTotal, await aprovacao.levelsFor(tx, entidadeId, centro));
          const proximo = niveis.find((x) => x > nivel);
          Object.assign(estado, proximo === undefined ? { status: 'aprovada', nivelAtual: null, valorAprovado: header.valorTotal } : { nivelAtual: proximo });
        } else if (passo.acao === 'cancelar') {
          motivo = passo.motivo;
          Object.assign(estado, { status: 'cancelada', nivelAtual: null });
        } else {
          por = gente[passo.por]!;
          motivo = passo.motivo;
          Object.assign(estado, { status: passo.acao === 'reprovar' ? 'reprovada' : 'devolvida', nivelAtual: null });
        }
        estado.version += 1;
        await tx
          .update(requisicoes)
          .set({
            status: estado.status as never,
            version: estado.version,
            niveis: estado.niveis,
            nivelAtual: estado.nivelAtual,
            ciclo: estado.ciclo,
            valorAprovado: estado.valorAprovado,
          })
          .where(eq(requisicoes.id, id));
        audit({ registro: id, acao: passo.acao, entidadeId, usuarioId: por.id, antes, depois: { ...estado, ...(motivo ? { motivo } : {}) } });
        if ((REQUISICAO_LIBERA_ITENS as readonly string[]).includes(estado.status)) {
          await atendimento.feedback(tx, ligadas, auditPor(por.id), descricao);
        }
      }
      await atualizarAprovadaEm(tx, id);
      await recalcularGrupos(tx, id);
    }
  });
}

/** 'aaaa-mm-dd' of today + `dias` in São Paulo, never before 1 January of this year (the numbers' year). */
function dia(dias: number): string {
  const hoje = today();
  const d = new Date(`${hoje}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  const out = d.toISOString().slice(0, 10);
  const inicio = `${hoje.slice(0, 4)}-01-01`;
  return out < inicio ? inicio : out;
}
