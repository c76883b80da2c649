// "Converter … em …": a new document whose lines cover lines of a source document by quantity (the
// kit's line coverage on the server: the picker of pending lines, POST <target> with each line's
// source line id). The source record and its pending lines are read; each line is included or not
// with a quantity (at first, all that is pending; above it, or zero, refused here with the server's
// rule); the plugin's header fields and body come from `body`; the server's messages at
// `itens.N.<field>` land on the line, others in a toast; then the new document opens.
import { compareDecimal, formatDecimal, formatMoney, lineTotal, parseDecimalInput, sumMoney } from '@app/documents';
import { Alert, Button, Card, CheckboxField, DataTable, type DataTableColumn, PageHeader, PageLoading, TextField } from '@app/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useLocation } from 'wouter';
import { api, apiErrorBody, apiErrorMessage } from '../../api';
import { LoadErrorAlert } from '../../errors/LoadErrorAlert';
import { queryKeys } from '../../queryKeys';
import { toast } from '../../toast/queue';

type Row = Record<string, unknown>;

/** A pending source line as the kit's picker answers it (plus the plugin's fields). */
export interface CoverLine {
  id: string;
  /** What is left to cover (canonical decimal). */
  pendente: string;
}

/** The columns the page draws, for `columns` to place among the plugin's. */
export interface CoverLinesColumns<L extends CoverLine> {
  /** The 'Incluir' checkbox. */
  include: DataTableColumn<L>;
  /** The quantity field (header given). */
  quantity: (header: string) => DataTableColumn<L>;
}

export interface CoverLinesPageProps<L extends CoverLine> {
  /** The source document: its endpoint ('/requisicoes/pre-requisicoes') and id. */
  source: { endpoint: string; id: string };
  /** GET of the pending lines (ky path without /api, e.g. 'requisicoes/pre-requisicoes/itens-pendentes') and its query. */
  pending: { path: string; searchParams: Record<string, string> };
  /** The target document: endpoint ('/requisicoes/requisicoes'), name, and where a created one opens. */
  target: { endpoint: string; documento: string; feminino?: boolean; editHref: (id: string) => string };
  title: (source: Row) => string;
  description?: (source: Row) => ReactNode;
  /** Back link (before the title) and what an error page links back to. */
  back: ReactNode;
  /** The page's title while the source cannot be read, and the alert's. */
  errorTitle: { page: string; alert: string };
  /** Cards before the lines (the target's header fields, kept in the plugin's state). */
  header?: (source: Row) => ReactNode;
  /** The lines table: the plugin's columns with `include` and `quantity(...)` placed. */
  columns: (page: CoverLinesColumns<L>) => DataTableColumn<L>[];
  lines: {
    title: string;
    caption: string;
    empty: string;
    /** 'Lápis preto' (the hidden labels 'Incluir …' and 'Quantidade de … na <target>'). */
    name: (line: L) => string;
    /** The unit value of a line (the total shown). */
    unitValue: (line: L) => string;
    /** The body line covering `line` with `quantidade`. */
    toBody: (line: L, quantidade: string) => Row;
  };
  /** The body of POST <target> from the source and the lines chosen. */
  body: (source: Row, lines: Row[]) => Row;
  /** A message when the body would not pass the shared schema (shown above the lines). */
  validate?: (body: Row) => string | undefined;
  submitLabel: string;
  /** The toast after a creation. */
  created: (created: Row, source: Row) => string;
  /** More cache prefixes to refresh after a creation (the target's and the source's are). */
  invalidate?: readonly (readonly unknown[])[];
}

interface Choice {
  incluir: boolean;
  quantidade: string;
}

export function CoverLinesPage<L extends CoverLine>(props: CoverLinesPageProps<L>) {
  const { source, pending, target, lines } = props;
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const record = useQuery({
    queryKey: queryKeys.document(source.endpoint, source.id),
    enabled: Boolean(source.id),
    queryFn: () => api.get(`${source.endpoint.slice(1)}/${encodeURIComponent(source.id)}`).json<Row>(),
  });
  const pendentes = useQuery({
    queryKey: queryKeys.view(source.endpoint, source.id, 'pendentes', pending.path, pending.searchParams),
    queryFn: () => api.get(pending.path, { searchParams: pending.searchParams }).json<{ items: L[] }>(),
  });
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const items = pendentes.data?.items ?? [];
  const choice = (line: L): Choice => choices[line.id] ?? { incluir: true, quantidade: formatDecimal(line.pendente) };
  const set = (line: L, patch: Partial<Choice>) => setChoices((all) => ({ ...all, [line.id]: { ...choice(line), ...patch } }));

  if (record.isError || pendentes.isError) {
    return (
      <>
        <PageHeader title={props.errorTitle.page} before={props.back} />
        <LoadErrorAlert title={props.errorTitle.alert} error={record.error ?? pendentes.error} onRetry={() => void record.refetch()} />
      </>
    );
  }
  if (!record.data || !pendentes.data) return <PageLoading />;
  const row = record.data;
  const chosen = items.filter((line) => choice(line).incluir);
  const total = sumMoney(chosen.map((line) => lineTotal(parseDecimalInput(choice(line).quantidade) ?? '0', lines.unitValue(line))));

  const submit = async () => {
    const next: Record<string, string> = {};
    const bodyLines = chosen.map((line) => {
      const q = parseDecimalInput(choice(line).quantidade);
      if (!q || compareDecimal(q, '0') <= 0) next[line.id] = 'Informe a quantidade.';
      else if (compareDecimal(q, line.pendente) > 0) next[line.id] = `A quantidade passa do pendente (${formatDecimal(line.pendente)}).`;
      return lines.toBody(line, q ?? '');
    });
    if (bodyLines.length === 0) next.itens = 'Escolha ao menos um item.';
    const body = props.body(row, bodyLines);
    const invalid = props.validate?.(body);
    if (invalid && Object.keys(next).length === 0) next.itens = invalid;
    setErrors(next);
    if (Object.keys(next).length) return;
    setSaving(true);
    try {
      const created = await api.post(target.endpoint.slice(1), { json: body }).json<Row>();
      toast.success(props.created(created, row));
      queryClient.setQueryData(queryKeys.document(target.endpoint, String(created.id)), created);
      await queryClient.invalidateQueries({ queryKey: queryKeys.all(target.endpoint) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.all(source.endpoint) });
      for (const key of props.invalidate ?? []) await queryClient.invalidateQueries({ queryKey: key });
      navigate(target.editHref(String(created.id)));
    } catch (error) {
      const byLine: Record<string, string> = {};
      for (const [path, message] of Object.entries(apiErrorBody(error)?.fields ?? {})) {
        const m = /^itens\.(\d+)\./.exec(path);
        const line = m ? chosen[Number(m[1])] : undefined;
        byLine[line ? line.id : 'itens'] = message;
      }
      setErrors(byLine);
      toast.error(apiErrorMessage(error, `Não foi possível criar ${target.feminino ? 'a' : 'o'} ${target.documento.toLowerCase()}.`));
    } finally {
      setSaving(false);
    }
  };

  const columns: CoverLinesColumns<L> = {
    include: {
      key: 'incluir',
      header: 'Incluir',
      width: '5rem',
      render: (line) => (
        <CheckboxField
          label={<span className="visually-hidden">Incluir {lines.name(line)}</span>}
          checked={choice(line).incluir}
          onChange={(e) => set(line, { incluir: e.target.checked })}
        />
      ),
    },
    quantity: (header) => ({
      key: 'quantidade',
      header,
      width: '10rem',
      render: (line) => (
        <TextField
          label={
            <span className="visually-hidden">
              Quantidade de {lines.name(line)} {target.feminino ? 'na' : 'no'} {target.documento.toLowerCase()}
            </span>
          }
          inputMode="decimal"
          disabled={!choice(line).incluir}
          value={choice(line).quantidade}
          error={errors[line.id]}
          onChange={(e) => set(line, { quantidade: e.target.value })}
        />
      ),
    }),
  };

  return (
    <>
      <PageHeader
        title={props.title(row)}
        description={props.description?.(row)}
        before={props.back}
        actions={
          <Button loading={saving} onClick={() => void submit()}>
            {props.submitLabel}
          </Button>
        }
      />
      {props.header?.(row)}
      <Card title={lines.title} flush>
        {errors.itens ? <Alert variant="error">{errors.itens}</Alert> : null}
        <DataTable<L> caption={lines.caption} captionHidden rows={items} empty={lines.empty} columns={props.columns(columns)} />
        <p style={{ textAlign: 'end', padding: '0.75rem 1rem', margin: 0 }}>
          Valor total estimado: <strong>{formatMoney(total)}</strong>
        </p>
      </Card>
    </>
  );
}
