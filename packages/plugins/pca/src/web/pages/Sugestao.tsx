// The suggested quantity of the chosen product for the plan's year (GET /planos/:id/sugestao), in the form
// that adds a line to the plan: the last 12 months' consumo médio mensal × 12 × a factor the person edits,
// rounded up to the unit of supply, with the 3 previous years beside it; "Usar sugestão" fills the quantity
// (still editable). Nothing but a sentence when the person's centros consumed none of it in 3 years.
import { apiErrorMessage, queryKeys, useApi, useQuery } from '@app/core';
import { formatDecimal, parseDecimalInput } from '@app/documents';
import { Alert, Button, DataTable, TextField } from '@app/ui';
import { useId, useState } from 'react';
import { PCA_PATH, type SugestaoQuantidade, mesPorExtenso, sugestaoQuerySchema } from '../../shared/index.js';

/** The factor as typed (pt-BR: '1,10'), checked with the server's own schema: the canonical value or the message. */
function lerFator(texto: string): { valor: string; erro?: undefined } | { valor?: undefined; erro: string } {
  const lido = sugestaoQuerySchema.shape.fator.safeParse(parseDecimalInput(texto) ?? texto);
  if (!lido.success) return { erro: lido.error.issues[0]?.message ?? 'Informe o fator.' };
  return { valor: lido.data ?? '1' };
}

export function SugestaoDeQuantidade({ planoId, produtoId, onUsar }: { planoId: string; produtoId: string; onUsar: (quantidade: string) => void }) {
  const api = useApi();
  const titulo = useId();
  const [fator, setFator] = useState('1');
  const lido = lerFator(fator);
  const sugestao = useQuery({
    queryKey: queryKeys.plugin('pca', 'planos', planoId, 'sugestao', produtoId, lido.valor),
    queryFn: ({ signal }) =>
      api.get(`pca${PCA_PATH}/${planoId}/sugestao`, { searchParams: { produtoId, fator: lido.valor ?? '1' }, signal }).json<SugestaoQuantidade>(),
    enabled: lido.valor !== undefined,
    // while another factor of the same product is asked, its last figures stay (the button waits for the new one)
    placeholderData: (anterior, consulta) => (consulta?.queryKey[4] === produtoId ? anterior : undefined),
  });
  if (sugestao.isError) return <Alert variant="error">{apiErrorMessage(sugestao.error, 'Não foi possível calcular a sugestão de quantidade.')}</Alert>;
  const s = sugestao.data;
  if (!s) return <p aria-live="polite">Calculando a sugestão de quantidade…</p>;
  if (s.semConsumo) return <p aria-live="polite">Sem consumo nos últimos 3 anos</p>;
  const unidade = s.unidade.sigla;
  const atual = !sugestao.isPlaceholderData && !sugestao.isFetching && lido.valor !== undefined;
  return (
    <section className="stack" aria-labelledby={titulo}>
      <p id={titulo} aria-live="polite">
        <strong>{`Sugestão para ${s.anoPca}: ${formatDecimal(s.quantidade)} ${unidade}`}</strong>
      </p>
      <p className="field__hint">
        {`Consumo médio mensal de ${mesPorExtenso(s.periodo.de)} a ${mesPorExtenso(s.periodo.ate)}: ${formatDecimal(s.mediaMensal)} ${unidade}. `}
        {`Sugestão = média × 12 × fator ${formatDecimal(s.fator)}, arredondada para cima à unidade inteira. Requisições aprovadas dos seus centros de custo.`}
      </p>
      <DataTable
        caption="Consumo nos anos anteriores"
        rows={s.anos}
        rowKey={(a) => a.ano}
        columns={[
          { key: 'ano', header: 'Ano', rowHeader: true, render: (a) => String(a.ano) },
          { key: 'quantidade', header: `Quantidade (${unidade})`, render: (a) => formatDecimal(a.quantidade) },
        ]}
      />
      <TextField
        label="Fator de ajuste"
        inputMode="decimal"
        value={fator}
        onChange={(e) => setFator(e.currentTarget.value)}
        error={lido.erro}
        hint="1 = o consumo dos últimos 12 meses; 1,10 = 10 % a mais; 0,90 = 10 % a menos."
      />
      <div className="button-row">
        <Button type="button" variant="secondary" disabled={!atual || s.quantidade === '0'} onClick={() => onUsar(s.quantidade)}>
          Usar sugestão
        </Button>
      </div>
    </section>
  );
}
