import { Alert, Button, PasswordField, TextField } from '@app/ui';
import { useAtomValue, useSetAtom } from 'jotai';
import { type FormEvent, useRef, useState } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { api, apiErrorMessage } from '../api';
import { isAuthenticatedAtom, peekRedirect, takeRedirect } from '../auth';
import { useRegisterRoute } from '../hooks';
import { loadSession } from '../session';
import { tokenAtom } from '../store';
import type { EntidadeRef, SignInResponse } from '../types';
import { AuthFrame } from './AuthFrame';

type Step = { kind: 'credentials' } | { kind: 'entidade'; token: string; entidades: EntidadeRef[]; entidadeId?: string | undefined };

/**
 * Sign-in page ('/' for a signed-out visitor, and '/signin'): 'Login', 'Senha', 'Entrar', the API's
 * pt-BR error, 'Esqueci minha senha'. With more than one entidade the user picks one (POST
 * /api/auth/entidade). Afterwards the remembered path (or '/') is opened. The form opts in to
 * Enter (`data-allow-enter`): Enter in a field signs in.
 */
export function SignInPage() {
  useRegisterRoute(-1, 'Entrar');
  const isAuthenticated = useAtomValue(isAuthenticatedAtom);
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const [login, setLogin] = useState('');
  const [senha, setSenha] = useState('');
  const [entidadeId, setEntidadeId] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ login?: string; senha?: string; entidade?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const finishing = useRef(false);

  if (isAuthenticated && !finishing.current) return <Redirect to={peekRedirect() ?? '/'} replace />;
  if (finishing.current) return null;

  const finish = (token: string) => {
    finishing.current = true;
    const target = takeRedirect() ?? '/';
    setToken(token);
    void loadSession();
    navigate(target, { replace: true });
  };

  const submitCredentials = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const errors: typeof fieldErrors = {};
    if (!login.trim()) errors.login = 'Informe o login.';
    if (!senha) errors.senha = 'Informe a senha.';
    setFieldErrors(errors);
    if (errors.login || errors.senha) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.post('auth/signin', { json: { login: login.trim(), senha } }).json<SignInResponse>();
      if (res.entidades.length > 1) {
        // the one the user worked in last (the token's) comes preselected
        const current = res.entidades.find((e) => e.id === res.entidadeId)?.id;
        setEntidadeId(current ?? res.entidades[0]?.id ?? '');
        setStep({ kind: 'entidade', token: res.token, entidades: res.entidades, entidadeId: current });
        setBusy(false);
      } else {
        finish(res.token);
      }
    } catch (err) {
      setError(apiErrorMessage(err, 'Não foi possível entrar. Tente novamente.'));
      setBusy(false);
    }
  };

  const submitEntidade = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || step.kind !== 'entidade') return;
    if (!entidadeId) {
      setFieldErrors({ entidade: 'Selecione a entidade.' });
      return;
    }
    // the token already belongs to the entidade chosen: no second session
    if (entidadeId === step.entidadeId) {
      finish(step.token);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await api.post('auth/entidade', { json: { entidadeId }, headers: { Authorization: `Bearer ${step.token}` } }).json<{ token: string }>();
      finish(res.token);
    } catch (err) {
      setError(apiErrorMessage(err, 'Não foi possível selecionar a entidade. Tente novamente.'));
      setBusy(false);
    }
  };

  if (step.kind === 'entidade') {
    return (
      <AuthFrame title="Selecione a entidade" titleId="titulo-entidade" subtitle="Seu usuário tem acesso a mais de uma entidade.">
        <form className="auth-card__form" onSubmit={submitEntidade} data-allow-enter noValidate data-testid="entidade-form">
          {error ? <Alert variant="error">{error}</Alert> : null}
          <fieldset className="field" aria-describedby={fieldErrors.entidade ? 'entidade-erro' : undefined}>
            <legend className="field__label">Em qual entidade você vai trabalhar?</legend>
            {step.entidades.map((e) => (
              <div key={e.id} className="checkbox">
                <input
                  id={`entidade-${e.id}`}
                  type="radio"
                  className="checkbox__input"
                  name="entidade"
                  value={e.id}
                  checked={entidadeId === e.id}
                  onChange={() => setEntidadeId(e.id)}
                />
                <label className="checkbox__label" htmlFor={`entidade-${e.id}`}>
                  {e.nome}
                </label>
              </div>
            ))}
            {fieldErrors.entidade ? (
              <p id="entidade-erro" className="field__error">
                {fieldErrors.entidade}
              </p>
            ) : null}
          </fieldset>
          <Button type="submit" variant="primary" block loading={busy}>
            Continuar
          </Button>
          <Button
            variant="ghost"
            block
            onClick={() => {
              setStep({ kind: 'credentials' });
              setError(null);
            }}
          >
            Voltar
          </Button>
        </form>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame title="Entrar" titleId="titulo-entrar" subtitle="Acesse com seu login e senha." footer={<Link href="/recoveryPass">Esqueci minha senha</Link>}>
      <form className="auth-card__form" onSubmit={submitCredentials} data-allow-enter noValidate data-testid="signin-form">
        {error ? (
          <Alert variant="error">
            <span data-testid="signin-error">{error}</span>
          </Alert>
        ) : null}
        {/* aria-required, not required: the visual asterisk would join the label ("Senha *") */}
        <TextField
          label="Login"
          name="login"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          aria-required="true"
          value={login}
          error={fieldErrors.login}
          onChange={(e) => setLogin(e.target.value)}
        />
        <PasswordField
          label="Senha"
          name="senha"
          autoComplete="current-password"
          aria-required="true"
          value={senha}
          error={fieldErrors.senha}
          onChange={(e) => setSenha(e.target.value)}
        />
        <Button type="submit" variant="primary" block loading={busy}>
          Entrar
        </Button>
      </form>
    </AuthFrame>
  );
}
