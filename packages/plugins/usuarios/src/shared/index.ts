// @app/usuarios/shared: schemas, types and messages used by both halves (the form shows the same
// pt-BR message the API would answer).
import { cpfSchema } from '@app/br';
import { ADMIN_TAG as TAG_ADMINISTRACAO } from '@app/core/tags';
import { z } from 'zod';

/**
 * Section tag of the plugin: user and perfil administration (spec §6, tag 3), the platform's
 * ADMIN_TAG (@app/core/tags): a user whose perfil holds it is an administrator of the entidade.
 */
export const USUARIOS_TAG = TAG_ADMINISTRACAO;
/**
 * @deprecated The platform's `ADMIN_TAG` of `@app/core/tags` (tag 3, the administration); kept for the 1.x API.
 * @public
 */
export const ADMIN_TAG: number = TAG_ADMINISTRACAO;
/** Password policy: at least this many characters. */
export const SENHA_MIN = 8;

export const MENSAGENS = {
  versaoDesatualizada: 'Este registro foi alterado por outra pessoa. Recarregue para ver a versão atual.',
  desativarProprio: 'Você não pode desativar o seu próprio usuário.',
  removerProprio: 'Você não pode remover o seu próprio usuário desta entidade.',
  loginEmUso: 'Este login já está em uso.',
  cpfEmUso: 'Já existe um usuário com este CPF.',
  perfilEmUso: 'Este perfil está atribuído a usuários: troque o perfil deles antes de excluí-lo.',
  perfilNomeEmUso: 'Já existe um perfil com este nome nesta entidade.',
  entidadeAtualObrigatoria: 'O usuário precisa ter um perfil nesta entidade.',
  centroCustoInvalido: 'Selecione centros de custo cadastrados nesta entidade.',
  centroCustoInativo: 'Centro de custo inativo: não pode ser atribuído a mais usuários.',
  /** Label of the perfil checkbox (perfis.todos_centros). */
  todosCentros: 'Acessa os documentos de todos os centros de custo',
  todosCentrosDica:
    'Para o setor de compras, a controladoria e os auditores. Sem esta opção, o usuário só vê e movimenta os documentos dos centros de custo aos quais pertence.',
  /** 403: a perfil cannot be given the access to every centro by someone who lacks it. */
  todosCentrosSemPermissao: 'Você não pode dar acesso aos documentos de todos os centros de custo: o seu perfil não tem esse acesso.',
  /** 403: the account is shared with an entidade the caller does not administer (issue 8). */
  contaCompartilhada:
    'Este usuário também pertence a outra entidade que você não administra: só ele mesmo ou quem administra todas as suas entidades pode alterar nome, login, e-mail, CPF, cargo, senha ou situação da conta.',
  /** What the form shows instead of the account fields it cannot change. */
  contaCompartilhadaAviso:
    'Este usuário também pertence a outra entidade que você não administra. Nome, login, e-mail, CPF, cargo, senha e situação da conta só podem ser alterados por ele mesmo ou por quem administra todas as suas entidades. Você ainda pode alterar o perfil dele nas entidades que administra ou removê-lo desta entidade.',
} as const;

/** 403 when a perfil with access to every centro de custo is assigned by someone who lacks it there. */
export function perfilTodosCentrosMensagem(perfilNome: string): string {
  return `Você não pode atribuir o perfil ${perfilNome}: ele dá acesso aos documentos de todos os centros de custo, que o seu perfil não tem.`;
}

/** 403 when centros de custo the caller does not belong to are given to a user. */
export function centrosNaoPertencentesMensagem(nomes: readonly string[]): string {
  return `Você não pode atribuir centros de custo aos quais não pertence: ${nomes.join(', ')}.`;
}

/** 409 message when an entidade would be left without an active administrator. */
export function ultimoAdministradorMensagem(entidadeNome: string): string {
  return `Não é possível concluir: ${entidadeNome} ficaria sem nenhum administrador ativo. Defina outro administrador antes.`;
}

/**
 * Names of the tags known from the specification, for tags no enabled plugin declares (the perfil
 * checklist names every tag declared by the enabled server plugins first).
 */
export const KNOWN_TAG_NAMES: Readonly<Record<number, string>> = {
  3: 'Usuários e perfis',
  24: 'Cadastros',
  25: 'Produtos',
  26: 'Fornecedores',
  29: 'Memorandos',
  39: 'Pré-requisições e requisições',
  // RASCUNHOS_ALHEIOS_TAG of the document kit (@app/server-core), declared by every plugin with documents
  40: 'Editar rascunhos de outras pessoas',
  73: 'Cotações',
  90: 'Logs de Auditoria',
};

/** Tags 0 and -1..-4 are open to any signed-in user: never granted through a perfil. */
export function isExemptTag(tag: number): boolean {
  return tag === 0 || (tag <= -1 && tag >= -4);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Most characters a password may have (as server-core's policy). */
export const SENHA_MAX = 128;

/**
 * Length rules of the password policy (the server also refuses common passwords and the login itself,
 * with server-core's novaSenhaProblem). Messages as server-core's.
 */
export const senhaSchema = z
  .string({ error: 'Informe a senha.' })
  .refine((v) => [...v.normalize('NFKC')].length >= SENHA_MIN, `A senha deve ter pelo menos ${SENHA_MIN} caracteres (recomendamos 15 ou mais).`)
  .refine((v) => [...v.normalize('NFKC')].length <= SENHA_MAX, `A senha deve ter no máximo ${SENHA_MAX} caracteres.`);

export const loginSchema = z
  .string({ error: 'Informe o login.' })
  .trim()
  .min(3, 'O login deve ter pelo menos 3 caracteres.')
  .max(60, 'O login pode ter no máximo 60 caracteres.')
  .regex(/^[A-Za-z0-9._-]+$/, 'Use apenas letras sem acento, dígitos, ".", "_" ou "-" no login.');

/** Empty → null; otherwise a valid CPF (with or without mask), stored as 11 digits. */
export const cpfOpcionalSchema = z
  .string()
  .trim()
  .nullish()
  .transform((value, ctx) => {
    if (!value) return null;
    const parsed = cpfSchema.safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'CPF inválido.' });
      return z.NEVER;
    }
    return parsed.data;
  });

const textoOpcional = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

export const vinculoSchema = z.object({
  entidadeId: z.uuid('Entidade inválida.'),
  perfilId: z.uuid('Selecione o perfil.'),
  /**
   * Centros de custo (ids of registros_centros_custo of this entidade) the user belongs to: they see
   * and act on the documents of these centros only, unless the perfil grants all of them. Omitted on
   * a PUT: kept as they are (a new membership starts with none).
   */
  centrosCusto: z
    .array(z.uuid('Centro de custo inválido.'), { error: 'Informe os centros de custo.' })
    .max(500, 'Selecione no máximo 500 centros de custo.')
    .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))])
    .optional(),
});

const usuarioCampos = {
  nome: z.string({ error: 'Informe o nome.' }).trim().min(3, 'Informe o nome completo.').max(200, 'O nome pode ter no máximo 200 caracteres.'),
  login: loginSchema,
  email: z.string({ error: 'Informe o e-mail.' }).trim().max(200, 'O e-mail pode ter no máximo 200 caracteres.').regex(EMAIL, 'Informe um e-mail válido.'),
  cpf: cpfOpcionalSchema,
  cargo: textoOpcional(120, 'O cargo pode ter no máximo 120 caracteres.'),
  ativo: z.boolean().default(true),
  entidades: z
    .array(vinculoSchema)
    .min(1, 'Atribua um perfil em pelo menos uma entidade.')
    .max(100)
    .refine((list) => new Set(list.map((v) => v.entidadeId)).size === list.length, 'Cada entidade aparece uma vez só.'),
};

/** POST /api/usuarios/usuarios */
export const usuarioCreateSchema = z.object({ ...usuarioCampos, senha: senhaSchema });

/** PUT /api/usuarios/usuarios/:id (`senha` only to set a new one). */
export const usuarioUpdateSchema = z.object({
  ...usuarioCampos,
  senha: senhaSchema.optional(),
  version: z.number({ error: 'Informe a versão do registro.' }).int().positive(),
});

export const versionBodySchema = z.object({ version: z.number().int().positive().optional() });

export const perfilBodySchema = z.object({
  nome: z.string({ error: 'Informe o nome do perfil.' }).trim().min(2, 'Informe o nome do perfil.').max(100, 'O nome pode ter no máximo 100 caracteres.'),
  tags: z
    .array(z.number().int(), { error: 'Informe as permissões.' })
    .max(1000)
    .transform((tags) => [...new Set(tags)].sort((a, b) => a - b)),
  /** Users of the perfil see the documents of every centro de custo. Omitted: false on create, kept on update. */
  todosCentros: z.boolean({ error: 'Indique se o perfil acessa todos os centros de custo.' }).optional(),
});

export const perfilUpdateSchema = perfilBodySchema.extend({
  version: z.number({ error: 'Informe a versão do registro.' }).int().positive(),
});

// ---- answers

export const vinculoViewSchema = z.object({
  entidadeId: z.string(),
  entidadeNome: z.string(),
  perfilId: z.string(),
  perfilNome: z.string(),
  /** Ids of the user's centros de custo in this entidade (a stale id is listed until removed). */
  centrosCusto: z.array(z.string()),
});

export const usuarioListItemSchema = z.object({
  id: z.string(),
  nome: z.string(),
  login: z.string(),
  email: z.string(),
  /** Never the full CPF in a list: `***.456.789-**` (LGPD). */
  cpfMascarado: z.string().nullable(),
  cargo: z.string().nullable(),
  ativo: z.boolean(),
  /** Perfil in the session's entidade first, then in the other entidades the caller administers. */
  perfis: z.array(vinculoViewSchema),
});

export const usuarioSchema = z.object({
  id: z.string(),
  nome: z.string(),
  login: z.string(),
  email: z.string(),
  cpf: z.string().nullable(),
  cargo: z.string().nullable(),
  ativo: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  /** Only entidades the caller administers (tag 3 there). */
  entidades: z.array(vinculoViewSchema),
  /**
   * False when the user also belongs to an entidade the caller does not administer (and is not the
   * caller): then nome, login, e-mail, CPF, cargo, senha and ativo answer 403; the perfis do not.
   */
  podeAlterarConta: z.boolean(),
});

export const perfilSchema = z.object({
  id: z.string(),
  nome: z.string(),
  tags: z.array(z.number().int()),
  /** Users of this perfil see the documents of every centro de custo. */
  todosCentros: z.boolean(),
  usuarios: z.number().int(),
  version: z.number().int(),
});

export const tagInfoSchema = z.object({ tag: z.number().int(), nome: z.string(), plugins: z.array(z.string()) });
export const tagsResponseSchema = z.object({ items: z.array(tagInfoSchema) });

export const opcoesSchema = z.object({
  entidades: z.array(
    z.object({
      id: z.string(),
      nome: z.string(),
      atual: z.boolean(),
      /** Tags the caller holds there: perfis with others cannot be assigned by the caller. */
      minhasTags: z.array(z.number().int()),
      /** The caller sees every centro de custo there (may assign any centro and perfis with todosCentros). */
      meusTodosCentros: z.boolean(),
      /** The caller's own centros de custo there (without meusTodosCentros, only these can be assigned). */
      meusCentros: z.array(z.string()),
      perfis: z.array(z.object({ id: z.string(), nome: z.string(), tags: z.array(z.number().int()), todosCentros: z.boolean() })),
      /** Centros de custo of the entidade, by código (inactive ones too: kept where already assigned). */
      centrosCusto: z.array(z.object({ id: z.string(), codigo: z.string(), nome: z.string(), ativo: z.boolean() })),
    }),
  ),
});

export type UsuarioListItem = z.infer<typeof usuarioListItemSchema>;
export type Usuario = z.infer<typeof usuarioSchema>;
export type Perfil = z.infer<typeof perfilSchema>;
export type TagInfo = z.infer<typeof tagInfoSchema>;
export type Opcoes = z.infer<typeof opcoesSchema>;
export type Vinculo = z.infer<typeof vinculoViewSchema>;
export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** A file of an outbox e-mail (server-core's OutboxAttachment): GET /api/auth/outbox/:id/anexos/:ordem downloads it. */
export interface AnexoCaixaSaida {
  ordem: number;
  nome: string;
  tipo: string;
  /** Bytes. */
  tamanho: number;
}

/** One e-mail of the outbox, as GET /api/auth/outbox answers it (server-core's OutboxMessage). */
export interface MensagemCaixaSaida {
  id: string;
  to: string;
  subject: string;
  /** Plain text. */
  body: string;
  /** ISO instant. */
  createdAt: string;
  /** Its files (e.g. the blank form of a price research invitation). */
  anexos?: AnexoCaixaSaida[];
}

/** Name of a tag: the declaring plugin's, else the specification's, else 'Tag N'. */
export function tagNome(tag: number, declared: readonly TagInfo[] = []): string {
  return declared.find((t) => t.tag === tag)?.nome ?? KNOWN_TAG_NAMES[tag] ?? `Tag ${tag}`;
}
