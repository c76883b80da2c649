import { Alert, Button, PasswordField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, apiErrorBody, apiErrorMessage, apiErrorStatus } from '../api';
import { useRegisterRoute } from '../hooks';
import { toast } from '../toast/queue';
import { AuthFrame } from './AuthFrame';
import { SingleFieldForm } from './SingleFieldForm';

/** Same answer whatever the login: the page never reveals whether an account exists. */
export const RECOVERY_NEUTRAL_MESSAGE = 'Se houver uma conta com esse login ou e-mail, enviaremos as instruções para criar uma nova senha.';
export const RECOVERY_FAILED_MESSAGE = 'Não foi possível enviar a solicitação agora. Tente novamente mais tarde.';
export const PASSWORD_RESET_MESSAGE = 'Senha alterada. Entre com a nova senha.';
/** Same limits as the server's policy (it checks the rest: common passwords, equal to the login). */
const SENHA_MIN = 8;
const SENHA_MAX = 128;

/** Step 1: 'Login ou e-mail' → POST /api/auth/recover { login } → the neutral answer. */
function RequestLink() {
  const [login, setLogin] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!login.trim()) {
      setFieldError('Informe o login ou e-mail.');
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    try {
      await api.post('auth/recover', { json: { login: login.trim() } });
      setSent(RECOVERY_NEUTRAL_MESSAGE);
    } catch (error) {
      // 429 (too many requests) carries its own pt-BR message; anything else the generic one
      toast.error(apiErrorStatus(error) === 429 ? apiErrorMessage(error) : RECOVERY_FAILED_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame
      title="Recuperar senha"
      titleId="titulo-recuperar"
      subtitle="Informe seu login ou e-mail para receber as instruções."
      footer={<Link href="/signin">Voltar para o login</Link>}
    >
      {sent ? (
        <Alert variant="success">
          <span data-testid="recovery-message">{sent}</span>
        </Alert>
      ) : (
        <SingleFieldForm
          testId="recovery-form"
          onSubmit={submit}
          busy={busy}
          submitLabel="Enviar"
          label="Login ou e-mail"
          name="login"
          autoComplete="username"
          autoCapitalize="off"
          value={login}
          error={fieldError}
          onChange={(e) => setLogin(e.target.value)}
        />
      )}
    </AuthFrame>
  );
}

/** Step 2 (the e-mailed link /recoveryPass?token=…): 'Nova senha' → POST /api/auth/reset { token, senha }. */
function ResetPassword({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const [senha, setSenha] = useState('');
  const [confirmacao, setConfirmacao] = useState('');
  const [errors, setErrors] = useState<{ senha?: string; confirmacao?: string }>({});
  const [linkError, setLinkError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const next: typeof errors = {};
    if (!senha) next.senha = 'Informe a nova senha.';
    else if (senha.length < SENHA_MIN) next.senha = `A senha deve ter pelo menos ${SENHA_MIN} caracteres (recomendamos 15 ou mais).`;
    else if (senha.length > SENHA_MAX) next.senha = `A senha deve ter no máximo ${SENHA_MAX} caracteres.`;
    if (!next.senha && confirmacao !== senha) next.confirmacao = 'As senhas não conferem.';
    setErrors(next);
    if (next.senha || next.confirmacao) return;
    setBusy(true);
    try {
      await api.post('auth/reset', { json: { token, senha } });
      toast.success(PASSWORD_RESET_MESSAGE);
      navigate('/signin', { replace: true });
    } catch (error) {
      const body = apiErrorBody(error);
      if (body?.fields?.senha) setErrors({ senha: body.fields.senha });
      else if (body?.code === 'invalid_recovery_link' || body?.fields?.token) setLinkError(body.message);
      else toast.error(apiErrorMessage(error, 'Não foi possível alterar a senha. Tente novamente.'));
      setBusy(false);
    }
  };

  return (
    <AuthFrame
      title="Criar nova senha"
      titleId="titulo-nova-senha"
      subtitle="Escolha a nova senha de acesso."
      footer={<Link href="/signin">Voltar para o login</Link>}
    >
      {linkError ? (
        <Alert variant="error" actions={<Link href="/recoveryPass">Pedir um novo link</Link>}>
          <span data-testid="reset-error">{linkError}</span>
        </Alert>
      ) : (
        <form className="auth-card__form" onSubmit={submit} data-allow-enter noValidate data-testid="reset-form">
          <PasswordField
            label="Nova senha"
            name="senha"
            autoComplete="new-password"
            aria-required="true"
            hint="Use pelo menos 8 caracteres; recomendamos 15 ou mais. Uma frase longa é fácil de lembrar e difícil de adivinhar."
            value={senha}
            error={errors.senha}
            onChange={(e) => setSenha(e.target.value)}
          />
          <PasswordField
            label="Confirmar nova senha"
            name="confirmacao"
            autoComplete="new-password"
            aria-required="true"
            value={confirmacao}
            error={errors.confirmacao}
            onChange={(e) => setConfirmacao(e.target.value)}
          />
          <Button type="submit" variant="primary" block loading={busy}>
            Salvar nova senha
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}

/**
 * '/recoveryPass': asks 'Login ou e-mail' and POSTs /api/auth/recover { login } (always the same
 * neutral answer; a pt-BR error toast when the request fails). With `?token=` (the link sent by
 * e-mail) it asks for the new password and POSTs /api/auth/reset { token, senha }.
 */
export default function RecoveryPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  useRegisterRoute(-1, token ? 'Criar nova senha' : 'Recuperar senha');
  return token ? <ResetPassword token={token} /> : <RequestLink />;
}
