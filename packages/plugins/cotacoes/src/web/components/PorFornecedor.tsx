// 'Por fornecedor' of the collection page: the invited suppliers and their situation; invite one
// (picker of suppliers that are not impedidos, with the reason of the choice); per supplier the blank
// quote form (PDF/XLSX), its answer typed in a grid of every item or imported from its filled XLSX
// (all or nothing: the rows' errors listed), 'não respondeu' (kept in the record) and removing an
// invitation without prices.
import { dateTimeInputValue, formatCpfCnpj, formatDate, formatDateTime, instantFromDateTimeInput } from '@app/br';
import { api, apiErrorBody, apiErrorMessage, issuesToFieldErrors, toast } from '@app/core';
import { formatDecimal, parseDecimalInput } from '@app/documents';
import {
  Alert,
  AsyncComboboxField,
  type AsyncComboboxOption,
  Button,
  ButtonRow,
  Card,
  DataTable,
  type DataTableColumn,
  TextareaField,
  TextField,
} from '@app/ui';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import {
  type Convite,
  type ItemCotacao,
  type MapaCotacao,
  SITUACAO_CONVITE_LABEL,
  conviteInputSchema,
  precoSchema,
  respostaInputSchema,
} from '../../shared/index.js';
import { AcoesDoFormulario, baixarArquivo, cotacaoPath, executarFilho, plural, useAtualizar, useDialogos, useFilhos } from './comum';

export interface AbaProps {
  mapa: MapaCotacao;
  /** Invitations, other-source prices and decisions may change (open cotação, person's centro). */
  podeEditar: boolean;
  /** Supplier answers may be recorded (podeEditar and em coleta). */
  podeResponder: boolean;
}

type Painel = { tipo: 'resposta' | 'importar'; conviteId: string } | null;
/** The panel of one invitation under the table: its answer typed, or its XLSX imported. */
type PainelProps = { mapa: MapaCotacao; convite: Convite; onClose: () => void };

const ordenados = (itens: ItemCotacao[]) => [...itens].sort((a, b) => a.ordem - b.ordem);
const arquivoBase = (mapa: MapaCotacao, convite: Convite) =>
  `formulario-cotacao-${mapa.cotacao.numero}-${mapa.cotacao.ano}-${convite.fornecedorNome
    .normalize('NFD')
    .replace(/[^\w]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()}`;

/** The invitation form ('Convidar fornecedor'). */
function Convidar({ mapa, onClose }: { mapa: MapaCotacao; onClose: () => void }) {
  const convites = useFilhos(mapa.cotacao.id, 'fornecedores');
  const [fornecedor, setFornecedor] = useState<AsyncComboboxOption | null>(null);
  const [motivo, setMotivo] = useState('');
  const [erros, setErros] = useState<{ fornecedorId?: string; motivoEscolha?: string }>({});
  const convidados = useMemo(() => new Set(mapa.convites.map((c) => c.fornecedorId)), [mapa.convites]);

  const loadOptions = useCallback(
    async (q: string, signal: AbortSignal): Promise<AsyncComboboxOption[]> => {
      const page = await api
        .get('cotacoes/fornecedores', { searchParams: { q, pageSize: '20' }, signal })
        .json<{ items: { id: string; nome: string; documento: string; email: string | null }[] }>();
      return page.items.map((f) => ({
        value: f.id,
        label: f.nome,
        description: [formatCpfCnpj(f.documento), f.email, convidados.has(f.id) ? 'já convidado' : null].filter(Boolean).join(' · '),
      }));
    },
    [convidados],
  );

  const enviar = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = conviteInputSchema.safeParse({ fornecedorId: fornecedor?.value ?? '', motivoEscolha: motivo });
    if (!parsed.success) {
      setErros(issuesToFieldErrors(parsed.error.issues));
      return;
    }
    if (convidados.has(parsed.data.fornecedorId)) {
      setErros({ fornecedorId: 'Este fornecedor já foi convidado para esta cotação.' });
      return;
    }
    const result = await convites.create(parsed.data, 'Não foi possível convidar o fornecedor.');
    if (result.ok) {
      toast.success(`${fornecedor?.label ?? 'Fornecedor'} convidado.`);
      onClose();
      return;
    }
    const fields = result.fields;
    if (fields.fornecedorId || fields.motivoEscolha) setErros({ fornecedorId: fields.fornecedorId, motivoEscolha: fields.motivoEscolha });
    else setErros({ fornecedorId: result.message });
  };

  return (
    <form onSubmit={(e) => void enviar(e)} noValidate aria-label="Convidar fornecedor">
      <div className="form-grid">
        <AsyncComboboxField
          id="convite-fornecedor"
          label="Fornecedor"
          value={fornecedor?.value ?? null}
          selectedLabel={fornecedor?.label}
          loadOptions={loadOptions}
          placeholder="Nome, CNPJ ou CPF…"
          emptyText="Nenhum fornecedor apto encontrado"
          required
          hint="Fornecedores ativos e não impedidos."
          error={erros.fornecedorId}
          onChange={(_, option) => {
            setFornecedor(option ?? null);
            setErros((e) => ({ ...e, fornecedorId: undefined }));
          }}
        />
        <TextareaField
          label="Motivo da escolha"
          hint="Por que este fornecedor foi consultado (IN SEGES/ME 65/2021, art. 5º, IV)."
          rows={2}
          maxLength={1000}
          value={motivo}
          error={erros.motivoEscolha}
          onChange={(e) => setMotivo(e.target.value)}
        />
      </div>
      <AcoesDoFormulario onCancel={onClose} loading={convites.busy}>
        Convidar
      </AcoesDoFormulario>
    </form>
  );
}

/** The answer of one supplier typed by hand: every item (unit price in pt-BR, brand), date and validity. */
function Resposta({ mapa, convite, onClose }: PainelProps) {
  const convites = useFilhos(mapa.cotacao.id, 'fornecedores');
  const itens = useMemo(() => ordenados(mapa.itens), [mapa.itens]);
  const anteriores = useMemo(() => {
    const out = new Map<string, { valor: string; marca: string }>();
    for (const p of mapa.precos) {
      if (p.fonte === 'fornecedor' && p.fornecedorId === convite.fornecedorId)
        out.set(p.produtoId, { valor: formatDecimal(p.valorUnitario), marca: p.marca ?? '' });
    }
    return out;
  }, [mapa.precos, convite.fornecedorId]);
  const [erros, setErros] = useState<Record<string, string>>({});

  const enviar = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const campo = (nome: string) => String(form.get(nome) ?? '').trim();
    const next: Record<string, string> = {};
    const linhas = itens.map((item) => {
      const bruto = campo(`preco-${item.produtoId}`);
      const marca = campo(`marca-${item.produtoId}`);
      if (!bruto) {
        if (marca) next[item.produtoId] = 'Informe o preço desta marca, ou apague a marca.';
        return { produtoId: item.produtoId, valorUnitario: null, marca: null };
      }
      const valor = precoSchema.safeParse(parseDecimalInput(bruto) ?? bruto);
      if (!valor.success) next[item.produtoId] = valor.error.issues[0]?.message ?? 'Preço inválido.';
      return { produtoId: item.produtoId, valorUnitario: valor.success ? valor.data : null, marca: marca || null };
    });
    // no price and no item in error
    if (Object.keys(next).length === 0 && !linhas.some((l) => l.valorUnitario !== null)) {
      next._ = 'Informe ao menos um preço. Para um fornecedor que não cotou nada, use “Não respondeu”.';
    }
    const parsed = respostaInputSchema.safeParse({
      dataProposta: instantFromDateTimeInput(campo('dataProposta')) ?? '',
      validade: campo('validade') || null,
      itens: linhas,
    });
    for (const issue of parsed.error?.issues ?? []) {
      const nome = String(issue.path[0]);
      if (nome === 'dataProposta' || nome === 'validade') next[nome] ??= issue.message;
    }
    setErros(next);
    if (Object.keys(next).length || !parsed.success) return;
    const result = await convites.action(convite.id, 'resposta', parsed.data, { method: 'put', fallback: 'Não foi possível registrar a resposta.' });
    if (result.ok) {
      const n = parsed.data.itens.filter((l) => l.valorUnitario !== null).length;
      toast.success(`Resposta de ${convite.fornecedorNome} registrada: ${plural(n, 'preço', 'preços')}.`);
      onClose();
      return;
    }
    const porItem: Record<string, string> = {};
    for (const [path, message] of Object.entries(result.fields)) {
      const m = /^itens\.(\d+)\./.exec(path);
      const item = m ? parsed.data.itens[Number(m[1])] : undefined;
      if (item) porItem[item.produtoId] = message;
      else porItem[path === 'dataProposta' || path === 'validade' ? path : '_'] = message;
    }
    setErros(porItem);
    toast.error(result.message);
  };

  const colunas: DataTableColumn<ItemCotacao>[] = [
    { key: 'ordem', header: 'Nº', align: 'end', width: '3rem' },
    { key: 'descricao', header: 'Item', rowHeader: true },
    { key: 'unidade', header: 'Unid.', width: '5rem' },
    { key: 'quantidade', header: 'Quantidade', align: 'end', render: (i) => formatDecimal(i.quantidade) },
    {
      key: 'preco',
      header: 'Preço unitário (R$)',
      width: '10rem',
      render: (i) => (
        <TextField
          label={<span className="visually-hidden">Preço unitário do item {i.ordem}</span>}
          name={`preco-${i.produtoId}`}
          inputMode="decimal"
          autoComplete="off"
          defaultValue={anteriores.get(i.produtoId)?.valor ?? ''}
          error={erros[i.produtoId]}
        />
      ),
    },
    {
      key: 'marca',
      header: 'Marca',
      width: '12rem',
      render: (i) => (
        <TextField
          label={<span className="visually-hidden">Marca do item {i.ordem}</span>}
          name={`marca-${i.produtoId}`}
          maxLength={200}
          autoComplete="off"
          defaultValue={anteriores.get(i.produtoId)?.marca ?? ''}
        />
      ),
    },
  ];

  return (
    <Card title={`Resposta de ${convite.fornecedorNome}`} id="coleta-painel" tabIndex={-1}>
      <form onSubmit={(e) => void enviar(e)} noValidate aria-label={`Resposta de ${convite.fornecedorNome}`} className="stack">
        <p className="field__hint">
          Preços unitários como na proposta (1.234,56; até 4 casas decimais). Deixe em branco os itens que o fornecedor não cotou. Salvar substitui a resposta
          anterior deste fornecedor.
        </p>
        {erros._ ? <Alert variant="error">{erros._}</Alert> : null}
        <div className="form-grid">
          <TextField
            label="Data e hora da proposta"
            type="datetime-local"
            name="dataProposta"
            required
            hint="Horário de Brasília."
            defaultValue={dateTimeInputValue(convite.dataProposta ?? new Date())}
            error={erros.dataProposta}
          />
          <TextField label="Validade da proposta" type="date" name="validade" defaultValue={convite.validade ?? ''} error={erros.validade} />
        </div>
        <DataTable<ItemCotacao> caption={`Preços de ${convite.fornecedorNome}`} captionHidden rows={itens} rowKey={(i) => i.produtoId} columns={colunas} />
        <AcoesDoFormulario onCancel={onClose} loading={convites.busy}>
          Salvar resposta
        </AcoesDoFormulario>
      </form>
    </Card>
  );
}

interface ErroDeLinha {
  linha: number | null;
  coluna: string;
  motivo: string;
}

/**
 * The rows' errors of a refused import: a list `errors` / `error.errors` of { linha, coluna, motivo }
 * (the spreadsheet kit's shape) or the error's `fields` keyed by row ('linha 4', '4.preco', 'itens.2.valorUnitario').
 */
function errosDaImportacao(error: unknown): ErroDeLinha[] {
  const data = (error as { data?: { errors?: unknown; error?: { errors?: unknown } } } | null)?.data;
  const lista = [data?.errors, data?.error?.errors].find(Array.isArray) as Record<string, unknown>[] | undefined;
  if (lista) {
    return lista.map((e) => ({
      linha: e.linha == null || !Number.isFinite(Number(e.linha)) ? null : Number(e.linha),
      coluna: String(e.coluna ?? ''),
      motivo: String(e.motivo ?? e.message ?? ''),
    }));
  }
  const fields = apiErrorBody(error)?.fields ?? {};
  return Object.entries(fields)
    .filter(([campo]) => campo !== 'arquivo')
    .map(([campo, motivo]) => {
      const m = /(\d+)/.exec(campo);
      const coluna = campo.replace(/^(linha|linhas|itens)?[\s._-]*\d+[\s.:_-]*/i, '').trim();
      return { linha: m ? Number(m[1]) : null, coluna, motivo };
    });
}

const colunasErro: DataTableColumn<ErroDeLinha>[] = [
  { key: 'linha', header: 'Linha', align: 'end', width: '5rem', render: (e) => (e.linha === null ? '—' : String(e.linha)) },
  { key: 'coluna', header: 'Coluna', width: '12rem', render: (e) => e.coluna || '—' },
  { key: 'motivo', header: 'Motivo', clamp: false },
];

/** The supplier's filled XLSX: all rows or none; the rows' errors listed. */
function Importar({ mapa, convite, onClose }: PainelProps) {
  const atualizar = useAtualizar();
  const [arquivo, setArquivo] = useState<File | null>(null);
  const [erroArquivo, setErroArquivo] = useState<string | undefined>();
  const [falha, setFalha] = useState<{ mensagem: string; linhas: ErroDeLinha[] } | null>(null);
  const [enviando, setEnviando] = useState(false);

  const enviar = async (event: FormEvent) => {
    event.preventDefault();
    if (!arquivo) {
      setErroArquivo('Escolha a planilha .xlsx preenchida pelo fornecedor.');
      return;
    }
    setEnviando(true);
    setFalha(null);
    try {
      const body = new FormData();
      body.set('arquivo', arquivo, arquivo.name);
      const convite2 = await api.post(`${cotacaoPath(mapa.cotacao.id)}/fornecedores/${encodeURIComponent(convite.id)}/importar`, { body }).json<Convite>();
      toast.success(`Resposta de ${convite.fornecedorNome} importada: ${plural(convite2.precos, 'preço', 'preços')}.`);
      await atualizar();
      onClose();
    } catch (error) {
      const linhas = errosDaImportacao(error);
      const fields = apiErrorBody(error)?.fields ?? {};
      if (linhas.length) setFalha({ mensagem: apiErrorMessage(error, 'A planilha tem erros.'), linhas });
      else if (fields.arquivo) setErroArquivo(fields.arquivo);
      else setFalha({ mensagem: apiErrorMessage(error, 'Não foi possível importar a planilha.'), linhas: [] });
    } finally {
      setEnviando(false);
    }
  };

  return (
    <Card title={`Importar a planilha de ${convite.fornecedorNome}`} id="coleta-painel" tabIndex={-1}>
      <form onSubmit={(e) => void enviar(e)} noValidate aria-label={`Importar a planilha de ${convite.fornecedorNome}`} className="stack">
        <p className="field__hint">
          Envie o formulário XLSX deste fornecedor, preenchido por ele. Cada linha é conferida; se alguma tiver erro, nada é gravado. A importação substitui a
          resposta anterior deste fornecedor.
        </p>
        <TextField
          label="Planilha preenchida (.xlsx)"
          type="file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          required
          error={erroArquivo}
          onChange={(e) => {
            setArquivo(e.target.files?.[0] ?? null);
            setErroArquivo(undefined);
            setFalha(null);
          }}
        />
        <AcoesDoFormulario onCancel={onClose} loading={enviando}>
          Importar
        </AcoesDoFormulario>
      </form>
      <div aria-live="polite" className="stack">
        {falha ? (
          <>
            <Alert
              variant="error"
              title={falha.linhas.length ? `Nada foi importado: ${plural(falha.linhas.length, 'problema', 'problemas')} na planilha` : 'Nada foi importado'}
            >
              {/* the server's message may already say what to do: said once */}
              {/corrija/i.test(falha.mensagem) ? falha.mensagem : `${falha.mensagem} Corrija a planilha e envie de novo.`}
            </Alert>
            {falha.linhas.length ? (
              <DataTable<ErroDeLinha>
                caption="Erros encontrados na planilha"
                columns={colunasErro}
                rows={falha.linhas}
                rowKey={(e, i) => `${e.linha ?? ''}-${e.coluna}-${i}`}
              />
            ) : null}
          </>
        ) : null}
      </div>
    </Card>
  );
}

export function PorFornecedor({ mapa, podeEditar, podeResponder }: AbaProps) {
  const [painel, setPainel] = useState<Painel>(null);
  const [convidando, setConvidando] = useState(false);
  const { pedir, confirmar, dialogos } = useDialogos();
  const id = mapa.cotacao.id;
  const totalItens = mapa.itens.length;
  const aberto = painel ? mapa.convites.find((c) => c.id === painel.conviteId) : undefined;
  const Aberto = painel?.tipo === 'importar' ? Importar : Resposta;
  const base = (c: Convite) => `${cotacaoPath(id)}/fornecedores/${encodeURIComponent(c.id)}`;
  const convites = useFilhos(id, 'fornecedores');

  /** The disclosure attributes of the button that opens `tipo` for `c` (the panel below the table). */
  const controlaPainel = (tipo: 'resposta' | 'importar', c: Convite) => {
    const expandido = painel?.tipo === tipo && painel.conviteId === c.id;
    return { 'aria-expanded': expandido, 'aria-controls': expandido ? 'coleta-painel' : undefined };
  };
  const abrir = (tipo: 'resposta' | 'importar', c: Convite) => {
    setPainel({ tipo, conviteId: c.id });
    // the panel is under the table: the focus goes there (and brings it into view)
    setTimeout(() => document.getElementById('coleta-painel')?.focus(), 0);
  };

  const naoRespondeu = (c: Convite) =>
    pedir({
      title: `${c.fornecedorNome} não respondeu?`,
      description: 'O fornecedor continua no registro e na memória de cálculo como consultado sem resposta (IN SEGES/ME 65/2021).',
      label: 'Observação',
      confirmLabel: 'Registrar “não respondeu”',
      min: 0,
      submit: (motivo) =>
        executarFilho(
          () => convites.action(c.id, 'nao-respondeu', { motivo: motivo || null }, { fallback: 'Não foi possível registrar que o fornecedor não respondeu.' }),
          { sucesso: `${c.fornecedorNome}: registrado que não respondeu.`, campo: 'motivo' },
        ),
    });

  const remover = async (c: Convite) => {
    const ok = await confirmar({
      title: `Remover o convite de ${c.fornecedorNome}?`,
      description: 'O fornecedor sai desta cotação. Só é possível enquanto ele não tem preços registrados; a remoção fica no histórico.',
      confirmLabel: 'Remover convite',
      cancelLabel: 'Manter',
      tone: 'danger',
    });
    if (!ok) return;
    if (painel?.conviteId === c.id) setPainel(null);
    await executarFilho(() => convites.remove(c.id, 'Não foi possível remover o convite.'), { sucesso: `Convite de ${c.fornecedorNome} removido.` });
  };

  const colunas: DataTableColumn<Convite>[] = [
    {
      key: 'fornecedor',
      header: 'Fornecedor',
      rowHeader: true,
      clamp: false,
      render: (c) => (
        <>
          {c.fornecedorNome}
          <span className="text-sub">{[formatCpfCnpj(c.fornecedorDocumento), c.fornecedorEmail].filter(Boolean).join(' · ')}</span>
          {c.motivoEscolha ? <span className="text-sub">Motivo da escolha: {c.motivoEscolha}</span> : null}
        </>
      ),
    },
    {
      key: 'situacao',
      header: 'Situação',
      clamp: false,
      render: (c) => (
        <>
          {SITUACAO_CONVITE_LABEL[c.situacao]}
          {c.situacao === 'nao_respondeu' && c.motivoNaoResposta ? <span className="text-sub">{c.motivoNaoResposta}</span> : null}
        </>
      ),
    },
    {
      key: 'proposta',
      header: 'Proposta',
      clamp: false,
      render: (c) =>
        c.dataProposta ? (
          <>
            {formatDateTime(c.dataProposta)}
            <span className="text-sub">{c.validade ? `Validade ${formatDate(c.validade)}` : 'Validade não informada'}</span>
          </>
        ) : (
          '—'
        ),
    },
    { key: 'precos', header: 'Itens cotados', align: 'end', render: (c) => `${c.precos} de ${totalItens}` },
    {
      key: 'acoes',
      header: 'Ações',
      clamp: false,
      render: (c) => (
        <ButtonRow
          actions={[
            ...(['pdf', 'xlsx'] as const).map((ext) => ({
              label: `Formulário ${ext.toUpperCase()}`,
              'aria-label': `Formulário ${ext.toUpperCase()} de ${c.fornecedorNome}`,
              onClick: () => void baixarArquivo(`${base(c)}/formulario.${ext}`, `${arquivoBase(mapa, c)}.${ext}`, 'Não foi possível gerar o formulário.'),
            })),
            ...(['resposta', 'importar'] as const).map((tipo) => ({
              label: tipo === 'resposta' ? 'Registrar resposta' : 'Importar planilha',
              'aria-label': `${tipo === 'resposta' ? 'Registrar resposta' : 'Importar planilha'} de ${c.fornecedorNome}`,
              variant: 'secondary' as const,
              show: podeResponder,
              ...controlaPainel(tipo, c),
              onClick: () => abrir(tipo, c),
            })),
            {
              label: 'Não respondeu',
              'aria-label': `${c.fornecedorNome} não respondeu`,
              show: podeResponder && c.precos === 0 && c.situacao !== 'nao_respondeu',
              onClick: () => naoRespondeu(c),
            },
            {
              label: 'Remover',
              icon: 'trash',
              'aria-label': `Remover o convite de ${c.fornecedorNome}`,
              show: podeEditar && c.precos === 0,
              onClick: () => void remover(c),
            },
          ]}
        />
      ),
    },
  ];

  return (
    <>
      {convidando ? (
        <Card title="Convidar fornecedor">
          <Convidar mapa={mapa} onClose={() => setConvidando(false)} />
        </Card>
      ) : null}
      <Card
        title="Fornecedores convidados"
        flush
        actions={
          podeEditar && !convidando ? (
            <Button icon="plus" onClick={() => setConvidando(true)}>
              Convidar fornecedor
            </Button>
          ) : null
        }
      >
        <DataTable<Convite> caption="Fornecedores convidados" captionHidden rows={mapa.convites} columns={colunas} empty="Nenhum fornecedor convidado ainda." />
      </Card>
      {aberto ? <Aberto key={aberto.id} mapa={mapa} convite={aberto} onClose={() => setPainel(null)} /> : null}
      {dialogos}
    </>
  );
}
