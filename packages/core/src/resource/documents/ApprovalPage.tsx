// The approval page of a document approved by value levels (the server's defineDocumentApprovals):
// the header with the status and the level awaited, the kit's transition buttons (DocumentActions:
// exactly what the server says this person may do now, with the same dialog, reason and extra body
// fields as the Edit page), who may decide now, the plugin's content, the steps of this round and
// the timeline. Reads GET <endpoint>/:id and GET <endpoint>/:id/aprovacao.
import { formatDateTime } from '@app/br';
import { Alert, Card, PageHeader, PageLoading } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { api } from '../../api';
import { RecordTimeline, type RecordTimelineProps } from '../../audit/Timeline';
import { LoadErrorAlert } from '../../errors/LoadErrorAlert';
import { queryKeys } from '../../queryKeys';
import DocumentActions from './DocumentActions';
import { StatusBadge } from './StatusBadge';
import { documentPath, useDocument } from './hooks';
import type { DocumentInfo } from './info';
import { numeroOf } from './numero';

type Row = Record<string, unknown>;
export type ApprovalVia = 'titular' | 'nivel_superior' | 'substituto';

/** GET <endpoint>/:id/aprovacao (approvalStepsShape on the server). */
export interface ApprovalSteps {
  niveis: number;
  nivelAtual: number | null;
  ciclo: number;
  etapas: { nivel: number; nome: string; aprovadoPor: string | null; aprovadoEm: string | null; substituicao: 'nivel_superior' | 'substituto' | null }[];
  podemDecidir: { nome: string; via: ApprovalVia }[];
}

/** How a person decides the level: by it, or por substituição. */
export const APPROVAL_VIA_TEXT: Record<ApprovalVia, string> = {
  titular: '',
  nivel_superior: ' (por substituição: aprovador do nível superior)',
  substituto: ' (por substituição: substituto indicado na alçada)',
};

/** GET <endpoint>/:id/aprovacao, refreshed with the record (a view of it). */
export function useApprovalSteps<T extends ApprovalSteps = ApprovalSteps>(endpoint: string, id: string, version: unknown, enabled = true) {
  return useQuery({
    queryKey: queryKeys.view(endpoint, id, 'aprovacao', String(version ?? '')),
    enabled: enabled && Boolean(id),
    queryFn: ({ signal }) => api.get(`${documentPath(endpoint, id)}/aprovacao`, { signal }).json<T>(),
  });
}

/** The levels of this round: who approved each (and how), the one awaited, those still to come. */
export function ApprovalStepList({ steps, awaiting, empty }: { steps: ApprovalSteps; awaiting: boolean; empty?: string }) {
  if (steps.etapas.length === 0) return <p className="field__hint">{empty ?? 'Nenhuma alçada se aplica a este documento.'}</p>;
  return (
    <ol aria-label="Etapas de aprovação" style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
      {steps.etapas.map((e) => (
        <li key={e.nivel} style={{ marginBottom: '0.5rem' }}>
          <strong>
            Nível {e.nivel}: {e.nome}
          </strong>{' '}
          —{' '}
          {e.aprovadoPor
            ? `aprovado por ${e.aprovadoPor} em ${formatDateTime(new Date(e.aprovadoEm ?? ''))}${e.substituicao ? APPROVAL_VIA_TEXT[e.substituicao] : ''}`
            : awaiting && steps.nivelAtual === e.nivel
              ? 'aguardando aprovação'
              : awaiting
                ? 'a seguir'
                : 'não aprovado nesta rodada'}
        </li>
      ))}
    </ol>
  );
}

export interface DocumentApprovalPageProps {
  /** The document (as its pages declare it); Duplicar and Imprimir are not offered here. */
  doc: Omit<DocumentInfo, 'duplicate' | 'pdf'>;
  id: string;
  /** 'Aprovação da requisição' (the number follows). */
  title: string;
  back: { href: string; label: string };
  /** A link to the document's own page ('Abrir requisição'). */
  open?: { href: string; label: string };
  /** The state in which the document awaits a decision (default 'em_aprovacao'). */
  awaiting?: string;
  /** The approval transition (default 'aprovar'): its toast names the next level when one follows. */
  approve?: string;
  /** The record's field holding the level awaited (default 'nivelAtual'). */
  levelField?: string;
  /** The timeline's labels and formats (RecordTimeline). */
  timeline?: Omit<RecordTimelineProps, 'endpoint' | 'id'>;
  /** The plugin's content between who decides and the steps (the record, its items, alerts). */
  children?: (record: Row) => ReactNode;
}

/** `<DocumentApprovalPage doc id title back open timeline>{(record) => …}</DocumentApprovalPage>`. */
export function DocumentApprovalPage({
  doc,
  id,
  title,
  back,
  open,
  awaiting = 'em_aprovacao',
  approve = 'aprovar',
  levelField = 'nivelAtual',
  timeline,
  children,
}: DocumentApprovalPageProps) {
  const document = useDocument(doc.endpoint, id);
  const record = document.record;
  const steps = useApprovalSteps(doc.endpoint, id, record?.version, Boolean(record));
  const artigo = doc.feminino ? 'a' : 'o';
  const nome = doc.documento.charAt(0).toLowerCase() + doc.documento.slice(1);

  if (document.error) {
    return (
      <>
        <PageHeader title={title} before={<Link href={back.href}>{back.label}</Link>} />
        <LoadErrorAlert title={`Não foi possível carregar ${artigo} ${nome}`} error={document.error} onRetry={() => void document.reload()} />
      </>
    );
  }
  if (!record) return <PageLoading />;
  const status = String(record.status ?? '');
  const emAprovacao = status === awaiting;
  const acoes = Array.isArray(record.transicoes) && record.transicoes.length > 0;
  const info: DocumentInfo = {
    ...doc,
    duplicate: false,
    pdf: false,
    transitionDone: (name, row) =>
      doc.transitionDone?.(name, row) ??
      (name === approve && row.status === awaiting
        ? `Aprovação registrada. ${doc.documento} ${numeroOf(row)} segue para o nível ${String(row[levelField])}.`
        : undefined),
  };
  const data = steps.data;
  return (
    <>
      <PageHeader
        title={`${title} ${numeroOf(record)}`}
        description={
          <>
            <StatusBadge flow={doc.flow} status={status} />
            {emAprovacao && data?.nivelAtual ? ` Aguardando o nível ${data.nivelAtual} de ${data.niveis}.` : null}
          </>
        }
        before={<Link href={back.href}>{back.label}</Link>}
        actions={
          <>
            <DocumentActions
              doc={info}
              record={record}
              ctx={{
                record,
                dirty: false,
                reload: async () => void (await document.reload()),
                setRecord: document.setRecord,
                goToList: () => undefined,
              }}
            />
            {open ? (
              <Link href={open.href} className="button button--secondary">
                {open.label}
              </Link>
            ) : null}
          </>
        }
      />
      {emAprovacao && !acoes ? (
        <p className="field__hint">
          Você não pode aprovar {doc.feminino ? 'esta' : 'este'} {nome} agora: {doc.feminino ? 'ela' : 'ele'} aguarda outro aprovador, ou foi você quem{' '}
          {doc.feminino ? 'a' : 'o'} pediu ou já aprovou outro nível.
        </p>
      ) : null}
      {emAprovacao && data ? (
        data.podemDecidir.length === 0 ? (
          <Alert variant="warning" title={`Ninguém pode decidir ${doc.feminino ? 'esta' : 'este'} ${nome} agora`}>
            Nenhum aprovador do nível, do nível superior ou substituto da alçada pode decidi-{doc.feminino ? 'la' : 'lo'} (quem {doc.feminino ? 'a' : 'o'} pediu
            ou já aprovou outro nível não decide). Peça ao administrador que revise as alçadas.
          </Alert>
        ) : (
          <p data-testid="quem-decide">
            <strong>Pode decidir agora:</strong> {data.podemDecidir.map((d) => `${d.nome}${APPROVAL_VIA_TEXT[d.via]}`).join('; ')}.
          </p>
        )
      ) : null}
      {children?.(record)}
      <Card title="Etapas de aprovação">
        {steps.isError ? (
          <LoadErrorAlert title="Não foi possível carregar as etapas" error={steps.error} onRetry={() => void steps.refetch()} />
        ) : data ? (
          <ApprovalStepList steps={data} awaiting={emAprovacao} empty={`Nenhuma alçada se aplica a ${doc.feminino ? 'esta' : 'este'} ${nome}.`} />
        ) : (
          <PageLoading />
        )}
      </Card>
      <Card title="Histórico">
        <RecordTimeline endpoint={doc.endpoint} id={id} actions={doc.flow.transitions} values={{ status: doc.flow.states }} {...timeline} />
      </Card>
    </>
  );
}
