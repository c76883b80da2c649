import { Alert } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { api, apiErrorMessage, apiErrorStatus } from '../api';
import { useRegisterRoute } from '../hooks';
import { AuthFrame } from './AuthFrame';
import { SingleFieldForm } from './SingleFieldForm';

/** The public answer of GET /api/verificar/:codigo (server-core documents/verification.ts). */
export interface DocumentVerification {
  codigo: string;
  entidade: string;
  documento: string;
  numero: string;
  status: string | null;
  emitidoEm: string;
  conteudoHash: string;
  /** true: the document changed after this issue; null: it could not be compared. */
  alterado: boolean | null;
  situacao: string;
}

export const VERIFY_FAILED_MESSAGE = 'Não foi possível verificar o código agora. Tente novamente mais tarde.';
const CODE = /^[A-HJ-NP-Z2-9]{12}$/;

/**
 * '/verificar' (public, no sign-in): anyone types the verification code printed in a document's footer
 * ('ABCD-EFGH-JKLM'; `?codigo=` fills it) and sees which document it is, its number, the status
 * printed, when it was issued, the content hash, and whether the document changed since.
 */
export default function VerifyPage() {
  useRegisterRoute(-1, 'Verificar documento');
  const search = useSearch();
  const [codigo, setCodigo] = useState(() => new URLSearchParams(search).get('codigo') ?? '');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DocumentVerification | null>(null);
  const [notFound, setNotFound] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const typed = codigo.toUpperCase().replace(/[\s\-–—.]/g, '');
    if (!CODE.test(typed)) {
      setFieldError('Informe os 12 caracteres do código (ex.: ABCD-EFGH-JKLM).');
      return;
    }
    setFieldError(undefined);
    setNotFound(null);
    setResult(null);
    setBusy(true);
    try {
      setResult(await api.get(`verificar/${typed}`).json<DocumentVerification>());
    } catch (error) {
      const status = apiErrorStatus(error);
      setNotFound(status === 404 || status === 429 ? apiErrorMessage(error) : VERIFY_FAILED_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame
      title="Verificar documento"
      titleId="titulo-verificar"
      subtitle="Digite o código de verificação impresso no rodapé do documento."
      footer={<Link href="/signin">Ir para o login</Link>}
    >
      <SingleFieldForm
        testId="verify-form"
        onSubmit={submit}
        busy={busy}
        submitLabel="Verificar"
        label="Código de verificação"
        name="codigo"
        autoComplete="off"
        autoCapitalize="characters"
        placeholder="ABCD-EFGH-JKLM"
        value={codigo}
        error={fieldError}
        onChange={(e) => setCodigo(e.target.value)}
      />
      {notFound ? <Alert variant="error">{notFound}</Alert> : null}
      {result ? (
        <div data-testid="verify-result">
          <Alert variant={result.alterado === false ? 'success' : 'warning'}>{result.situacao}</Alert>
          <dl className="details-list">
            <div>
              <dt>Entidade</dt>
              <dd>{result.entidade}</dd>
            </div>
            <div>
              <dt>Documento</dt>
              <dd>
                {result.documento} nº {result.numero}
              </dd>
            </div>
            <div>
              <dt>Situação impressa</dt>
              <dd>{result.status ?? '—'}</dd>
            </div>
            <div>
              <dt>Emitido em</dt>
              <dd>{result.emitidoEm}</dd>
            </div>
            <div>
              <dt>Código</dt>
              <dd>{result.codigo}</dd>
            </div>
            <div>
              <dt>Resumo SHA-256 do conteúdo</dt>
              <dd>{result.conteudoHash.match(/.{1,8}/g)?.join(' ')}</dd>
            </div>
          </dl>
        </div>
      ) : null}
    </AuthFrame>
  );
}
