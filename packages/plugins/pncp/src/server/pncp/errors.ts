// Errors of the PNCP client and of the plan synchronisation. Every error carries `mensagem`, a pt-BR text for a person,
// and `retentavel`: whether the durable job should try again later (temporary failures and unexpected answers) or stop
// and show the message (data refused, credentials refused). No error ever holds the token, the Authorization header or
// the password: messages are built from status codes and the PNCP's own error texts only.

/** The client's operations (used in messages and logs). */
export type PncpOperacao =
  | 'login'
  | 'inserirPlano'
  | 'sequenciaisPlano'
  | 'inserirItens'
  | 'retificarItens'
  | 'excluirItens'
  | 'excluirPlano'
  | 'listarItens'
  | 'quantidadeItens'
  | 'sincronizar';

const NOME_OPERACAO: Record<PncpOperacao, string> = {
  login: 'o login',
  inserirPlano: 'a inclusão do plano',
  sequenciaisPlano: 'a consulta do plano',
  inserirItens: 'a inclusão de itens',
  retificarItens: 'a retificação de itens',
  excluirItens: 'a exclusão de itens',
  excluirPlano: 'a exclusão do plano',
  listarItens: 'a consulta dos itens',
  quantidadeItens: 'a contagem dos itens',
  sincronizar: 'a publicação do plano',
};

/** How an operation is named in a pt-BR sentence ("a inclusão de itens"). */
export function nomeOperacao(operacao: PncpOperacao): string {
  return NOME_OPERACAO[operacao];
}

export interface PncpErroOpcoes {
  operacao: PncpOperacao;
  status?: number | undefined;
  cause?: unknown;
}

/** Base class: `mensagem` (pt-BR, for a person), `operacao`, `status` (HTTP, when there was an answer), `retentavel`. */
export abstract class PncpErro extends Error {
  readonly mensagem: string;
  readonly operacao: PncpOperacao;
  readonly status: number | undefined;
  abstract readonly retentavel: boolean;

  constructor(mensagem: string, opcoes: PncpErroOpcoes) {
    super(mensagem, opcoes.cause === undefined ? undefined : { cause: opcoes.cause });
    this.mensagem = mensagem;
    this.operacao = opcoes.operacao;
    this.status = opcoes.status;
  }

  /** What a log or a job's output may keep (never a secret: built from the fields above). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, mensagem: this.mensagem, operacao: this.operacao, status: this.status, retentavel: this.retentavel };
  }
}

/** One error the PNCP reported about a field; `numeroItem` when the field points into a batch of items. */
export interface PncpErroCampo {
  campo: string;
  mensagem: string;
  numeroItem?: number;
}

/** 400/422 (or another refusal of the data): never retried; show `erros` to the person. */
export class PncpErroDados extends PncpErro {
  override readonly name = 'PncpErroDados';
  readonly retentavel = false;
  readonly erros: PncpErroCampo[];

  constructor(erros: PncpErroCampo[], opcoes: PncpErroOpcoes & { mensagem?: string }) {
    super(opcoes.mensagem ?? mensagemDados(erros, opcoes.status), opcoes);
    this.erros = erros;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), erros: this.erros };
  }
}

/** 404 on an operation that needs the plan or the items to exist. */
export class PncpErroNaoEncontrado extends PncpErro {
  override readonly name = 'PncpErroNaoEncontrado';
  readonly retentavel = false;

  constructor(opcoes: PncpErroOpcoes) {
    super(`O PNCP não encontrou o plano ou os itens pedidos em ${nomeOperacao(opcoes.operacao)} (404).`, { ...opcoes, status: 404 });
  }
}

export type PncpMotivoTemporario = 'limite' | 'indisponivel' | 'tempo' | 'rede';

/**
 * 429, 5xx, timeout or network error. `incerto` is true when the request may have been carried out by the PNCP even though
 * no answer arrived (a timeout, a dropped connection or a 5xx on an insert): the caller must look at the PNCP's state
 * before sending it again. `retryAfterMs` comes from the `Retry-After` header.
 */
export class PncpErroTemporario extends PncpErro {
  override readonly name = 'PncpErroTemporario';
  readonly retentavel = true;
  readonly motivo: PncpMotivoTemporario;
  readonly retryAfterMs: number | undefined;
  readonly incerto: boolean;

  constructor(opcoes: PncpErroOpcoes & { motivo: PncpMotivoTemporario; retryAfterMs?: number | undefined; incerto?: boolean; timeoutMs?: number }) {
    super(mensagemTemporaria(opcoes.motivo, opcoes.status, opcoes.timeoutMs), opcoes);
    this.motivo = opcoes.motivo;
    this.retryAfterMs = opcoes.retryAfterMs;
    this.incerto = opcoes.incerto ?? false;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), motivo: this.motivo, retryAfterMs: this.retryAfterMs, incerto: this.incerto };
  }
}

/** Login refused, or 401 again right after a new login, or 403: a person must check the credentials in Configuração. */
export class PncpErroAutenticacao extends PncpErro {
  override readonly name = 'PncpErroAutenticacao';
  readonly retentavel = false;

  constructor(mensagem: string, opcoes: PncpErroOpcoes) {
    super(mensagem, opcoes);
  }
}

/**
 * A success status with a body or headers the client cannot read (no `location`, not JSON, wrong shape). Retryable: the
 * synchronisation looks at the PNCP's state on the next attempt (`incerto`: the write may have been carried out).
 */
export class PncpErroResposta extends PncpErro {
  override readonly name = 'PncpErroResposta';
  readonly retentavel = true;
  readonly incerto: boolean;

  constructor(detalhe: string, opcoes: PncpErroOpcoes & { incerto?: boolean }) {
    super(`O PNCP respondeu de forma inesperada a ${nomeOperacao(opcoes.operacao)}: ${detalhe}.`, opcoes);
    this.incerto = opcoes.incerto ?? false;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), incerto: this.incerto };
  }
}

/** Whether a durable job should schedule another attempt for this error. */
export function pncpErroRetentavel(erro: unknown): boolean {
  if (erro instanceof PncpErro) return erro.retentavel;
  return false;
}

/** The pt-BR message to show for any error thrown by the client or the synchronisation. */
export function mensagemPncp(erro: unknown): string {
  if (erro instanceof PncpErro) return erro.mensagem;
  return 'Falha inesperada ao falar com o PNCP.';
}

function plural(n: number, um: string, muitos: string): string {
  return `${n} ${n === 1 ? um : muitos}`;
}

function mensagemDados(erros: PncpErroCampo[], status: number | undefined): string {
  const codigo = status === undefined ? '' : ` (${status})`;
  if (erros.length === 0) return `O PNCP recusou os dados enviados${codigo}.`;
  const porItem = new Map<number, string[]>();
  const gerais: string[] = [];
  for (const e of erros) {
    const texto = e.campo ? `${e.campo}: ${e.mensagem}` : e.mensagem;
    if (e.numeroItem === undefined) gerais.push(texto);
    else porItem.set(e.numeroItem, [...(porItem.get(e.numeroItem) ?? []), texto]);
  }
  const partes = [...[...porItem].map(([n, textos]) => `item ${n}: ${textos.join('; ')}`), ...gerais];
  const lista = partes.slice(0, 20).join(' | ') + (partes.length > 20 ? ` | e mais ${partes.length - 20}` : '');
  if (porItem.size > 0) return `O PNCP recusou ${plural(porItem.size, 'item', 'itens')}${codigo}: ${lista}`;
  return `O PNCP recusou os dados enviados${codigo}: ${lista}`;
}

function mensagemTemporaria(motivo: PncpMotivoTemporario, status: number | undefined, timeoutMs: number | undefined): string {
  switch (motivo) {
    case 'limite':
      return 'O PNCP limitou o número de requisições (429); nova tentativa automática.';
    case 'indisponivel':
      return `O PNCP está indisponível (${status ?? 'sem resposta'}); nova tentativa automática.`;
    case 'tempo':
      return `O PNCP não respondeu em ${((timeoutMs ?? 0) / 1000).toLocaleString('pt-BR')} s; nova tentativa automática.`;
    case 'rede':
      return 'Falha de rede ao falar com o PNCP; nova tentativa automática.';
  }
}
