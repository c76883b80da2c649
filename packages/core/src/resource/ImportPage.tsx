// Spreadsheet import page of a resource: template download, dry run listing every bad row
// (linha, coluna, motivo), and the import, enabled only once the file is clean.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DataTable, type DataTableColumn, PageHeader, TextField } from '@app/ui';
import { type ChangeEvent, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { apiErrorBody, apiErrorMessage } from '../api';
import { useApi } from '../hooks';
import { toast } from '../toast/queue';

/** Answer of POST …/importar (see @app/server-core importRows). */
export interface ImportResult {
  ok: boolean;
  dryRun: boolean;
  total: number;
  imported: number;
  errorCount: number;
  errors: { linha: number; coluna: string; motivo: string }[];
}

export interface ImportarPlanilhaProps {
  /** h1, e.g. 'Importar produtos'. */
  title: string;
  description?: string;
  /** API path of the resource, relative to /api: 'produtos/produtos'. */
  resource: string;
  /** Query keys to invalidate after importing (the list's). */
  invalidate: readonly unknown[];
  /** Where 'Voltar' and a finished import go, relative to the plugin's base path ('' = the list). */
  listHref: string;
  /** 'produtos', 'fornecedores': used in messages ('12 produtos importados.'). */
  plural: string;
  /** File name of the template download, without extension: 'modelo-produtos'. */
  templateName: string;
}

const ACCEPT = '.xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const errorColumns: DataTableColumn<ImportResult['errors'][number]>[] = [
  { key: 'linha', header: 'Linha', align: 'end', width: '6rem' },
  { key: 'coluna', header: 'Coluna', width: '14rem', render: (e) => e.coluna || '—' },
  { key: 'motivo', header: 'Motivo' },
];

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('pt-BR')} ${n === 1 ? one : many}`;
}

/**
 * Spreadsheet import page: choose a .xlsx/.csv file, 'Validar arquivo' (dry run) lists every problem
 * (Linha, Coluna, Motivo); 'Importar' is enabled only when the file validated clean, and imports all
 * rows or none. 'Baixar modelo' downloads the template.
 */
export function ImportarPlanilha({ title, description, resource, invalidate, listHref, plural: nome, templateName }: ImportarPlanilhaProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const resultId = useId();

  const send = useMutation({
    mutationFn: async ({ dryRun }: { dryRun: boolean }) => {
      if (!file) throw new Error('Escolha um arquivo .xlsx ou .csv.');
      const body = new FormData();
      body.set('arquivo', file, file.name);
      return api.post(`${resource}/importar`, { body, searchParams: { dryRun: String(dryRun) } }).json<ImportResult>();
    },
    onSuccess: async (data) => {
      setResult(data);
      setFileError(undefined);
      if (!data.dryRun && data.ok) {
        await queryClient.invalidateQueries({ queryKey: invalidate as unknown[] });
        toast.success(`${plural(data.imported, nome.replace(/s$/, ''), nome)} ${data.imported === 1 ? 'importado' : 'importados'}.`);
        navigate(listHref);
      }
    },
    onError: (error) => {
      setResult(null);
      const body = apiErrorBody(error);
      setFileError(body?.fields?.arquivo ?? apiErrorMessage(error, 'Não foi possível enviar o arquivo.'));
    },
  });

  const download = useMutation({
    mutationFn: async (formato: 'xlsx' | 'csv') => {
      const blob = await api.get(`${resource}/modelo`, { searchParams: { formato } }).blob();
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${templateName}.${formato}`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
    onError: (error) => toast.error(apiErrorMessage(error, 'Não foi possível baixar o modelo.')),
  });

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    setResult(null);
    setFileError(undefined);
  };

  const validated = result?.dryRun === true && result.ok;
  const busy = send.isPending;

  return (
    <div data-testid="importar-planilha">
      <PageHeader
        title={title}
        description={description ?? 'Envie uma planilha .xlsx ou .csv no formato do modelo. Nada é importado enquanto houver erros.'}
        before={<Link href={listHref}>Voltar para a lista</Link>}
        actions={
          <>
            <Button variant="secondary" icon="file" loading={download.isPending && download.variables === 'xlsx'} onClick={() => download.mutate('xlsx')}>
              Baixar modelo
            </Button>
            <Button variant="ghost" loading={download.isPending && download.variables === 'csv'} onClick={() => download.mutate('csv')}>
              Modelo CSV
            </Button>
          </>
        }
      />
      <Card title="Arquivo">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (file) send.mutate({ dryRun: true });
          }}
        >
          <TextField
            label="Arquivo da planilha (.xlsx ou .csv)"
            hint="A primeira linha deve ter os títulos das colunas do modelo. CSV separado por ponto e vírgula ou vírgula, em UTF-8."
            type="file"
            accept={ACCEPT}
            onChange={onFile}
            error={fileError}
          />
          <div className="form-actions">
            <Button type="submit" variant={validated ? 'secondary' : 'primary'} disabled={!file} loading={busy && send.variables?.dryRun === true}>
              Validar arquivo
            </Button>
            <Button
              variant="primary"
              disabled={!validated}
              loading={busy && send.variables?.dryRun === false}
              aria-describedby={resultId}
              onClick={() => send.mutate({ dryRun: false })}
            >
              Importar
            </Button>
          </div>
        </form>
      </Card>
      <div id={resultId} aria-live="polite">
        {result?.ok && result.dryRun ? (
          <Alert variant="success" title="Arquivo válido">
            {plural(result.total, 'linha pronta', 'linhas prontas')} para importar. Clique em “Importar” para gravar.
          </Alert>
        ) : null}
        {result && !result.ok ? (
          <Card title="Erros encontrados" flush>
            <Alert variant="error" title={`${plural(result.errorCount, 'problema encontrado', 'problemas encontrados')} no arquivo`}>
              Nada foi importado. Corrija a planilha e valide novamente.
              {result.errorCount > result.errors.length ? ` Mostrando os ${result.errors.length} primeiros.` : ''}
            </Alert>
            <DataTable
              caption="Erros encontrados na planilha"
              captionHidden
              columns={errorColumns}
              rows={result.errors}
              rowKey={(e, i) => `${e.linha}-${e.coluna}-${i}`}
            />
          </Card>
        ) : null}
      </div>
    </div>
  );
}
