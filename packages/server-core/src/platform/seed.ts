import { cnpjCheckDigits, isValidCnpj, normalizeDocument } from '@app/br';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type AuditEntry, writeAudit } from './audit.js';
import type { SeedContext } from './context.js';
import { collectContributions } from './contributions.js';
import { appConfig, entidades, perfis, usuarioEntidades, usuarios } from './db/schema.js';
import type { Database, Tx } from './db/types.js';
import { type Logger, consoleLogger } from './logger.js';
import { hashPassword } from './passwords.js';
import { type ServerPlugin, pluginInfo } from './plugin.js';
import { SERVER_CORE_VERSION } from './version.js';

export type { SeedContext } from './context.js';

/** Tags the demo Administrador holds besides every tag declared by the enabled plugins. */
export const DEMO_EXTRA_TAGS: readonly number[] = [3, 24, 29, 39, 73];

export const DEMO = {
  prefeitura: {
    nome: 'Prefeitura Municipal de Exemplo',
    cnpj: `463580210001${cnpjCheckDigits('463580210001')}`,
    municipio: 'Jundiaí',
    uf: 'SP',
    telefoneSuporte: '(11) 4002-8922',
  },
  camara: {
    nome: 'Câmara Municipal de Exemplo',
    cnpj: `517321450001${cnpjCheckDigits('517321450001')}`,
    municipio: 'Jundiaí',
    uf: 'SP',
    telefoneSuporte: '(11) 4002-8922',
  },
  senha: 'demo1234',
  admin: { login: 'admin', nome: 'Administrador do Sistema', email: 'admin@exemplo.gov.br', cargo: 'Administrador' },
  consulta: { login: 'consulta', nome: 'Usuário de Consulta', email: 'consulta@exemplo.gov.br', cargo: 'Servidor' },
} as const;

/** Every tag declared by the plugins plus the extra demo tags, sorted, without duplicates. */
export function allTags(plugins: readonly ServerPlugin[], extra: readonly number[] = DEMO_EXTRA_TAGS): number[] {
  const set = new Set<number>(extra);
  for (const plugin of plugins) for (const t of plugin.tags) set.add(t.tag);
  return [...set].sort((a, b) => a - b);
}

async function getConfig(db: Database['db'] | Tx, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, key));
  return row?.value;
}

async function setConfig(db: Database['db'] | Tx, key: string, value: string): Promise<void> {
  await db.insert(appConfig).values({ key, value }).onConflictDoUpdate({ target: appConfig.key, set: { value } });
}

export interface SeedOptions {
  logger?: Logger;
  buildId?: string;
}

export interface SeedResult {
  /** True when the core demo data was created now. */
  core: boolean;
  /** Ids of the plugins whose seed ran now. */
  plugins: string[];
}

/**
 * Demo data: runs the core part once (two entidades, perfis, users admin/consulta with password
 * demo1234) on a database without users, then each plugin's `seed` once. Each part is recorded in app_config (`seed:core`,
 * `seed:<pluginId>`), so a plugin enabled later gets its demo data at the next start.
 */
export async function seedDemo(database: Database, plugins: readonly ServerPlugin[], options: SeedOptions = {}): Promise<SeedResult> {
  const logger = options.logger ?? consoleLogger;
  const { db } = database;
  const result: SeedResult = { core: false, plugins: [] };

  if (!(await getConfig(db, 'seed:core'))) {
    // Never add users with a known password to a database that already has real users
    // (e.g. create-admin was run before the first start).
    const [existing] = await db.select({ id: usuarios.id }).from(usuarios).limit(1);
    if (existing) {
      logger.info('dados de demonstração não criados: o banco de dados já tem usuários');
      return result;
    }
    // Two scrypt hashes (≈0.3 s each): one per demo user.
    const [adminHash, consultaHash] = await Promise.all([hashPassword(DEMO.senha), hashPassword(DEMO.senha)]);
    const tags = allTags(plugins);
    await db.transaction(async (tx) => {
      const ents = await tx.insert(entidades).values([DEMO.prefeitura, DEMO.camara]).returning({ id: entidades.id, cnpj: entidades.cnpj });
      const prefeituraId = ents.find((e) => e.cnpj === DEMO.prefeitura.cnpj)!.id;
      const camaraId = ents.find((e) => e.cnpj === DEMO.camara.cnpj)!.id;
      const perfisRows = await tx
        .insert(perfis)
        .values([
          // the administrator (purchasing sector) sees the documents of every centro de custo; Consulta
          // sees none until an administrator gives its users centros de custo (least privilege)
          { entidadeId: prefeituraId, nome: 'Administrador', tags, todosCentros: true },
          { entidadeId: camaraId, nome: 'Administrador', tags, todosCentros: true },
          { entidadeId: prefeituraId, nome: 'Consulta', tags: [], todosCentros: false },
          { entidadeId: camaraId, nome: 'Consulta', tags: [], todosCentros: false },
        ])
        .returning({ id: perfis.id, entidadeId: perfis.entidadeId, nome: perfis.nome });
      const perfil = (entidadeId: string, nome: string) => perfisRows.find((p) => p.entidadeId === entidadeId && p.nome === nome)!.id;
      const [admin, consulta] = await tx
        .insert(usuarios)
        .values([
          { ...DEMO.admin, senhaHash: adminHash! },
          { ...DEMO.consulta, senhaHash: consultaHash! },
        ])
        .returning({ id: usuarios.id });
      await tx.insert(usuarioEntidades).values([
        { usuarioId: admin!.id, entidadeId: prefeituraId, perfilId: perfil(prefeituraId, 'Administrador') },
        { usuarioId: admin!.id, entidadeId: camaraId, perfilId: perfil(camaraId, 'Administrador') },
        { usuarioId: consulta!.id, entidadeId: prefeituraId, perfilId: perfil(prefeituraId, 'Consulta') },
      ]);
      await writeAudit(
        tx,
        [
          {
            acao: 'dados_demonstracao',
            depois: { entidades: [DEMO.prefeitura.nome, DEMO.camara.nome], usuarios: [DEMO.admin.login, DEMO.consulta.login], tags },
          },
        ],
        { plugin: 'core', usuarioId: null, entidadeId: null, ip: null },
      );
      await setConfig(tx, 'seed:core', new Date().toISOString());
    });
    result.core = true;
  }

  const seeded = plugins.filter((p) => p.seed);
  if (seeded.length > 0 && !(await seedPlugins(database, plugins, seeded, options, logger, result))) return result;
  if (result.core) {
    // A database seeded from nothing holds only demo users, the core's and the plugins' (comprador, chefia, …).
    const logins = await db.select({ login: usuarios.login }).from(usuarios).orderBy(usuarios.login);
    logger.info(`dados de demonstração criados: usuários ${logins.map((u) => u.login).join(', ')} — senha ${DEMO.senha}`);
  }
  return result;
}

/** Each plugin's `seed` not yet run; false when the core demo data it builds on is missing. */
async function seedPlugins(
  database: Database,
  plugins: readonly ServerPlugin[],
  seeded: readonly ServerPlugin[],
  options: SeedOptions,
  logger: Logger,
  result: SeedResult,
): Promise<boolean> {
  const { db } = database;
  const ents = await db
    .select({ id: entidades.id, nome: entidades.nome, cnpj: entidades.cnpj })
    .from(entidades)
    .where(inArray(entidades.cnpj, [DEMO.prefeitura.cnpj, DEMO.camara.cnpj]));
  const users = await db
    .select({ id: usuarios.id, login: usuarios.login })
    .from(usuarios)
    .where(inArray(sql`lower(${usuarios.login})`, [DEMO.admin.login, DEMO.consulta.login]));
  const prefeitura = ents.find((e) => e.cnpj === DEMO.prefeitura.cnpj);
  const camara = ents.find((e) => e.cnpj === DEMO.camara.cnpj);
  const admin = users.find((u) => u.login.toLowerCase() === DEMO.admin.login);
  const consulta = users.find((u) => u.login.toLowerCase() === DEMO.consulta.login);
  if (!prefeitura || !camara || !admin || !consulta) {
    logger.warn('dados de demonstração dos plugins não criados: faltam os dados de demonstração do núcleo');
    return false;
  }
  const infos = plugins.map(pluginInfo);
  const contributions = collectContributions(plugins);
  for (const plugin of seeded) {
    const key = `seed:${plugin.id}`;
    if (await getConfig(db, key)) continue;
    const mutate: SeedContext['mutate'] = (fn) =>
      db.transaction(async (tx) => {
        const entries: AuditEntry[] = [];
        const out = await fn(tx, (entry) => {
          entries.push(entry);
        });
        await writeAudit(tx, entries, { plugin: plugin.id, usuarioId: null, entidadeId: null, ip: null });
        return out;
      });
    const ctx: SeedContext = {
      db,
      engine: database.engine,
      plugin: { id: plugin.id, version: plugin.version },
      plugins: infos,
      contributions,
      coreVersion: SERVER_CORE_VERSION,
      buildId: options.buildId ?? '',
      logger,
      entidades: { prefeitura: { id: prefeitura.id, nome: prefeitura.nome }, camara: { id: camara.id, nome: camara.nome } },
      usuarios: { admin: { id: admin.id }, consulta: { id: consulta.id } },
      mutate,
      grantTags: (nomes, tags) =>
        mutate(async (tx, audit) => {
          const rows = await tx
            .select({ id: perfis.id, tags: perfis.tags })
            .from(perfis)
            .where(and(eq(perfis.entidadeId, prefeitura.id), inArray(perfis.nome, [...nomes])));
          for (const perfil of rows) {
            const novas = [...new Set([...perfil.tags, ...tags])].sort((a, b) => a - b);
            if (novas.length === perfil.tags.length) continue;
            await tx.update(perfis).set({ tags: novas }).where(eq(perfis.id, perfil.id));
            audit({
              plugin: 'usuarios',
              registro: perfil.id,
              acao: 'alterar',
              antes: { tags: perfil.tags },
              depois: { tags: novas },
              entidadeId: prefeitura.id,
            });
          }
        }),
    };
    await plugin.seed!(ctx);
    await setConfig(db, key, new Date().toISOString());
    result.plugins.push(plugin.id);
    logger.info(`dados de demonstração do plugin '${plugin.id}' criados`);
  }
  return true;
}

export interface CreateAdminInput {
  login: string;
  nome: string;
  email: string;
  senha: string;
  entidadeNome: string;
  entidadeCnpj: string;
  municipio?: string | undefined;
  uf?: string | undefined;
  telefoneSuporte?: string | undefined;
}

/**
 * First administrator of a production database (where no demo seed runs): creates the entidade
 * (or reuses it, by CNPJ), its 'Administrador' perfil holding every enabled plugin's tags, and the user.
 */
export async function createAdmin(
  database: Database,
  plugins: readonly ServerPlugin[],
  input: CreateAdminInput,
): Promise<{ usuarioId: string; entidadeId: string; perfilId: string }> {
  // upper case without mask; since July 2026 the 12 base characters may be letters (IN RFB 2.229/2024)
  const cnpj = normalizeDocument(input.entidadeCnpj);
  const problems: string[] = [];
  if (!/^[A-Za-z0-9._-]{3,60}$/.test(input.login)) problems.push('login: 3 to 60 letters, digits, ".", "_" or "-"');
  if (!input.nome.trim()) problems.push('nome is required');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) problems.push('email is not valid');
  if (input.senha.length < 8) problems.push('password must have at least 8 characters');
  if (!input.entidadeNome.trim()) problems.push('entidade name is required');
  if (!isValidCnpj(cnpj)) problems.push(`CNPJ ${input.entidadeCnpj} is not valid`);
  if (input.uf !== undefined && !/^[A-Z]{2}$/.test(input.uf)) problems.push('UF must be two capital letters');
  if (problems.length) throw new Error(`create-admin: ${problems.join('; ')}.`);

  const senhaHash = await hashPassword(input.senha);
  const tags = allTags(plugins, []);
  return database.db.transaction(async (tx) => {
    const [existingLogin] = await tx.select({ id: usuarios.id }).from(usuarios).where(sql`lower(${usuarios.login}) = lower(${input.login})`);
    if (existingLogin) throw new Error(`create-admin: login '${input.login}' already exists.`);
    let [entidade] = await tx.select({ id: entidades.id }).from(entidades).where(eq(entidades.cnpj, cnpj));
    const audits: AuditEntry[] = [];
    if (!entidade) {
      const values = {
        nome: input.entidadeNome.trim(),
        cnpj,
        municipio: input.municipio ?? null,
        uf: input.uf ?? null,
        telefoneSuporte: input.telefoneSuporte ?? null,
      };
      [entidade] = await tx.insert(entidades).values(values).returning({ id: entidades.id });
      audits.push({ acao: 'criar', registro: entidade!.id, depois: values, entidadeId: entidade!.id });
    }
    const entidadeId = entidade!.id;
    let [perfil] = await tx
      .select({ id: perfis.id, tags: perfis.tags, todosCentros: perfis.todosCentros })
      .from(perfis)
      .where(and(eq(perfis.entidadeId, entidadeId), eq(perfis.nome, 'Administrador')));
    // the first administrator holds every tag and sees the documents of every centro de custo
    if (!perfil) {
      [perfil] = await tx
        .insert(perfis)
        .values({ entidadeId, nome: 'Administrador', tags, todosCentros: true })
        .returning({ id: perfis.id, tags: perfis.tags, todosCentros: perfis.todosCentros });
      audits.push({ acao: 'criar', registro: perfil!.id, depois: { nome: 'Administrador', tags, todosCentros: true }, entidadeId });
    } else {
      const merged = [...new Set([...perfil.tags, ...tags])].sort((a, b) => a - b);
      if (merged.length !== perfil.tags.length || !perfil.todosCentros) {
        await tx.update(perfis).set({ tags: merged, todosCentros: true }).where(eq(perfis.id, perfil.id));
        audits.push({
          acao: 'alterar',
          registro: perfil.id,
          antes: { tags: perfil.tags, todosCentros: perfil.todosCentros },
          depois: { tags: merged, todosCentros: true },
          entidadeId,
        });
      }
    }
    const userValues = { login: input.login, nome: input.nome.trim(), email: input.email, cargo: 'Administrador' };
    const [user] = await tx
      .insert(usuarios)
      .values({ ...userValues, senhaHash })
      .returning({ id: usuarios.id });
    await tx.insert(usuarioEntidades).values({ usuarioId: user!.id, entidadeId, perfilId: perfil!.id });
    audits.push({ acao: 'criar', registro: user!.id, depois: userValues, entidadeId });
    await writeAudit(tx, audits, { plugin: 'core', usuarioId: null, entidadeId, ip: null });
    return { usuarioId: user!.id, entidadeId, perfilId: perfil!.id };
  });
}
