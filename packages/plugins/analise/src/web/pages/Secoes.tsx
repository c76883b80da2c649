// The two pages of the section side by side (the shell's menu has one entry per section): Consumo and Preços.
import { Link, useLocation, useRouter } from 'wouter';

const PAGINAS = [
  { href: '/', rotulo: 'Consumo' },
  { href: '/precos', rotulo: 'Preços' },
] as const;

export function Secoes() {
  const [local] = useLocation();
  // absolute links ('~'): the section's own page is its base path, without a trailing slash
  const { base } = useRouter();
  return (
    <nav aria-label="Páginas da análise" className="button-row">
      {PAGINAS.map((p) => (
        <Link key={p.href} href={`~${base}${p.href === '/' ? '' : p.href}`} aria-current={local === p.href ? 'page' : undefined}>
          {p.rotulo}
        </Link>
      ))}
    </nav>
  );
}
