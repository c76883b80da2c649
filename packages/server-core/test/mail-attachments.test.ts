// Files sent with an e-mail (MailMessage.attachments): kept in the outbox (outbox_anexos), listed by
// name, type and size at GET /api/auth/outbox and downloaded at GET /api/auth/outbox/:id/anexos/:ordem
// (the same reader rule, audited); sent as nodemailer attachments through SMTP; over the limits, the
// mutation that sends them fails (nothing written).
import { z } from 'zod';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Logger, MAIL_ATTACHMENTS_MAX, MAIL_ATTACHMENTS_MAX_BYTES, type MailAttachment, defineServerPlugin, sendMail } from '../src/index.js';
import { createTestServer, describeEachDatabase } from '../src/testing.js';
import { fakeSmtp } from './fixtures/smtp.js';
import { addUser, adminInPrefeitura } from './fixtures/users.js';

const ANEXOS_TAG = 3;

/** POST /api/anexos-teste/enviar: one e-mail (to no user) with the files described in the body. */
const anexosPlugin = defineServerPlugin({
  id: 'anexos-teste',
  version: '0.1.0',
  core: '^1.0.0',
  tags: [],
  routes(router) {
    router.route({
      method: 'post',
      path: '/enviar',
      tag: ANEXOS_TAG,
      summary: 'Enviar um e-mail com anexos',
      request: {
        body: z.object({
          to: z.string(),
          arquivos: z.array(z.object({ nome: z.string(), tipo: z.string(), texto: z.string().optional(), bytes: z.number().int().optional() })),
        }),
      },
      responses: { 200: z.object({ ok: z.boolean() }) },
      handler: async (c, ctx) => {
        const { to, arquivos } = c.req.valid('json');
        const attachments: MailAttachment[] = arquivos.map((a) => ({
          filename: a.nome,
          contentType: a.tipo,
          content: a.bytes === undefined ? Buffer.from(a.texto ?? '', 'utf8') : new Uint8Array(a.bytes),
        }));
        await ctx.mutate(async (tx, audit) => {
          audit({ acao: 'enviar', registro: null, depois: { to } });
          sendMail(tx, { to, usuarioId: null, subject: 'Com anexos', text: 'Segue o formulário.', attachments });
        });
        return c.json({ ok: true }, 200);
      },
    });
  },
});

/** Errors the server logged (the refused e-mails), kept to assert on. */
const logged: string[] = [];
const logger: Logger = { info: () => undefined, warn: () => undefined, error: (_message, err) => logged.push((err as Error).message) };

type Outbox = { items: { id: string; to: string; anexos: { ordem: number; nome: string; tipo: string; tamanho: number }[] }[]; total: number };

describeEachDatabase('e-mail attachments in the outbox', { plugins: [anexosPlugin], logger }, (t) => {
  let admin = '';
  beforeAll(async () => {
    admin = await adminInPrefeitura(t.server);
  });

  const enviar = (json: unknown) => t.server.request('/api/anexos-teste/enviar', { token: admin, json });
  const outbox = async (q: string, token = admin): Promise<Outbox> => {
    const res = await t.server.request(`/api/auth/outbox?q=${encodeURIComponent(q)}`, { token });
    expect(res.status).toBe(200);
    return (await res.json()) as Outbox;
  };

  it('keeps the files with the message, lists them by name, type and size, and downloads each one (audited)', async () => {
    const res = await enviar({
      to: 'fornecedor@exemplo.com',
      arquivos: [
        { nome: 'formulario cotação 12/2026.xlsx', tipo: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', texto: 'planilha' },
        { nome: 'instruções\u202Efdp.pdf', tipo: 'application/pdf', texto: '%PDF-1.7 conteúdo' },
      ],
    });
    expect(res.status).toBe(200);
    const { items } = await outbox('fornecedor@');
    expect(items).toHaveLength(1);
    // the names as cleanFileName leaves them: no folders, no bidirectional controls
    expect(items[0]!.anexos).toEqual([
      { ordem: 1, nome: '2026.xlsx', tipo: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', tamanho: 8 },
      { ordem: 2, nome: 'instruçõesfdp.pdf', tipo: 'application/pdf', tamanho: Buffer.byteLength('%PDF-1.7 conteúdo') },
    ]);
    const id = items[0]!.id;
    const file = await t.server.request(`/api/auth/outbox/${id}/anexos/2`, { token: admin });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''instru%C3%A7%C3%B5esfdp.pdf");
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).toString('utf8')).toBe('%PDF-1.7 conteúdo');
    // a workbook is never served as what it claims: always a download
    const xlsx = await t.server.request(`/api/auth/outbox/${id}/anexos/1`, { token: admin });
    expect(xlsx.headers.get('content-type')).toBe('application/octet-stream');
    expect(await xlsx.text()).toBe('planilha');
    const audited = await t.server.sql<{ depois: Record<string, unknown> }>(
      "SELECT depois FROM audit_log WHERE acao = 'caixa_saida_consultada' AND depois ? 'anexo' ORDER BY id",
    );
    expect(audited.map((r) => r.depois.anexo)).toEqual(['instruçõesfdp.pdf', '2026.xlsx']);
    // nothing else answers: another position, a malformed id or position, a message without files
    for (const path of [`${id}/anexos/3`, `${id}/anexos/0`, `${id}/anexos/x`, 'abc/anexos/1', '99999999/anexos/1']) {
      const other = await t.server.request(`/api/auth/outbox/${path}`, { token: admin });
      expect(other.status, path).toBe(404);
    }
  });

  it('a message without files lists none', async () => {
    expect((await enviar({ to: 'sem-anexo@exemplo.com', arquivos: [] })).status).toBe(200);
    expect((await outbox('sem-anexo@')).items[0]!.anexos).toEqual([]);
  });

  it('the files follow the reader rule of the message: an administrator of one entidade only downloads nothing for no user', async () => {
    await addUser(t.server, 'chefe-anexos', { perfil: 'Administrador' });
    const chefe = (await t.server.signIn('chefe-anexos', 'demo1234')).token;
    const id = (await outbox('fornecedor@')).items[0]!.id;
    expect((await outbox('fornecedor@', chefe)).total).toBe(0);
    expect((await t.server.request(`/api/auth/outbox/${id}/anexos/1`, { token: chefe })).status).toBe(404);
  });

  it('over the limits (count, total size, a type that is not one), the mutation fails and nothing is written', async () => {
    const before = await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
    const muitos = Array.from({ length: MAIL_ATTACHMENTS_MAX + 1 }, (_, i) => ({ nome: `a${i}.pdf`, tipo: 'application/pdf', texto: 'x' }));
    const grandes = [
      { nome: 'a.pdf', tipo: 'application/pdf', bytes: MAIL_ATTACHMENTS_MAX_BYTES - 10 },
      { nome: 'b.pdf', tipo: 'application/pdf', bytes: 11 },
    ];
    logged.length = 0;
    for (const arquivos of [muitos, grandes, [{ nome: 'a.pdf', tipo: 'pdf', texto: 'x' }]]) {
      expect((await enviar({ to: 'limite@exemplo.com', arquivos })).status).toBe(500);
    }
    expect(logged).toEqual([
      `e-mail to limite@exemplo.com: ${MAIL_ATTACHMENTS_MAX + 1} attachments, at most ${MAIL_ATTACHMENTS_MAX}.`,
      `e-mail to limite@exemplo.com: attachments of ${MAIL_ATTACHMENTS_MAX_BYTES + 1} bytes, at most ${MAIL_ATTACHMENTS_MAX_BYTES}.`,
      "e-mail to limite@exemplo.com: attachment type 'pdf' is not a media type.",
    ]);
    expect(await t.server.sql<{ n: number }>('SELECT count(*)::int AS n FROM outbox')).toEqual(before);
    expect(await t.server.sql("SELECT 1 FROM audit_log WHERE acao = 'enviar' AND depois->>'to' = 'limite@exemplo.com'")).toEqual([]);
  });
});

describe('e-mail attachments through SMTP', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends the files as MIME attachments (nodemailer), nothing in the outbox', async () => {
    const smtp = await fakeSmtp();
    vi.stubEnv('SMTP_URL', `smtp://127.0.0.1:${smtp.port}`);
    vi.stubEnv('SMTP_FROM', 'Compras <nao-responda@exemplo.gov.br>');
    const server = await createTestServer([anexosPlugin], {});
    try {
      const admin = await adminInPrefeitura(server);
      const res = await server.request('/api/anexos-teste/enviar', {
        token: admin,
        json: { to: 'fornecedor@exemplo.com', arquivos: [{ nome: 'formulario-cotacao-1-2026.xlsx', tipo: 'application/octet-stream', texto: 'planilha' }] },
      });
      expect(res.status).toBe(200);
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1), { timeout: 10_000 });
      const message = smtp.messages[0]!;
      expect(message).toMatch(/^Content-Type: multipart\/mixed;/m);
      expect(message).toMatch(/^Content-Disposition: attachment;\s*filename=formulario-cotacao-1-2026\.xlsx$/m);
      expect(message).toContain(Buffer.from('planilha').toString('base64'));
      expect(await server.sql('SELECT 1 FROM outbox')).toEqual([]);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});
