// Demo memorandos of the Prefeitura, one in each state, written the way the routes write them: the
// number from the document counter, items with exact totals, the product usage rows, and one audit
// row per step attributed to the demo user who would have taken it (so each has a timeline).
import { today } from '@app/br';
import { lineTotal, sumMoney } from '@app/documents';
import { produtos, setProdutoUsos } from '@app/produtos/server';
import { centrosCusto } from '@app/registros/server';
import { type SeedContext, type Tx, nextDocumentNumber, recordDocumentAuthor, usuarioEntidades, usuarios } from '@app/server-core';
import { and, asc, eq, sql } from '@app/server-core/orm';
import { formatNumero } from '@app/documents';
import type { MemorandoStatus, Prioridade } from '../shared/index.js';
import { memorandoItens, memorandos } from './tables.js';

type Passo = { acao: 'enviar' | 'aceitar' | 'devolver' | 'arquivar' | 'cancelar'; por: 'origem' | 'destino'; motivo?: string };

interface MemorandoDemo {
  /** Código of the origin centro de custo ('' = the requisitante's own centro). */
  origem: string;
  /** The demo user who writes it ('requisitante', 'admin'). */
  solicitante: string;
  diasAtras: number;
  assunto: string;
  justificativa: string;
  prioridade: Prioridade;
  desejadaEmDias: number | null;
  /** [words searched in the product's description, quantidade, valor unitário]. */
  itens: [string, string, string][];
  passos: Passo[];
}

/** Where the demands go: the contracting sector. */
const DESTINO = '01.01';

const DEMO: MemorandoDemo[] = [
  {
    origem: '',
    solicitante: 'requisitante',
    diasAtras: 40,
    assunto: 'Suprimentos de informática para a secretaria',
    justificativa:
      'Reposição de suprimentos das impressoras e periféricos da sede da secretaria, cujo estoque se esgota no bimestre. Quantidades pelo consumo dos últimos doze meses.',
    prioridade: 'media',
    desejadaEmDias: 30,
    itens: [
      ['toner', '12', '289.90'],
      ['mouse', '15', '34.5'],
      ['teclado', '10', '69.9'],
    ],
    passos: [
      { acao: 'enviar', por: 'origem' },
      { acao: 'aceitar', por: 'destino' },
    ],
  },
  {
    origem: '03',
    solicitante: 'admin',
    diasAtras: 35,
    assunto: 'Medicamentos da farmácia básica — 1º trimestre',
    justificativa:
      'Abastecimento da Assistência Farmacêutica para o trimestre, conforme a relação municipal de medicamentos essenciais (REMUME) e o consumo médio mensal das unidades básicas.',
    prioridade: 'alta',
    desejadaEmDias: 20,
    itens: [
      ['dipirona', '5000', '0.1835'],
      ['paracetamol', '4000', '0.2150'],
      ['amoxicilina', '2000', '0.5490'],
    ],
    passos: [
      { acao: 'enviar', por: 'origem' },
      { acao: 'aceitar', por: 'destino' },
      { acao: 'arquivar', por: 'destino' },
    ],
  },
  {
    origem: '',
    solicitante: 'requisitante',
    diasAtras: 20,
    assunto: 'Gêneros alimentícios para a merenda escolar',
    justificativa:
      'Aquisição de gêneros não perecíveis para a alimentação escolar do semestre, atendendo ao cardápio aprovado pela nutricionista responsável técnica do PNAE.',
    prioridade: 'alta',
    desejadaEmDias: 15,
    itens: [
      ['arroz', '800', '24.9'],
      ['feijao', '500', '8.79'],
      ['oleo de soja', '300', '7.45'],
    ],
    passos: [
      { acao: 'enviar', por: 'origem' },
      {
        acao: 'devolver',
        por: 'destino',
        motivo: 'Informe as quantidades por unidade escolar e anexe o cardápio aprovado pela nutricionista.',
      },
    ],
  },
  {
    origem: '',
    solicitante: 'requisitante',
    diasAtras: 12,
    assunto: 'Serviço de manutenção de ar-condicionado das escolas',
    justificativa:
      'Manutenção preventiva dos aparelhos de ar-condicionado das unidades escolares antes do verão, exigida pelo plano de manutenção, operação e controle (PMOC).',
    prioridade: 'baixa',
    desejadaEmDias: null,
    itens: [['ar-condicionado', '12', '350']],
    passos: [{ acao: 'cancelar', por: 'origem', motivo: 'Demanda atendida pelo contrato de manutenção predial vigente.' }],
  },
  {
    origem: '',
    solicitante: 'requisitante',
    diasAtras: 6,
    assunto: 'Produtos de limpeza para as unidades escolares',
    justificativa: 'Reposição do material de limpeza e higiene das escolas municipais para o bimestre, de acordo com o consumo registrado pelo almoxarifado.',
    prioridade: 'media',
    desejadaEmDias: 20,
    itens: [
      ['detergente', '240', '2.39'],
      ['agua sanitaria', '180', '4.2'],
      ['saco para lixo preto 100', '120', '18.75'],
    ],
    passos: [{ acao: 'enviar', por: 'origem' }],
  },
  {
    origem: '',
    solicitante: 'requisitante',
    diasAtras: 1,
    assunto: 'Material de expediente para as escolas — 1º semestre',
    justificativa:
      'Material de expediente para as secretarias escolares e a sala dos professores no semestre letivo, estimado pelo número de turmas e pelo consumo do ano anterior.',
    prioridade: 'media',
    desejadaEmDias: 45,
    itens: [
      ['papel sulfite', '200', '27.9'],
      ['caneta esferografica azul', '500', '1.15'],
      ['grampeador', '20', '32.5'],
    ],
    passos: [],
  },
];

const ESTADO: Record<Passo['acao'], MemorandoStatus> = {
  enviar: 'enviado',
  aceitar: 'aceito',
  devolver: 'devolvido',
  arquivar: 'arquivado',
  cancelar: 'cancelado',
};

/** 'aaaa-mm-dd' of today + `dias` in São Paulo, never before 1 January of this year (the numbers' year). */
function dia(dias: number): string {
  const hoje = today();
  const d = new Date(`${hoje}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  const out = d.toISOString().slice(0, 10);
  const inicio = `${hoje.slice(0, 4)}-01-01`;
  return out < inicio ? inicio : out;
}

async function usuario(tx: Tx, login: string, entidadeId: string) {
  const [row] = await tx
    .select({ id: usuarios.id, nome: usuarios.nome, centros: usuarioEntidades.centrosCusto })
    .from(usuarios)
    .leftJoin(usuarioEntidades, and(eq(usuarioEntidades.usuarioId, usuarios.id), eq(usuarioEntidades.entidadeId, entidadeId)))
    .where(sql`lower(${usuarios.login}) = ${login}`);
  return row;
}

export async function seedMemorandos(ctx: SeedContext): Promise<void> {
  const entidadeId = ctx.entidades.prefeitura.id;
  await ctx.mutate(async (tx, audit) => {
    const centros = await tx
      .select({ id: centrosCusto.id, codigo: centrosCusto.codigo })
      .from(centrosCusto)
      .where(and(eq(centrosCusto.entidadeId, entidadeId), eq(centrosCusto.ativo, true)));
    const centroId = (codigo: string) => centros.find((c) => c.codigo === codigo)?.id;
    const destinoId = centroId(DESTINO);
    if (!destinoId) return;
    const admin = { ...(await usuario(tx, 'admin', entidadeId))!, id: ctx.usuarios.admin.id };
    const requisitante = (await usuario(tx, 'requisitante', entidadeId)) ?? admin;
    // who answers for the contracting sector: the comprador (Compras e Licitações), else the administrator
    const comprador = (await usuario(tx, 'comprador', entidadeId)) ?? admin;
    const produtoDe = async (palavras: string) => {
      const [row] = await tx
        .select({ id: produtos.id })
        .from(produtos)
        .where(and(eq(produtos.entidadeId, entidadeId), eq(produtos.ativo, true), sql`${produtos.busca} LIKE ${`%${palavras}%`}`))
        .orderBy(asc(produtos.codigo))
        .limit(1);
      return row?.id;
    };

    for (const demo of DEMO) {
      const solicitante = demo.solicitante === 'requisitante' ? requisitante : admin;
      // annotated: inferring it through the loop's narrowing of destinoId is circular for TypeScript
      const origemId: string | undefined = demo.origem ? centroId(demo.origem) : (solicitante.centros?.find((c) => c !== destinoId) ?? centroId('02'));
      if (!origemId || origemId === destinoId) continue;
      const linhas: { produtoId: string; quantidade: string; valorUnitario: string; valorTotal: string }[] = [];
      for (const [palavras, quantidade, valorUnitario] of demo.itens) {
        const produtoId = await produtoDe(palavras);
        if (produtoId && !linhas.some((l) => l.produtoId === produtoId)) {
          linhas.push({ produtoId, quantidade, valorUnitario, valorTotal: lineTotal(quantidade, valorUnitario) });
        }
      }
      if (linhas.length === 0) continue;

      const { numero, ano } = await nextDocumentNumber(tx, { entidadeId, tipo: 'memorandos/memorandos' });
      const header = {
        numero,
        ano,
        data: dia(-demo.diasAtras),
        status: 'rascunho' as MemorandoStatus,
        origemId,
        destinoId,
        solicitanteId: solicitante.id,
        solicitanteNome: solicitante.nome,
        assunto: demo.assunto,
        justificativa: demo.justificativa,
        prioridade: demo.prioridade,
        dataDesejada: demo.desejadaEmDias === null ? null : dia(demo.desejadaEmDias - demo.diasAtras + 60),
        // demands for next year's Plano de Contratações Anual (@app/pca)
        anoPca: Number(today().slice(0, 4)) + 1,
        valorTotal: sumMoney(linhas.map((l) => l.valorTotal)),
      };
      const [row] = await tx
        .insert(memorandos)
        .values({ ...header, entidadeId })
        .returning({ id: memorandos.id });
      const id = row!.id;
      // its author, as the document kit records it (segregation of duties; only authors edit a draft)
      await recordDocumentAuthor(tx, { entidadeId, documentoId: id, usuarioId: solicitante.id, papel: 'autor' });
      await tx.insert(memorandoItens).values(linhas.map((l, i) => ({ ...l, memorandoId: id, entidadeId, ordem: i + 1 })));
      // the PCA category from the product, as the routes default it (material → 1, serviço → 2)
      await tx.execute(sql`UPDATE memorando_itens i SET categoria_item_pca = CASE p.tipo WHEN 'servico' THEN 2 ELSE 1 END
        FROM produtos p WHERE i.memorando_id = ${id} AND p.id = i.produto_id`);
      await setProdutoUsos(
        tx,
        { entidadeId, origem: 'memorandos', documentoId: id, descricao: `Memorando ${formatNumero(numero, ano)}` },
        linhas.map((l) => l.produtoId),
      );
      const itens = linhas.map((l, i) => ({ ordem: i + 1, ...l }));
      audit({ registro: id, acao: 'criar', entidadeId, usuarioId: solicitante.id, depois: { ...header, version: 1, itens } });

      let status = header.status;
      let version = 1;
      for (const passo of demo.passos) {
        const novo = ESTADO[passo.acao];
        audit({
          registro: id,
          acao: passo.acao,
          entidadeId,
          usuarioId: passo.por === 'origem' ? solicitante.id : comprador.id,
          antes: { status, version },
          depois: { status: novo, version: version + 1, ...(passo.motivo ? { motivo: passo.motivo } : {}) },
        });
        status = novo;
        version += 1;
      }
      if (version > 1) await tx.update(memorandos).set({ status, version }).where(eq(memorandos.id, id));
    }
  });
}
