// /cotacao/configuracao (tag 3): the entidade's defaults for new cotações: the calculation method
// (each one explained) and whether the outlier rule of the média saneada iterates. GET and PUT
// /cotacoes/configuracao with the version read: a 409 'stale' offers to reload, as the kit's forms do.
import {
  LoadErrorAlert,
  api,
  apiErrorBody,
  apiErrorMessage,
  apiErrorStatus,
  issuesToFieldErrors,
  toast,
  useQuery,
  useQueryClient,
  useUnsavedChangesGuard,
} from '@app/core';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, RadioGroupField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { type Configuracao as ConfiguracaoLida, METODO_LABEL, METODOS, type Metodo, configuracaoInputSchema, descreverMetodo } from '../../shared/index.js';
import { CONFIGURACAO_KEY as CHAVE } from '../components/comum';
import { COTACAO_TITLES } from '../titles';

type Valores = { metodo: Metodo; iterar: boolean };
type Erros = Partial<Record<'metodo' | 'iterar', string>>;

const ID = 'configuracao-metodo';

export default function Configuracao() {
  const queryClient = useQueryClient();
  const lida = useQuery({
    queryKey: CHAVE,
    queryFn: ({ signal }) => api.get('cotacoes/configuracao', { signal }).json<ConfiguracaoLida & { version: number }>(),
  });
  // what the person changed (null: what was read)
  const [editado, setEditado] = useState<Valores | null>(null);
  const [erros, setErros] = useState<Erros>({});
  const [stale, setStale] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [reloading, setReloading] = useState(false);
  const lidos: Valores | null = lida.data ? { metodo: lida.data.metodo, iterar: lida.data.iterar } : null;
  const valores = editado ?? lidos;
  const dirty = Boolean(editado && lidos && (editado.metodo !== lidos.metodo || editado.iterar !== lidos.iterar));
  const guard = useUnsavedChangesGuard(dirty);

  if (lida.isError) {
    return (
      <>
        <PageHeader title={COTACAO_TITLES.configTitle} before={<Link href="/">Voltar para {COTACAO_TITLES.title}</Link>} />
        <LoadErrorAlert title="Não foi possível carregar a configuração" error={lida.error} onRetry={() => void lida.refetch()} />
      </>
    );
  }
  if (!valores || !lida.data) return <PageLoading />;
  const version = lida.data.version;
  const saneada = valores.metodo === 'media_saneada';

  const mudar = (patch: Partial<Valores>) => {
    setEditado({ ...valores, ...patch });
    setErros({});
  };

  const recarregar = async () => {
    setReloading(true);
    try {
      await lida.refetch();
      setEditado(null);
      setStale(null);
      setErros({});
    } finally {
      setReloading(false);
    }
  };

  const salvar = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    // iterar only means something for the média saneada (the cotação form sends false otherwise too)
    const parsed = configuracaoInputSchema.safeParse({ metodo: valores.metodo, iterar: saneada && valores.iterar, version });
    if (!parsed.success) {
      setErros(issuesToFieldErrors(parsed.error.issues));
      return;
    }
    setSaving(true);
    try {
      const salva = await api.put('cotacoes/configuracao', { json: parsed.data }).json<ConfiguracaoLida & { version: number }>();
      queryClient.setQueryData(CHAVE, salva);
      setEditado(null);
      setStale(null);
      toast.success(`Configuração salva: novas cotações usarão ${METODO_LABEL[salva.metodo].toLowerCase()}.`);
    } catch (error) {
      const body = apiErrorBody(error);
      if (apiErrorStatus(error) === 409 && body?.code === 'stale') setStale(body.message);
      else if (body?.fields && Object.keys(body.fields).length) setErros(body.fields as Erros);
      else toast.error(apiErrorMessage(error, 'Não foi possível salvar a configuração.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader
        title={COTACAO_TITLES.configTitle}
        description="O método de cálculo com que as novas cotações começam. Cada cotação pode usar outro, e o método em vigor é impresso no mapa comparativo e na memória de cálculo."
        before={<Link href="/">Voltar para {COTACAO_TITLES.title}</Link>}
      />
      {stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button variant="primary" size="sm" loading={reloading} onClick={() => void recarregar()}>
              Recarregar
            </Button>
          }
        >
          {stale} Suas alterações não salvas serão descartadas.
        </Alert>
      ) : null}
      <form onSubmit={(e) => void salvar(e)} noValidate aria-label={COTACAO_TITLES.configTitle}>
        <Card title="Método de cálculo padrão">
          <RadioGroupField
            label="Método de cálculo do preço estimado"
            name={ID}
            options={METODOS.map((metodo) => ({
              value: metodo,
              label: METODO_LABEL[metodo],
              hint: descreverMetodo(metodo, metodo === 'media_saneada' && valores.iterar),
            }))}
            value={valores.metodo}
            error={erros.metodo}
            onChange={(metodo) => mudar({ metodo })}
          />
          {saneada ? (
            <CheckboxField
              label="Repetir a regra de exclusão (iterar)"
              hint="Na média saneada, descarta de novo os preços fora de média ± 1 desvio-padrão, com a média e o desvio dos que sobraram, até que nenhum saia. Sem isso, a regra é aplicada uma vez."
              error={erros.iterar}
              checked={valores.iterar}
              onChange={(e) => mudar({ iterar: e.target.checked })}
            />
          ) : null}
          <div className="form-actions">
            <Link href="/" className="button button--secondary">
              Cancelar
            </Link>
            <Button type="submit" loading={saving}>
              Salvar
            </Button>
          </div>
        </Card>
      </form>
      {guard.dialog}
    </>
  );
}
