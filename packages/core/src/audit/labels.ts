// The one wording of audit actions and field names (document timelines, Logs de Auditoria).
import type { AuditActionLabel } from './types';

/**
 * Readable names of the actions core and the kits record. @app/auditoria keeps the same map for its
 * CSV (a test holds them equal).
 */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  criar: 'Criação',
  alterar: 'Alteração',
  excluir: 'Exclusão',
  ativar: 'Ativação',
  desativar: 'Desativação',
  duplicar: 'Duplicação',
  entrar: 'Entrada no sistema',
  entrar_falhou: 'Entrada sem sucesso',
  sair: 'Saída do sistema',
  trocar_entidade: 'Troca de entidade',
  acesso_negado: 'Acesso negado',
  remover_da_entidade: 'Remoção da entidade',
  exportar_csv: 'Exportação CSV',
  devtools_aberto: 'Ferramentas do desenvolvedor abertas',
  devtools_fechado: 'Ferramentas do desenvolvedor fechadas',
  importar: 'Importação',
  importar_arquivo: 'Importação de arquivo',
  dados_demonstracao: 'Dados de demonstração',
};

/**
 * Codes written before the project settled on one word, read as the code of today. Audit rows are
 * append-only and hash-chained, so they keep the code they were written with: @app/usuarios wrote
 * 'reativar' until it took the kit's 'ativar'. @app/auditoria keeps the same map (a test holds them equal).
 */
export const LEGACY_AUDIT_ACTIONS: Readonly<Record<string, string>> = { reativar: 'ativar' };

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What an action is called: the caller's map first (a flow transition shows its past tense,
 * 'enviar' → 'Enviado'), then AUDIT_ACTION_LABELS (a legacy code as the code of today), else the code itself, readable with its
 * accents ('pedir_revisao' → 'Pedir revisão', 'incluir_preco' → 'Incluir preço').
 */
export function auditActionLabel(acao: string, actions?: Readonly<Record<string, AuditActionLabel>>): string {
  const own = actions && Object.hasOwn(actions, acao) ? actions[acao] : undefined;
  if (typeof own === 'string') return own;
  if (own) return capitalize(own.done || own.label);
  const code = Object.hasOwn(LEGACY_AUDIT_ACTIONS, acao) ? LEGACY_AUDIT_ACTIONS[acao]! : acao;
  if (Object.hasOwn(AUDIT_ACTION_LABELS, code)) return AUDIT_ACTION_LABELS[code]!;
  return humanizeField(acao);
}

/** Words of field keys as pt-BR writes them (camelCase keys lose their accents). */
const WORDS: Readonly<Record<string, string>> = {
  aprovacao: 'aprovação',
  aprovacoes: 'aprovações',
  atualizacao: 'atualização',
  avaliacao: 'avaliação',
  conclusao: 'conclusão',
  contratacao: 'contratação',
  contratacoes: 'contratações',
  cotacao: 'cotação',
  cotacoes: 'cotações',
  decisao: 'decisão',
  devolucao: 'devolução',
  estatistica: 'estatística',
  evidencia: 'evidência',
  evidencias: 'evidências',
  exclusao: 'exclusão',
  inclusao: 'inclusão',
  media: 'média',
  memoria: 'memória',
  precos: 'preços',
  publicacao: 'publicação',
  rejeicao: 'rejeição',
  requisicao: 'requisição',
  requisicoes: 'requisições',
  revisao: 'revisão',
  vinculo: 'vínculo',
  vinculos: 'vínculos',
  calculo: 'cálculo',
  catmat: 'CATMAT',
  catser: 'CATSER',
  cep: 'CEP',
  cnpj: 'CNPJ',
  codigo: 'código',
  cpf: 'CPF',
  descricao: 'descrição',
  email: 'e-mail',
  emissao: 'emissão',
  endereco: 'endereço',
  especificacao: 'especificação',
  inicio: 'início',
  ip: 'IP',
  justificativa: 'justificativa',
  licitacao: 'licitação',
  maximo: 'máximo',
  medio: 'médio',
  minimo: 'mínimo',
  municipio: 'município',
  nao: 'não',
  metodo: 'método',
  numero: 'número',
  pagina: 'página',
  observacao: 'observação',
  observacoes: 'observações',
  orcamento: 'orçamento',
  orgao: 'órgão',
  periodo: 'período',
  permissoes: 'permissões',
  preco: 'preço',
  previsao: 'previsão',
  razao: 'razão',
  referencia: 'referência',
  responsavel: 'responsável',
  servico: 'serviço',
  servicos: 'serviços',
  situacao: 'situação',
  solicitacao: 'solicitação',
  telefone: 'telefone',
  uf: 'UF',
  // initials the procurement law uses: 'incluir_item_sem_dfd' → 'Incluir item sem DFD'
  cnbs: 'CNBS',
  dfd: 'DFD',
  loa: 'LOA',
  pca: 'PCA',
  pncp: 'PNCP',
  ultimo: 'último',
  unitario: 'unitário',
  usuario: 'usuário',
  usuarios: 'usuários',
};

/**
 * A field key made readable when no label is given: 'valorUnitario' → 'Valor unitário',
 * 'subGrupoId' → 'Sub grupo', 'dataEmissao' → 'Data emissão'.
 */
export function humanizeField(campo: string): string {
  const words = campo
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (words.length > 1 && words.at(-1) === 'id') words.pop();
  const text = words.map((w) => WORDS[w] ?? w).join(' ');
  return text ? capitalize(text) : campo;
}

/** The label of a field: the caller's, else the key made readable (never the raw key when a label exists). */
export function auditFieldLabel(campo: string, labels?: Readonly<Record<string, string>>, parent?: string): string {
  if (labels) {
    if (parent && Object.hasOwn(labels, `${parent}.${campo}`)) return labels[`${parent}.${campo}`]!;
    if (Object.hasOwn(labels, campo)) return labels[campo]!;
  }
  return humanizeField(campo);
}
