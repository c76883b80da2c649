// The `core` range every plugin declares, checked against the running @app/core. Its own module so
// the semver library (compare-versions) is not on the sign-in page: the signed-in shell (a lazy
// chunk) checks the ranges before any plugin page renders and shows the error screen on a refusal.
import { satisfies, validate } from 'compare-versions';
import { pluginName } from './compose';
import { CORE_VERSION, type PluginManifest } from './contract';

/** One sentence per plugin whose `core` range is invalid or not satisfied by `coreVersion`. */
export function coreRangeProblems(manifests: readonly PluginManifest[], coreVersion: string = CORE_VERSION): string[] {
  const problems: string[] = [];
  for (const p of manifests) {
    let ok = false;
    try {
      ok = validate(coreVersion) && satisfies(coreVersion, p.core);
    } catch {
      problems.push(`o plugin ${pluginName(p)} declara uma faixa de @app/core inválida: "${p.core}".`);
      continue;
    }
    if (!ok) problems.push(`o plugin ${pluginName(p)} requer @app/core "${p.core}", mas a versão em execução é ${coreVersion}.`);
  }
  return problems;
}
