import { formatDateTime } from '@app/br';
import { LoadErrorAlert, type ListDefaults, downloadFile, parseListState, queryKeys, serializeListState, useApi, useQuery } from '@app/core';
import { Button, DataTable, type DataTableColumn, EmptyState, Icon, PageHeader, Pagination, SearchForm, VisuallyHidden } from '@app/ui';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { AnexoCaixaSaida, MensagemCaixaSaida, PageOf } from '../../shared/index';
import { textParts } from '../links';

/** Search and page in the URL, as the other lists ('?q=maria&page=2'). */
const LIST: ListDefaults = { pageSize: 20, sort: '' };
const MENSAGENS = { one: 'mensagem', other: 'mensagens' };

/** '850 bytes', '12 KB', '1,5 MB'. */
function tamanhoDoArquivo(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`;
}

/** The files of a message, each downloaded through the API client (GET /api/auth/outbox/:id/anexos/:ordem). */
function Anexos({ mensagem, anexos }: { mensagem: string; anexos: AnexoCaixaSaida[] }) {
  return (
    <div style={{ marginTop: 'var(--space-3)' }}>
      <strong>{anexos.length === 1 ? 'Anexo' : 'Anexos'}</strong>
      <ul aria-label="Anexos da mensagem" style={{ margin: 0 }}>
        {anexos.map((a) => (
          <li key={a.ordem}>
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                void downloadFile(`auth/outbox/${encodeURIComponent(mensagem)}/anexos/${a.ordem}`, {
                  fileName: a.nome,
                  errorMessage: 'Não foi possível baixar o anexo.',
                })
              }
            >
              <VisuallyHidden>Baixar </VisuallyHidden>
              {a.nome}
            </Button>{' '}
            <span className="text-sub">({tamanhoDoArquivo(a.tamanho)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The body as plain text (line breaks kept) with its web addresses as links, and its files. */
function Corpo({ id, mensagem }: { id: string; mensagem: MensagemCaixaSaida }) {
  const body = mensagem.body;
  return (
    <div
      id={id}
      data-testid="mensagem-corpo"
      style={{
        // on a phone the table scrolls sideways: the message stays within the screen, in view
        position: 'sticky',
        left: 'var(--space-4)',
        maxWidth: 'calc(100vw - 4rem)',
        padding: 'var(--space-3) var(--space-4)',
        border: '1px solid var(--color-border)',
        borderRadius: 'var(--radius-md)',
        background: 'var(--color-surface-muted)',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
      }}
    >
      {textParts(body).map((part, i) =>
        part.kind === 'link' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.href}
            <VisuallyHidden> (abre em nova aba)</VisuallyHidden>
          </a>
        ) : (
          part.text
        ),
      )}
      {mensagem.anexos?.length ? <Anexos mensagem={mensagem.id} anexos={mensagem.anexos} /> : null}
    </div>
  );
}

/**
 * '/usuarios/caixa-de-saida': the e-mails kept in the outbox (no SMTP server configured, or sending
 * failed), newest first, for the administrator to read, e.g. a password recovery link.
 */
export default function CaixaDeSaida() {
  const api = useApi();
  const baseId = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const [params, setParams] = useSearchParams();
  const state = parseListState(params, LIST);
  const { q, page, pageSize } = state;
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());

  const query = useQuery({
    queryKey: queryKeys.plugin('usuarios', 'caixa-de-saida', q, page, pageSize),
    queryFn: () => api.get('auth/outbox', { searchParams: { ...(q ? { q } : {}), page, pageSize } }).json<PageOf<MensagemCaixaSaida>>(),
    placeholderData: (previous) => previous,
  });

  const search = () => {
    setParams(serializeListState({ ...state, q: text.trim(), page: 1 }, LIST));
  };

  const bodyId = (m: MensagemCaixaSaida) => `${baseId}-mensagem-${m.id}`;
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: DataTableColumn<MensagemCaixaSaida>[] = [
    {
      key: 'createdAt',
      header: 'Data',
      width: '10rem',
      render: (m) => (
        <time dateTime={m.createdAt} style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(m.createdAt)}
        </time>
      ),
    },
    { key: 'to', header: 'Para' },
    {
      key: 'subject',
      header: 'Assunto',
      rowHeader: true,
      render: (m) => {
        const expanded = open.has(m.id);
        return (
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={expanded}
            aria-controls={expanded ? bodyId(m) : undefined}
            onClick={() => toggle(m.id)}
            style={{ whiteSpace: 'normal', textAlign: 'start', justifyContent: 'flex-start' }}
          >
            <Icon name={expanded ? 'chevron-down' : 'chevron-right'} size="1.25em" />
            {m.subject || '(sem assunto)'}
            {m.anexos?.length ? <span className="text-sub">{` · ${m.anexos.length} ${m.anexos.length === 1 ? 'anexo' : 'anexos'}`}</span> : null}
            <VisuallyHidden>{` (mensagem para ${m.to}, ${formatDateTime(m.createdAt)})`}</VisuallyHidden>
          </Button>
        );
      },
    },
  ];

  return (
    <div data-testid="caixa-de-saida">
      <PageHeader
        title="Caixa de saída"
        description="Sem servidor SMTP configurado (SMTP_URL), os e-mails do sistema ficam guardados aqui em vez de enviados, assim como os que o servidor SMTP não conseguiu entregar. Os links de recuperação de senha valem por 30 minutos e só podem ser usados uma vez. Aparecem só as mensagens para usuários desta entidade que pertencem apenas a entidades que você administra (e as suas)."
        before={<Link href="">Voltar para Usuários</Link>}
      />
      <SearchForm aria-label="Pesquisar mensagens" hint="Destinatário ou assunto" value={text} onChange={setText} onSubmit={search} />
      {query.isError ? <LoadErrorAlert title="Não foi possível carregar a caixa de saída" error={query.error} onRetry={() => void query.refetch()} /> : null}
      <DataTable
        caption="Mensagens da caixa de saída, mais recentes primeiro"
        captionHidden
        columns={columns}
        rows={query.data?.items ?? []}
        loading={query.isFetching}
        rowDetail={(m) => (open.has(m.id) ? <Corpo id={bodyId(m)} mensagem={m} /> : null)}
        empty={
          query.isError ? (
            <EmptyState icon="alert" title="Mensagens indisponíveis." />
          ) : q ? (
            <EmptyState icon="search" title="Nenhuma mensagem encontrada." description="Pesquise por outro destinatário ou assunto." />
          ) : (
            <EmptyState title="Nenhuma mensagem na caixa de saída." />
          )
        }
      />
      {query.data && query.data.total > 0 ? (
        <Pagination
          page={page}
          pageSize={pageSize}
          total={query.data.total}
          noun={MENSAGENS}
          onPageChange={(next) => setParams(serializeListState({ ...state, page: next }, LIST))}
        />
      ) : null}
    </div>
  );
}
