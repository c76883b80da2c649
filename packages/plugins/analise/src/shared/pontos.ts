// The prices of a history as the API sends them: one array per field, in order (price i is index i of
// every array), and each repeated text — the source, the document, the supplier, the source's
// description, the atypical reason — once in a dictionary, the arrays holding its index. Tens of
// thousands of prices repeat a few dozen suppliers and a few thousand documents: the answer is a fraction
// of one object per price. Pure and zod-free (the page imports it too); every value stays an exact
// decimal string.
/** Where a price of the history comes from. */
export const ORIGENS_PRECO = ['coletado', 'estimado_cotacao', 'estimado_requisicao'] as const;
export type OrigemPreco = (typeof ORIGENS_PRECO)[number];

/** One price of the history, as the page, the tooltip and the report read it. */
export interface PontoPreco {
  /** The day of the price in America/Sao_Paulo, 'aaaa-mm-dd'. */
  data: string;
  /** Unit price, exact decimal string ('27.90', '0.0125'). */
  valor: string;
  origem: OrigemPreco;
  /** The source in pt-BR: 'Fornecedor', 'Painel de preços'…, 'Preço estimado da cotação', 'Valor estimado da requisição'. */
  fonte: string;
  /** What the person wrote about the source of a collected price (site, contract, invoice…). */
  descricao: string | null;
  /** 'Cotação 3/2026', 'Requisição 8/2026'. */
  documento: string;
  /** The document's page. */
  href: string;
  fornecedor: string | null;
  /** Why the price is atypical (outside 75% to 125% of the median), or null. */
  atipico: string | null;
}

/** The prices, one array per field (the same length); the texts as indexes into `DicionariosPrecos`. */
export interface ColunasPrecos {
  data: string[];
  valor: string[];
  fonte: number[];
  documento: number[];
  fornecedor: (number | null)[];
  descricao: (number | null)[];
  atipico: (number | null)[];
}

/** Each text of the prices once. */
export interface DicionariosPrecos {
  fontes: { origem: OrigemPreco; nome: string }[];
  documentos: { rotulo: string; href: string }[];
  fornecedores: string[];
  descricoes: string[];
  motivos: string[];
}

/** Texts to indexes, in the order first seen. */
class Dicionario<T> {
  readonly itens: T[] = [];
  private readonly indices = new Map<string, number>();
  indice(chave: string, item: () => T): number {
    let i = this.indices.get(chave);
    if (i === undefined) {
      i = this.itens.length;
      this.itens.push(item());
      this.indices.set(chave, i);
    }
    return i;
  }
}

/** Writes the prices as columns and dictionaries (the API's answer); `pontosDe` reads them back. */
export class ColetorPrecos {
  readonly colunas: ColunasPrecos = { data: [], valor: [], fonte: [], documento: [], fornecedor: [], descricao: [], atipico: [] };
  private readonly fontes = new Dicionario<DicionariosPrecos['fontes'][number]>();
  private readonly documentos = new Dicionario<DicionariosPrecos['documentos'][number]>();
  private readonly fornecedores = new Dicionario<string>();
  private readonly descricoes = new Dicionario<string>();
  private readonly motivos = new Dicionario<string>();

  add(p: PontoPreco): void {
    const c = this.colunas;
    c.data.push(p.data);
    c.valor.push(p.valor);
    c.fonte.push(this.fontes.indice(`${p.origem}\u0000${p.fonte}`, () => ({ origem: p.origem, nome: p.fonte })));
    c.documento.push(this.documentos.indice(`${p.href}\u0000${p.documento}`, () => ({ rotulo: p.documento, href: p.href })));
    c.fornecedor.push(p.fornecedor === null ? null : this.fornecedores.indice(p.fornecedor, () => p.fornecedor!));
    c.descricao.push(p.descricao === null ? null : this.descricoes.indice(p.descricao, () => p.descricao!));
    c.atipico.push(p.atipico === null ? null : this.motivos.indice(p.atipico, () => p.atipico!));
  }

  get dicionarios(): DicionariosPrecos {
    return {
      fontes: this.fontes.itens,
      documentos: this.documentos.itens,
      fornecedores: this.fornecedores.itens,
      descricoes: this.descricoes.itens,
      motivos: this.motivos.itens,
    };
  }
}

/** How many prices the columns hold. */
export const quantidadeDePontos = (p: { pontos: ColunasPrecos }): number => p.pontos.data.length;

/** Price i of the answer as one object (i from 0 to quantidadeDePontos − 1). */
export function pontoDe(p: { pontos: ColunasPrecos; dicionarios: DicionariosPrecos }, i: number): PontoPreco {
  const { pontos: c, dicionarios: d } = p;
  const fonte = d.fontes[c.fonte[i]!]!;
  const documento = d.documentos[c.documento[i]!]!;
  const texto = (lista: string[], indice: number | null | undefined) => (indice === null || indice === undefined ? null : (lista[indice] ?? null));
  return {
    data: c.data[i]!,
    valor: c.valor[i]!,
    origem: fonte.origem,
    fonte: fonte.nome,
    descricao: texto(d.descricoes, c.descricao[i]),
    documento: documento.rotulo,
    href: documento.href,
    fornecedor: texto(d.fornecedores, c.fornecedor[i]),
    atipico: texto(d.motivos, c.atipico[i]),
  };
}

/** Every price of the answer as objects, oldest first. */
export function pontosDe(p: { pontos: ColunasPrecos; dicionarios: DicionariosPrecos }): PontoPreco[] {
  return Array.from({ length: quantidadeDePontos(p) }, (_, i) => pontoDe(p, i));
}
