#!/usr/bin/env node
// pnpm new:plugin <id> [--document] [--title "Contratos"] [--tag 100]
//
// Scaffolds a full-stack plugin package in packages/plugins/<id> (@app/<id>): the web manifest with a
// menu entry and lazy pages on the resource kit, the server half with one tagged CRUD resource and its
// migration (entidade-scoped, accent-free search), the shared zod schema, web and API tests on the
// shared harness, a changeset, and its lines in both apps. With --document, a document on the
// document kit instead: header and line items of the catalogue, a number per entidade and year, a
// status flow, the PDF (defineDocumentResource / defineDocumentPages). What it writes passes lint,
// typecheck and tests as generated (scripts/test/new-plugin.test.mjs proves both kinds on a temporary
// copy of the repo). Then run `pnpm install` (links the new package), `pnpm --filter @app/<id> test`, and edit.
// The templates live in scripts/templates/: common/ (both kinds), plugin/ (a registry) and document/
// (placeholders __NAME__, see `placeholders`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const TEMPLATES = join(HERE, 'templates');
/** Template folders of each kind of plugin (a later folder's file replaces an earlier one of the same path). */
const KINDS = { registry: ['common', 'plugin'], document: ['common', 'document'] };
const USAGE = 'Usage: pnpm new:plugin <id> [--document] [--title "Title"] [--tag <number>]';

/** Same rule as defineServerPlugin's id (it is also the API prefix, the package name and the URL). */
export const ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** First path segments under /api that belong to @app/server-core, and the framework packages' names. */
const RESERVED = ['auth', 'session', 'devtools', 'health', 'version', 'openapi.json', 'core', 'ui', 'server-core', 'br', 'documents', 'web', 'server', 'api', 'testing'];
/** Tags open to every signed-in user (spec §6): never a plugin's own tag. */
const EXEMPT_TAGS = [0, -1, -2, -3, -4];
/** Tags the specification reserves (spec §6) and the demo perfis hold, even where no plugin declares them yet. */
const SPEC_TAGS = [3, 24, 25, 26, 29, 39, 73, 90];
/** Default tags of new plugins start here: the specification's tags are all below 100. */
const FIRST_FREE_TAG = 100;

export class PluginScaffoldError extends Error {}

const fail = (message) => {
  throw new PluginScaffoldError(message);
};

function listFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

function pluginDirs(root) {
  const dir = join(root, 'packages', 'plugins');
  return existsSync(dir) ? readdirSync(dir).filter((name) => existsSync(join(dir, name, 'package.json'))) : [];
}

/** Numeric tags used anywhere in the plugins' sources (`tag: 29`, `FOO_TAG = 29`) and by the specification. */
export function usedTags(root) {
  const tags = new Set(SPEC_TAGS);
  for (const plugin of pluginDirs(root)) {
    const src = join(root, 'packages', 'plugins', plugin, 'src');
    if (!existsSync(src)) continue;
    for (const file of listFiles(src)) {
      if (!/\.(ts|tsx)$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\btag:\s*(-?\d+)\b/g)) tags.add(Number(m[1]));
      for (const m of text.matchAll(/_TAG\w*\s*=\s*(-?\d+)\b/g)) tags.add(Number(m[1]));
    }
  }
  return tags;
}

/** The first tag from 100 up that no plugin uses. */
export function nextFreeTag(root) {
  const used = usedTags(root);
  let tag = FIRST_FREE_TAG;
  while (used.has(tag)) tag++;
  return tag;
}

const camel = (id) => id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const pascal = (id) => camel(id).replace(/^./, (c) => c.toUpperCase());
const snake = (id) => id.replace(/-/g, '_');
const titleOf = (id) =>
  id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
/** A single-quoted TypeScript/SQL string literal. */
const tsString = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Every CREATE TABLE name in the repository's migrations (core and plugins). */
function existingTables(root) {
  const names = new Set();
  const dirs = [join(root, 'packages', 'server-core', 'migrations'), ...pluginDirs(root).map((p) => join(root, 'packages', 'plugins', p, 'migrations'))];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.sql')) continue;
      for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/CREATE TABLE(?: IF NOT EXISTS)?\s+([a-z_][a-z0-9_]*)/gi)) names.add(m[1].toLowerCase());
    }
  }
  return names;
}

/** Base paths the web halves already mount (`basePath: '/x'`). */
function existingBasePaths(root) {
  const paths = new Set();
  for (const plugin of pluginDirs(root)) {
    const web = join(root, 'packages', 'plugins', plugin, 'src', 'web');
    if (!existsSync(web)) continue;
    for (const file of listFiles(web)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/basePath:\s*'([^']+)'/g)) paths.add(m[1]);
      // registros' helper takes the path as an argument: registry('grupos', '/ggrupo', …)
      for (const m of readFileSync(file, 'utf8').matchAll(/\(\s*'[^']*',\s*'(\/[^']*)'/g)) paths.add(m[1]);
    }
  }
  return paths;
}

/** Checks the options and computes every name the templates use. */
export function planPlugin(root, { id, title, tag, document = false } = {}) {
  if (!id) fail(USAGE);
  if (!ID_PATTERN.test(id)) {
    fail(`Invalid plugin id '${id}': use lowercase letters and digits, words separated by '-', starting with a letter (e.g. 'contratos', 'atas-registro').`);
  }
  if (RESERVED.includes(id)) fail(`Invalid plugin id '${id}': it is reserved by the framework (${RESERVED.join(', ')}).`);
  if (id.length > 40) fail(`Invalid plugin id '${id}': at most 40 characters.`);
  const dir = join(root, 'packages', 'plugins', id);
  if (existsSync(dir)) fail(`Plugin '${id}' already exists: ${relative(root, dir)}. Choose another id.`);
  for (const p of ['packages', 'apps']) {
    if (existsSync(join(root, p, id, 'package.json'))) fail(`'${id}' is already a package of this workspace (${p}/${id}). Choose another id.`);
  }
  const appsPlugins = readFileSync(join(root, 'apps', 'web', 'src', 'plugins.ts'), 'utf8');
  if (appsPlugins.includes(`'@app/${id}'`)) fail(`@app/${id} is already listed in apps/web/src/plugins.ts. Choose another id.`);

  const table = snake(id);
  const tables = document ? [table, `${table}_itens`] : [table];
  const existing = existingTables(root);
  for (const name of tables) if (existing.has(name)) fail(`A table named '${name}' already exists in a migration; choose another id.`);
  const basePath = `/${id}`;
  if (existingBasePaths(root).has(basePath)) fail(`The path ${basePath} is already mounted by another plugin; choose another id.`);

  let resolvedTag;
  if (tag === undefined) resolvedTag = nextFreeTag(root);
  else {
    if (!/^-?\d+$/.test(String(tag))) fail(`Invalid --tag '${tag}': a whole number, e.g. --tag 100.`);
    resolvedTag = Number(tag);
    if (EXEMPT_TAGS.includes(resolvedTag)) {
      fail(`Invalid --tag ${resolvedTag}: tags 0 and -1..-4 are open to every signed-in user; a plugin's section needs a tag a perfil can grant.`);
    }
    if (resolvedTag < 1 || resolvedTag > 32767) fail(`Invalid --tag ${resolvedTag}: use a number from 1 to 32767.`);
  }
  const resolvedTitle = (title ?? titleOf(id)).trim();
  if (!resolvedTitle) fail('Invalid --title: it cannot be empty.');
  if (/[\r\n]/.test(resolvedTitle) || resolvedTitle.length > 60) fail('Invalid --title: one line, at most 60 characters.');

  return {
    id,
    kind: document ? 'document' : 'registry',
    dir,
    table,
    tables,
    basePath,
    tag: resolvedTag,
    tagShared: usedTags(root).has(resolvedTag),
    title: resolvedTitle,
    camel: camel(id),
    pascal: pascal(id),
    constant: snake(id).toUpperCase(),
  };
}

/** The values of the __PLACEHOLDERS__ in scripts/templates/plugin. */
function placeholders(plan) {
  return {
    __ID__: plan.id,
    __CAMEL__: plan.camel,
    __PASCAL__: plan.pascal,
    __CONST__: plan.constant,
    __TABLE__: plan.table,
    __BASE_PATH__: plan.basePath,
    __TAG__: String(plan.tag),
    __TITLE__: plan.title,
    __TITLE_TS__: tsString(plan.title),
    __TITLE_JSON__: JSON.stringify(plan.title).slice(1, -1),
  };
}

function render(text, values) {
  return text.replace(/__[A-Z][A-Z_]*?__/g, (key) => (key in values ? values[key] : key));
}

/** Inserts `import <name> from '<spec>';` after the last default import of an @app package, and `name` into the array before `about`. */
function addToPluginList(file, name, spec) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  let last = -1;
  lines.forEach((line, i) => {
    if (/^import \w+ from '@app\/[^']+';$/.test(line)) last = i;
  });
  if (last < 0) fail(`Cannot find the plugin imports in ${file}: add \`import ${name} from '${spec}';\` by hand.`);
  lines.splice(last + 1, 0, `import ${name} from '${spec}';`);
  let out = lines.join('\n');
  const array = /(=\s*\[)([^\]]*)(\];)/;
  const m = out.match(array);
  if (!m) fail(`Cannot find the plugin array in ${file}: add ${name} to it by hand.`);
  const items = m[2]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const at = items.indexOf('about');
  items.splice(at < 0 ? items.length : at, 0, name);
  out = out.replace(array, `$1${items.join(', ')}$3`);
  writeFileSync(file, out);
}

function addDependency(file, pkg) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  json.dependencies = { ...json.dependencies, [pkg]: 'workspace:^' };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** Writes the package, the changeset and the apps' lines. Returns the plan and the files written or changed. */
export function generatePlugin(root, options) {
  const plan = planPlugin(root, options);
  const values = placeholders(plan);
  const templates = new Map();
  for (const folder of KINDS[plan.kind]) {
    const base = join(TEMPLATES, folder);
    for (const template of listFiles(base)) templates.set(relative(base, template), template);
  }
  const written = [];
  for (const [path, template] of templates) {
    const rel = render(path, values).replace(/\.tpl$/, '');
    const target = rel.startsWith('changeset/') ? join(root, '.changeset', rel.slice('changeset/'.length)) : join(plan.dir, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, render(readFileSync(template, 'utf8'), values));
    written.push(relative(root, target));
  }
  addToPluginList(join(root, 'apps', 'web', 'src', 'plugins.ts'), plan.camel, `@app/${plan.id}`);
  addToPluginList(join(root, 'apps', 'server', 'src', 'plugins.ts'), plan.camel, `@app/${plan.id}/server`);
  addDependency(join(root, 'apps', 'web', 'package.json'), `@app/${plan.id}`);
  addDependency(join(root, 'apps', 'server', 'package.json'), `@app/${plan.id}`);
  const changed = ['apps/web/src/plugins.ts', 'apps/server/src/plugins.ts', 'apps/web/package.json', 'apps/server/package.json'];
  return { plan, written: written.sort(), changed };
}

function parseArgs(argv) {
  const options = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.match(/^--(title|tag|root)=(.*)$/s);
    if (eq) options[eq[1]] = eq[2];
    else if (arg === '--title' || arg === '--tag' || arg === '--root') {
      if (i + 1 >= argv.length) fail(`${arg} needs a value.`);
      options[arg.slice(2)] = argv[++i];
    } else if (arg === '--document') options.document = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg.startsWith('-')) fail(`Unknown option ${arg}. ${USAGE}`);
    else rest.push(arg);
  }
  if (rest.length > 1) fail(`One id at a time (got ${rest.join(', ')}).`);
  return { ...options, id: rest[0] };
}

/**
 * Runs the repository's formatter (pnpm check:format) over the TypeScript files written: the
 * templates' line breaks depend on the id's length. Returns a note when it could not run.
 */
export function formatFiles(root, files) {
  const biome = join(root, 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) return 'Note: biome is not installed yet: run `pnpm install && pnpm format`.';
  const ts = files.filter((f) => /\.tsx?$/.test(f));
  const res = spawnSync(biome, ['format', '--write', ...ts], { cwd: root, encoding: 'utf8' });
  return res.status === 0 ? '' : `Note: biome format did not finish:\n${res.stdout}${res.stderr}`;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(`${USAGE}\nScaffolds packages/plugins/<id> (@app/<id>): a registry, or with --document a document (header, items, flow, PDF). See docs/plugins.md.`);
    return;
  }
  const root = args.root ?? join(HERE, '..');
  const { plan, written, changed } = generatePlugin(root, args);
  const what = plan.kind === 'document' ? 'document plugin ' : '';
  console.log(`Created ${what}@app/${plan.id} ('${plan.title}', ${plan.basePath}, tag ${plan.tag}, API /api/${plan.id}/${plan.id}, tables ${plan.tables.join(', ')}):`);
  for (const f of written) console.log(`  + ${f}`);
  for (const f of changed) console.log(`  ~ ${f}`);
  const note = formatFiles(root, [...written, ...changed]);
  if (note) console.log(note);
  if (plan.tagShared) console.log(`Note: tag ${plan.tag} is already used elsewhere; this plugin's section will share that permission.`);
  console.log(
    `\nNext:\n  pnpm install\n  pnpm --filter @app/${plan.id} lint typecheck test\n  pnpm --filter @app/${plan.id} build && pnpm --filter @app/${plan.id} api --local   # its API reports, etc/*.api.md: commit them\n  pnpm start   # admin/demo1234 holds tag ${plan.tag}: '${plan.title}' is in the menu\nGuide: docs/plugins.md`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (error) {
    if (error instanceof PluginScaffoldError) {
      console.error(`new:plugin: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
