import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Logger, type MailMessage, type Mailer, silentLogger } from '../src/index.js';
import { smtpMailer } from '../src/platform/mail.js';
import { createTestServer } from '../src/testing.js';
import { fakeSmtp } from './fixtures/smtp.js';
import { adminInPrefeitura } from './fixtures/users.js';

const quotedPrintable = (text: string) =>
  text.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe('e-mail delivery', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('sends through the configured mailer in the background: a slow SMTP never shows in the answer time', async () => {
    const sent: MailMessage[] = [];
    // the SMTP server answers only when the test says so: the 202 must arrive while it still hangs
    let release!: () => void;
    const smtpAnswers = new Promise<void>((resolve) => (release = resolve));
    let sending = 0;
    const slow: Mailer = {
      kind: 'smtp',
      send: async (message) => {
        sending++;
        await smtpAnswers;
        sent.push(message);
      },
    };
    const server = await createTestServer([], { mailer: slow });
    try {
      const res = await server.request('/api/auth/recover', { json: { login: 'admin' } });
      expect(res.status).toBe(202);
      expect(sending).toBe(1);
      expect(sent).toHaveLength(0);
      release();
      await server.close(); // waits for the e-mails still being sent
      expect(sent.map((m) => [m.to, m.subject])).toEqual([['admin@exemplo.gov.br', 'Compras: criar nova senha']]);
      expect(sent[0]!.text).toMatch(/\/recoveryPass\?token=[A-Za-z0-9_-]{43}/);
    } finally {
      release();
      await server.close();
    }
  });

  it('keeps the message in the outbox when sending fails, and logs the error', async () => {
    const errors: string[] = [];
    const logger: Logger = { info: () => undefined, warn: () => undefined, error: (message) => errors.push(message) };
    const broken: Mailer = {
      kind: 'smtp',
      send: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    };
    const server = await createTestServer([], { mailer: broken, logger, recoverMinDurationMs: 0 });
    try {
      await server.request('/api/auth/recover', { json: { login: 'consulta' } });
      await vi.waitFor(async () => {
        const rows = await server.sql<{ to_address: string }>('SELECT to_address FROM outbox');
        expect(rows.map((r) => r.to_address)).toEqual(['consulta@exemplo.gov.br']);
      });
      expect(errors).toEqual(['e-mail to consulta@exemplo.gov.br could not be sent; kept in the outbox']);
      const token = await adminInPrefeitura(server);
      const outbox = (await (await server.request('/api/auth/outbox', { token })).json()) as { total: number };
      expect(outbox.total).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses to start with SMTP_URL but no SMTP_FROM', async () => {
    vi.stubEnv('SMTP_URL', 'smtp://127.0.0.1:2525');
    vi.stubEnv('SMTP_FROM', '');
    await expect(createTestServer([], { seed: false })).rejects.toThrow(/SMTP_FROM .* must be set with SMTP_URL/);
  });

  it('says so at start when SMTP_URL is set and nodemailer cannot be loaded, or has no createTransport', async () => {
    // nodemailer is a dependency, so its absence is simulated with the loader smtpMailer takes
    const missing = () => Promise.reject(new Error("Cannot find package 'nodemailer' imported from mail.js"));
    await expect(smtpMailer('smtp://127.0.0.1:2525', 'Compras <nao-responda@exemplo.gov.br>', silentLogger, missing)).rejects.toThrow(
      "SMTP_URL is set but the nodemailer package cannot be loaded: Cannot find package 'nodemailer' imported from mail.js",
    );
    await expect(smtpMailer('smtp://127.0.0.1:2525', 'Compras <nao-responda@exemplo.gov.br>', silentLogger, async () => ({ default: {} }))).rejects.toThrow(
      'SMTP_URL is set but nodemailer has no createTransport().',
    );
    // the real package loads
    expect((await smtpMailer('smtp://127.0.0.1:2525', 'Compras <nao-responda@exemplo.gov.br>', silentLogger)).kind).toBe('smtp');
  });

  it('sends the recovery e-mail through SMTP (nodemailer) when SMTP_URL and SMTP_FROM are set', async () => {
    const smtp = await fakeSmtp();
    vi.stubEnv('SMTP_URL', `smtp://127.0.0.1:${smtp.port}`);
    vi.stubEnv('SMTP_FROM', 'Compras <nao-responda@exemplo.gov.br>');
    const server = await createTestServer([], { publicUrl: 'https://compras.exemplo.gov.br', recoverMinDurationMs: 0 });
    try {
      expect((await server.request('/api/auth/recover', { json: { login: 'admin' } })).status).toBe(202);
      await vi.waitFor(() => expect(smtp.messages).toHaveLength(1), { timeout: 10_000 });
      const message = quotedPrintable(smtp.messages[0]!);
      expect(message).toMatch(/^From: Compras <nao-responda@exemplo\.gov\.br>$/m);
      expect(message).toMatch(/^To: admin@exemplo\.gov\.br$/m);
      expect(message).toMatch(/https:\/\/compras\.exemplo\.gov\.br\/recoveryPass\?token=[A-Za-z0-9_-]{43}/);
      expect(await server.sql('SELECT 1 FROM outbox')).toEqual([]);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});
