// "Buscar no PNCP": the PNCP as a price source of the cotações (IN 65 art. 5 II, contratações similares
// up to a year old), contributed to @app/cotacoes' COTACAO_FONTES_EXTERNAS. It reads the homologated
// results of items of Lei 14.133 contratações (PNCP_CONSULTA_URL + /v1/itens-resultado, the route the
// fake models on Compras.gov.br's dados abertos module 3, pca-pncp-reports.md §1.8) by CATMAT/CATSER code
// or description, one page at a time. Public: no credentials. Answers are cached for 5 minutes (the same
// page asked again when the person includes prices is the one they saw, and the PNCP is not asked twice);
// a 204 is "nothing found"; 429, 5xx, timeouts and unreadable answers become pt-BR messages (429 / 503),
// never a retry loop while a person waits.
import type { ConsultaPrecosExternos, FontePrecosExterna, PaginaDaFonte, PrecoDaFonte } from '@app/cotacoes/server';
import { AppError } from '@app/server-core';
import type { PncpConfig } from './config.js';
import { lerJsonDecimais, lerRetryAfter } from './pncp/index.js';

const TAMANHO_PAGINA = 20;
const CACHE_MS = 5 * 60 * 1000;
const CACHE_MAXIMO = 200;

export interface FontePncpOpcoes {
  fetch?: typeof fetch;
  /** Per call (default 15 s: a person is waiting). */
  timeoutMs?: number;
  now?: () => number;
}

type Registro = Record<string, unknown>;
const texto = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());
/** A decimal as the answer gave it (lerJsonDecimais keeps fractions as text; integers come as numbers). */
const decimal = (v: unknown): string | null => {
  const t = texto(v);
  return /^-?\d+(\.\d+)?$/.test(t) ? t : null;
};

/** 'CNPJ-1-SEQ/ANO' → the portal's page of the contratação. */
function linkDaCompra(portal: string, controle: string): string | null {
  const m = /^(\d{14})-\d+-(\d+)\/(\d{4})$/.exec(controle);
  return m ? `${portal}/app/editais/${m[1]}/${m[3]}/${Number(m[2])}` : null;
}

function linha(portal: string, r: Registro): PrecoDaFonte | null {
  const controle = texto(r.numeroControlePNCPCompra ?? r.idCompra);
  const numeroItem = texto(r.numeroItem);
  const sequencial = texto(r.sequencialResultado) || '1';
  const valorUnitario = decimal(r.valorUnitarioHomologado);
  const data = texto(r.dataResultado).slice(0, 10);
  if (!controle || !numeroItem || !valorUnitario || !/^\d{4}-\d{2}-\d{2}$/.test(data)) return null;
  const orgao = texto(r.orgaoEntidadeRazaoSocial) || 'Órgão não informado';
  const municipio = texto(r.unidadeOrgaoMunicipioNome);
  const uf = texto(r.unidadeOrgaoUfSigla);
  const local = municipio && uf ? `${municipio}/${uf}` : municipio || uf || null;
  const fornecedor = texto(r.nomeRazaoSocialFornecedor) || null;
  const nome = `PNCP, contratação ${controle}, item ${numeroItem}, resultado ${sequencial}`;
  const resto = `: ${orgao}${local ? ` (${local})` : ''}${fornecedor ? `; fornecedor ${fornecedor}` : ''}`;
  return {
    ref: `${controle}#${numeroItem}#${sequencial}`,
    descricao: texto(r.descricaoItem) || 'Sem descrição',
    unidade: texto(r.unidadeMedida),
    quantidade: decimal(r.quantidadeHomologada),
    valorUnitario,
    fornecedor,
    orgao,
    local,
    data,
    link: linkDaCompra(portal, controle),
    fonteDescricao: (nome + resto).slice(0, 500),
    original: r,
  };
}

/** The PNCP's consultation of homologated item prices, as an external price source of the cotações. */
export function fontePncp(config: Pick<PncpConfig, 'consultaUrl'>, opcoes: FontePncpOpcoes = {}): FontePrecosExterna {
  const doFetch = opcoes.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const timeoutMs = opcoes.timeoutMs ?? 15_000;
  const agora = opcoes.now ?? Date.now;
  const cache = new Map<string, { expira: number; pagina: PaginaDaFonte }>();

  const consultar = async (url: string, portal: string): Promise<PaginaDaFonte> => {
    let resposta: Response;
    let corpo: string;
    try {
      resposta = await doFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
      corpo = await resposta.text();
    } catch (erro) {
      const tempo = (erro as Error)?.name === 'TimeoutError' || (erro as Error)?.name === 'AbortError';
      throw new AppError(
        503,
        'pncp_indisponivel',
        tempo
          ? `O PNCP não respondeu em ${Math.round(timeoutMs / 1000)} s. Tente de novo em instantes.`
          : 'Não foi possível falar com o PNCP. Tente de novo em instantes.',
      );
    }
    const consultadoEm = new Date(agora()).toISOString();
    if (resposta.status === 204) return { itens: [], pagina: 1, tamanhoPagina: TAMANHO_PAGINA, totalPaginas: 0, total: 0, url, consultadoEm };
    if (resposta.status === 429) {
      const ms = lerRetryAfter(resposta.headers.get('retry-after'), agora());
      const espera = ms === undefined ? 'em instantes' : `em ${Math.max(1, Math.ceil(ms / 1000))} s`;
      throw new AppError(429, 'pncp_limite', `O PNCP pediu um intervalo entre consultas. Tente de novo ${espera}.`);
    }
    if (resposta.status === 404) {
      throw new AppError(
        503,
        'pncp_indisponivel',
        `A consulta de preços do PNCP não foi encontrada em ${new URL(url).origin}: o administrador deve conferir PNCP_CONSULTA_URL.`,
      );
    }
    if (resposta.status >= 500)
      throw new AppError(503, 'pncp_indisponivel', `O PNCP está com problemas (erro ${resposta.status}). Tente de novo em instantes.`);
    const json = corpo.trim() ? lerJsonDecimais(corpo) : undefined;
    if (resposta.status >= 400) {
      const erros = (json as { erros?: { mensagem?: unknown }[] } | undefined)?.erros;
      const detalhe = Array.isArray(erros)
        ? erros
            .map((e) => texto(e?.mensagem))
            .filter(Boolean)
            .join(' ')
        : '';
      throw new AppError(400, 'pncp_consulta', `O PNCP recusou a consulta${detalhe ? `: ${detalhe.replace(/\.+$/, '')}` : ` (erro ${resposta.status})`}.`);
    }
    const envelope = json as { data?: unknown; totalRegistros?: unknown; totalPaginas?: unknown; numeroPagina?: unknown } | undefined;
    if (!envelope || typeof envelope !== 'object' || !Array.isArray(envelope.data)) {
      throw new AppError(503, 'pncp_resposta', 'A resposta do PNCP não pôde ser lida. Tente de novo em instantes.');
    }
    const itens = envelope.data.flatMap((r) => (r && typeof r === 'object' ? [linha(portal, r as Registro)].filter((l) => l !== null) : []));
    return {
      itens,
      pagina: Number(envelope.numeroPagina) || 1,
      tamanhoPagina: TAMANHO_PAGINA,
      totalPaginas: Number(envelope.totalPaginas) || 1,
      total: Number(envelope.totalRegistros) || itens.length,
      url,
      consultadoEm,
    };
  };

  return {
    id: 'pncp',
    nome: 'PNCP',
    acao: 'Buscar no PNCP',
    descricao:
      'Preços homologados de contratações similares publicadas no Portal Nacional de Contratações Públicas (IN 65, art. 5º, II), pelo código CATMAT/CATSER ou pela descrição.',
    fonte: 'contrato',
    async buscar(consulta: ConsultaPrecosExternos) {
      // read per call (a test's fake, or a server's configuration, is known only once it listens)
      const base = config.consultaUrl.replace(/\/+$/, '');
      const q = new URLSearchParams({
        dataInicial: consulta.dataInicial,
        dataFinal: consulta.dataFinal,
        pagina: String(consulta.pagina),
        tamanhoPagina: String(TAMANHO_PAGINA),
      });
      if (consulta.codigo) q.set('codigoItemCatalogo', consulta.codigo);
      if (consulta.descricao) q.set('descricao', consulta.descricao);
      const url = `${base}/v1/itens-resultado?${q}`;
      const guardado = cache.get(url);
      if (guardado && guardado.expira > agora()) return guardado.pagina;
      const pagina = await consultar(url, new URL(base).origin);
      if (cache.size >= CACHE_MAXIMO) {
        for (const [k, v] of cache) if (v.expira <= agora() || cache.size >= CACHE_MAXIMO) cache.delete(k);
      }
      cache.set(url, { expira: agora() + CACHE_MS, pagina });
      return pagina;
    },
  };
}
