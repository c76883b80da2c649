import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonPasswords } from '../src/platform/password-policy.js';
import { needsRehash, setHashCostForTests, verificationParameters } from '../src/platform/passwords.js';
import { describeEachDatabase } from '../src/testing.js';
import { SENHA_MESSAGES, hashPassword, isCommonPassword, novaSenhaProblem, novaSenhaSchema, verifyPassword } from '../src/index.js';

describe('password policy (OWASP ASVS L2)', () => {
  it('ships about a thousand common passwords, with the Brazilian ones, and reads them once', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(1000);
    expect(commonPasswords()).toBe(list);
    for (const senha of ['senha123', 'mudar123', '12345678', 'brasil123', 'admin123', 'password', 'qwertyuiop', 'flamengo']) {
      expect(isCommonPassword(senha), senha).toBe(true);
    }
    expect(isCommonPassword('Senha123')).toBe(true);
    expect(isCommonPassword('cavalo correto bateria grampo')).toBe(false);
  });

  it('needs 8 characters, accepts up to 128 of any kind, has no composition rules', () => {
    expect(novaSenhaProblem('')).toBe(SENHA_MESSAGES.obrigatoria);
    expect(novaSenhaProblem('abc')).toBe(SENHA_MESSAGES.curta);
    expect(novaSenhaProblem('abcdefg')).toBe(SENHA_MESSAGES.curta);
    expect(novaSenhaProblem('abcdefgh')).toBeNull(); // only lower case letters: fine
    expect(novaSenhaProblem('cavalo correto bateria grampo')).toBeNull(); // spaces: fine
    expect(novaSenhaProblem('á'.repeat(64))).toBeNull();
    expect(novaSenhaProblem('k'.repeat(128))).toBeNull();
    expect(novaSenhaProblem('k'.repeat(129))).toBe(SENHA_MESSAGES.longa);
    // characters as a person counts them: 8 emoji are 8 characters (16 UTF-16 units)
    expect(novaSenhaProblem('🔒'.repeat(8))).toBeNull();
    expect(novaSenhaProblem('🔒'.repeat(7))).toBe(SENHA_MESSAGES.curta);
    expect(SENHA_MESSAGES.curta).toBe('A senha deve ter pelo menos 8 caracteres (recomendamos 15 ou mais).');
  });

  it('refuses a common password and the login itself (any case)', () => {
    expect(novaSenhaProblem('mudar123')).toBe(SENHA_MESSAGES.comum);
    expect(novaSenhaProblem('ADMIN123')).toBe(SENHA_MESSAGES.comum);
    expect(novaSenhaProblem('maria.souza', 'Maria.Souza')).toBe(SENHA_MESSAGES.igualLogin);
    expect(novaSenhaProblem('maria.souza2', 'maria.souza')).toBeNull();
    expect(SENHA_MESSAGES.igualLogin).toBe('A senha não pode ser igual ao login.');
  });

  it('novaSenhaSchema gives the same pt-BR messages', () => {
    expect(novaSenhaSchema.safeParse('cavalo correto bateria grampo').success).toBe(true);
    const short = novaSenhaSchema.safeParse('curta');
    expect(short.success ? null : short.error.issues[0]!.message).toBe(SENHA_MESSAGES.curta);
    const common = novaSenhaSchema.safeParse('senha123');
    expect(common.success ? null : common.error.issues[0]!.message).toBe(SENHA_MESSAGES.comum);
    const missing = novaSenhaSchema.safeParse(undefined);
    expect(missing.success ? null : missing.error.issues[0]!.message).toBe(SENHA_MESSAGES.obrigatoria);
  });
});

// The harness hashes at N=2^10 (testing.ts); these tests are about the production cost, restored here.
const productionCost = () => {
  beforeAll(() => setHashCostForTests(null));
  afterAll(() => setHashCostForTests(2 ** 10));
};

describe('password hashing', () => {
  productionCost();

  it('stores scrypt with its parameters (N=2^17, r=8, p=1) in the hash, so they can be raised later', async () => {
    const hash = await hashPassword('cavalo correto bateria grampo');
    const [alg, n, r, p, salt, key] = hash.split('$');
    expect([alg, n, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(await verifyPassword('cavalo correto bateria grampo', hash)).toBe(true);
    expect(await verifyPassword('cavalo correto bateria grampO', hash)).toBe(false);
  });

  it('verifies a hash made with other parameters, read from the hash itself', async () => {
    const { randomBytes, scryptSync } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('senha antiga e longa', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const older = `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('senha antiga e longa', older)).toBe(true);
    expect(await verifyPassword('outra', older)).toBe(false);
    expect(needsRehash(older)).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });

  it('an unknown login or an unreadable hash is checked against a dummy with the same parameters', () => {
    for (const stored of [null, undefined, '', 'md5$abc', 'scrypt$3$8$1$x$y']) {
      const { parsed, real } = verificationParameters(stored);
      expect(real).toBe(false);
      expect([parsed.n, parsed.r, parsed.p, parsed.key.length]).toEqual([131072, 8, 1, 32]);
    }
  });
});

describe('the test harness', () => {
  it('hashes at N=2^10, read back like any other hash, and not rehashed at sign-in', async () => {
    const hash = await hashPassword('cavalo correto bateria grampo');
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    expect(await verifyPassword('cavalo correto bateria grampo', hash)).toBe(true);
    expect(needsRehash(hash)).toBe(false);
    expect(verificationParameters(null).parsed.n).toBe(1024);
  });
});

describeEachDatabase('raising the hash parameters', {}, (t) => {
  productionCost();

  it('replaces a hash made with older parameters at the next successful sign-in', async () => {
    const { randomBytes, scryptSync } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync('senha antiga e longa', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    await t.server.sql("UPDATE usuarios SET senha_hash = $1 WHERE login = 'consulta'", [
      `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`,
    ]);
    await t.server.signIn('consulta', 'senha antiga e longa');
    const [row] = await t.server.sql<{ senha_hash: string }>("SELECT senha_hash FROM usuarios WHERE login = 'consulta'");
    expect(row!.senha_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    await t.server.signIn('consulta', 'senha antiga e longa');
  });
});
