// Análise de consumo e preços at /reports (the kit's RELATORIOS point): the figures of GET /api/analise/consumo
// and GET /api/analise/precos, read by the same functions (./consumo.ts, ./precos.ts), so in the person's
// centros de custo and exactly as the API answers them. The filters offer the page's choices (./opcoes.ts).
import { today } from '@app/br';
import { type ReportFilters, type ReportOption, type RequestContext, badRequest, defineReport } from '@app/server-core';
import { graficoConsumo, graficoPrecos } from './graficos.js';
import {
  ANALISE_TAG,
  type Agrupamento,
  MAX_MESES,
  filtrosConsumoSchema,
  filtrosPrecosSchema,
  isMes,
  pontoDe,
  quantidadeDePontos,
  rotuloMes,
  somarMeses,
} from '../shared/index.js';
import { consumo } from './consumo.js';
import { centros, grupos, nucleos, produtos, subgrupos } from './opcoes.js';
import { precos } from './precos.js';

const GRUPO = 'Análise de consumo e preços';

const opcoes = async (lista: Promise<{ id: string; nome: string }[]>): Promise<ReportOption[]> => (await lista).map((o) => ({ value: o.id, label: o.nome }));
const catalogo = async (ctx: RequestContext) => opcoes(produtos(ctx, '', null).then((r) => r.items));
const produtoFiltro = { name: 'produto', label: 'Produto ou serviço', kind: 'select', options: catalogo } as const;

/** A zod issue of the API's filters as the report's 400, naming the report's filter. */
function recusar(issue: { path: PropertyKey[]; message: string } | undefined, campos: Record<string, string>): never {
  const campo = campos[String(issue?.path[0])] ?? String(issue?.path[0]);
  const mensagem = issue?.message ?? 'Filtro inválido.';
  throw badRequest(mensagem, { [campo]: mensagem });
}

// ---------------------------------------------------------------------------------------------
// Consumo por centro de custo e mês

/** 'mm/aaaa' (or 'aaaa-mm') → 'aaaa-mm'; null when it is no month. */
function mesDe(texto: string | undefined): string | null {
  const m = /^(\d{2})\/(\d{4})$/.exec(texto ?? '');
  const mes = m ? `${m[2]}-${m[1]}` : (texto ?? '');
  return isMes(mes) ? mes : null;
}
const mmaaaa = (mes: string) => `${mes.slice(5, 7)}/${mes.slice(0, 4)}`;

const AGRUPAR: { value: Agrupamento; label: string }[] = [
  { value: 'centro', label: 'Centro de custo' },
  { value: 'nucleo', label: 'Núcleo de consumo' },
  { value: 'grupo', label: 'Grupo' },
];
/** The API's filters named as the report's. */
const CAMPOS_CONSUMO: Record<string, string> = {
  centroCustoId: 'centro',
  nucleoId: 'nucleo',
  grupoId: 'grupo',
  subgrupoId: 'subgrupo',
  produtoId: 'produto',
};

export const consumoRelatorio = defineReport({
  id: 'analise.consumo',
  title: 'Consumo por centro de custo e mês',
  description:
    'Quantidade e valor dos itens das requisições aprovadas, por centro de custo (ou núcleo de consumo, ou grupo) e mês da aprovação, com zero nos meses sem consumo; ' +
    `só os seus centros de custo, período de até ${MAX_MESES} meses. Por núcleo, um centro de custo que está em dois núcleos conta em cada um.`,
  group: GRUPO,
  tag: ANALISE_TAG,
  filters: [
    { name: 'de', label: 'Mês inicial (mm/aaaa)', kind: 'text', required: true, default: () => mmaaaa(somarMeses(today().slice(0, 7), -11)) },
    { name: 'ate', label: 'Mês final (mm/aaaa)', kind: 'text', required: true, default: () => mmaaaa(today().slice(0, 7)) },
    { name: 'por', label: 'Uma linha por', kind: 'select', options: AGRUPAR, required: true, default: 'centro' },
    { name: 'centro', label: 'Centro de custo', kind: 'select', options: (ctx) => opcoes(centros(ctx)) },
    { name: 'nucleo', label: 'Núcleo de consumo', kind: 'select', options: (ctx) => opcoes(nucleos(ctx)) },
    { name: 'grupo', label: 'Grupo', kind: 'select', options: (ctx) => opcoes(grupos(ctx)) },
    {
      name: 'subgrupo',
      label: 'Subgrupo',
      kind: 'select',
      // 'Material de expediente › Papelaria': two grupos may have subgrupos of the same name
      options: async (ctx) => {
        const nomes = new Map((await grupos(ctx)).map((g) => [g.id, g.nome]));
        return (await subgrupos(ctx)).map((s) => ({ value: s.id, label: `${nomes.get(s.grupoId) ?? ''} › ${s.nome}` }));
      },
    },
    produtoFiltro,
  ],
  columns: [
    { key: 'nome', label: 'Centro de custo, núcleo ou grupo' },
    { key: 'mes', label: 'Mês' },
    { key: 'quantidade', label: 'Quantidade', type: 'decimal', total: true },
    { key: 'valor', label: 'Valor', type: 'money', total: true },
  ],
  chart: (linhas) => graficoConsumo(linhas),
  async load(ctx, f: ReportFilters, limit) {
    const de = mesDe(f.de);
    const ate = mesDe(f.ate);
    if (!de) throw badRequest('Mês inicial: use mm/aaaa, por exemplo 01/2026.', { de: 'Use mm/aaaa, por exemplo 01/2026.' });
    if (!ate) throw badRequest('Mês final: use mm/aaaa, por exemplo 12/2026.', { ate: 'Use mm/aaaa, por exemplo 12/2026.' });
    const filtros = filtrosConsumoSchema.safeParse({
      de,
      ate,
      por: f.por,
      centroCustoId: f.centro,
      nucleoId: f.nucleo,
      grupoId: f.grupo,
      subgrupoId: f.subgrupo,
      produtoId: f.produto,
    });
    if (!filtros.success) recusar(filtros.error.issues[0], CAMPOS_CONSUMO);
    const c = await consumo(ctx, filtros.data);
    // the series in the API's order (highest total first), each month of the period
    return c.series.flatMap((s) => s.meses.map((v, i) => ({ nome: s.nome, mes: rotuloMes(c.meses[i]!), ...v }))).slice(0, limit);
  },
});

// ---------------------------------------------------------------------------------------------
// Histórico de preços por produto

export const historicoPrecos = defineReport({
  id: 'analise.historico-precos',
  title: 'Histórico de preços por produto',
  description:
    'Os preços unitários do produto ou serviço, do mais antigo ao mais recente: os coletados nas cotações, o preço estimado das cotações concluídas e o valor estimado das requisições, ' +
    'com a fonte, o fornecedor, o documento e os preços atípicos (fora de 75% a 125% da mediana); só documentos dos seus centros de custo.',
  group: GRUPO,
  tag: ANALISE_TAG,
  filters: [
    { ...produtoFiltro, required: true },
    { name: 'de', label: 'Data inicial', kind: 'date' },
    { name: 'ate', label: 'Data final', kind: 'date', notBefore: 'de' },
  ],
  columns: [
    { key: 'data', label: 'Data', type: 'date' },
    { key: 'fonte', label: 'Fonte' },
    { key: 'fornecedor', label: 'Fornecedor' },
    { key: 'documento', label: 'Documento' },
    // a unit value keeps its four places (money would show two)
    { key: 'valor', label: 'Preço unitário (R$)', type: 'decimal' },
    { key: 'atipico', label: 'Atípico' },
    { key: 'motivo', label: 'Por que é atípico' },
  ],
  chart: (linhas) => graficoPrecos(linhas),
  async load(ctx, f, limit) {
    const filtros = filtrosPrecosSchema.safeParse({ produtoId: f.produto, de: f.de, ate: f.ate });
    if (!filtros.success) recusar(filtros.error.issues[0], { produtoId: 'produto' });
    const resposta = await precos(ctx, filtros.data);
    const n = Math.min(quantidadeDePontos(resposta), limit);
    return Array.from({ length: n }, (_, i) => pontoDe(resposta, i)).map((p) => ({
      data: p.data,
      fonte: p.fonte,
      fornecedor: p.fornecedor,
      documento: p.documento,
      valor: p.valor,
      atipico: p.atipico ? 'Sim' : 'Não',
      motivo: p.atipico,
    }));
  },
});
