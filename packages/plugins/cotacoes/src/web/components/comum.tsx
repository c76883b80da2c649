// What the collection page (/add/:id) and the mapa comparativo (/mapa/:id) share: the one query of
// GET /cotacoes/:id/mapa (both pages read the same answer and the same cache entry, a view of the
// cotação in core's queryKeys), the child collections through core's useDocumentChildren, the refresh
// after a change, downloads through core's downloadFile, the header of the cotação and the runners of a change;
// and what every page of the section shares: the configuração (core's useDocument), the way back, the
// load error, the dialogs of a tab and the actions of a form.
import { formatDate, formatDateTime } from '@app/br';
import type { MutationResult } from '@app/core';
import {
  LoadErrorAlert,
  StatusBadge,
  api,
  apiErrorBody,
  apiErrorMessage,
  downloadFile,
  queryKeys,
  toast,
  useDocument,
  useDocumentChildren,
  useQuery,
  useQueryClient,
} from '@app/core';
import { formatNumero } from '@app/documents';
import { Alert, Button, Card, DetailsList, PageHeader, PromptDialog, type PromptOptions, useConfirm } from '@app/ui';
import { type ReactNode, useCallback, useState } from 'react';
import { Link } from 'wouter';
import { COTACAO_ABERTA, type Configuracao, type MapaCotacao, METODO_LABEL, fluxoCotacao } from '../../shared/index.js';
import { COTACAO_TITLES } from '../titles';

/** The kit's endpoint of the cotações (everything of them is cached under queryKeys.all(it)). */
export const COTACOES_ENDPOINT = '/cotacoes/cotacoes';
/** API path (relative to /api) of one cotação. */
export const cotacaoPath = (id: string) => `cotacoes/cotacoes/${encodeURIComponent(id)}`;

/**
 * The entidade's configuração (GET and PUT /cotacoes/configuracao, versioned) as the kit's record
 * 'configuracao' of '/cotacoes': the Configuração page and the new cotação (its defaults) share the entry.
 */
export const useConfiguracao = () => useDocument<Configuracao & { version: number }>('/cotacoes', 'configuracao');

/** GET /cotacoes/:id/mapa: header, items, invitations, prices, winners and the evaluation (a view of the record, refreshed whenever the cotação is). */
export function useMapa(id: string) {
  return useQuery({
    queryKey: queryKeys.view(COTACOES_ENDPOINT, id, 'mapa'),
    enabled: Boolean(id),
    queryFn: ({ signal }) => api.get(`${cotacaoPath(id)}/mapa`, { signal }).json<MapaCotacao>(),
  });
}

/** After a change: the kit's list and record (counts, version, totals) and, under the record, the mapa. */
export function useAtualizar() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.all(COTACOES_ENDPOINT) });
  }, [queryClient]);
}

/**
 * A child collection of a cotação (fornecedores, precos, vencedores) through core's
 * useDocumentChildren: the mapa holds the rows (no list is read), and each change refreshes the
 * cotação, its mapa, its list and its timeline.
 */
export function useFilhos(cotacaoId: string, filhos: 'fornecedores' | 'precos' | 'vencedores') {
  return useDocumentChildren(COTACOES_ENDPOINT, cotacaoId, filhos, { list: false, method: 'put' });
}

export const numeroCotacao = (mapa: MapaCotacao) => formatNumero(mapa.cotacao.numero, mapa.cotacao.ano);

/** Fetches `path` (relative to /api) with the app's API client and saves it; a PDF opens in a new tab. */
export function baixarArquivo(path: string, nome: string, erro: string): Promise<void> {
  return downloadFile(path, { fileName: nome, errorMessage: erro, open: nome.endsWith('.pdf') });
}

/** The header of a cotação as both pages show it. */
export function DadosCotacao({ mapa }: { mapa: MapaCotacao }) {
  const c = mapa.cotacao;
  const regra = c.metodo === 'media_saneada' ? (c.iterar ? ' (regra repetida)' : ' (regra aplicada uma vez)') : '';
  return (
    <Card title="Cotação">
      <DetailsList
        items={[
          { label: 'Objeto', value: c.objeto, wide: true },
          { label: 'Situação', value: <StatusBadge flow={fluxoCotacao} status={c.status} /> },
          { label: 'Centro de custo', value: c.centroCustoNome },
          { label: 'Requisição', value: c.requisicaoNumero, hidden: !c.requisicaoNumero },
          { label: 'Data de referência', value: formatDate(c.dataReferencia) },
          { label: 'Prazo de resposta', value: c.prazo ? formatDateTime(c.prazo) : 'Não definido' },
          { label: 'Método de cálculo', value: `${METODO_LABEL[c.metodo]}${regra}` },
          { label: 'Responsável', value: c.responsavelNome },
        ]}
      />
    </Card>
  );
}

/** Whether the cotação may change here: open, and of a centro de custo of the person. */
export const editavel = (mapa: MapaCotacao) => COTACAO_ABERTA.includes(mapa.cotacao.status) && mapa.podeEditar;

const FECHADA: Partial<Record<string, string>> = {
  concluida: 'Esta cotação foi concluída: os preços estimados estão congelados e a página é somente de consulta.',
  cancelada: 'Esta cotação foi cancelada: a página é somente de consulta.',
};

/** Why nothing (or only part) can change here; nothing when everything can. */
export function AvisoSomenteLeitura({ mapa }: { mapa: MapaCotacao }) {
  const aviso =
    FECHADA[mapa.cotacao.status] ??
    (mapa.podeEditar ? null : 'Você pode consultar esta cotação, mas não alterá-la: ela é de um centro de custo ao qual você não pertence.');
  return aviso ? <Alert variant="info">{aviso}</Alert> : null;
}

/**
 * Runs a change: success toast and refresh; a 400 naming `campo` comes back as its message (for the
 * dialog), anything else is a toast (and a refresh: the cotação may have moved on).
 */
export async function executar(
  acao: () => Promise<unknown>,
  { sucesso, falha, atualizar, campo }: { sucesso: string; falha: string; atualizar: () => Promise<void>; campo?: string },
): Promise<string | null> {
  try {
    await acao();
    toast.success(sucesso);
    await atualizar();
    return null;
  } catch (error) {
    const fields = apiErrorBody(error)?.fields;
    if (campo && fields?.[campo]) return fields[campo];
    toast.error(apiErrorMessage(error, falha));
    await atualizar();
    return null;
  }
}

/**
 * The same for a change of a child collection (useFilhos: the hook has refreshed the cotação already):
 * success toast; a 400 naming `campo` comes back as its message; anything else is a toast.
 */
export async function executarFilho(
  acao: () => Promise<MutationResult<unknown>>,
  { sucesso, campo }: { sucesso: string; campo?: string },
): Promise<string | null> {
  const result = await acao();
  if (result.ok) {
    toast.success(sucesso);
    return null;
  }
  if (campo && result.fields[campo]) return result.fields[campo];
  toast.error(result.message);
  return null;
}

/** '1 item', '2 itens', '1.234 itens'. */
export const plural = (n: number, um: string, varios: string) => `${n.toLocaleString('pt-BR')} ${n === 1 ? um : varios}`;

/** The way back to the list, above the title of every page of the section. */
export const voltar = <Link href="/">Voltar para {COTACAO_TITLES.title}</Link>;

/** A page whose data could not be read: its title, the way back and the error (with Tentar de novo). */
export function ErroAoCarregar({ titulo, erro, query }: { titulo: string; erro: string; query: { error: unknown; refetch: () => unknown } }) {
  return (
    <>
      <PageHeader title={titulo} before={voltar} />
      <LoadErrorAlert title={erro} error={query.error} onRetry={() => void query.refetch()} />
    </>
  );
}

/** The prompt (a reason) and the confirmation of a tab: `pedir` and `confirmar` open them, `dialogos` draws them. */
export function useDialogos() {
  const [pedido, pedir] = useState<PromptOptions | null>(null);
  const [confirmElement, confirmar] = useConfirm();
  const dialogos = (
    <>
      <PromptDialog prompt={pedido} onClose={() => pedir(null)} />
      {confirmElement}
    </>
  );
  return { pedir, confirmar, dialogos };
}

/** Cancelar and the submit button of a form. */
export function AcoesDoFormulario({ onCancel, loading, children }: { onCancel: () => void; loading: boolean; children: ReactNode }) {
  return (
    <div className="form-actions">
      <Button variant="secondary" onClick={onCancel}>
        Cancelar
      </Button>
      <Button type="submit" loading={loading}>
        {children}
      </Button>
    </div>
  );
}
