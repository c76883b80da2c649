// /cotacao/configuracao (tag 3): the entidade's defaults for new cotações: the calculation method
// (each one explained) and whether the outlier rule of the média saneada iterates. GET and PUT
// /cotacoes/configuracao with the version read: a 409 'stale' offers to reload, as the kit's forms do.
import { apiErrorMessage, issuesToFieldErrors, toast, useUnsavedChangesGuard } from '@app/core';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, RadioGroupField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { METODO_LABEL, METODOS, type Metodo, configuracaoInputSchema, descreverMetodo } from '../../shared/index.js';
import { ErroAoCarregar, useConfiguracao, voltar } from '../components/comum';
import { COTACAO_TITLES } from '../titles';

type Valores = { metodo: Metodo; iterar: boolean };
type Erros = Partial<Record<'metodo' | 'iterar', string>>;

const ID = 'configuracao-metodo';

export default function Configuracao() {
  // the kit's record hook: the version read, 409 'stale', the server's field errors
  const lida = useConfiguracao();
  // what the person changed (null: what was read)
  const [editado, setEditado] = useState<Valores | null>(null);
  const erros: Erros = lida.fieldErrors;
  const lidos: Valores | null = lida.record ? { metodo: lida.record.metodo, iterar: lida.record.iterar } : null;
  const valores = editado ?? lidos;
  const dirty = Boolean(editado && lidos && (editado.metodo !== lidos.metodo || editado.iterar !== lidos.iterar));
  const guard = useUnsavedChangesGuard(dirty);

  if (lida.query.isError) return <ErroAoCarregar titulo={COTACAO_TITLES.configTitle} erro="Não foi possível carregar a configuração" query={lida.query} />;
  if (!valores || !lida.record) return <PageLoading />;
  const version = lida.record.version;
  const saneada = valores.metodo === 'media_saneada';

  const mudar = (patch: Partial<Valores>) => {
    setEditado({ ...valores, ...patch });
    lida.setFieldErrors({});
  };

  const recarregar = async () => {
    await lida.reload();
    setEditado(null);
  };

  const salvar = async (event: FormEvent) => {
    event.preventDefault();
    if (lida.saving) return;
    // iterar only means something for the média saneada (the cotação form sends false otherwise too)
    const parsed = configuracaoInputSchema.safeParse({ metodo: valores.metodo, iterar: saneada && valores.iterar, version });
    if (!parsed.success) {
      lida.setFieldErrors(issuesToFieldErrors(parsed.error.issues));
      return;
    }
    const result = await lida.save(parsed.data);
    if (result.ok) {
      setEditado(null);
      toast.success(`Configuração salva: novas cotações usarão ${METODO_LABEL[result.record.metodo].toLowerCase()}.`);
    } else if (result.reason !== 'stale' && result.reason !== 'invalid') toast.error(apiErrorMessage(result.error, 'Não foi possível salvar a configuração.'));
  };

  return (
    <>
      <PageHeader
        title={COTACAO_TITLES.configTitle}
        description="O método de cálculo com que as novas cotações começam. Cada cotação pode usar outro, e o método em vigor é impresso no mapa comparativo e na memória de cálculo."
        before={voltar}
      />
      {lida.stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button variant="primary" size="sm" loading={lida.query.isFetching} onClick={() => void recarregar()}>
              Recarregar
            </Button>
          }
        >
          {lida.stale} Suas alterações não salvas serão descartadas.
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
            <Button type="submit" loading={lida.saving}>
              Salvar
            </Button>
          </div>
        </Card>
      </form>
      {guard.dialog}
    </>
  );
}
