import { Alert, Button, TextField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { useRegisterRoute } from '../hooks';
import { toast } from '../toast/queue';
import { AuthFrame } from './AuthFrame';

/** Same answer whatever the login: the page never reveals whether an account exists. */
export const RECOVERY_NEUTRAL_MESSAGE =
  'Se houver uma conta com esse login ou e-mail, enviaremos as instruções para criar uma nova senha.';
export const RECOVERY_FAILED_MESSAGE = 'Não foi possível enviar a solicitação agora. Tente novamente mais tarde.';

/** '/recoveryPass': asks 'Login ou e-mail', POSTs /api/auth/recover { login }. */
export default function RecoveryPage() {
  useRegisterRoute(-1, 'Recuperar senha');
  const [login, setLogin] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

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
      setSent(true);
    } catch {
      toast.error(RECOVERY_FAILED_MESSAGE);
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
          <span data-testid="recovery-message">{RECOVERY_NEUTRAL_MESSAGE}</span>
        </Alert>
      ) : (
        <form className="auth-card__form" onSubmit={submit} data-allow-enter noValidate data-testid="recovery-form">
          <TextField
            label="Login ou e-mail"
            name="login"
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            required
            value={login}
            error={fieldError}
            onChange={(e) => setLogin(e.target.value)}
          />
          <Button type="submit" variant="primary" block loading={busy}>
            Enviar
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
