// Demo catalogue: the products of catalogo-demo.ts, linked to @app/registros' seeded grupos,
// sub-grupos, unidades and tipos de material (looked up by code, sigla or name).
import { type SeedContext, type Tx, comprasBusca } from '@app/server-core';
import { and, eq } from '@app/server-core/orm';
import { type GrupoDemo, type ProdutoDemo, type UnidadeDemo, catalogoDemo } from './catalogo-demo.js';
import { type NovoProduto, insertProdutos } from './importar.js';
import { grupos, subgrupos, tiposMaterial, unidades } from '@app/registros/server';

/** Words searched in the names of registros' grupos when no finer rule applies (first match wins). */
const GRUPO_KEYWORDS: Record<GrupoDemo, string[]> = {
  expediente: ['expediente', 'escritorio', 'papelaria'],
  limpeza: ['material de limpeza', 'limpeza', 'higiene'],
  alimentos: ['aliment', 'genero', 'merenda'],
  medicamentos: ['medicament', 'farmac', 'hospitalar', 'saude'],
  informatica: ['informatica', 'tecnologia', 'processamento de dados'],
  servicos: ['servico'],
};

/** Where a demo product goes: keywords of the grupo and of the sub-grupo names, best first. */
function placement(p: ProdutoDemo): { grupo: string[]; sub: string[] } {
  const d = comprasBusca(p.descricao);
  const base = GRUPO_KEYWORDS[p.grupo];
  switch (p.subGrupo) {
    case 'Papelaria':
    case 'Envelopes':
      return { grupo: base, sub: ['papelaria'] };
    case 'Escrita e correção':
      return { grupo: base, sub: ['escrita'] };
    case 'Arquivo':
    case 'Fixação':
    case 'Utensílios':
      return { grupo: base, sub: ['organizacao', 'arquivo'] };
    case 'Saneantes':
      return { grupo: base, sub: ['quimicos'] };
    case 'Higiene':
    case 'Descartáveis':
      return { grupo: base, sub: /sabonete/.test(d) ? ['quimicos'] : ['descartaveis', 'papeis'] };
    case 'Utensílios de limpeza':
    case 'EPI':
      return { grupo: base, sub: ['utensilios'] };
    case 'Estocáveis':
      if (/acucar|doce|goiabada/.test(d)) return { grupo: base, sub: ['acucar'] };
      if (/cafe|cha |achocolatado|leite/.test(d)) return { grupo: base, sub: ['cafe'] };
      if (/oleo|margarina/.test(d)) return { grupo: base, sub: ['oleos'] };
      return { grupo: base, sub: ['cereais'] };
    case 'Carnes e ovos':
      return { grupo: base, sub: ['carnes'] };
    case 'Hortifrutigranjeiros':
      return { grupo: base, sub: ['hortifruti'] };
    case 'Analgésicos e anti-inflamatórios':
      return { grupo: base, sub: ['analgesicos'] };
    case 'Antibióticos':
      return { grupo: base, sub: ['antibioticos'] };
    case 'Cardiovasculares':
      return { grupo: base, sub: /sinvastatina/.test(d) ? [] : ['hipertensivos'] };
    case 'Material médico-hospitalar':
      return { grupo: ['hospitalar', ...base], sub: /seringa|agulha|cateter/.test(d) ? ['seringas'] : /mascara|luva/.test(d) ? ['luvas'] : [] };
    case 'Suprimentos de impressão':
      return { grupo: base, sub: ['cartuchos', 'toner'] };
    case 'Periféricos':
      return { grupo: base, sub: ['perifericos'] };
    case 'Manutenção predial':
      return { grupo: ['manutencao', ...base], sub: /ar-condicionado/.test(d) ? ['ar-condicionado'] : ['predial'] };
    case 'Conservação e limpeza':
      return { grupo: ['limpeza e conservacao', 'conservacao', ...base], sub: /limpeza|portaria/.test(d) ? ['limpeza de predios'] : [] };
    case 'Transporte e veículos':
      return { grupo: ['manutencao', ...base], sub: /mecanica|lavagem|guincho/.test(d) ? ['veiculos'] : [] };
    default:
      return { grupo: base, sub: [] };
  }
}

/** Siglas (or descriptions) tried for each unit of the demo catalogue, in order. */
const UNIDADE_CANDIDATES: Record<UnidadeDemo, string[]> = {
  UN: ['UN', 'UND', 'UNID', 'unidade'],
  CX: ['CX', 'caixa'],
  PCT: ['PCT', 'PC', 'PACOTE', 'pacote'],
  RESMA: ['RESMA', 'RS', 'RM', 'resma'],
  KG: ['KG', 'quilograma'],
  G: ['G', 'GR', 'grama'],
  L: ['L', 'LT', 'litro'],
  LT: ['LT', 'L', 'litro'],
  ML: ['ML', 'mililitro'],
  FR: ['FR', 'FRASCO', 'frasco'],
  GL: ['GL', 'GALAO', 'galão'],
  CP: ['CP', 'COMP', 'CPR', 'comprimido'],
  CAP: ['CAP', 'CPS', 'capsula', 'CP'],
  AMP: ['AMP', 'AMPOLA', 'ampola'],
  BG: ['BG', 'BOLSA', 'bolsa'],
  TB: ['TB', 'BISNAGA', 'bisnaga', 'tubo'],
  PAR: ['PAR', 'PR', 'par'],
  RL: ['RL', 'ROLO', 'rolo'],
  DZ: ['DZ', 'DUZIA', 'dúzia'],
  FD: ['FD', 'FARDO', 'fardo', 'PCT'],
  M: ['M', 'MT', 'metro'],
  M2: ['M2', 'M²', 'metro quadrado'],
  H: ['H', 'HR', 'HORA', 'hora'],
  MES: ['MES', 'MÊS', 'mês', 'mensal', 'SV'],
  DIA: ['DIA', 'DI', 'diária', 'dia', 'SV'],
  KM: ['KM', 'quilômetro', 'quilometro', 'SV'],
  SV: ['SV', 'SERV', 'SRV', 'serviço'],
};

/** The demo catalogue resolved against the entidade's registries (products without a grupo or unit are left out). */
export async function resolveCatalogo(tx: Tx, entidadeId: string, catalogo: readonly ProdutoDemo[]): Promise<{ rows: NovoProduto[]; missing: string[] }> {
  // one after the other: inside a transaction they share one connection
  const g = await tx
    .select()
    .from(grupos)
    .where(and(eq(grupos.entidadeId, entidadeId), eq(grupos.ativo, true)));
  const s = await tx
    .select()
    .from(subgrupos)
    .where(and(eq(subgrupos.entidadeId, entidadeId), eq(subgrupos.ativo, true)));
  const u = await tx
    .select()
    .from(unidades)
    .where(and(eq(unidades.entidadeId, entidadeId), eq(unidades.ativo, true)));
  const t = await tx
    .select()
    .from(tiposMaterial)
    .where(and(eq(tiposMaterial.entidadeId, entidadeId), eq(tiposMaterial.ativo, true)));
  const missing = new Set<string>();
  const findGrupo = (words: string[]) => words.map((w) => g.find((row) => comprasBusca(row.nome).includes(w))).find(Boolean);
  const unidadeOf = new Map<UnidadeDemo, string | undefined>();
  const fallback = u.find((row) => row.sigla === 'UN') ?? u[0];
  for (const [key, candidates] of Object.entries(UNIDADE_CANDIDATES) as [UnidadeDemo, string[]][]) {
    const found = candidates
      .map((c) => u.find((row) => row.sigla === c.toUpperCase()) ?? u.find((row) => comprasBusca(row.descricao) === comprasBusca(c)))
      .find(Boolean);
    unidadeOf.set(key, (found ?? fallback)?.id);
  }
  const tipoOf = (key: 'consumo' | 'permanente') => t.find((row) => comprasBusca(row.nome).includes(key))?.id ?? null;
  const rows: NovoProduto[] = [];
  for (const p of catalogo) {
    const where = placement(p);
    const grupo = findGrupo(where.grupo);
    const unidadeId = unidadeOf.get(p.unidade);
    if (!grupo || !unidadeId) {
      missing.add(grupo ? `unidade '${p.unidade}'` : `grupo '${p.grupo}'`);
      continue;
    }
    const subs = s.filter((row) => row.grupoId === grupo.id);
    const sub = where.sub.map((w) => subs.find((row) => comprasBusca(row.nome).includes(w))).find(Boolean);
    rows.push({
      codigo: null,
      descricao: p.descricao,
      tipo: p.tipo,
      grupoId: grupo.id,
      subGrupoId: sub?.id ?? null,
      unidadeId,
      tipoMaterialId: p.tipoMaterial ? tipoOf(p.tipoMaterial) : null,
      codigoCatalogo: null,
      especificacao: p.especificacao,
      ativo: true,
    });
  }
  if (u.length === 0) missing.add('unidades');
  return { rows, missing: [...missing] };
}

/** Seeds the whole catalogue for the prefeitura and the office supplies and IT items for the câmara. */
export async function seedProdutos(ctx: SeedContext): Promise<void> {
  const catalogo = catalogoDemo();
  const plans = [
    { entidade: ctx.entidades.prefeitura, items: catalogo },
    { entidade: ctx.entidades.camara, items: catalogo.filter((p) => p.grupo === 'expediente' || p.grupo === 'informatica').slice(0, 60) },
  ];
  for (const { entidade, items } of plans) {
    await ctx.mutate(async (tx, audit) => {
      const { rows, missing } = await resolveCatalogo(tx, entidade.id, items);
      if (rows.length === 0) {
        ctx.logger.info(`produtos: sem catálogo de demonstração para '${entidade.nome}' (a entidade não tem grupos nem unidades em Registros)`);
        return;
      }
      if (missing.length) ctx.logger.warn(`produtos: catálogo de demonstração de '${entidade.nome}' sem ${missing.join(', ')} (não cadastrados em Registros)`);
      const stored = await insertProdutos(tx, entidade.id, rows);
      audit({ acao: 'dados_demonstracao', entidadeId: entidade.id, depois: { produtos: stored.length } });
    });
  }
}
