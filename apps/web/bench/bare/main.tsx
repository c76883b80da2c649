// The floor the first-page budget is measured against: React 19 + wouter, one page, nothing else.
import { createRoot } from 'react-dom/client';
import { Route, Switch } from 'wouter';

function SignIn() {
  return (
    <form>
      <label>
        Login <input name="login" />
      </label>
      <button type="submit">Entrar</button>
    </form>
  );
}

createRoot(document.getElementById('root')!).render(
  <Switch>
    <Route path="/signin" component={SignIn} />
    <Route>404</Route>
  </Switch>,
);
