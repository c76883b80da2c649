// /pre-requisicao/de-memorando: a new pré-requisição from an accepted memorando (its items and
// justification copied, the link kept), on the core's CreateFromPage (the server's links: GET
// /pre-requisicoes/memorandos-aceitos, tag 39, a requisitante may not hold Memorandos; POST
// /pre-requisicoes/de-memorando), plus the centro de custo and the tipo de solicitação; then the
// new pré-requisição's edit page.
import { CreateFromPage, apiErrorMessage, queryKeys, useResourceOptions, useSession } from '@app/core';
import { formatMoney, formatNumero } from '@app/documents';
import { Alert, DetailsList, SelectField } from '@app/ui';
import type { MemorandoAceito } from '../../shared/index.js';
import { PRE_TITLES } from '../titles';
import { PRE_ENDPOINT, meusCentros, tipos as tiposSource } from './common';

const rotulo = (m: MemorandoAceito) => `${formatNumero(m.numero, m.ano)} – ${m.assunto}`;
const descricao = (m: MemorandoAceito) =>
  `${m.origemNome} → ${m.destinoNome} · ${m.solicitanteNome} · ${m.itens === 1 ? '1 item' : `${m.itens} itens`} · ${formatMoney(m.valorTotal)}`;

export default function DeMemorando() {
  const session = useSession();
  // the plugin's own pickers, as the form's selects load them
  const centros = useResourceOptions(meusCentros, {}, [], undefined);
  const tipos = useResourceOptions(tiposSource, {}, [], undefined);
  // the memorando's origin when it is one of the person's centros, else their first centro
  const centroPadrao = (m: MemorandoAceito) => {
    const meus = centros.options.map((c) => c.value);
    if (meus.includes(m.origemId)) return m.origemId;
    const primeiro = session?.centrosCusto?.find((id) => meus.includes(id));
    return primeiro ?? (meus.length === 1 ? meus[0]! : '');
  };

  return (
    <CreateFromPage<MemorandoAceito>
      title={PRE_TITLES.fromMemorandoTitle}
      description="Os itens e a justificativa do memorando aceito são copiados para a nova pré-requisição, que guarda o vínculo. Cada memorando gera uma só pré-requisição."
      back={`Voltar para ${PRE_TITLES.title}`}
      picker={{
        endpoint: 'requisicoes/pre-requisicoes/memorandos-aceitos',
        field: 'memorandoId',
        card: 'Memorando de origem',
        label: 'Memorando aceito',
        placeholder: 'Número (12/2026), assunto ou solicitante…',
        emptyText: 'Nenhum memorando aceito sem pré-requisição encontrado',
        hint: 'Memorandos aceitos dos seus centros de custo (origem ou destino) que ainda não geraram pré-requisição.',
        required: 'Escolha o memorando.',
        ids: { input: 'de-memorando-memorando', hint: 'de-memorando-memorando-dica', error: 'de-memorando-memorandoId-erro' },
        optionLabel: rotulo,
        optionDescription: descricao,
        details: (m) => (
          <DetailsList
            data-testid="memorando-escolhido"
            items={[
              { label: 'Origem → destino', value: `${m.origemNome} → ${m.destinoNome}` },
              { label: 'Solicitante', value: m.solicitanteNome },
              { label: 'Itens', value: m.itens },
              { label: 'Valor total estimado', value: formatMoney(m.valorTotal) },
            ]}
          />
        ),
      }}
      extra={{
        title: 'Pré-requisição',
        fields: ['centroCustoId', 'tipoSolicitacaoId'],
        required: { centroCustoId: 'Escolha o centro de custo.', tipoSolicitacaoId: 'Escolha o tipo de solicitação.' },
        fromSource: (m) => ({ centroCustoId: centroPadrao(m) }),
        render: ({ values, set, errors }) => (
          <>
            {centros.error || tipos.error ? (
              <Alert variant="error" title="Não foi possível carregar os centros de custo e os tipos de solicitação">
                {apiErrorMessage(centros.error ?? tipos.error, 'Tente novamente.')}
              </Alert>
            ) : null}
            <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }}>
              {(
                [
                  ['centroCustoId', 'Centro de custo', centros],
                  ['tipoSolicitacaoId', 'Tipo de solicitação', tipos],
                ] as const
              ).map(([campo, label, { options, loading }]) => (
                <SelectField
                  key={campo}
                  label={label}
                  required
                  placeholder={loading ? 'Carregando…' : 'Escolha…'}
                  value={values[campo] ?? ''}
                  onChange={(e) => set(campo, e.target.value)}
                  options={options}
                  error={errors[campo]}
                />
              ))}
            </div>
          </>
        ),
      }}
      create={{
        endpoint: 'requisicoes/pre-requisicoes/de-memorando',
        submit: 'Criar pré-requisição',
        created: (p, m) => `Pré-requisição ${formatNumero(p.numero as number, p.ano as number)} criada a partir do memorando ${formatNumero(m.numero, m.ano)}.`,
        failed: 'Não foi possível criar a pré-requisição.',
        open: (p) => `/edit/${String(p.id)}`,
        document: PRE_ENDPOINT,
        invalidate: [queryKeys.plugin('requisicoes')],
      }}
    />
  );
}
