// External price sources of a cotação: a plugin contributes a source to COTACAO_FONTES_EXTERNAS (the
// PNCP integration contributes "Buscar no PNCP": homologated prices of similar contratações, IN 65
// art. 5 II) and the cotação offers it on the collection page:
//   GET  /fontes-externas                               the sources on (none: no button);
//   GET  /cotacoes/:id/fontes-externas/:fonte?…         one page of what the source found for an item, in the
//        year up to the cotação's reference date, each row marked when already a price of the item;
//   POST /cotacoes/:id/fontes-externas/:fonte           the chosen rows become prices of the item: the
//        search is asked again (the source answers from its short cache), and each chosen row is kept
//        as a JSON evidence (the address asked, when, and the row as the source gave it; SHA-256 by the
//        kit) that its price names, in one transaction, audited (evidence and price) like any price.
import { comprasBusca } from '@app/br';
import {
  AppError,
  type DocumentAttachments,
  type DocumentChildren,
  type DocumentResource,
  type PluginRouter,
  type RequestContext,
  badRequest,
  documentAttachmentParent,
  extensionPoint,
  notFound,
} from '@app/server-core';
import { z } from 'zod';
import {
  COTACAO_ABERTA,
  COTACOES_TAG,
  type ConsultaExterna,
  type Fonte,
  type MapaCotacao,
  type PrecoExterno,
  type PrecoListado,
  buscaExternaSchema,
  consultaExternaSchema,
  fonteExternaSchema,
  incluirExternosInputSchema,
  limiteDeIdade,
  precoInputSchema,
  precoListadoSchema,
} from '../shared/index.js';
import { carregarCotacao } from './carregar.js';

/** What a source is asked: the words or code, the period (AAAA-MM-DD) and the page. */
export interface ConsultaPrecosExternos {
  codigo: string | null;
  descricao: string | null;
  dataInicial: string;
  dataFinal: string;
  pagina: number;
}

/** One row a source found, with what it returned for it (kept as the price's evidence). */
export interface PrecoDaFonte extends Omit<PrecoExterno, 'unidadeDiferente' | 'jaIncluido'> {
  original: unknown;
}

/** One page of a source's answer. */
export interface PaginaDaFonte {
  itens: PrecoDaFonte[];
  pagina: number;
  tamanhoPagina: number;
  totalPaginas: number;
  total: number;
  /** The address asked (it goes into the evidence). */
  url: string;
  /** ISO instant of the answer (a cached answer keeps its own). */
  consultadoEm: string;
}

/**
 * A source of prices outside the product. `buscar` throws AppError with a pt-BR message when the source
 * fails (429 when it asks to wait, 503 when it does not answer): the person reads it as it is.
 */
export interface FontePrecosExterna {
  id: string;
  nome: string;
  acao: string;
  descricao: string;
  /** The price's source under art. 5 (the PNCP's similar contratações: 'contrato'). */
  fonte: Exclude<Fonte, 'fornecedor'>;
  buscar(consulta: ConsultaPrecosExternos, ctx: RequestContext): Promise<PaginaDaFonte>;
}

/** Contributed by a plugin (e.g. @app/pncp) to offer its prices in the cotações. */
export const COTACAO_FONTES_EXTERNAS = extensionPoint<FontePrecosExterna>('cotacoes.fontes-externas');

const fonteDe = (ctx: RequestContext, id: string): FontePrecosExterna => {
  const fonte = ctx.contributions(COTACAO_FONTES_EXTERNAS).find((c) => c.value.id === id)?.value;
  if (!fonte) throw notFound('Esta fonte de preços não está disponível.');
  return fonte;
};

/** Letters and digits only, lower case, without accents ('Unidade' → 'unidade', 'Cx.' → 'cx'). */
const semAcento = (s: string) => comprasBusca(s.normalize('NFC')).replace(/[^a-z0-9]/g, '');
/** 'UN' and 'Unidade', 'CX' and 'caixa' are the same unit; 'RESMA' and 'Unidade' are not. */
function mesmaUnidade(a: string, b: string): boolean {
  const x = semAcento(a);
  const y = semAcento(b);
  if (!x || !y) return true;
  if (x === y || x.startsWith(y) || y.startsWith(x)) return true;
  // an abbreviation: its letters in order in the word ('cx' in 'caixa', 'pct' in 'pacote')
  const [curta, longa] = x.length < y.length ? [x, y] : [y, x];
  if (curta.length > 4 || curta[0] !== longa[0]) return false;
  let i = 0;
  for (const ch of longa) if (ch === curta[i]) i++;
  return i === curta.length;
}

/**
 * The item, the search and its period (the source's age limit up to the cotação's reference date, as the
 * evaluation counts it; a year for a source without one), then one page of the source's answer and the
 * rows the item already holds from it: what both routes start from.
 */
async function buscarNaFonte(ctx: RequestContext, mapa: MapaCotacao, fonteId: string, q: ConsultaExterna) {
  const fonte = fonteDe(ctx, fonteId);
  const item = mapa.itens.find((i) => i.produtoId === q.produtoId);
  if (!item) throw badRequest('Verifique os campos destacados.', { produtoId: 'Escolha um item desta cotação.' });
  const dataFinal = mapa.cotacao.dataReferencia.slice(0, 10);
  const dataInicial = limiteDeIdade(dataFinal, fonte.fonte) ?? limiteDeIdade(dataFinal, 'contrato')!;
  const consulta: ConsultaPrecosExternos = { codigo: q.codigo, descricao: q.descricao, dataInicial, dataFinal, pagina: q.pagina };
  const pagina = await fonte.buscar(consulta, ctx);
  return { fonte, item, consulta, pagina, ja: incluidos(mapa, item.produtoId) };
}

/** The prices the item already holds from the source (by the text that names the row). */
const incluidos = (mapa: MapaCotacao, produtoId: string) =>
  new Set(mapa.precos.filter((p) => p.produtoId === produtoId && p.fonte !== 'fornecedor').map((p) => p.fonteDescricao));

/** The row's evidence file: what was asked, when, and the row exactly as the source gave it. */
function evidencia(fonte: FontePrecosExterna, pagina: PaginaDaFonte, linha: PrecoDaFonte) {
  const texto = `${JSON.stringify({ fonte: fonte.nome, consulta: pagina.url, consultadoEm: pagina.consultadoEm, registro: linha.original }, null, 2)}\n`;
  const nome = `${fonte.id}-${linha.ref.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '')}.json`;
  return { nome, tipo: 'application/json', bytes: new TextEncoder().encode(texto) };
}

export function registrarFontesExternas(
  router: PluginRouter,
  cotacao: DocumentResource,
  filhos: { precos: DocumentChildren; evidencias: DocumentAttachments },
) {
  const parent = documentAttachmentParent(cotacao, { states: COTACAO_ABERTA });
  const params = z.object({ id: z.string(), fonte: z.string() });

  router.route({
    method: 'get',
    path: '/fontes-externas',
    tag: COTACOES_TAG,
    summary: 'Fontes externas de preços',
    description: 'As fontes que os módulos ligados oferecem às cotações (por exemplo, o PNCP). Vazia: nenhuma.',
    responses: { 200: z.object({ items: z.array(fonteExternaSchema) }) },
    handler: async (c, ctx) =>
      c.json(
        {
          items: ctx
            .contributions(COTACAO_FONTES_EXTERNAS)
            .map(({ value: f }) => ({ id: f.id, nome: f.nome, acao: f.acao, descricao: f.descricao, fonte: f.fonte })),
        },
        200,
      ),
  });

  router.route({
    method: 'get',
    path: '/cotacoes/:id/fontes-externas/:fonte',
    tag: COTACOES_TAG,
    summary: 'Buscar preços de um item numa fonte externa',
    description:
      'Uma página do que a fonte encontrou pelo código do catálogo (CATMAT/CATSER) ou pela descrição, no ano até a data de referência da cotação; cada linha diz se já é preço do item. A fonte pode responder 429 (pediu intervalo) ou 503 (não respondeu), com a mensagem para a pessoa.',
    request: { params, query: consultaExternaSchema },
    responses: {
      200: buscaExternaSchema,
      400: { description: 'Consulta inválida' },
      404: { description: 'Cotação ou fonte não encontrada' },
      429: { description: 'A fonte pediu um intervalo entre consultas' },
      503: { description: 'A fonte não respondeu' },
    },
    handler: async (c, ctx) => {
      const { id, fonte: fonteId } = c.req.valid('param');
      const q = c.req.valid('query') as ConsultaExterna;
      const mapa = await carregarCotacao(ctx.db, ctx, id);
      const { item, consulta, pagina, ja } = await buscarNaFonte(ctx, mapa, fonteId, q);
      return c.json(
        {
          itens: pagina.itens.map(({ original: _o, ...p }) => ({
            ...p,
            unidadeDiferente: !mesmaUnidade(p.unidade, item.unidade),
            jaIncluido: ja.has(p.fonteDescricao),
          })),
          // what was asked (codigo, descricao, the period), and the page as the source answered it
          ...consulta,
          pagina: pagina.pagina,
          tamanhoPagina: pagina.tamanhoPagina,
          totalPaginas: pagina.totalPaginas,
          total: pagina.total,
          consultadoEm: pagina.consultadoEm,
        },
        200,
      );
    },
  });

  router.route({
    method: 'post',
    path: '/cotacoes/:id/fontes-externas/:fonte',
    tag: COTACOES_TAG,
    summary: 'Incluir preços de uma fonte externa',
    description:
      'Repete a busca (com os mesmos campos e a página) e inclui as linhas escolhidas (`refs`) como preços do item, cada uma com a sua evidência em JSON (o endereço consultado, quando, e o registro como a fonte o devolveu, com SHA-256). Só com a cotação aberta; 409 se a linha já é preço do item ou não veio mais na busca.',
    request: { params, body: incluirExternosInputSchema },
    responses: {
      201: z.object({ items: z.array(precoListadoSchema) }),
      400: { description: 'Dados inválidos' },
      404: { description: 'Cotação ou fonte não encontrada' },
      409: { description: 'Cotação fechada, preço já incluído ou busca mudou' },
      429: { description: 'A fonte pediu um intervalo entre consultas' },
      503: { description: 'A fonte não respondeu' },
    },
    handler: async (c, ctx) => {
      const { id, fonte: fonteId } = c.req.valid('param');
      const input = c.req.valid('json');
      const mapa = await carregarCotacao(ctx.db, ctx, id);
      if (!COTACAO_ABERTA.includes(mapa.cotacao.status)) {
        throw new AppError(409, 'locked', 'Só se incluem preços com a cotação em rascunho ou em coleta.');
      }
      const { fonte, item, pagina, ja } = await buscarNaFonte(ctx, mapa, fonteId, input);
      const escolhidos = input.refs.map((ref) => {
        const linha = pagina.itens.find((l) => l.ref === ref);
        if (!linha) throw new AppError(409, 'stale', `A busca em ${fonte.nome} não devolveu mais um dos preços escolhidos: busque de novo.`);
        if (ja.has(linha.fonteDescricao)) throw new AppError(409, 'duplicate', `Este preço já está na cotação: ${linha.fonteDescricao}`);
        const preco = precoInputSchema.safeParse({
          produtoId: item.produtoId,
          fonte: fonte.fonte,
          fonteDescricao: linha.fonteDescricao,
          valorUnitario: linha.valorUnitario,
          marca: null,
          // the result's day, at 00:00 in Brasília (its age counts from it)
          dataColeta: `${linha.data}T03:00:00.000Z`,
          link: linha.link,
          evidenciaId: null,
        });
        if (!preco.success) {
          const motivo = preco.error.issues[0]?.message ?? 'dados inválidos';
          throw badRequest(`O preço de ${linha.orgao} (${linha.data.split('-').reverse().join('/')}) não pode ser incluído: ${motivo}`, { refs: motivo });
        }
        return { linha, preco: preco.data };
      });
      const criados = await ctx.mutate(async (tx, audit) => {
        await parent.lock(tx, ctx, id);
        const out: PrecoListado[] = [];
        for (const { linha, preco } of escolhidos) {
          const ev = await filhos.evidencias.save(tx, ctx, audit, id, evidencia(fonte, pagina, linha));
          out.push((await filhos.precos.perform(tx, ctx, 'create', id, undefined, { ...preco, evidenciaId: ev.id })) as PrecoListado);
        }
        return out;
      });
      return c.json({ items: criados }, 201);
    },
  });
}
