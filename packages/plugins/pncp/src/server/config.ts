// Where the PNCP is and the key that encrypts the entidades' PNCP passwords. Read from the environment
// by the default plugin (README, "Configuration"); tests pass them to definePncpPlugin.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface PncpConfig {
  /** Integration API base (PNCP_API_URL), default the training environment. */
  apiUrl: string;
  /** Public consultation API base (PNCP_CONSULTA_URL). */
  consultaUrl: string;
  /**
   * Key text (≥ 32 characters) that encrypts the stored passwords: PNCP_CREDENCIAIS_KEY, or the content
   * of the file PNCP_CREDENCIAIS_KEY_FILE. Without it no password can be stored or read.
   */
  chave?: string;
  /** Items per POST (≤ 1000, PNCP's limit). */
  lote?: number;
  /** Per-call timeout (ms; the client's defaults: writes 120 s, reads 60 s). */
  timeoutMs?: number;
  /** First delay before a publication is tried again (s, doubling up to 10 min; default 5). */
  retentativaSegundos?: number;
}

export const PNCP_API_URL_PADRAO = 'https://treina.pncp.gov.br/api/pncp';
export const PNCP_CONSULTA_URL_PADRAO = 'https://pncp.gov.br/api/consulta';

/** The configuration the environment gives (used when the plugin is listed without options). */
export function configDoAmbiente(env: NodeJS.ProcessEnv = process.env): PncpConfig {
  const inline = env.PNCP_CREDENCIAIS_KEY || undefined;
  const file = env.PNCP_CREDENCIAIS_KEY_FILE || undefined;
  if (inline && file) throw new Error('Set PNCP_CREDENCIAIS_KEY or PNCP_CREDENCIAIS_KEY_FILE, not both.');
  const chave = inline ?? (file ? readFileSync(file, 'utf8').trim() : undefined);
  return {
    apiUrl: env.PNCP_API_URL || PNCP_API_URL_PADRAO,
    consultaUrl: env.PNCP_CONSULTA_URL || PNCP_CONSULTA_URL_PADRAO,
    ...(chave ? { chave } : {}),
    ...(env.PNCP_LOTE ? { lote: Number(env.PNCP_LOTE) } : {}),
  };
}

export function validarConfig(config: PncpConfig): void {
  for (const [nome, url] of [
    ['PNCP_API_URL', config.apiUrl],
    ['PNCP_CONSULTA_URL', config.consultaUrl],
  ] as const) {
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw new Error(`${nome} must be an http(s) URL (got '${url}').`);
  }
  if (config.chave !== undefined && config.chave.length < 32) throw new Error('PNCP_CREDENCIAIS_KEY must have at least 32 characters.');
  if (config.lote !== undefined && !(Number.isInteger(config.lote) && config.lote >= 1 && config.lote <= 1000)) {
    throw new Error('PNCP_LOTE must be an integer from 1 to 1000.');
  }
}

const chaveAes = (chave: string) => createHash('sha256').update(`compras/pncp-credenciais:${chave}`).digest();

/** AES-256-GCM of a password, with a random IV: 'v1:<iv>:<tag>:<ciphertext>' (base64). */
export function cifrar(senha: string, chave: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', chaveAes(chave), iv);
  const texto = Buffer.concat([cipher.update(senha, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), texto.toString('base64')].join(':');
}

/** The password back; undefined when the key is not the one it was encrypted with (or the text is damaged). */
export function decifrar(cifrada: string, chave: string): string | undefined {
  const [versao, iv, tag, texto] = cifrada.split(':');
  if (versao !== 'v1' || !iv || !tag || texto === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', chaveAes(chave), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(texto, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
