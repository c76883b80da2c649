// /pncp: the entidade's publications on the PNCP (tag 103) — each with its document, operation, state
// (aguardando, enviando n de m, concluída, erro, cancelada), attempts, next attempt, last error and who
// asked, refreshed every 2 s while one is under way; 'Tentar novamente' and 'Cancelar'; the filter
// 'Situação' kept in the URL (?estado=erro: where the home page's 'Publicações no PNCP com erro' leads)
// — and, with tag 104, the entidade's PNCP system user (the password is never shown back).
import { formatDateTime } from '@app/br';
import { api, apiErrorBody, apiErrorMessage, LoadErrorAlert, queryKeys, toast, useHasTag, useQuery, useQueryClient } from '@app/core';
import { Alert, Button, Card, DataTable, type DataTableColumn, PageHeader, PasswordField, SelectField, Tabs, TextField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'wouter';
import { PNCP_CONFIG_TAG, PNCP_TAG, type Publicacao, credenciaisInputSchema } from '../../shared/index.js';

const PUBLICACOES = queryKeys.plugin('pncp', 'publicacoes');
const CREDENCIAIS = queryKeys.plugin('pncp', 'credenciais');

/** The list's filter 'Situação' (the URL's `estado`, as GET /publicacoes takes it). */
const SITUACOES = [
  { value: 'erro', label: 'Com erro' },
  { value: 'aguardando,enviando', label: 'Em andamento (na fila ou enviando)' },
  { value: 'concluido', label: 'Concluídas' },
  { value: 'cancelado', label: 'Canceladas' },
];

const OPERACAO: Record<Publicacao['operacao'], string> = { publicar: 'Publicar o plano', excluir: 'Excluir o plano do PNCP' };
const ETAPA: Record<string, string> = {
  verificando: 'conferindo o que o PNCP já tem',
  plano: 'enviando o plano',
  itens: 'enviando os itens',
  retificacao: 'retificando itens',
  exclusao: 'excluindo itens',
  concluido: 'concluído',
};

/** 'Enviando os itens: 2 000 de 2 500', 'Aguardando nova tentativa às 14:05', 'Concluída em …'. */
export function situacao(p: Publicacao): string {
  switch (p.estado) {
    case 'aguardando':
      return p.proximaTentativa ? `Aguardando nova tentativa (${formatDateTime(p.proximaTentativa)})` : 'Aguardando a vez na fila';
    case 'enviando':
      return p.total > 0
        ? `Enviando: ${p.feitos.toLocaleString('pt-BR')} de ${p.total.toLocaleString('pt-BR')} itens${p.etapa ? ` (${ETAPA[p.etapa] ?? p.etapa})` : ''}`
        : 'Enviando';
    case 'concluido':
      return p.concluidoEm ? `Concluída em ${formatDateTime(p.concluidoEm)}` : 'Concluída';
    case 'erro':
      return 'Erro: não enviada';
    case 'cancelado':
      return 'Cancelada';
  }
}

function Publicacoes() {
  const queryClient = useQueryClient();
  const [agindo, setAgindo] = useState<string | null>(null);
  const [search, setSearch] = useSearchParams();
  const estado = SITUACOES.find((o) => o.value === search.get('estado'))?.value ?? '';
  const filtrar = (valor: string) =>
    setSearch((atual) => {
      const next = new URLSearchParams(atual);
      if (valor) next.set('estado', valor);
      else next.delete('estado');
      return next;
    });
  const lista = useQuery({
    queryKey: [...PUBLICACOES, { estado }],
    queryFn: ({ signal }) => api.get('pncp/publicacoes', { signal, searchParams: estado ? { estado } : {} }).json<{ items: Publicacao[] }>(),
    // live progress while any publication is under way
    refetchInterval: (q) => (q.state.data?.items.some((p) => p.estado === 'aguardando' || p.estado === 'enviando') ? 2000 : false),
  });
  if (lista.isError) return <LoadErrorAlert title="Não foi possível carregar as publicações" error={lista.error} onRetry={() => void lista.refetch()} />;

  const agir = async (p: Publicacao, acao: 'tentar-novamente' | 'cancelar') => {
    setAgindo(p.id);
    try {
      await api.post(`pncp/publicacoes/${p.id}/${acao}`).json();
      toast.success(acao === 'cancelar' ? `Publicação de ${p.documento} cancelada.` : `Publicação de ${p.documento} de volta à fila.`);
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Não foi possível concluir a ação.'));
    } finally {
      setAgindo(null);
      await queryClient.invalidateQueries({ queryKey: PUBLICACOES });
    }
  };

  const columns: DataTableColumn<Publicacao>[] = [
    { key: 'documento', header: 'Documento', rowHeader: true },
    { key: 'operacao', header: 'Operação', render: (p) => OPERACAO[p.operacao] },
    // one line per row (≥ 12 rows at 1366×768): long texts clamped, the whole one in their title
    { key: 'estado', header: 'Situação', render: (p) => situacao(p) },
    {
      key: 'numeroControle',
      header: 'Número de controle no PNCP',
      render: (p) =>
        p.numeroControle && p.link ? (
          <a href={p.link} target="_blank" rel="noreferrer" className="data-table__nowrap">
            {p.numeroControle}
          </a>
        ) : (
          (p.numeroControle ?? '')
        ),
    },
    { key: 'tentativas', header: 'Tentativas', align: 'end' },
    { key: 'solicitadoPorNome', header: 'Pedida por' },
    { key: 'createdAt', header: 'Pedida em', render: (p) => formatDateTime(p.createdAt) },
    {
      key: 'acoes',
      header: 'Ações',
      clamp: false,
      render: (p) => (
        <div className="data-table__actions">
          {p.estado === 'erro' || p.estado === 'cancelado' ? (
            <Button
              size="sm"
              variant="secondary"
              loading={agindo === p.id}
              onClick={() => void agir(p, 'tentar-novamente')}
              aria-label={`Tentar novamente: ${p.documento}`}
            >
              Tentar novamente
            </Button>
          ) : null}
          {p.estado === 'aguardando' || p.estado === 'erro' ? (
            <Button size="sm" variant="secondary" loading={agindo === p.id} onClick={() => void agir(p, 'cancelar')} aria-label={`Cancelar: ${p.documento}`}>
              Cancelar
            </Button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <>
      {/* a filter bar (search > .form-grid: compact tracks): in a plain form grid the lone select took the whole width */}
      <search aria-label="Filtros de Publicações no PNCP" className="list-filters">
        <div className="form-grid">
          <SelectField label="Situação" placeholder="Todas" value={estado} options={SITUACOES} onChange={(e) => filtrar(e.target.value)} />
        </div>
      </search>
      <DataTable
        caption="Publicações no PNCP"
        captionHidden
        columns={columns}
        rows={lista.data?.items ?? []}
        loading={lista.isPending}
        empty={
          estado
            ? 'Nenhuma publicação nesta situação.'
            : 'Nenhuma publicação ainda: publique um Plano de Contratações Anual aprovado (botão Publicar do plano).'
        }
        rowDetail={(p) =>
          p.ultimoErro && p.estado !== 'concluido' ? (
            <div role="note" aria-label={`Último erro: ${p.documento}`}>
              <p>{p.ultimoErro}</p>
              {p.erros.length ? (
                <ul>
                  {p.erros.slice(0, 20).map((e, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the PNCP's list has no id
                    <li key={i}>{[e.numeroItem ? `Item ${e.numeroItem}` : null, e.campo, e.mensagem].filter(Boolean).join(': ')}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null
        }
      />
    </>
  );
}

type Credenciais = { configurado: boolean; login: string | null; atualizadoPorNome: string | null; atualizadoEm: string | null; chaveDefinida: boolean };

function Configuracao() {
  const queryClient = useQueryClient();
  const lida = useQuery({ queryKey: CREDENCIAIS, queryFn: ({ signal }) => api.get('pncp/credenciais', { signal }).json<Credenciais>() });
  const [login, setLogin] = useState<string | null>(null);
  const [senha, setSenha] = useState('');
  const [erros, setErros] = useState<{ login?: string; senha?: string }>({});
  const [salvando, setSalvando] = useState(false);
  if (lida.isError) return <LoadErrorAlert title="Não foi possível carregar a configuração" error={lida.error} onRetry={() => void lida.refetch()} />;
  if (!lida.data) return null;
  const c = lida.data;
  const valorLogin = login ?? c.login ?? '';

  const salvar = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = credenciaisInputSchema.safeParse({ login: valorLogin, senha });
    if (!parsed.success) {
      setErros(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setSalvando(true);
    try {
      const salvo = await api.put('pncp/credenciais', { json: parsed.data }).json<Credenciais>();
      queryClient.setQueryData(CREDENCIAIS, salvo);
      setSenha('');
      setLogin(null);
      setErros({});
      toast.success('Usuário do PNCP salvo.');
    } catch (error) {
      const body = apiErrorBody(error);
      if (body?.fields && Object.keys(body.fields).length) setErros(body.fields as typeof erros);
      else toast.error(apiErrorMessage(error, 'Não foi possível salvar o usuário do PNCP.'));
    } finally {
      setSalvando(false);
    }
  };

  return (
    <form onSubmit={(e) => void salvar(e)} noValidate aria-label="Usuário do PNCP">
      <Card title="Usuário de sistema do PNCP">
        {!c.chaveDefinida ? (
          <Alert variant="warning" title="Falta a chave do servidor">
            A senha do PNCP é guardada cifrada com uma chave fora do banco de dados. Peça a quem administra o servidor que defina PNCP_CREDENCIAIS_KEY (ou
            PNCP_CREDENCIAIS_KEY_FILE).
          </Alert>
        ) : null}
        <p>
          {c.configurado && c.atualizadoEm
            ? `Configurado por ${c.atualizadoPorNome ?? 'sem nome'} em ${formatDateTime(c.atualizadoEm)}.`
            : 'Ainda não configurado: sem ele, nenhum plano é publicado no PNCP.'}
        </p>
        <TextField label="Login" autoComplete="off" value={valorLogin} error={erros.login} onChange={(e) => setLogin(e.target.value)} required />
        <PasswordField
          label="Senha"
          autoComplete="new-password"
          hint={c.configurado ? 'Deixe em branco para manter a senha guardada. Ela nunca é mostrada.' : 'A senha que o PNCP emitiu para a plataforma.'}
          value={senha}
          error={erros.senha}
          onChange={(e) => setSenha(e.target.value)}
          required={!c.configurado}
        />
        <div className="form-actions">
          <Button type="submit" loading={salvando} disabled={!c.chaveDefinida}>
            Salvar
          </Button>
        </div>
      </Card>
    </form>
  );
}

export default function PncpPage() {
  const podeConfigurar = useHasTag(PNCP_CONFIG_TAG);
  const podePublicar = useHasTag(PNCP_TAG);
  const [aba, setAba] = useState<'publicacoes' | 'configuracao'>(podePublicar ? 'publicacoes' : 'configuracao');
  const abas = [
    ...(podePublicar ? [{ id: 'publicacoes' as const, label: 'Publicações' }] : []),
    ...(podeConfigurar ? [{ id: 'configuracao' as const, label: 'Configuração' }] : []),
  ];
  return (
    <>
      <PageHeader
        title="Publicações no PNCP"
        description="O Plano de Contratações Anual aprovado vai ao Portal Nacional de Contratações Públicas em segundo plano: acompanhe aqui cada envio, tente de novo ou cancele."
      />
      {abas.length > 1 ? (
        <Tabs label="Publicações no PNCP" idPrefix="pncp" tabs={abas} value={aba} onChange={setAba}>
          {aba === 'publicacoes' ? <Publicacoes /> : <Configuracao />}
        </Tabs>
      ) : aba === 'publicacoes' ? (
        <Publicacoes />
      ) : (
        <Configuracao />
      )}
    </>
  );
}
