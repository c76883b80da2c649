// What the collection page (/add/:id) and the mapa comparativo (/mapa/:id) share: the one query of
// GET /cotacoes/:id/mapa (both pages read the same answer and the same cache entry, a view of the
// cotação in core's queryKeys), the child collections through core's useDocumentChildren, the refresh
// after a change, downloads through core's downloadFile, the header of the cotação and the reason dialog.
import { formatDate, formatDateTime } from '@app/br';
import type { MutationResult } from '@app/core';
import { StatusBadge, api, apiErrorBody, apiErrorMessage, downloadFile, queryKeys, toast, useDocumentChildren, useQuery, useQueryClient } from '@app/core';
import { formatNumero } from '@app/documents';
import { ConfirmDialog, TextareaField } from '@app/ui';
import { type ReactNode, useCallback, useState } from 'react';
import { type MapaCotacao, METODO_LABEL, fluxoCotacao } from '../../shared/index.js';

/** The kit's endpoint of the cotações (everything of them is cached under queryKeys.all(it)). */
export const COTACOES_ENDPOINT = '/cotacoes/cotacoes';
/** API path (relative to /api) of one cotação. */
export const cotacaoPath = (id: string) => `cotacoes/cotacoes/${encodeURIComponent(id)}`;
/** The entidade's configuração: the Configuração page and the new cotação (its defaults) share the entry. */
export const CONFIGURACAO_KEY = queryKeys.plugin('cotacoes', 'configuracao');
/** The mapa of a cotação: a view of its record (refreshed whenever the cotação is). */
export const mapaKey = (id: string) => queryKeys.view(COTACOES_ENDPOINT, id, 'mapa');

/** GET /cotacoes/:id/mapa: header, items, invitations, prices, winners and the evaluation. */
export function useMapa(id: string) {
  return useQuery({
    queryKey: mapaKey(id),
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
  return (
    <dl className="details-list">
      <div className="details-list__wide">
        <dt>Objeto</dt>
        <dd>{c.objeto}</dd>
      </div>
      <div>
        <dt>Situação</dt>
        <dd>
          <StatusBadge flow={fluxoCotacao} status={c.status} />
        </dd>
      </div>
      <div>
        <dt>Centro de custo</dt>
        <dd>{c.centroCustoNome}</dd>
      </div>
      {c.requisicaoNumero ? (
        <div>
          <dt>Requisição</dt>
          <dd>{c.requisicaoNumero}</dd>
        </div>
      ) : null}
      <div>
        <dt>Data de referência</dt>
        <dd>{formatDate(c.dataReferencia)}</dd>
      </div>
      <div>
        <dt>Prazo de resposta</dt>
        <dd>{c.prazo ? formatDateTime(c.prazo) : 'Não definido'}</dd>
      </div>
      <div>
        <dt>Método de cálculo</dt>
        <dd>
          {METODO_LABEL[c.metodo]}
          {c.metodo === 'media_saneada' ? (c.iterar ? ' (regra repetida)' : ' (regra aplicada uma vez)') : ''}
        </dd>
      </div>
      <div>
        <dt>Responsável</dt>
        <dd>{c.responsavelNome}</dd>
      </div>
    </dl>
  );
}

/** Why nothing (or only part) can change here, or null when everything can. */
export function avisoSomenteLeitura(mapa: MapaCotacao): string | null {
  const { status } = mapa.cotacao;
  if (status === 'concluida') return 'Esta cotação foi concluída: os preços estimados estão congelados e a página é somente de consulta.';
  if (status === 'cancelada') return 'Esta cotação foi cancelada: a página é somente de consulta.';
  if (!mapa.podeEditar) return 'Você pode consultar esta cotação, mas não alterá-la: ela é de um centro de custo ao qual você não pertence.';
  return null;
}

/** A reason asked in a dialog; `enviar` answers an error message to keep it open, or null. */
export interface PedidoMotivo {
  titulo: string;
  descricao?: ReactNode;
  rotulo: string;
  confirmar: string;
  /** Shortest reason (0: optional). */
  minimo: number;
  tom?: 'danger' | 'default';
  enviar: (motivo: string) => Promise<string | null>;
}

/** Counter under a reason field: what is still missing, then the length. */
export function contagem(texto: string, minimo: number): string {
  const n = texto.trim().length;
  if (minimo <= 0) return `${n} caracteres.`;
  return n < minimo ? `Ao menos ${minimo} caracteres: faltam ${minimo - n}.` : `${n} caracteres (mínimo ${minimo}).`;
}

/** The dialog of a `PedidoMotivo` (one per page; `pedido` null: closed). */
export function MotivoDialog({ pedido, onClose }: { pedido: PedidoMotivo | null; onClose: () => void }) {
  const [motivo, setMotivo] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const fechar = () => {
    setMotivo('');
    setErro(null);
    onClose();
  };
  return (
    <ConfirmDialog
      open={pedido !== null}
      onOpenChange={(open) => (open ? undefined : fechar())}
      title={pedido?.titulo ?? ''}
      description={pedido?.descricao}
      confirmLabel={pedido?.confirmar ?? 'Confirmar'}
      cancelLabel="Voltar"
      tone={pedido?.tom ?? 'default'}
      onConfirm={async () => {
        if (!pedido) return true;
        if (pedido.minimo > 0 && motivo.trim().length < pedido.minimo) {
          setErro(`Informe o ${pedido.rotulo.toLowerCase()} (ao menos ${pedido.minimo} caracteres).`);
          return false;
        }
        const falha = await pedido.enviar(motivo.trim());
        if (falha) {
          setErro(falha);
          return false;
        }
        setMotivo('');
        setErro(null);
        return true;
      }}
    >
      {pedido ? (
        <TextareaField
          label={pedido.rotulo}
          required={pedido.minimo > 0}
          rows={3}
          maxLength={2000}
          hint={contagem(motivo, pedido.minimo)}
          value={motivo}
          error={erro ?? undefined}
          onChange={(e) => {
            setMotivo(e.target.value);
            setErro(null);
          }}
        />
      ) : null}
    </ConfirmDialog>
  );
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
