import { formatDateTime } from '@app/br';
import { LoadErrorAlert, apiErrorBody, apiErrorMessage, downloadFile, queryKeys, toast, useApi, useQuery, useQueryClient } from '@app/core';
import { Alert, Button, Card, DataTable, type DataTableColumn, PageHeader, SelectField, Spinner, TextField, useConfirm } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import {
  type Arquivo,
  type Coluna,
  type Filtro,
  MAX_LINHAS,
  type Relatorio,
  arquivoSchema,
  arquivosSchema,
  emAndamento,
  relatorioSchema,
  resultadoSchema,
  textoDaCelula,
  textoDoEstado,
} from '../../shared/index.js';

type Linha = Record<string, unknown>;
type Formato = 'pdf' | 'xlsx';
const NUMERICAS = new Set(['integer', 'decimal', 'money']);
const arquivosDe = (id: string) => queryKeys.plugin('relatorios', 'arquivos', id);

/** 'Gerar PDF em segundo plano': the file is queued; its progress shows in 'Arquivos gerados'. */
function SegundoPlano({ relatorio, busca, mensagem }: { relatorio: Relatorio; busca: Record<string, string>; mensagem: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [pedindo, setPedindo] = useState<Formato | null>(null);
  const gerar = async (formato: Formato) => {
    setPedindo(formato);
    try {
      arquivoSchema.parse(await api.post(`relatorios/${relatorio.id}/arquivos`, { json: { formato }, searchParams: busca }).json());
      toast.success(`${formato === 'pdf' ? 'PDF' : 'Planilha'} na fila: acompanhe em Arquivos gerados.`);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Não foi possível pedir o arquivo.'));
    } finally {
      setPedindo(null);
      await queryClient.invalidateQueries({ queryKey: arquivosDe(relatorio.id) });
    }
  };
  // the server's 'O relatório passa de 10.000 linhas: restrinja…' (its limit: RELATORIOS_MAX_LINHAS may lower it)
  const titulo = mensagem.split(':')[0]!.replace(/\.$/, '') || `O relatório passa de ${MAX_LINHAS.toLocaleString('pt-BR')} linhas`;
  return (
    <Alert variant="info" title={titulo}>
      <p>Restrinja o período ou os filtros para ver a prévia, ou gere o arquivo em segundo plano: ele fica em Arquivos gerados para baixar.</p>
      <div className="row-actions">
        <Button variant="secondary" loading={pedindo === 'pdf'} disabled={pedindo !== null} onClick={() => void gerar('pdf')}>
          Gerar PDF em segundo plano
        </Button>
        <Button variant="secondary" loading={pedindo === 'xlsx'} disabled={pedindo !== null} onClick={() => void gerar('xlsx')}>
          Gerar XLSX em segundo plano
        </Button>
      </div>
    </Alert>
  );
}

const ADJETIVO: Record<Arquivo['estado'], string> = { na_fila: 'na fila', gerando: 'em geração', pronto: 'pronto', falhou: 'com falha' };
/** Names one file in buttons and questions: 'o XLSX pronto pedido em 02/03/2026 10:00'. */
const oArquivo = (a: Arquivo) => `o ${a.formato.toUpperCase()} ${ADJETIVO[a.estado]} pedido em ${formatDateTime(a.criadoEm)}`;

/** The person's files of this report made in the background: state, progress (refreshed every 2 s while one is under way), download. */
function ArquivosGerados({ relatorio }: { relatorio: Relatorio }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirmElement, confirm] = useConfirm();
  const lista = useQuery({
    queryKey: arquivosDe(relatorio.id),
    queryFn: async ({ signal }) => arquivosSchema.parse(await api.get(`relatorios/${relatorio.id}/arquivos`, { signal }).json()),
    refetchInterval: (q) => (q.state.data?.items.some((a) => emAndamento(a.estado)) ? 2000 : false),
  });
  if (lista.isError) return <LoadErrorAlert title="Não foi possível carregar os arquivos gerados" error={lista.error} onRetry={() => void lista.refetch()} />;
  const itens = lista.data?.items ?? [];
  // nothing while the person has no file of this report (nor while the list loads)
  if (itens.length === 0) return null;
  const baixar = (a: Arquivo) =>
    downloadFile(`relatorios/${relatorio.id}/arquivos/${a.id}/download`, {
      fileName: a.nomeArquivo ?? `relatorio.${a.formato}`,
      errorMessage: 'Não foi possível baixar o arquivo.',
    });
  /** Cancels a file under way, deletes a finished one (asked first). */
  const excluir = async (a: Arquivo) => {
    const cancelar = emAndamento(a.estado);
    const ok = await confirm({
      title: `${cancelar ? 'Cancelar' : 'Excluir'} ${oArquivo(a)}?`,
      description: cancelar ? 'O arquivo deixa de ser gerado.' : 'O arquivo deixa de estar disponível para baixar.',
      confirmLabel: cancelar ? 'Cancelar o arquivo' : 'Excluir',
      cancelLabel: 'Manter',
      tone: 'danger',
    });
    if (!ok) return;
    try {
      await api.delete(`relatorios/${relatorio.id}/arquivos/${a.id}`);
      toast.success(cancelar ? 'Arquivo cancelado.' : 'Arquivo excluído.');
    } catch (error) {
      toast.error(apiErrorMessage(error, cancelar ? 'Não foi possível cancelar o arquivo.' : 'Não foi possível excluir o arquivo.'));
    } finally {
      await queryClient.invalidateQueries({ queryKey: arquivosDe(relatorio.id) });
    }
  };
  const colunas: DataTableColumn<Arquivo>[] = [
    { key: 'criadoEm', header: 'Pedido em', rowHeader: true, render: (a) => formatDateTime(a.criadoEm) },
    { key: 'formato', header: 'Formato', render: (a) => a.formato.toUpperCase() },
    { key: 'filtros', header: 'Filtros', render: (a) => a.filtrosUsados.map((f) => `${f.label}: ${f.valor}`).join('; ') || 'Nenhum' },
    {
      key: 'estado',
      header: 'Situação',
      clamp: false,
      render: (a) => (
        <span data-estado={a.estado}>
          {textoDoEstado(a)}
          {a.estado === 'gerando' && a.fase === 'montando' && a.total ? (
            <progress max={a.total} value={a.linhas} aria-label={`Progresso do ${a.formato.toUpperCase()} pedido em ${formatDateTime(a.criadoEm)}`} />
          ) : null}
        </span>
      ),
    },
    {
      key: 'acoes',
      header: 'Ações',
      clamp: false,
      render: (a) => {
        const qual = oArquivo(a);
        return (
          <div className="row-actions">
            {a.estado === 'pronto' ? (
              <Button size="sm" variant="secondary" onClick={() => void baixar(a)} aria-label={`Baixar ${qual}`}>
                Baixar
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={() => void excluir(a)} aria-label={`${emAndamento(a.estado) ? 'Cancelar' : 'Excluir'} ${qual}`}>
              {emAndamento(a.estado) ? 'Cancelar' : 'Excluir'}
            </Button>
          </div>
        );
      },
    },
  ];
  return (
    <Card title="Arquivos gerados" flush>
      <DataTable caption="Arquivos gerados" captionHidden columns={colunas} rows={itens} empty="Nenhum arquivo." />
      {confirmElement}
    </Card>
  );
}

function Campo({ filtro, valor, erro }: { filtro: Filtro; valor: string; erro: string | undefined }) {
  const comum = { name: filtro.name, label: filtro.label, defaultValue: valor, error: erro, required: filtro.required };
  if (filtro.kind === 'select') {
    return <SelectField {...comum} options={filtro.options ?? []} placeholder={filtro.required ? undefined : 'Todos'} />;
  }
  if (filtro.kind === 'date') return <TextField {...comum} type="date" />;
  if (filtro.kind === 'ano') return <TextField {...comum} inputMode="numeric" pattern="[0-9]{4}" maxLength={4} />;
  return <TextField {...comum} maxLength={200} />;
}

/** The page's query string: the filters given, then the sort. */
function consulta(relatorio: Relatorio, params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of relatorio.filtros) {
    const v = params.get(f.name) ?? f.default ?? '';
    if (v) out[f.name] = v;
  }
  for (const k of ['ordem', 'direcao']) if (params.get(k)) out[k] = params.get(k)!;
  return out;
}

function Resultado({ relatorio, busca }: { relatorio: Relatorio; busca: Record<string, string> }) {
  const api = useApi();
  const [, navegar] = useLocation();
  const query = useQuery({
    queryKey: queryKeys.plugin('relatorios', 'linhas', relatorio.id, busca),
    queryFn: async () => resultadoSchema.parse(await api.get(`relatorios/${relatorio.id}/linhas`, { searchParams: busca }).json()),
  });
  const baixar = (formato: 'pdf' | 'xlsx') =>
    downloadFile(`relatorios/${relatorio.id}/${formato}`, {
      fileName: `relatorio.${formato}`,
      errorMessage: `Não foi possível gerar o ${formato.toUpperCase()}.`,
      searchParams: busca,
      successTitle: formato === 'pdf' ? 'PDF gerado' : 'Planilha gerada',
    });
  if (query.isPending) return <Spinner label="Gerando o relatório…" />;
  if (query.isError) {
    const erro = apiErrorBody(query.error);
    if (erro?.fields?.linhas === 'demais') return <SegundoPlano relatorio={relatorio} busca={busca} mensagem={erro.message} />;
    if (erro?.fields)
      return (
        <Alert variant="error" title="Confira os filtros">
          {Object.values(erro.fields).join(' ')}
        </Alert>
      );
    return <LoadErrorAlert title="Não foi possível gerar o relatório" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const r = query.data;
  const colunas: DataTableColumn<Linha>[] = relatorio.colunas.map((c: Coluna, i) => ({
    key: c.key,
    header: c.label,
    sortable: true,
    align: NUMERICAS.has(c.type) ? 'end' : 'start',
    rowHeader: i === 0,
    clamp: c.type === 'text',
    render: (linha: Linha) => textoDaCelula(c, linha[c.key]),
  }));
  const ordenar = ({ key, dir }: { key: string; dir: 'asc' | 'desc' }) =>
    navegar(`/${relatorio.id}?${new URLSearchParams({ ...busca, ordem: key, direcao: dir })}`);
  const totais = relatorio.colunas.filter((c) => c.total);
  return (
    <Card
      title={`${r.totalLinhas.toLocaleString('pt-BR')} ${r.totalLinhas === 1 ? 'linha' : 'linhas'}`}
      actions={
        <>
          <Button variant="secondary" onClick={() => void baixar('pdf')}>
            Baixar PDF
          </Button>
          <Button variant="secondary" onClick={() => void baixar('xlsx')}>
            Baixar XLSX
          </Button>
        </>
      }
      flush
    >
      <p className="field__hint">
        Gerado por {r.geradoPor} em {formatDateTime(r.geradoEm)}
        {r.totalLinhas > r.linhas.length ? `; na tela, as primeiras ${r.linhas.length.toLocaleString('pt-BR')} (o PDF e o XLSX trazem todas)` : ''}.
      </p>
      <DataTable
        caption={relatorio.title}
        captionHidden
        columns={colunas}
        rows={r.linhas}
        sort={r.ordem ? { key: r.ordem, dir: r.direcao } : null}
        onSortChange={ordenar}
        empty="Nenhuma linha com estes filtros."
      />
      {totais.length > 0 ? (
        <p role="note" aria-label="Totais">
          <strong>Totais:</strong> {totais.map((c) => `${c.label} ${textoDaCelula(c, r.totais[c.key])}`).join(' · ')}
        </p>
      ) : null}
    </Card>
  );
}

/** /reports/:id: the filters (kept in the URL), the preview, the PDF and the XLSX. */
export default function RelatorioPage() {
  const { id = '' } = useParams<{ id: string }>();
  const search = useSearch();
  const [, navegar] = useLocation();
  const api = useApi();
  const [erros, setErros] = useState<Record<string, string>>({});
  const query = useQuery({
    queryKey: queryKeys.plugin('relatorios', 'relatorio', id),
    queryFn: async () => relatorioSchema.parse(await api.get(`relatorios/${id}`).json()),
  });
  const voltar = <Link href="/">Voltar para Relatórios</Link>;
  if (query.isPending) return <Spinner label="Carregando o relatório…" />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Relatório" before={voltar} />
        <LoadErrorAlert title="Não foi possível abrir o relatório" error={query.error} onRetry={() => void query.refetch()} />
      </>
    );
  }
  const relatorio = query.data;
  const params = new URLSearchParams(search);
  const busca = consulta(relatorio, params);
  const gerar = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const dados = new FormData(event.currentTarget);
    const novos = new URLSearchParams();
    const faltam: Record<string, string> = {};
    for (const f of relatorio.filtros) {
      const v = String(dados.get(f.name) ?? '').trim();
      if (v) novos.set(f.name, v);
      else if (f.required) faltam[f.name] = `${f.label}: informe um valor.`;
    }
    setErros(faltam);
    if (Object.keys(faltam).length === 0) navegar(`/${relatorio.id}?${novos}`);
  };
  return (
    <>
      <PageHeader title={relatorio.title} description={relatorio.description} before={voltar} />
      <Card title="Filtros">
        <form onSubmit={gerar} aria-label={`Filtros de ${relatorio.title}`} key={search}>
          <div className="form-grid">
            {relatorio.filtros.map((f) => (
              <Campo key={f.name} filtro={f} valor={params.get(f.name) ?? f.default ?? ''} erro={erros[f.name]} />
            ))}
          </div>
          <Button type="submit">Gerar</Button>
        </form>
      </Card>
      <Resultado relatorio={relatorio} busca={busca} />
      <ArquivosGerados relatorio={relatorio} />
    </>
  );
}
