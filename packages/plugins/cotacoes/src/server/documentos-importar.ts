// The import of a supplier's filled quote form (the XLSX of documentos-formulario.ts): the file is read
// in the spreadsheet worker (its table found by the header starting with 'Nº', the title block above
// it kept), checked to be the form of THIS cotação and THIS supplier, and every row validated by the
// spreadsheet kit (importRows, like the catalogue import): the item belongs to the cotação (by the
// hidden key, or by its code), the price is a positive decimal with at most 4 places (pt-BR or a plain
// number; empty = not quoted), the brand has at most 200 characters; the proposal's date and validity
// come from the title block. One problem anywhere → 400 listing every line, nothing saved; else the
// answer is saved by the invitations' action 'resposta' (which replaces the supplier's previous answer) and audited.
import { createHash } from 'node:crypto';
import { comprasBusca, formatDate, today } from '@app/br';
import {
  AppError,
  type DocumentChildren,
  type ImportError,
  type ParsedSheet,
  type RequestContext,
  type RowProblem,
  type ValidRow,
  badRequest,
  detectFormat,
  importRows,
  normalizeHeader,
  notFound,
  readSpreadsheetInWorker,
  type UploadedFile,
} from '@app/server-core';
import { z } from 'zod';
import { type Convite, type ItemCotacao, MAX_ITENS, type MapaCotacao, type RespostaInput, precoSchema, respostaInputSchema } from '../shared/index.js';
import { carregarCotacao } from './carregar.js';
import { exigirColeta } from './comum.js';
import { FORMULARIO, lerChaveFormulario } from './documentos-formulario.js';

/** The filled form is small (500 items: ~40 KB); this bounds what a request may send. */
export const IMPORTACAO_MAX_BYTES = 5 * 1024 * 1024;

/** The table's columns (header as in the form → field); the kit checks the header against them. */
const COLUNAS = {
  [FORMULARIO.numero]: 'numero',
  [FORMULARIO.codigo]: { field: 'codigo', required: true },
  [FORMULARIO.descricao]: 'descricao',
  [FORMULARIO.unidade]: 'unidade',
  [FORMULARIO.quantidade]: 'quantidade',
  [FORMULARIO.preco]: { field: 'valorUnitario', required: true },
  [FORMULARIO.marca]: 'marca',
  [FORMULARIO.chave]: 'chave',
};

/** One row of the file (the fixed columns nº, descrição, unidade and quantidade are not read back). */
const linhaSchema = z.object({
  codigo: z.string().optional(),
  chave: z.string().optional(),
  /** Empty: the supplier did not quote the item. */
  valorUnitario: precoSchema.optional(),
  marca: z.string().trim().max(200, 'Use no máximo 200 caracteres.').optional(),
});
type Linha = z.output<typeof linhaSchema> & { produtoId?: string };

/** 'dd/mm/aaaa' (also d/m/aaaa, 'aaaa-mm-dd'), with an optional 'hh:mm' → the day and the time; null when not a date. */
function lerData(texto: string): { dia: string; hora: string | null } | null {
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::\d{2})?)?$/.exec(texto.trim());
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(texto.trim());
  if (!br && !iso) return null;
  const [ano, mes, dia] = br ? [+br[3]!, +br[2]!, +br[1]!] : [+iso![1]!, +iso![2]!, +iso![3]!];
  const d = new Date(Date.UTC(ano, mes - 1, dia));
  if (ano < 1900 || d.getUTCFullYear() !== ano || d.getUTCMonth() !== mes - 1 || d.getUTCDate() !== dia) return null;
  const p2 = (n: number) => String(n).padStart(2, '0');
  const hora = br?.[4] ? `${p2(+br[4])}:${br[5]}` : null;
  if (hora && (+br![4]! > 23 || +br![5]! > 59)) return null;
  return { dia: `${ano}-${p2(mes)}-${p2(dia)}`, hora };
}

/** The proposal's date, validity and the form's key, from the title block; problems as lines of the file. */
function lerCabecalho(sheet: ParsedSheet, mapa: MapaCotacao, convite: Convite, erros: ImportError[]): { dataProposta: string; validade: string | null } | null {
  const preamble = sheet.preamble ?? [];
  const numero = `${mapa.cotacao.numero}/${mapa.cotacao.ano}`;
  const chave = preamble
    .flatMap((r) => r.values.map((v) => ({ linha: r.linha, chave: lerChaveFormulario(v), titulo: r.values[0] ?? '' })))
    .find((c) => c.chave);
  if (!chave?.chave) {
    erros.push({
      linha: 1,
      coluna: '',
      motivo: `A identificação do formulário não foi encontrada: baixe o formulário deste fornecedor na cotação nº ${numero}, preencha-o e envie o mesmo arquivo.`,
    });
  } else if (chave.chave.cotacaoId !== mapa.cotacao.id) {
    const outra = /nº\s*(\d+\/\d{4})/.exec(chave.titulo)?.[1];
    erros.push({
      linha: chave.linha,
      coluna: '',
      motivo: `Este arquivo é o formulário de outra cotação${outra ? ` (nº ${outra})` : ''}: envie o formulário da cotação nº ${numero}.`,
    });
  } else if (chave.chave.fornecedorId !== convite.fornecedorId) {
    erros.push({ linha: chave.linha, coluna: '', motivo: `Este arquivo é o formulário de outro fornecedor: envie o formulário de ${convite.fornecedorNome}.` });
  }

  const campo = (label: string) => {
    const row = preamble.find((r) => normalizeHeader(r.values[0] ?? '') === normalizeHeader(label));
    return { texto: row?.values[1] ?? '', erro: (motivo: string) => erros.push({ linha: row?.linha ?? 1, coluna: label, motivo }) };
  };
  const data = campo(FORMULARIO.data);
  const validade = campo(FORMULARIO.validade);
  const hoje = today();
  let dataProposta: string | null = null;
  const d = data.texto ? lerData(data.texto) : null;
  if (!data.texto) data.erro('Informe a data da proposta (dd/mm/aaaa).');
  else if (!d) data.erro('Data inválida: use dd/mm/aaaa.');
  else if (d.dia > hoje) data.erro(`A data da proposta não pode ser posterior a hoje (${formatDate(hoje)}).`);
  // Brasília time (UTC−3, no daylight saving since 2019); a date without time is its first minute
  else dataProposta = new Date(`${d.dia}T${d.hora ?? '00:00'}:00-03:00`).toISOString();
  let validadeDia: string | null = null;
  if (validade.texto) {
    const v = lerData(validade.texto);
    if (!v) validade.erro('Data inválida: use dd/mm/aaaa.');
    else if (d && v.dia < d.dia) validade.erro('A validade não pode ser anterior à data da proposta.');
    else validadeDia = v.dia;
  }
  return dataProposta ? { dataProposta, validade: validadeDia } : null;
}

/** The rows' items: by the hidden key, else by the code; each item once; a brand needs a price. */
function conferirItens(itens: readonly ItemCotacao[]) {
  const porId = new Map(itens.map((i) => [i.produtoId, i]));
  const porCodigo = new Map(itens.map((i) => [comprasBusca(i.codigo), i]));
  return async (_db: unknown, rows: ValidRow<Linha>[]): Promise<RowProblem[]> => {
    const problemas: RowProblem[] = [];
    const vistos = new Map<string, number>();
    for (const { linha, data } of rows) {
      const codigo = data.codigo?.trim() ?? '';
      const pelaChave = data.chave ? porId.get(data.chave.trim().toLowerCase()) : undefined;
      const peloCodigo = codigo ? porCodigo.get(comprasBusca(codigo)) : undefined;
      let item: ItemCotacao | undefined;
      if (data.chave) {
        if (!pelaChave) problemas.push({ linha, coluna: 'codigo', motivo: `O item${codigo ? ` ${codigo}` : ''} não pertence a esta cotação.` });
        else if (codigo && peloCodigo !== pelaChave) {
          problemas.push({
            linha,
            coluna: 'codigo',
            motivo: `O código não corresponde ao item desta linha (${pelaChave.codigo}): não altere as colunas fixas do formulário.`,
          });
        } else item = pelaChave;
      } else if (!codigo) problemas.push({ linha, coluna: 'codigo', motivo: 'Informe o código do item.' });
      else if (!peloCodigo) problemas.push({ linha, coluna: 'codigo', motivo: `O item ${codigo} não pertence a esta cotação.` });
      else item = peloCodigo;
      if (!item) continue;
      const antes = vistos.get(item.produtoId);
      if (antes !== undefined) problemas.push({ linha, coluna: 'codigo', motivo: `Item repetido no arquivo (já aparece na linha ${antes}).` });
      else vistos.set(item.produtoId, linha);
      if (!data.valorUnitario && data.marca) {
        problemas.push({ linha, coluna: 'valorUnitario', motivo: 'Informe o preço unitário, ou apague a marca se o item não for cotado.' });
      }
      data.produtoId = item.produtoId;
    }
    return problemas;
  };
}

const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`;

/**
 * 400 listing every problem: `fields.arquivo` sums them up; `fields['linha.N.<Coluna>']` (or
 * `fields['linha.N']` for the whole line) tells what is wrong there.
 */
export function erroPlanilha(erros: ImportError[]): AppError {
  const fields: Record<string, string> = {};
  const linhas = new Set<number>();
  for (const e of [...erros].sort((a, b) => a.linha - b.linha)) {
    linhas.add(e.linha);
    const campo = e.coluna ? `linha.${e.linha}.${e.coluna}` : `linha.${e.linha}`;
    fields[campo] = fields[campo] ? `${fields[campo]} ${e.motivo}` : e.motivo;
  }
  const message = `A planilha tem ${plural(erros.length, 'problema', 'problemas')} em ${plural(linhas.size, 'linha', 'linhas')}: nada foi importado. Corrija e envie de novo.`;
  return new AppError(400, 'validation_error', message, { arquivo: message, ...fields });
}

/**
 * POST /cotacoes/:id/fornecedores/:conviteId/importar: see the module comment. `arquivo` reads the
 * upload (readUploadedFile), after the cotação, the invitation and the state are checked.
 */
export async function importarResposta(
  ctx: RequestContext,
  convites: DocumentChildren,
  cotacaoId: string,
  conviteId: string,
  arquivo: () => Promise<UploadedFile>,
): Promise<Convite> {
  const mapa = await carregarCotacao(ctx.db, ctx, cotacaoId);
  const convite = mapa.convites.find((v) => v.id === conviteId);
  if (!convite) throw notFound();
  exigirColeta(mapa.cotacao.status);

  const file = await arquivo();
  const sheet = await readSpreadsheetInWorker(
    file.bytes,
    detectFormat(file.bytes, file),
    { maxRows: MAX_ITENS + 100, maxBytes: 20 * 1024 * 1024 },
    { headerFirstCell: FORMULARIO.numero },
  );
  if (sheet.headers.length === 0) {
    const message = `O arquivo não é o formulário de cotação: a tabela de itens (coluna "${FORMULARIO.numero}") não foi encontrada. Baixe o formulário do fornecedor e preencha-o.`;
    throw badRequest(message, { arquivo: message });
  }

  const erros: ImportError[] = [];
  const cabecalho = lerCabecalho(sheet, mapa, convite, erros);
  // the rows that passed the schema, resolved to their items by the check (all of them when the file is clean)
  let linhas: ValidRow<Linha>[] = [];
  const conferir = conferirItens(mapa.itens);
  const validacao = await importRows<Linha>({
    ctx,
    rows: sheet,
    schema: linhaSchema,
    columns: COLUNAS,
    dryRun: true,
    maxRows: MAX_ITENS,
    check: (db, rows) => {
      linhas = rows;
      return conferir(db, rows);
    },
  });
  erros.push(...validacao.errors);
  if (validacao.ok && !linhas.some((l) => l.data.valorUnitario)) {
    erros.push({
      linha: linhas[0]?.linha ?? 1,
      coluna: FORMULARIO.preco,
      motivo: 'Nenhum preço informado: preencha o preço unitário dos itens cotados (ou registre que o fornecedor não respondeu).',
    });
  }
  if (erros.length > 0 || !cabecalho) throw erroPlanilha(erros);

  const parsed = respostaInputSchema.safeParse({
    dataProposta: cabecalho.dataProposta,
    validade: cabecalho.validade,
    itens: linhas.map(({ data }) => ({ produtoId: data.produtoId, valorUnitario: data.valorUnitario ?? null, marca: data.marca || null })),
  });
  // the rows passed the same rules above: a failure here is a mismatch of the two, told as a 400
  if (!parsed.success) throw badRequest('Não foi possível ler a resposta da planilha.', { arquivo: parsed.error.issues[0]?.message ?? 'Planilha inválida.' });
  const resposta: RespostaInput = parsed.data;
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  return ctx.mutate(async (tx, audit) => {
    const salvo = (await convites.perform(tx, ctx, 'resposta', cotacaoId, conviteId, resposta)) as Convite;
    audit({
      registro: cotacaoId,
      acao: 'importar_resposta',
      depois: {
        fornecedor: convite.fornecedorNome,
        arquivo: file.filename ?? null,
        sha256,
        linhas: resposta.itens.length,
        precos: resposta.itens.filter((l) => l.valorUnitario !== null).length,
      },
    });
    return salvo;
  });
}
