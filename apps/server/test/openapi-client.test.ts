// /api/openapi.json as a contract other programs use: Redocly's recommended lint finds no error in the
// composed server's document, openapi-typescript generates a typed client from it, a small program
// written against those types passes tsc, and run through openapi-fetch against this server (over
// HTTP) it calls a list, a create-from, a child route of a cotação and a document's PDF.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeEachDatabase } from '@app/server-core/testing';
import { serve } from '@hono/node-server';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverPlugins } from '../src/app.js';

const require = createRequire(import.meta.url);

// The client program: only types from the generated file and openapi-fetch, so tsc checks every path,
// parameter, body and answer it uses against the document.
const CLIENT_PROGRAM = `
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './api';

type PreRequisicao = operations['requisicoes.preRequisicoes.postDeMemorando']['responses'][201]['content']['application/json'];
type Convite = operations['cotacoes.cotacoesFornecedores.create']['responses'][201]['content']['application/json'];

export async function run(client: Client<paths>) {
  // a list (document kit)
  const memorandos = await client.GET('/api/memorandos/memorandos', { params: { query: { pageSize: 5, sort: '-numero' } } });
  const lista = { status: memorandos.response.status, total: memorandos.data?.total ?? -1, itens: memorandos.data?.items.length ?? -1 };

  // a document made from another: the picker of accepted memorandos, then the pré-requisição from one
  const aceitos = await client.GET('/api/requisicoes/pre-requisicoes/memorandos-aceitos', { params: { query: { disponiveis: 'true' } } });
  const memorando = aceitos.data?.items[0];
  const tipos = await client.GET('/api/requisicoes/tipos-solicitacao', { params: { query: { pageSize: 1 } } });
  const tipo = tipos.data?.items[0];
  if (!memorando || !tipo) throw new Error('no accepted memorando or tipo de solicitação in the demo data');
  const criada = await client.POST('/api/requisicoes/pre-requisicoes/de-memorando', {
    body: { memorandoId: memorando.id, centroCustoId: memorando.origemId, tipoSolicitacaoId: tipo.id },
  });
  const pre: PreRequisicao | undefined = criada.data;
  const deMemorando = { status: criada.response.status, memorandoId: memorando.id, preRequisicao: pre ? { id: pre.id, status: pre.status } : null };

  // a child of a cotação: invite a supplier to an open cotação (one made from an approved requisição if none is open)
  const abertas = await client.GET('/api/cotacoes/cotacoes', { params: { query: { status: 'rascunho,em_coleta', pageSize: 1 } } });
  let cotacaoId = abertas.data?.items[0]?.id;
  if (!cotacaoId) {
    const aprovadas = await client.GET('/api/cotacoes/requisicoes-aprovadas', { params: { query: { disponiveis: 'true', pageSize: 1 } } });
    const requisicaoId = aprovadas.data?.items[0]?.id;
    if (!requisicaoId) throw new Error('no open cotação and no approved requisição in the demo data');
    const nova = await client.POST('/api/cotacoes/cotacoes/de-requisicao', { body: { requisicaoId } });
    if (!nova.data) throw new Error(\`de-requisicao answered \${nova.response.status} \${JSON.stringify(nova.error)}\`);
    cotacaoId = nova.data.id;
  }
  const fornecedores = await client.GET('/api/cotacoes/fornecedores', { params: { query: { pageSize: 50 } } });
  const convites: { status: number; convite: Convite | null }[] = [];
  for (const fornecedor of fornecedores.data?.items ?? []) {
    const convidado = await client.POST('/api/cotacoes/cotacoes/{id}/fornecedores', {
      params: { path: { id: cotacaoId } },
      body: { fornecedorId: fornecedor.id, motivoEscolha: 'Fornecedor habitual do item.' },
    });
    convites.push({ status: convidado.response.status, convite: convidado.data ?? null });
    if (convidado.data) break;
  }

  // a file: the PDF of a requisição
  const requisicoes = await client.GET('/api/requisicoes/requisicoes', { params: { query: { pageSize: 1 } } });
  const requisicaoId = requisicoes.data?.items[0]?.id;
  if (!requisicaoId) throw new Error('no requisição in the demo data');
  const pdf = await client.GET('/api/requisicoes/requisicoes/{id}.pdf', { params: { path: { id: requisicaoId } }, parseAs: 'arrayBuffer' });
  const bytes = new Uint8Array(pdf.data ?? new ArrayBuffer(0));
  const arquivo = {
    status: pdf.response.status,
    contentType: pdf.response.headers.get('content-type'),
    inicio: String.fromCharCode(...bytes.slice(0, 5)),
  };

  return { lista, deMemorando, convites, cotacaoId, arquivo };
}
`;

type Problem = { ruleId: string; severity: string; message: string; location: { pointer?: string }[] };

describeEachDatabase('/api/openapi.json as a contract', { plugins: serverPlugins }, (t) => {
  let dir: string;
  let http: Server;
  let baseUrl: string;
  let document: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'compras-openapi-client-'));
    document = await (await t.server.request('/api/openapi.json')).text();
    http = await new Promise<Server>((resolve) => {
      const server = serve({ fetch: t.server.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server as Server));
    });
    baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("passes Redocly's recommended lint with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = (await lintFromString({ source: document, absoluteRef: join(dir, 'openapi.json'), config })) as Problem[];
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    expect(errors).toEqual([]);
    // what is left is advice: no license declared, and three public reads (health, version, this document) without a 4xx
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId);
    expect(warnings.filter((rule) => rule === 'operation-operationId')).toEqual([]);
    expect(warnings.length).toBeLessThanOrEqual(4);
  });

  it('gives every operation its own operationId, named by the kit', () => {
    const doc = JSON.parse(document) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId]),
    );
    expect(ids.length).toBeGreaterThan(250);
    expect(ids.filter(([, id]) => !id)).toEqual([]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    expect(Object.fromEntries(ids)).toMatchObject({
      'GET /api/memorandos/memorandos': 'memorandos.memorandos.list',
      'POST /api/memorandos/memorandos': 'memorandos.memorandos.create',
      'GET /api/requisicoes/requisicoes/{id}': 'requisicoes.requisicoes.get',
      'PUT /api/requisicoes/requisicoes/{id}': 'requisicoes.requisicoes.update',
      'DELETE /api/requisicoes/requisicoes/{id}': 'requisicoes.requisicoes.delete',
      'POST /api/requisicoes/requisicoes/{id}/aprovar': 'requisicoes.requisicoes.aprovar',
      'GET /api/requisicoes/requisicoes/{id}.pdf': 'requisicoes.requisicoes.pdf',
      'GET /api/requisicoes/requisicoes/{id}/historico': 'requisicoes.requisicoes.historico',
      'GET /api/memorandos/memorandos/{id}.pdf': 'memorandos.memorandos.pdf',
      'GET /api/registros/tipos-material.csv': 'registros.tiposMaterial.exportCsv',
      'POST /api/registros/grupos/{id}/desativar': 'registros.grupos.desativar',
      'GET /api/requisicoes/centros-custo': 'requisicoes.centrosCusto.list',
      'POST /api/produtos/produtos/importar': 'produtos.produtos.importar',
      'POST /api/requisicoes/pre-requisicoes/de-memorando': 'requisicoes.preRequisicoes.postDeMemorando',
      'GET /api/cotacoes/cotacoes/{id}/memoria.pdf': 'cotacoes.cotacoes.getMemoriaPdf',
      'POST /api/auth/signin': 'core.auth.postSignin',
    });
  });

  it('generates a typed client that tsc accepts and that calls a list, a create-from, a child route and a PDF', async () => {
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
    writeFileSync(join(dir, 'client.ts'), CLIENT_PROGRAM);

    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
      paths: { 'openapi-fetch': [join(dirname(require.resolve('openapi-fetch')), 'index.d.mts')] },
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(diagnostics).toEqual([]);

    // the same program, its types erased, run against this server
    const js = ts.transpileModule(CLIENT_PROGRAM, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    writeFileSync(join(dir, 'client.mjs'), js);
    const { run } = (await import(/* @vite-ignore */ pathToFileURL(join(dir, 'client.mjs')).href)) as {
      run(client: unknown): Promise<{
        lista: { status: number; total: number; itens: number };
        deMemorando: { status: number; memorandoId: string; preRequisicao: { id: string; status: string } | null };
        convites: { status: number; convite: { fornecedorId: string } | null }[];
        cotacaoId: string;
        arquivo: { status: number; contentType: string | null; inicio: string };
      }>;
    };
    // a fixture when the demo data has no accepted memorando left without a pré-requisição: one of its drafts or sent ones accepted
    const { prefeitura } = await t.server.demoEntidades();
    const livre = `m.entidade_id = $1 AND NOT EXISTS (SELECT 1 FROM pre_requisicoes p WHERE p.memorando_id = m.id AND p.status <> 'cancelada')`;
    const [aceito] = await t.server.sql(`SELECT m.id FROM memorandos m WHERE m.status = 'aceito' AND ${livre} LIMIT 1`, [prefeitura]);
    if (!aceito) {
      await t.server.sql(
        `UPDATE memorandos SET status = 'aceito' WHERE id = (SELECT m.id FROM memorandos m WHERE m.status IN ('rascunho', 'enviado') AND ${livre} ORDER BY m.numero LIMIT 1)`,
        [prefeitura],
      );
    }
    const { token } = await t.server.signIn('admin', 'demo1234', prefeitura);
    const client = createClient({ baseUrl, headers: { authorization: `Bearer ${token}` } });
    const result = await run(client);

    expect(result.lista.status).toBe(200);
    expect(result.lista.itens).toBeGreaterThan(0);
    expect(result.lista.total).toBeGreaterThanOrEqual(result.lista.itens);

    expect(result.deMemorando.status).toBe(201);
    expect(result.deMemorando.preRequisicao?.status).toBe('rascunho');
    const [vinculo] = await t.server.sql<{ memorando_id: string }>('SELECT memorando_id FROM pre_requisicoes WHERE id = $1', [
      result.deMemorando.preRequisicao!.id,
    ]);
    expect(vinculo?.memorando_id).toBe(result.deMemorando.memorandoId);

    const convite = result.convites.at(-1)!;
    expect(convite.status).toBe(201);
    const [convidado] = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM cotacao_fornecedores WHERE cotacao_id = $1 AND fornecedor_id = $2', [
      result.cotacaoId,
      convite.convite!.fornecedorId,
    ]);
    expect(convidado?.n).toBe(1);

    expect(result.arquivo).toEqual({ status: 200, contentType: 'application/pdf', inicio: '%PDF-' });
  });
});
